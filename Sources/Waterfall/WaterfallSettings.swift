/// Everything that decides a waterfall layout except the items: container, columns, spacing, direction
/// and strategy. Lengths are in points; the layout works in device pixels (points × ``scale``).
public struct WaterfallSettings: Hashable, Sendable {
    /// The width of the container (the collection view), in points.
    public var containerWidth: ExactDecimal
    /// The display scale: device pixels per point (1, 2 or 3 on iOS).
    public var scale: ExactDecimal
    /// How many columns.
    public var columns: ColumnRule
    /// Horizontal space between two columns, in points.
    public var columnSpacing: ExactDecimal
    /// Vertical space between two items of a column (and around full-width items), in points.
    public var itemSpacing: ExactDecimal
    /// Insets around the columns, in points.
    public var insets: EdgeInsets
    /// Left-to-right or mirrored.
    public var direction: LayoutDirection
    /// How items are assigned to columns.
    public var strategy: LayoutStrategy

    /// Creates settings; ``WaterfallGeometry/init(_:)`` validates them.
    public init(
        containerWidth: ExactDecimal, scale: ExactDecimal = 1, columns: ColumnRule = .count(2), columnSpacing: ExactDecimal = 0,
        itemSpacing: ExactDecimal = 0, insets: EdgeInsets = EdgeInsets(), direction: LayoutDirection = .leftToRight,
        strategy: LayoutStrategy = .shortestColumn
    ) {
        self.containerWidth = containerWidth
        self.scale = scale
        self.columns = columns
        self.columnSpacing = columnSpacing
        self.itemSpacing = itemSpacing
        self.insets = insets
        self.direction = direction
        self.strategy = strategy
    }
}
