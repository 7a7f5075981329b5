/// An index, or none: what an `Int?` says, in 4 bytes (an `[Int?]` takes 16 a value), for the per-section and
/// per-element tables of ``Matching`` and ``SectionedDifference``: a diff holds several per element, so their
/// size is much of a large diff's memory. Snapshots of 2^31 elements or more are refused (``SectionedDifference``).
///
/// The encoding (-1 for none) is known to this type only.
@usableFromInline @frozen
struct OptionalIndex: Hashable, Sendable {
    @usableFromInline let encoded: Int32

    /// The index `index`.
    ///
    /// - Precondition: `index` is not negative, and below 2^31 (checked in debug builds; the diff checks its
    ///   snapshots' sizes once).
    @inlinable @inline(__always)
    init(_ index: Int) {
        assert(index >= 0 && index <= Int(Int32.max), "an index outside 0 ..< 2^31")
        encoded = Int32(truncatingIfNeeded: index)
    }

    @inlinable @inline(__always)
    init(encoded: Int32) {
        self.encoded = encoded
    }

    /// No index: no counterpart with the same id, or nothing left after the deletions.
    @inlinable
    static var absent: OptionalIndex { OptionalIndex(encoded: -1) }

    /// The index, or `nil`.
    @inlinable @inline(__always)
    var index: Int? { encoded >= 0 ? Int(encoded) : nil }

    /// The index, where the table's invariants say there is one (checked in debug builds only).
    @inlinable @inline(__always)
    var present: Int {
        assert(encoded >= 0, "no index")
        return Int(encoded)
    }

    /// Whether there is no index.
    @inlinable @inline(__always)
    var isAbsent: Bool { encoded < 0 }
}
