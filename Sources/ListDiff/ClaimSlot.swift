/// A ``Claim`` in one `Int`, so that a table of claims is a plain `[Int]` or `[ID: Int]` in memory.
///
/// The encoding is known to this type only: ``Claim/unclaimed`` is `Int.min`, ``Claim/source(_:)`` its flat
/// index (≥ 0), and ``Claim/target(_:)`` `-2 - flat` (≤ -2).
@usableFromInline @frozen
struct ClaimSlot {
    @usableFromInline var encoded: Int

    /// A slot holding `claim`.
    @inlinable @inline(__always)
    init(_ claim: Claim) {
        switch claim {
        case .unclaimed: encoded = .min
        case .source(let flat):
            assert(flat >= 0, "a negative flat index")
            encoded = flat
        case .target(let flat):
            assert(flat >= 0, "a negative flat index")
            encoded = -2 - flat
        }
    }

    /// The claim the slot holds.
    @inlinable @inline(__always)
    var claim: Claim {
        if encoded >= 0 { return .source(encoded) }
        return encoded == .min ? .unclaimed : .target(-2 - encoded)
    }

    /// Records `claim` when the slot is unclaimed, and returns what the slot held before: a find-or-insert in
    /// one lookup (through `Dictionary.subscript(_:default:)`'s in-place accessor).
    @inlinable @inline(__always)
    mutating func claim(_ claim: Claim) -> Claim {
        let previous = self.claim
        if encoded == .min { self = ClaimSlot(claim) }
        return previous
    }
}
