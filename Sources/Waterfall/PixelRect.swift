/// A frame in whole device pixels; divide by the scale for points.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width, > 0.
    public var width: Int
    /// Height, > 0.
    public var height: Int

    /// Creates a frame.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// One past the bottom edge.
    public var maxY: Int { y + height }
    /// One past the right edge.
    public var maxX: Int { x + width }

    /// Whether the two frames share any pixel.
    public func intersects(_ other: PixelRect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// `(x, y, width × height)`.
    public var description: String { "(\(x), \(y), \(width)×\(height))" }
}
