/// An index, or none: what an `Int?` says, in the 8 bytes of an `Int` (an `[Int?]` takes 16 a value), for
/// the per-section and per-element tables of ``Matching`` and ``SectionedDifference``.
///
/// The encoding (-1 for none) is known to this type only.
@usableFromInline @frozen
struct OptionalIndex: Hashable, Sendable {
    @usableFromInline let encoded: Int

    /// The index `index`.
    ///
    /// - Precondition: `index` is not negative.
    @inlinable @inline(__always)
    init(_ index: Int) {
        assert(index >= 0, "a negative index")
        encoded = index
    }

    @inlinable @inline(__always)
    init(encoded: Int) {
        self.encoded = encoded
    }

    /// No index: no counterpart with the same id, or nothing left after the deletions.
    @inlinable
    static var absent: OptionalIndex { OptionalIndex(encoded: -1) }

    /// The index, or `nil`.
    @inlinable @inline(__always)
    var index: Int? { encoded >= 0 ? encoded : nil }

    /// The index, where the table's invariants say there is one (checked in debug builds only).
    @inlinable @inline(__always)
    var present: Int {
        assert(encoded >= 0, "no index")
        return encoded
    }

    /// Whether there is no index.
    @inlinable @inline(__always)
    var isAbsent: Bool { encoded < 0 }
}
