internal import SimdJSON
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
/// digit; number tags are the only tags from 0x80 on), so the encoding is injective. A value's encoding is no
/// longer than its JSON text with one separator (`1,` takes 1 byte, `12,` 3, `"a":` 3, `true,` 1), but for a
/// string of 16 KiB or more and a number written with 64 or more fraction digits, which may take a byte or two
/// more: that bounds what a body's section contents hold (``maximumBytes(textLength:)``). Encodings are compared
/// and hashed, never read back.
struct CanonicalEncoder {
    /// The encodings written so far.
    private(set) var bytes: [UInt8] = []

    /// A member of an object being written: where its encoding (`'s'`, the name's length, the name, the value)
    /// starts in ``bytes`` (it ends where the member written after it starts, or the object ends), its name's
    /// length, and where its name is in the text read (for reporting it when the object repeats it). 12 bytes a
    /// member, sorted in place (BENCHMARKS.md: a content of 1.7 M members peaks at 7.21× its body). Offsets fit
    /// 32 bits: the encodings of a body are at most ``maximumBytes(textLength:)``, which its reader keeps under 4 GiB.
    private struct Member {
        var start: UInt32
        var nameCount: UInt32
        var nameOffset: UInt32

        /// Where the name's bytes are in the encodings.
        var name: Range<Int> {
            let first = Int(start) + 1 + LEB128.count(UInt64(nameCount))
            return first ..< first + Int(nameCount)
        }
    }

    /// The members of the objects being written, innermost last (each object owns the tail from its base).
    private var members: [Member] = []

    /// An object being written: its first member's index in ``members``.
    struct OpenObject {
        fileprivate let base: Int
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
        members.append(Member(start: UInt32(bytes.count), nameCount: UInt32(name.count), nameOffset: UInt32(nameOffset)))
        appendString(name)
        append(&reader)
    }

    /// The names an object gave more than once: every occurrence but the first.
    struct Repeats {
        /// The first of them in document order, at most the `listed` asked for: each name's bytes and where it
        /// is in the text read.
        var first: [(name: [UInt8], offset: Int)] = []
        /// How many there are in all.
        var count = 0
    }

    /// Ends `object`, rewriting its members in name order, and returns the names it gave more than once, the
    /// first `listed` of them in document order.
    mutating func end(_ object: OpenObject, listing listed: Int = 0) -> Repeats {
        var repeats = Repeats()
        if members.count - object.base > 1 { repeats = sortMembers(from: object.base, listing: listed) }
        if members.count > object.base { members.removeSubrange(object.base...) }
        bytes.append(UInt8(ascii: "}"))
        return repeats
    }

    /// Rewrites the members from `members[base]` on (written one after another, to the end of ``bytes``) in name
    /// order; returns the names given more than once, the first `listed` of them in document order (held `listed`
    /// at a time, at most twice over, whatever the object repeats).
    ///
    /// - Complexity: O(*m* log *m*) comparisons of names for *m* members; O(*n*) in their encodings' length when
    ///   they are not in name order already.
    private mutating func sortMembers(from base: Int, listing listed: Int) -> Repeats {
        let region = Int(members[base].start)
        var reordered: [UInt8] = []
        var repeats = Repeats()
        do {
            // (A second reference to the encodings, not a copy: nothing writes them until it is gone.)
            let encodings = bytes
            func name(_ member: Member) -> ArraySlice<UInt8> { encodings[member.name] }
            let written = members[base...]
            let inOrder = zip(written, written.dropFirst()).allSatisfy { !name($1).lexicographicallyPrecedes(name($0)) }
            if !inOrder {
                // Stable: members of one name stay in document order (their starts ascending).
                members[base...].sort { a, b in
                    name(a).lexicographicallyPrecedes(name(b)) || (!name(b).lexicographicallyPrecedes(name(a)) && a.start < b.start)
                }
            }
            // Equal names are neighbours now, the first written first: every later one repeats it. The earliest
            // `listed` are kept (in document order already when nothing was sorted).
            var earliest: [Member] = []
            for index in base + 1 ..< members.count where name(members[index - 1]) == name(members[index]) {
                repeats.count += 1
                guard listed > 0, inOrder ? earliest.count < listed : true else { continue }
                earliest.append(members[index])
                if earliest.count == 2 * listed {
                    earliest.sort { $0.start < $1.start }
                    earliest.removeLast(listed)
                }
            }
            earliest.sort { $0.start < $1.start }
            repeats.first = earliest.prefix(listed).map { (Array(name($0)), Int($0.nameOffset)) }
            guard !inOrder else { return repeats }
            // Where each member ends: where the one written after it starts (the starts in document order).
            let starts = members[base...].map(\.start).sorted()
            reordered.reserveCapacity(encodings.count - region)
            for member in members[base...] {
                var low = 0, high = starts.count  // the first start after the member's
                while low < high {
                    let middle = (low + high) / 2
                    if starts[middle] > member.start { high = middle } else { low = middle + 1 }
                }
                reordered += encodings[Int(member.start) ..< (low < starts.count ? Int(starts[low]) : encodings.count)]
            }
        }
        bytes.replaceSubrange(region..., with: reordered)
        return repeats
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
