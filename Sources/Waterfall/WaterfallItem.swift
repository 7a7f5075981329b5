/// One item to lay out: its size, an optional extra height (a caption under the photo), and whether it
/// spans the full width (a header or an ad) instead of one column.
public struct WaterfallItem: Hashable, Sendable {
    /// The item's size rule.
    public var size: ItemSize
    /// Extra height in points added below the sized content (a caption), ≥ 0.
    public var extraHeight: ExactDecimal
    /// Whether the item spans every column; it then starts below the tallest column.
    public var isFullWidth: Bool

    /// Creates an item.
    ///
    /// - Parameters:
    ///   - size: The size rule.
    ///   - extraHeight: Extra height in points below the content.
    ///   - isFullWidth: Whether the item spans every column.
    public init(size: ItemSize, extraHeight: ExactDecimal = 0, isFullWidth: Bool = false) {
        self.size = size
        self.extraHeight = extraHeight
        self.isFullWidth = isFullWidth
    }
}
