import Waterfall

/// Writes the canonical encoding of JSON values, which ``ContentKey`` compares and hashes: two values are deeply
/// equal exactly when their encodings are the same bytes (object members in any order, numbers by exact decimal
/// value, strings by their unescaped UTF-8 bytes, arrays in order).
///
/// ```
/// null 'n' | true 't' | false 'f'
/// number  0x80 (any zero, sign ignored) | 0x90 + d (the integers 1 … 9)
///       | tag [zigzag(E)] d1…dn     any other: ±d1…dn × 10^E (ASCII digits, d1 ≠ '0', dn ≠ '0'); the digits
///         tag = 0x81 | 0x40 if negative | 0x20 if E ≠ 0     end at the first byte that is not one
/// string  's' varint(byte count) unescaped UTF-8 bytes
/// array   '[' value* ']'
/// object  '{' ('s' varint(count) name-bytes value)* '}'   names strictly ascending (bytewise, prefix first)
/// ```
///
/// Varints are LEB128 (seven bits a byte, least significant first; zigzag maps E to one: 0, -1, 1, -2 … to
/// 0, 1, 2, 3 …). Every value is self-delimiting (no tag, and no byte that may follow a value, is an ASCII
/// digit; number tags are the only bytes from 0x80 on), so the encoding is injective. A value's encoding is no
/// longer than its JSON text with one separator (`1,` takes 1 byte, `12,` 3, `"a":` 3, `true,` 1), but for a
/// number written with 64 or more fraction digits, which may take one byte more: that bounds what a body's section
/// contents hold (``maximumBytes(textLength:)``). Encodings are compared and hashed, never read back.
struct CanonicalEncoder {
    /// The encodings written so far.
    private(set) var bytes: [UInt8] = []

    /// A member of an object being written: where its name and its whole encoding (`'s'`, the length, the name,
    /// the value) lie in ``bytes``, and where its name is in the text read (for reporting a repeated name).
    private struct Member {
        var name: Range<Int>
        var encoding: Range<Int>
        var nameOffset: Int
    }

    /// The members of the objects being written, innermost last (each object owns the tail from its base).
    private var members: [Member] = []

    /// An object being written: its first member's index in ``members``.
    struct OpenObject {
        fileprivate let base: Int
    }

    /// A member name an object gave more than once (every occurrence after the first, in document order).
    struct RepeatedName {
        /// The name's unescaped UTF-8 bytes.
        let name: ArraySlice<UInt8>
        /// Where the name is in the text read.
        let offset: Int
    }

    /// Appends the encoding of the value `reader` stands on, reading it whole.
    ///
    /// - Complexity: O(*n* log *m*) in the value's length *n*, its objects sorted by their *m* member names.
    mutating func append(_ reader: inout JSONReader) {
        switch reader.kind {
        case .object:
            appendObject(&reader, skipping: nil)
        case .array:
            bytes.append(UInt8(ascii: "["))
            reader.elements { element, _ in append(&element) }
            bytes.append(UInt8(ascii: "]"))
        case .string:
            appendString(reader.stringBytes().array)
        case .number:
            guard let (isNegative, digits, exponent) = reader.decimal(), !digits.isEmpty else {
                bytes.append(0x80)  // zero (or an exponent out of range, a violation of its own)
                return
            }
            if digits.count == 1 && exponent == 0 && !isNegative {
                bytes.append(0x90 + (digits.first! - UInt8(ascii: "0")))  // (the densest numbers a body holds)
                return
            }
            bytes.append(0x81 | (isNegative ? 0x40 : 0) | (exponent != 0 ? 0x20 : 0))
            if exponent != 0 {
                let scale = Int64(exponent)
                appendVarint(UInt64(bitPattern: scale << 1 ^ scale >> 63))
            }
            bytes.append(contentsOf: digits)
        case .boolean:
            bytes.append(reader.boolean() == true ? UInt8(ascii: "t") : UInt8(ascii: "f"))
        case .null:
            reader.skip()
            bytes.append(UInt8(ascii: "n"))
        }
    }

