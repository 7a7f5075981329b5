/// One laid-out page of a waterfall section.
public struct WaterfallPage: Hashable, Sendable {
    /// The geometry used (column count and width in pixels, among others).
    public var geometry: WaterfallGeometry
    /// The items laid out, in input order.
    public var items: PlacedItems
    /// For each column, the indices (in the section) of its items on this page, top to bottom.
    public var columnItems: [[Int]]
    /// For each column, the y of its bottom edge in pixels (the top inset when it has no item yet).
    public var columnHeights: [Int]
    /// The height of the whole section so far in pixels, bottom inset included.
    public var contentHeight: Int
    /// Where to continue, for append-stable strategies; `nil` for strategies that lay out whole sections.
    public var continuation: Continuation?
}
