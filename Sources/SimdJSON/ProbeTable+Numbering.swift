extension ProbeTable {
    /// Numbers the probes' member scalars (``JSONProbe/memberNumber``, written over each probe's hash, which only
    /// this numbering reads: no array a probe is kept beside the records): two probes have the same number
    /// exactly when their scalars are the same (both integers of one value, or both strings of the same unescaped
    /// bytes), counting from 0 in order of first appearance.
    ///
    /// An open-addressing table with linear probing, at most half full, keyed by the walk's hash of each scalar
    /// (``JSONProbe/memberHash``, seeded by the caller). Scalars crafted to collide whatever the seed cannot make
    /// it quadratic: when the probes past the first slot exceed a budget that chance essentially never reaches
    /// (well under one per probe on average at this load), the numbering starts again keyed by Swift's `Hasher`
    /// (SipHash, seeded per process, whose collisions cannot be known outside the process). A probe that repeats
    /// an earlier one byte for byte (``JSONProbe/repeatOf``) takes its number without hashing.
    ///
    /// - Parameters:
    ///   - text: The text walked, which holds the strings written without escapes.
    ///   - unescaped: The unescaped bytes of the strings written with escapes (``WalkResult/unescaped``).
    /// - Complexity: O(*n*) for *n* probes, plus the hashing of their scalars when the walk's hash is given up.
    package func numberMembers(text: [UInt8], unescaped: [UInt8]) {
        let table = MemberTable(probes: self, text: text, unescaped: unescaped)
        if !table.number(keyedBy: .walk, budget: 4 * count + 64) { _ = table.number(keyedBy: .sip, budget: nil) }
    }
}

/// The numbering of ``ProbeTable/numberMembers(text:unescaped:)``, reading and writing the probe records in place.
private struct MemberTable {
    let probes: ProbeTable
    let text: [UInt8]
    let unescaped: [UInt8]

    /// The hash a table is keyed by.
    enum Key {
        /// The walk's (``JSONProbe/memberHash``, 32 bits: tag and slot share them).
        case walk
        /// Swift's `Hasher` (64 bits: the high half is the tag, the low half picks the slot).
        case sip
    }

    /// Numbers the probes with a table keyed by `key`; false when the probes past the first slot exceed `budget`
    /// (the numbers written so far are then to be written again: a probe's hash may already be its number, so
    /// only a table keyed by ``Key/sip``, which does not read them, may follow).
    func number(keyedBy key: Key, budget: Int?) -> Bool {
        let count = probes.count
        // Twice as many slots as probes, not rounded up to a power of two (which costs up to twice the memory):
        // the slot is the hash's low half scaled to the capacity. A slot holds the tag and 1 + the index of the
        // first probe of its scalar; 0 is free.
        let capacity = max(16, 2 * count)
        var budget = budget ?? .max
        // (On the stack when it fits there, as a small request's table does: no allocation.)
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: capacity) { slots in
            slots.initialize(repeating: 0)
            var next: UInt32 = 0
            for index in 0 ..< count {
                if let earlier = probes.repeatOf(at: index) {
                    probes.setMemberNumber(probes.memberNumber(at: earlier), at: index)
                    continue
                }
                let hash = key == .walk ? UInt64(probes.memberHash(at: index)) : sipHash(probes[index].member)
                let tag = key == .walk ? hash : hash >> 32
                var slot = Int(((hash & 0xFFFF_FFFF) &* UInt64(capacity)) >> 32)
                while true {
                    let entry = slots[slot]
                    if entry == 0 {
                        slots[slot] = tag << 32 | UInt64(index + 1)
                        probes.setMemberNumber(next, at: index)
                        next += 1
                        break
                    }
                    let first = Int(entry & 0xFFFF_FFFF) - 1
                    if entry >> 32 == tag && same(first, index) {
                        probes.setMemberNumber(probes.memberNumber(at: first), at: index)
                        break
                    }
                    budget -= 1
                    if budget < 0 { return false }
                    slot = slot + 1 == capacity ? 0 : slot + 1
                }
            }
            return true
        }
    }

    /// The bytes of a string scalar.
    @inline(__always)
    private func bytes(_ scalar: JSONScalar) -> ArraySlice<UInt8> {
        if case .stringInText = scalar.kind { return text[scalar.place] }
        return unescaped[scalar.place]
    }

    /// Swift's `Hasher`'s hash of a scalar: of its value for an integer, of its unescaped bytes for a string
    /// (wherever they lie).
    private func sipHash(_ scalar: JSONScalar) -> UInt64 {
        if case .integer = scalar.kind {
            var hasher = Hasher()
            hasher.combine(scalar.packed)
            return UInt64(UInt(bitPattern: hasher.finalize()))
        }
        return SimdJSONParser.hash(bytes(scalar))
    }

    /// Whether the scalars of probes `a` and `b` are the same: both integers of one value, or both strings of the
    /// same bytes.
    @inline(__always)
    private func same(_ a: Int, _ b: Int) -> Bool {
        let x = probes.member(at: a), y = probes.member(at: b)
        switch (x.kind, y.kind) {
        case (.integer, .integer): return x.packed == y.packed
        case (.integer, _), (_, .integer): return false
        default: return x.place.count == y.place.count && bytesEqual(bytes(x), bytes(y))
        }
    }
}
