/// A ready-made section: a differentiable model and an array of elements.
///
/// Use it when the section's model type does not carry its elements itself:
///
/// ```swift
/// let old = [ArraySection(model: "news", elements: ["a", "b"])]
/// let new = [ArraySection(model: "news", elements: ["b", "a", "c"])]
/// let difference = try SectionedDifference(from: old, to: new)
/// ```
public struct ArraySection<Model: Differentiable, Element: Differentiable>: DifferentiableSection {
    /// The section's model; its identity identifies the section.
    public var model: Model

    /// The section's elements, in display order.
    public var elements: [Element]

    /// Creates a section from a model and its elements.
    ///
    /// - Parameters:
    ///   - model: The section's model.
    ///   - elements: The section's elements, in display order.
    public init(model: Model, elements: [Element]) {
        self.model = model
        self.elements = elements
    }

    /// The identity of the section: its model's identity.
    public var differenceIdentifier: Model.DifferenceIdentifier { model.differenceIdentifier }

    /// Whether the section's model looks the same as `source`'s; elements are not compared.
    ///
    /// - Parameter source: The section with the same identity in the source snapshot.
    /// - Returns: Whether the models' contents are equal.
    public func isContentEqual(to source: Self) -> Bool { model.isContentEqual(to: source.model) }
}

extension ArraySection: Sendable where Model: Sendable, Element: Sendable {}
extension ArraySection: Equatable where Model: Equatable, Element: Equatable {}
