/// The horizontal direction of a layout: right-to-left mirrors every frame, column 0 being the rightmost.
public enum LayoutDirection: String, Hashable, Sendable, CaseIterable {
    /// Column 0 is the leftmost.
    case leftToRight
    /// Column 0 is the rightmost.
    case rightToLeft
}
