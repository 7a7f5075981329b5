/// A section of a sectioned list: a differentiable model of its own plus its ordered elements.
///
/// The section's ``Differentiable/differenceIdentifier`` matches sections across snapshots;
/// ``Differentiable/isContentEqual(to:)`` compares the section's own content (a header title, say) and must
/// **not** look at ``elements``: element changes are reported element by element.
public protocol DifferentiableSection: Differentiable {
    /// The type of the section's elements.
    associatedtype Element: Differentiable

    /// The section's elements, in display order.
    var elements: [Element] { get }
}
