extension ProbeTable {
    /// The number of each probe's member scalar, by probe index: two probes have the same number exactly when
    /// their scalars are the same (both integers of one value, or both strings of the same unescaped bytes),
    /// counting from 0 in order of first appearance.
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
    package func memberNumbers(text: [UInt8], unescaped: [UInt8]) -> [Int32] {
        let table = MemberTable(probes: self, text: text, unescaped: unescaped)
        return table.numbers(keyedBy: .walk, budget: 4 * count + 64) ?? table.numbers(keyedBy: .sip, budget: nil)!
    }
}

/// The numbering of ``ProbeTable/memberNumbers(text:unescaped:)``, reading the probe records in place.
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

    /// The numbers, from a table keyed by `key`; `nil` when the probes past the first slot exceed `budget`.
    func numbers(keyedBy key: Key, budget: Int?) -> [Int32]? {
        let count = probes.count
        var numbers = [Int32](repeating: 0, count: count)
        // Twice as many slots as probes, not rounded up to a power of two (which costs up to twice the memory):
        // the slot is the hash's low half scaled to the capacity. A slot holds the tag and 1 + the index of the
        // first probe of its scalar; 0 is free.
        let capacity = max(16, 2 * count)
        var slots = [UInt64](repeating: 0, count: capacity)
        var budget = budget ?? .max
        let complete = numbers.withUnsafeMutableBufferPointer { numbers in
            slots.withUnsafeMutableBufferPointer { slots in
                var next: Int32 = 0
                for index in 0 ..< count {
                    if let earlier = probes.repeatOf(at: index) {
                        numbers[index] = numbers[earlier]
                        continue
                    }
                    let hash = key == .walk ? UInt64(probes.memberHash(at: index)) : sipHash(probes[index].member)
                    let tag = key == .walk ? hash : hash >> 32
                    var slot = Int(((hash & 0xFFFF_FFFF) &* UInt64(capacity)) >> 32)
                    while true {
                        let entry = slots[slot]
                        if entry == 0 {
                            slots[slot] = tag << 32 | UInt64(index + 1)
                            numbers[index] = next
                            next += 1
                            break
                        }
                        let first = Int(entry & 0xFFFF_FFFF) - 1
                        if entry >> 32 == tag && same(first, index) {
                            numbers[index] = numbers[first]
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
        return complete ? numbers : nil
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
