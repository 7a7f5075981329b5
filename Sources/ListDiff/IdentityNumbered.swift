/// A ``Differentiable`` element whose identity also comes as a small number, so that matching two snapshots
/// indexes an array instead of hashing every identifier.
///
/// Conform when something has already numbered the identifiers of the two snapshots diffed together — a parser
/// that interns ids while it reads both, say. ``SectionedDifference`` then matches elements by number and gives
/// exactly the difference it gives by hashing ``Differentiable/differenceIdentifier``.
///
/// The numbering must be consistent over **both** snapshots passed to one diff: two elements have the same
/// non-negative ``identityNumber`` exactly when their ``Differentiable/differenceIdentifier``s are equal. A
/// negative number means "not numbered": if any element has one, the diff hashes identifiers as usual. Numbers
/// should be dense (`0 ..< distinct ids`): the matching allocates one slot per number up to the largest, and
/// hashes instead when the largest number is far above the element count.
///
/// ```swift
/// struct Row: IdentityNumbered {
///     var id: String
///     var title: String
///     var identityNumber: Int  // the index of `id` in the interning table both snapshots were read with
///     var differenceIdentifier: String { id }
///     func isContentEqual(to source: Row) -> Bool { title == source.title }
/// }
/// ```
public protocol IdentityNumbered: Differentiable {
    /// The number of ``Differentiable/differenceIdentifier`` (from 0), or a negative number when it has none.
    var identityNumber: Int { get }

    /// A number shared only by elements whose contents are equal, or a negative number when none is known
    /// (the default): two matched elements with the same non-negative number are taken as unchanged without
    /// calling ``Differentiable/isContentEqual(to:)``. Elements with different numbers are still compared.
    ///
    /// A parser can give an element the number of the first element written with the very same text, say:
    /// most elements of two snapshots diffed together are unchanged, byte for byte.
    var contentNumber: Int { get }
}

extension IdentityNumbered {
    /// No content number: matched elements are always compared with ``Differentiable/isContentEqual(to:)``.
    public var contentNumber: Int { -1 }
}
