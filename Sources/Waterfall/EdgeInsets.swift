/// Insets around a section's columns, in points. Leading and trailing follow the layout direction.
public struct EdgeInsets: Hashable, Sendable {
    /// Space above the first items.
    public var top: ExactDecimal
    /// Space before the leading column (left in left-to-right layouts).
    public var leading: ExactDecimal
    /// Space below the last items.
    public var bottom: ExactDecimal
    /// Space after the trailing column (right in left-to-right layouts).
    public var trailing: ExactDecimal

    /// Creates insets, zero unless given.
    public init(top: ExactDecimal = 0, leading: ExactDecimal = 0, bottom: ExactDecimal = 0, trailing: ExactDecimal = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }
}
