/// Where the layout put one item.
public struct PlacedItem: Hashable, Sendable {
    /// The item's index in the section (counting every page before this one).
    public var index: Int
    /// The column (0 = leading), or `nil` for a full-width item.
    public var column: Int?
    /// The item's frame in device pixels.
    public var frame: PixelRect

    /// Creates a placement.
    public init(index: Int, column: Int?, frame: PixelRect) {
        self.index = index
        self.column = column
        self.frame = frame
    }
}
