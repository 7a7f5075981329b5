internal import SimdJSON

/// The bytes of a parsed `/diff` body, kept so that items' contents can refer to their raw JSON text and be
/// canonicalised only when two texts differ (most items of two snapshots are unchanged, byte for byte).
///
/// Holds the body as the parse read it: with `DiffRequest.requiredPadding` readable bytes after it.
final class RequestText: Sendable {
    /// The body; its spare capacity is the padding simdjson may read.
    private let bytes: [UInt8]
    /// Where the object of each section of the body lies (a bare item list's: its snapshot's), in the order the
    /// parse met them (both snapshots'): the offset in the low 32 bits and the length in the high 32 (8 bytes a
    /// section; the body is under 4 GiB). Kept only for a request whose answer copies sections whole, compares
    /// their members or lays them out (see ``section(_:)``); `nil` otherwise.
    private let sectionPlaces: [UInt64]?
    /// The ids written with escapes, unescaped (UTF-8), one after another; ``WireItem`` and ``WireSection`` refer
    /// to them.
    private let unescapedIDs: [UInt8]
    /// The canonical encodings of the sections' contents (``WireSection/content``).
    let arena: ContentArena

    /// - Parameters:
    ///   - bytes: The body, with ``DiffRequest/requiredPadding`` bytes of spare capacity.
    ///   - sectionPlaces: Where each section's object lies, packed (see ``sectionPlaces``), or `nil` when the
    ///     answer reads no section's text.
    ///   - unescapedIDs: The ids written with escapes, unescaped.
    ///   - arena: The sections' content encodings.
    init(padded bytes: [UInt8], sectionPlaces: [UInt64]?, unescapedIDs: [UInt8], arena: ContentArena) {
        precondition(bytes.capacity - bytes.count >= DiffRequest.requiredPadding, "the body needs its padding")
        self.bytes = bytes
        self.sectionPlaces = sectionPlaces
        self.unescapedIDs = unescapedIDs
        self.arena = arena
    }

    /// Whether the places of the sections' objects were kept (``section(_:)`` may be called).
    var keepsSectionPlaces: Bool { sectionPlaces != nil }

    /// Packs the place of a section's object for ``sectionPlaces``.
    static func sectionPlace(offset: UInt32, length: UInt32) -> UInt64 { UInt64(offset) | UInt64(length) << 32 }

    /// Where the object of the body's section `index` (in the order the parse met them) lies: the section's
    /// object, or for a bare item list its snapshot's.
    ///
    /// - Precondition: The places were kept: the request asks for a JSON Patch, the changed members or layouts.
    func section(_ index: Int) -> Range<Int> {
        guard let sectionPlaces else {
            preconditionFailure(
                "sections' texts are kept only for a request asking for jsonPatch, changedMembers or layouts")
        }
        let place = sectionPlaces[index]
        let offset = Int(UInt32(truncatingIfNeeded: place))
        return offset ..< offset + Int(place >> 32)
    }

    /// Whether the `count` bytes at `offset` are the same as those at `otherOffset` in `other`.
    func sameBytes(at offset: Int, as other: RequestText, at otherOffset: Int, count: Int) -> Bool {
        precondition(offset >= 0 && count >= 0 && offset + count <= bytes.count, "range outside the body")
        precondition(otherOffset >= 0 && otherOffset + count <= other.bytes.count, "range outside the body")
        return bytesEqual(bytes[offset ..< offset + count], other.bytes[otherOffset ..< otherOffset + count])
    }

    /// The `count` bytes at `offset` as a string (they are valid UTF-8: the parse checked the whole body).
    func string(at offset: Int, count: Int) -> String {
        precondition(offset >= 0 && count >= 0 && offset + count <= bytes.count, "range outside the body")
        return String(decoding: bytes[offset ..< offset + count], as: UTF8.self)
    }

    /// The unescaped id whose bytes are `unescapedIDs[offset ..< offset + count]`.
    func unescapedID(at offset: Int, count: Int) -> String {
        precondition(offset >= 0 && count >= 0 && offset + count <= unescapedIDs.count, "range outside the ids")
        return String(decoding: unescapedIDs[offset ..< offset + count], as: UTF8.self)
    }

    /// Whether the contents (every member but `id`) of the items whose texts are `a` and `b` in the body are
    /// deeply equal (see ``ContentKey``): the same bytes are; other texts are compared member by member in the
    /// order written, and only when their members come in different orders by their canonical encodings.
    ///
    /// - Complexity: O(*n*) in the texts' lengths; the canonical encodings cost O(*n* log *n*).
    func sameItemContent(_ a: Range<Int>, as b: Range<Int>) -> Bool {
        precondition(a.lowerBound >= 0 && a.upperBound <= bytes.count, "range outside the body")
        precondition(b.lowerBound >= 0 && b.upperBound <= bytes.count, "range outside the body")
        if a.count == b.count && sameBytes(at: a.lowerBound, as: self, at: b.lowerBound, count: a.count) { return true }
        // Member by member first: cheaper than two canonical encodings, and enough unless the order differs.
        let same = SimdJSONParser.withBorrowed {
            $0.sameContent(bytes, a, bytes, b, skipping: DiffRequestSchema.idMember)
        }
        return same ?? (canonicalItem(at: a.lowerBound, count: a.count) == canonicalItem(at: b.lowerBound, count: b.count))
    }

    /// The canonical encoding of the item whose raw text is at `offset ..< offset + count` (every member but
    /// `id`), as ``ContentKey`` stores it for items of other documents.
    func canonicalItem(at offset: Int, count: Int) -> [UInt8] {
        read(offset ..< offset + count) { reader in
            var encoder = CanonicalEncoder()
            encoder.appendObject(&reader, skipping: DiffRequestSchema.idMember)
            return encoder.bytes
        }
    }

    /// The `count` bytes at `offset`, sharing the body's storage.
    func slice(at offset: Int, count: Int) -> ArraySlice<UInt8> {
        precondition(offset >= 0 && count >= 0 && offset + count <= bytes.count, "range outside the body")
        return bytes[offset ..< offset + count]
    }

    /// Reads the value whose text is `range` with `read` (a reader at the value; see ``JSONReader``).
    func read<Value>(_ range: Range<Int>, _ read: (inout JSONReader) -> Value) -> Value {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range outside the body")
        return JSONReader.readValid(bytes, range, read)
    }
}
