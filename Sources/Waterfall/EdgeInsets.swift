/// Insets around a section's columns, in points. Leading and trailing follow the layout direction.
public struct EdgeInsets: Hashable, Sendable {
    /// Space above the first items.
    public var top: Double
    /// Space before the leading column (left in left-to-right layouts).
    public var leading: Double
    /// Space below the last items.
    public var bottom: Double
    /// Space after the trailing column (right in left-to-right layouts).
    public var trailing: Double

    /// Creates insets, zero unless given.
    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }
}
