/// What an item or a section looks like, apart from its id: a canonical encoding of its other members and a
/// 64-bit hash of it.
///
/// Two keys are equal when the JSON values are deeply equal: object members in any order, numbers by exact
/// decimal value (`1`, `1.0`, `10e-1` are equal, `-0` equals `0`; no rounding through `Double`), strings by
/// their unescaped Unicode scalars without normalisation, arrays in order. Keys are made only by parsing.
///
/// Comparing two keys compares the hashes first and the bytes only when those agree.
public struct ContentKey: Hashable, Sendable {
    let arena: ContentArena
    let offset: Int
    let count: Int
    /// A 64-bit hash of the canonical encoding; equal keys have equal hashes.
    public let contentHash: UInt64

    init(arena: ContentArena, offset: Int, count: Int, hash: UInt64) {
        self.arena = arena
        self.offset = offset
        self.count = count
        self.contentHash = hash
    }

    /// Whether two contents are deeply equal.
    ///
    /// - Complexity: O(1) when the hashes differ, O(*n*) in the encoding's length otherwise.
    public static func == (lhs: ContentKey, rhs: ContentKey) -> Bool {
        guard lhs.contentHash == rhs.contentHash, lhs.count == rhs.count else { return false }
        if lhs.arena === rhs.arena && lhs.offset == rhs.offset { return true }
        return bytesEqual(lhs.arena.bytes(at: lhs.offset, count: lhs.count),
                          rhs.arena.bytes(at: rhs.offset, count: rhs.count))
    }

    /// Feeds the precomputed hash to `hasher`.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(contentHash)
    }

    /// A copy of the canonical encoding, for diagnostics and tests.
    ///
    /// - Complexity: O(*n*).
    public var canonicalBytes: [UInt8] {
        Array(arena.bytes(at: offset, count: count))
    }
}

extension ContentKey {
    /// A reader over the content (an item's members other than `id`, as one object).
    public var reader: CanonicalReader { CanonicalReader(canonicalBytes) }
}

extension ContentKey: CustomStringConvertible {
    /// `ContentKey(hash: 0x…, 34 bytes)`.
    public var description: String {
        "ContentKey(hash: 0x\(String(contentHash, radix: 16)), \(count) bytes)"
    }
}
