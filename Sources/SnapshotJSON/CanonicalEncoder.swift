/// Writes the canonical encoding of JSON values, which ``ContentKey`` compares and hashes: two values are deeply
/// equal exactly when their encodings are the same bytes (object members in any order, numbers by exact decimal
/// value, strings by their unescaped UTF-8 bytes, arrays in order).
///
/// ```
/// null 'n' | true 't' | false 'f'
/// number  '0' (any zero, sign ignored)
///       | ('+' | '-') int64(E) uint32(n) d1…dn     value = ±d1…dn × 10^E, d1 ≠ '0', dn ≠ '0'
/// string  's' uint32(byte count) unescaped UTF-8 bytes
/// array   '[' value* ']'
/// object  '{' ('s' uint32(count) name-bytes value)* '}'   names strictly ascending (bytewise, prefix first)
/// ```
///
/// Integers are little-endian. Every value is self-delimiting and no tag can be taken for what may follow it, so
/// the encoding is injective. Encodings are compared and hashed, never read back.
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
                bytes.append(UInt8(ascii: "0"))  // zero (or an exponent out of range, a violation of its own)
                return
            }
            bytes.append(UInt8(ascii: isNegative ? "-" : "+"))
            appendFixed(UInt64(bitPattern: Int64(exponent)), count: 8)
            appendFixed(UInt64(digits.count), count: 4)
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

    /// Removes the encodings written after the first `count` bytes (an object's that will not be kept).
    mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
    }

    private mutating func appendString(_ string: [UInt8]) {
        bytes.append(UInt8(ascii: "s"))
        appendFixed(UInt64(string.count), count: 4)
        bytes.append(contentsOf: string)
    }

    private mutating func appendFixed(_ value: UInt64, count: Int) {
        for index in 0 ..< count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }
}
