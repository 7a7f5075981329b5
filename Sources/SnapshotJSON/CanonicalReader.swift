/// Reads values back from the canonical encoding written by CSimdJSON (grammar in `Canonical.hpp`), so that
/// structured parts of a request (options, layout settings, an item's size members) are decoded in Swift
/// without a JSON tree. Object members come in ascending byte order of their names.
///
/// The bytes come from our own encoder, so malformed input is a programming error (a trap).
public struct CanonicalReader: Hashable, Sendable {
    /// The JSON type of the next value.
    public enum Kind: String, Sendable {
        case null, boolean, number, string, array, object
    }

    private let bytes: [UInt8]
    private var position = 0

    /// Reads canonical bytes (from ``parseJSONDocument(_:)`` or ``ContentKey/reader``).
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The type of the value at the reading position.
    public var kind: Kind {
        switch bytes[position] {
        case UInt8(ascii: "n"): .null
        case UInt8(ascii: "t"), UInt8(ascii: "f"): .boolean
        case UInt8(ascii: "0"), UInt8(ascii: "+"), UInt8(ascii: "-"): .number
        case UInt8(ascii: "s"): .string
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "{"): .object
        default: preconditionFailure("not a canonical encoding")
        }
    }

    /// Reads a string, or returns `nil` and leaves any other value unread.
    public mutating func string() -> String? {
        guard kind == .string else { return nil }
        position += 1
        let count = Int(varint())
        defer { position += count }
        return String(decoding: bytes[position ..< position + count], as: UTF8.self)
    }

    /// Reads a boolean, or returns `nil` and leaves any other value unread.
    public mutating func boolean() -> Bool? {
        guard kind == .boolean else { return nil }
        defer { position += 1 }
        return bytes[position] == UInt8(ascii: "t")
    }

    /// Reads an integer that fits `Int`, or returns `nil` and leaves the value unread.
    public mutating func integer() -> Int? {
        guard kind == .number else { return nil }
        var probe = self
        guard let value = probe.readInteger() else { return nil }
        self = probe
        return value
    }

    private mutating func readInteger() -> Int? {
        guard let (negative, exponent, digits) = numberParts() else { return 0 }
        guard exponent >= 0, Int64(digits.count) + exponent <= 18 else { return nil }
        var value = 0
        for digit in digits { value = value * 10 + Int(digit - UInt8(ascii: "0")) }
        for _ in 0 ..< exponent { value *= 10 }
        return negative ? -value : value
    }

    /// Reads a number's parts — sign, exponent and significant digits (value = ±digits × 10^exponent) —
    /// or `nil` for zero.
    private mutating func numberParts() -> (negative: Bool, exponent: Int64, digits: ArraySlice<UInt8>)? {
        let sign = bytes[position]
        position += 1
        if sign == UInt8(ascii: "0") { return nil }
        let zigzag = varint()
        let exponent = Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
        let count = Int(varint())
        defer { position += count }
        return (sign == UInt8(ascii: "-"), exponent, bytes[position ..< position + count])
    }

    /// Reads an array, calling `body` with the reader at each element; `body` must read or skip it.
    public mutating func elements(_ body: (inout CanonicalReader, Int) -> Void) {
        precondition(kind == .array)
        position += 1
        var index = 0
        while bytes[position] != UInt8(ascii: "]") {
            body(&self, index)
            index += 1
        }
        position += 1
    }

    /// Reads an object, calling `body` with each member name and the reader at its value; `body` must read
    /// or skip the value. Names come in ascending byte order.
    public mutating func members(_ body: (inout CanonicalReader, String) -> Void) {
        precondition(kind == .object)
        position += 1
        while bytes[position] != UInt8(ascii: "}") {
            guard let name = string() else { preconditionFailure("not a canonical encoding") }
            body(&self, name)
        }
        position += 1
    }

    /// Reads an object at `path`, calling `body` with each member name, its JSON path (``JSONPath``) and the
    /// reader at its value; `body` must read or skip the value. Names come in ascending byte order.
    public mutating func members(at path: String, _ body: (inout CanonicalReader, String, String) -> Void) {
        members { reader, name in body(&reader, name, JSONPath.member(name, of: path)) }
    }

    /// Reads a number as the nearest `Double` (infinite beyond its range), or returns `nil` and leaves any
    /// other value unread.
    public mutating func number() -> Double? {
        guard kind == .number else { return nil }
        guard let (negative, exponent, digits) = numberParts() else { return 0 }
        let value = Double("\(String(decoding: digits, as: UTF8.self))e\(exponent)") ?? .infinity
        return negative ? -value : value
    }

    /// Reads a number exactly as written — its sign, its significant digits (ASCII, without leading or
    /// trailing zeros; none for zero) and the power of ten of the last digit — or returns `nil` and leaves
    /// any other value unread. For decimal arithmetic where the nearest `Double` is not good enough.
    public mutating func decimal() -> (isNegative: Bool, digits: ArraySlice<UInt8>, exponent: Int)? {
        guard kind == .number else { return nil }
        guard let (negative, exponent, digits) = numberParts() else { return (false, [], 0) }
        return (negative, digits, Int(exponent))
    }

    /// Whether the reader is past the last value (after reading a whole document).
    public var isAtEnd: Bool { position == bytes.count }

    /// Skips the value at the reading position.
    public mutating func skip() {
        switch kind {
        case .null, .boolean:
            position += 1
        case .number:
            let sign = bytes[position]
            position += 1
            if sign != UInt8(ascii: "0") {
                _ = varint()
                position += Int(varint())
            }
        case .string:
            _ = string()
        case .array:
            elements { reader, _ in reader.skip() }
        case .object:
            members { reader, _ in reader.skip() }
        }
    }

    private mutating func varint() -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }
}
