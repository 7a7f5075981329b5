/// How many columns a waterfall layout has.
public enum ColumnRule: Hashable, Sendable {
    /// Exactly this many columns (1 … ``WaterfallGeometry/maximumColumnCount``).
    case count(Int)
    /// As many columns as fit with at least this width in points, at most `maximumCount` if given.
    case minimumWidth(ExactDecimal, maximumCount: Int? = nil)
}
