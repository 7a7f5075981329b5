internal import SimdJSON

/// The numbers of the ids of a request's items (``WireItem/identityNumber``): two items have the same number
/// exactly when they have the same id, counting from 0 in order of first appearance over both snapshots, in the
/// order the walk probed them.
///
/// An open-addressing table with linear probing, at most half full, keyed by Swift's `Hasher` (SipHash, seeded
/// per process): which ids collide cannot be known outside the process, so ids crafted to collide cost no more
/// than any others. An item that repeats an earlier one byte for byte (``ProbeTable/repeatOf(_:)``) takes its
/// number without hashing.
enum IDNumbering {
    /// The number of each probe's id, by probe index.
    ///
    /// - Parameters:
    ///   - probes: The walk's probes (every one with an id: the walk found no violation).
    ///   - text: The body walked, which holds the ids written without escapes.
    ///   - unescaped: The unescaped bytes of the ids written with escapes.
    /// - Complexity: O(*n*) expected for *n* probes, plus the hashing of their ids.
    static func numbers(of probes: ProbeTable, text: [UInt8], unescaped: [UInt8]) -> [Int32] {
        let count = probes.count
        var numbers = [Int32](repeating: 0, count: count)
        // Twice as many slots as items, not rounded up to a power of two (which costs up to twice the memory): the
        // slot is the hash's low half scaled to the capacity. A slot holds the hash's high half (a tag) and
        // 1 + the index of the first probe of its id; 0 is free.
        let capacity = max(16, 2 * count)
        var slots = [UInt64](repeating: 0, count: capacity)
        var next: Int32 = 0
        for index in 0 ..< count {
            if let earlier = probes.repeatOf(index) {
                numbers[index] = numbers[earlier]
                continue
            }
            let id = probes.member(index)
            let hash = Self.hash(id, text: text, unescaped: unescaped)
            let tag = hash >> 32
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
                if entry >> 32 == tag && same(probes.member(first), id, text: text, unescaped: unescaped) {
                    numbers[index] = numbers[first]
                    break
                }
                slot = slot + 1 == capacity ? 0 : slot + 1
            }
        }
        return numbers
    }

    /// The bytes of a string id.
    @inline(__always)
    private static func bytes(_ id: JSONScalar, text: [UInt8], unescaped: [UInt8]) -> ArraySlice<UInt8> {
        id.kind == .stringInText ? text[id.place] : unescaped[id.place]
    }

    /// The hash of an id: of its value for an integer, of its unescaped bytes for a string (wherever they lie).
    @inline(__always)
    private static func hash(_ id: JSONScalar, text: [UInt8], unescaped: [UInt8]) -> UInt64 {
        guard id.kind != .integer else {
            var hasher = Hasher()
            hasher.combine(id.packed)
            return UInt64(UInt(bitPattern: hasher.finalize()))
        }
        return SimdJSONParser.hash(bytes(id, text: text, unescaped: unescaped))
    }

    /// Whether two ids are the same: both integers of one value, or both strings of the same unescaped bytes.
    @inline(__always)
    private static func same(_ a: JSONScalar, _ b: JSONScalar, text: [UInt8], unescaped: [UInt8]) -> Bool {
        if a.kind == .integer || b.kind == .integer { return a.kind == b.kind && a.packed == b.packed }
        return bytesEqual(bytes(a, text: text, unescaped: unescaped), bytes(b, text: text, unescaped: unescaped))
    }
}
