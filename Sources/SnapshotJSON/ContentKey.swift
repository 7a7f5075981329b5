internal import SimdJSON

/// What an item or a section looks like, apart from its id: a canonical encoding of its other members
/// (``CanonicalEncoder``), with its hash.
///
/// Two keys are equal when the JSON values are deeply equal: object members in any order, numbers by exact
/// decimal value (`1`, `1.0`, `10e-1` are equal, `-0` equals `0`; no rounding through `Double`), strings by
/// their unescaped Unicode scalars without normalisation, arrays in order. Keys are made only by parsing; comparing
/// them compares bytes and never parses.
///
/// The diff does not compare keys: the reader decides, before the diff, which items' contents are equal
/// (``WireItem/contentNumber``). Keys are for sections' contents, and for tests and diagnostics.
public struct ContentKey: Hashable, Sendable {
    /// The encodings' arena, where this one lies, and its hash.
    private let arena: ContentArena
    private let offset: Int, count: Int
    private let hash: UInt64

    init(arena: ContentArena, offset: Int, count: Int, hash: UInt64) {
        self.arena = arena
        self.offset = offset
        self.count = count
        self.hash = hash
    }

    /// The key of the canonical encoding `encoding`.
    init(encoding: [UInt8]) {
        self.init(arena: ContentArena(encoding), offset: 0, count: encoding.count, hash: Self.hash(encoding[...]))
    }

    /// A 64-bit hash of the canonical encoding; equal keys have equal hashes.
    ///
    /// - Complexity: O(1).
    public var contentHash: UInt64 { hash }

    /// Whether two contents are deeply equal.
    ///
    /// - Complexity: O(1) when hashes differ; O(*n*) in the encodings' length otherwise.
    public static func == (lhs: ContentKey, rhs: ContentKey) -> Bool {
        guard lhs.hash == rhs.hash, lhs.count == rhs.count else { return false }
        if lhs.arena === rhs.arena && lhs.offset == rhs.offset { return true }
        return lhs.arena.bytes(at: lhs.offset, count: lhs.count) == rhs.arena.bytes(at: rhs.offset, count: rhs.count)
    }

    /// The content of an object without members (`{}`), most sections' (their records keep no encoding).
    static let emptyObject = ContentKey(encoding: Array("{}".utf8))

    /// The hash of a canonical encoding (seeded per process, as Swift's `Hasher` is).
    static func hash(_ encoding: ArraySlice<UInt8>) -> UInt64 {
        SimdJSONParser.hash(encoding)
    }

    /// Feeds the canonical hash to `hasher`.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(contentHash)
    }

    /// A copy of the canonical encoding, for diagnostics and tests.
    ///
    /// - Complexity: O(*n*).
    public var canonicalBytes: [UInt8] { Array(arena.bytes(at: offset, count: count)) }
}

extension ContentKey: CustomStringConvertible {
    /// `ContentKey(hash: 0x…, 34 bytes)`, with the canonical hash and encoding length.
    public var description: String {
        let bytes = canonicalBytes
        return "ContentKey(hash: 0x\(String(contentHash, radix: 16)), \(bytes.count) bytes)"
    }
}
