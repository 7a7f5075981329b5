/// A value that has a stable identity and a content that can change.
///
/// The identity says *which* element a value is; the content says *what it looks like*. Two values with the
/// same ``differenceIdentifier`` and unequal content are one element that was **updated**, not a deletion
/// and an insertion. This mirrors DifferenceKit's protocol of the same name, so types that already conform
/// there conform here with the same two members.
///
/// ```swift
/// struct Photo: Differentiable {
///     var id: String
///     var likes: Int
///     var differenceIdentifier: String { id }
///     func isContentEqual(to source: Photo) -> Bool { likes == source.likes }
/// }
/// ```
public protocol Differentiable {
    /// The type of the identity. It must be `Sendable` so that errors naming duplicate ids can cross
    /// concurrency domains.
    associatedtype DifferenceIdentifier: Hashable & Sendable

    /// The identity of the value: equal identifiers denote the same element in two snapshots.
    var differenceIdentifier: DifferenceIdentifier { get }

    /// Whether this value looks the same as `source`, a value with the same identity in the older snapshot.
    ///
    /// - Parameter source: The value with the same ``differenceIdentifier`` in the source snapshot.
    /// - Returns: `true` when no update needs to be shown.
    func isContentEqual(to source: Self) -> Bool
}

extension Differentiable where Self: Hashable & Sendable {
    /// A hashable value is its own identity by default.
    public var differenceIdentifier: Self { self }
}

extension Differentiable where Self: Equatable {
    /// An equatable value's content is equal when the values are equal.
    ///
    /// - Parameter source: The value with the same identity in the source snapshot.
    /// - Returns: `self == source`.
    public func isContentEqual(to source: Self) -> Bool { self == source }
}

extension String: Differentiable {}
extension Int: Differentiable {}
