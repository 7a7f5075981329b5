/// What an item or a section looks like, apart from its id: a canonical encoding of its other members, or the
/// raw JSON text it was read from.
///
/// Two keys are equal when the JSON values are deeply equal: object members in any order, numbers by exact
/// decimal value (`1`, `1.0`, `10e-1` are equal, `-0` equals `0`; no rounding through `Double`), strings by
/// their unescaped Unicode scalars without normalisation, arrays in order. Keys are made only by parsing.
///
/// The items of a `/diff` request keep their raw text: two items written with the same bytes are equal at
/// once; texts that differ are compared member by member in the order written, and canonicalised (on each
/// comparison) only when their members come in different orders.
public struct ContentKey: Hashable, Sendable {
    private enum Storage: Sendable {
        /// A canonical encoding in an arena, with its hash.
        case canonical(ContentArena, offset: Int, count: Int, hash: UInt64)
        /// An item's raw JSON text (its whole object, `id` included) in the body.
        case raw(RequestText, offset: Int, count: Int)
    }

    private let storage: Storage

    init(arena: ContentArena, offset: Int, count: Int, hash: UInt64) {
        storage = .canonical(arena, offset: offset, count: count, hash: hash)
    }

    init(text: RequestText, offset: Int, count: Int) {
        storage = .raw(text, offset: offset, count: count)
    }

    /// The request body holding the raw text, for keys made from a `/diff` body.
    var body: RequestText? {
        if case .raw(let text, _, _) = storage { return text }
        return nil
    }

    /// The raw text (the item's whole object), for keys made from a `/diff` body.
    var source: JSONText? {
        if case .raw(let text, let offset, let count) = storage { return JSONText(text: text, range: offset ..< offset + count) }
        return nil
    }

    /// A 64-bit hash of the canonical encoding; equal keys have equal hashes.
    ///
    /// - Complexity: O(1) for canonical keys; O(*n*) for raw ones (it canonicalises the text).
    public var contentHash: UInt64 {
        switch storage {
        case .canonical(_, _, _, let hash): hash
        case .raw: Self.hash(canonicalBytes[...])
        }
    }

    /// Whether two contents are deeply equal.
    ///
    /// - Complexity: O(1) when canonical hashes differ; O(*n*) in the encodings' length otherwise, plus the
    ///   canonicalisation of raw texts that differ.
    public static func == (lhs: ContentKey, rhs: ContentKey) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case let (.canonical(a, aOffset, aCount, aHash), .canonical(b, bOffset, bCount, bHash)):
            guard aHash == bHash, aCount == bCount else { return false }
            if a === b && aOffset == bOffset { return true }
            return a.bytes(at: aOffset, count: aCount) == b.bytes(at: bOffset, count: bCount)
        case let (.raw(a, aOffset, aCount), .raw(b, bOffset, bCount)):
            if aCount == bCount && ((a === b && aOffset == bOffset) || a.sameBytes(at: aOffset, as: b, at: bOffset, count: aCount)) {
                return true  // the same text
            }
            // Member by member first: cheaper than two canonical encodings, and enough unless the order differs.
            if let same = a.sameItemContent(at: aOffset, count: aCount, as: b, at: bOffset, count: bCount) { return same }
            return lhs.canonicalBytes == rhs.canonicalBytes
        default:
            return lhs.canonicalBytes == rhs.canonicalBytes
        }
    }

    /// The content of an object without members (`{}`), most sections' (their records keep no encoding).
    static let emptyObject: ContentKey = {
        let encoding: [UInt8] = Array("{}".utf8)
        return ContentKey(arena: ContentArena(encoding), offset: 0, count: encoding.count, hash: hash(encoding[...]))
    }()

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
    public var canonicalBytes: [UInt8] {
        switch storage {
        case let .canonical(arena, offset, count, _): Array(arena.bytes(at: offset, count: count))
        case let .raw(text, offset, count): text.canonicalItem(at: offset, count: count)
        }
    }
}

extension ContentKey: CustomStringConvertible {
    /// `ContentKey(hash: 0x…, 34 bytes)`, with the canonical hash and encoding length.
    public var description: String {
        let bytes = canonicalBytes
        return "ContentKey(hash: 0x\(String(contentHash, radix: 16)), \(bytes.count) bytes)"
    }
}
