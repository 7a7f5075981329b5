/// How tall a waterfall item is, given the width it gets.
public enum ItemSize: Hashable, Sendable {
    /// Width ÷ height of the content (a photo's aspect ratio); height = ⌊width ÷ ratio⌋ pixels.
    case aspectRatio(ExactDecimal)
    /// The content's own width and height (any unit); scaled to the width the item gets:
    /// height = ⌊height × width ÷ modelWidth⌋ pixels.
    case size(width: ExactDecimal, height: ExactDecimal)
    /// A fixed height in points, whatever the width.
    case fixedHeight(ExactDecimal)
}