    /// Appends the encoding of the object `reader` stands on, without its members named `skipped` (moved past,
    /// not encoded). A name the object repeats is the walk's to report (see ``JSONReader/members(_:)``).
    mutating func appendObject(_ reader: inout JSONReader, skipping skipped: StaticString?) {
        let object = beginObject()
        reader.enter()
        while let name = reader.nextMember() {
            if let skipped, name == skipped { continue }
            appendMember(name.array, nameOffset: 0, &reader)
        }
        _ = end(object)
    }

    /// Starts an object whose members are given one at a time (``appendMember(_:nameOffset:_:)``).
    mutating func beginObject() -> OpenObject {
        bytes.append(UInt8(ascii: "{"))
        return OpenObject(base: members.count)
    }

    /// Appends a member of the object begun last: its name (unescaped UTF-8, at `nameOffset` in the text read,
    /// for reporting it when the object repeats it) and the value `reader` stands on.
    mutating func appendMember(_ name: [UInt8], nameOffset: Int, _ reader: inout JSONReader) {
        let start = bytes.count
        appendString(name)
        let slot = members.count
        members.append(Member(name: bytes.count - name.count ..< bytes.count, encoding: start ..< start, nameOffset: nameOffset))
        append(&reader)
        members[slot].encoding = start ..< bytes.count
    }

    /// Ends `object`: its members are rewritten in name order. Returns the names it gave more than once.
    mutating func end(_ object: OpenObject) -> [RepeatedName] {
        var repeated: [RepeatedName] = []
        if members.count - object.base > 1 { repeated = sortMembers(from: object.base) }
        if members.count > object.base { members.removeSubrange(object.base...) }
        bytes.append(UInt8(ascii: "}"))
        return repeated
    }

    /// Rewrites the members from `members[base]` on in name order; returns the names given more than once.
    private mutating func sortMembers(from base: Int) -> [RepeatedName] {
        let written = members[base...]
        // (Reading `self.bytes` in place: a copy alive while they are rewritten would copy every encoding so far.)
        func precedes(_ a: Member, _ b: Member) -> Bool {
            bytes[a.name].lexicographicallyPrecedes(bytes[b.name])
        }
        // Stable: members of one name stay in document order, so the first of each run is the one given first.
        let sorted = written.enumerated().sorted { a, b in
            precedes(a.element, b.element) || (!precedes(b.element, a.element) && a.offset < b.offset)
        }.map(\.element)
        var repeated: [RepeatedName] = []
        for (previous, member) in zip(sorted, sorted.dropFirst()) where bytes[previous.name] == bytes[member.name] {
            repeated.append(RepeatedName(name: bytes[member.name], offset: member.nameOffset))
        }
        repeated.sort { $0.offset < $1.offset }
        if !zip(written, sorted).allSatisfy({ $0.encoding == $1.encoding }) {
            // The members are contiguous, from the first one's start to the end: rewrite them in name order.
            let region = written.first!.encoding.lowerBound
            var reordered: [UInt8] = []
            reordered.reserveCapacity(bytes.count - region)
            for member in sorted { reordered += bytes[member.encoding] }
            bytes.replaceSubrange(region..., with: reordered)
        }
        return repeated
    }

    /// The most bytes the encodings of values whose JSON texts take `textLength` bytes in all may need.
    static func maximumBytes(textLength: Int) -> Int { textLength + textLength / 64 + 2 }

    /// Makes room for `count` bytes of encodings, so that they never move as they grow (a large room is mapped
    /// memory that takes no space until it is written).
    mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(count)
    }

    /// Removes the encodings written after the first `count` bytes (an object's that will not be kept).
    mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
    }

    private mutating func appendString(_ string: [UInt8]) {
        bytes.append(UInt8(ascii: "s"))
        appendVarint(UInt64(string.count))
        bytes.append(contentsOf: string)
    }

    private mutating func appendVarint(_ value: UInt64) {
        LEB128.append(value, to: &bytes)
    }
}
