/// A size value of a ``WaterfallItem`` that the engine checks.
public enum ItemSizeField: Hashable, Sendable {
    /// ``ItemSize/aspectRatio(_:)``.
    case aspectRatio
    /// The width of ``ItemSize/size(width:height:)`` (or its ratio to the height).
    case width
    /// The height of ``ItemSize/size(width:height:)``.
    case height
    /// ``ItemSize/fixedHeight(_:)``.
    case fixedHeight
    /// ``WaterfallItem/extraHeight``.
    case extraHeight
}
