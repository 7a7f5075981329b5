/// A strict RFC 8259 reader, written apart from the service's simdjson-based parser so that it can judge
/// what the service writes: one value, nothing after it, UTF-8 only, no raw control characters in strings,
/// escapes well formed (no lone surrogates), numbers in JSON's grammar, and no member name repeated in an
/// object.
///
/// Only what the invariants need is kept: the root's kind and, for an object, its members.
enum StrictJSON: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array(count: Int)
    case object([String: StrictJSON])

    /// Why a text is not strict JSON: what was wrong, and the byte offset where it was found.
    struct Invalid: Error, CustomStringConvertible {
        var reason: String
        var offset: Int
        var description: String { "\(reason) at byte \(offset)" }
    }

    /// The deepest nesting accepted; deeper than anything the service writes.
    static let maximumDepth = 4096

    /// Parses `bytes` as exactly one JSON value with optional surrounding whitespace.
    ///
    /// - Throws: ``Invalid`` at the first violation.
    /// - Complexity: O(*n*) in the length of `bytes`.
    init(parsing bytes: [UInt8]) throws(Invalid) {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw Invalid(reason: "not UTF-8", offset: 0) }
        var parser = Parser(bytes: bytes)
        parser.skipWhitespace()
        self = try parser.value(depth: 0, keepMembers: true)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw Invalid(reason: "text after the value", offset: parser.position) }
    }

    subscript(member: String) -> StrictJSON? {
        if case .object(let members) = self { members[member] } else { nil }
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var number: Double? { if case .number(let value) = self { value } else { nil } }
    var isObject: Bool { if case .object = self { true } else { false } }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

        private func fail(_ reason: String) -> Invalid { Invalid(reason: reason, offset: position) }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
        }

        /// A value; members of nested objects are only kept to one level below the root.
        mutating func value(depth: Int, keepMembers: Bool) throws(Invalid) -> StrictJSON {
            guard depth < StrictJSON.maximumDepth else { throw fail("nested too deep") }
            guard let byte = current else { throw fail("expected a value, found the end") }
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth, keepMembers: keepMembers)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw fail("unexpected byte \(byte)")
            }
        }

        private mutating func literal(_ word: StaticString) throws(Invalid) {
            let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            guard bytes.count - position >= text.count, bytes[position..<position + text.count].elementsEqual(text) else {
                throw fail("bad literal")
            }
            position += text.count
        }

        private mutating func object(depth: Int, keepMembers: Bool) throws(Invalid) -> StrictJSON {
            position += 1
            var members: [String: StrictJSON] = [:]
            var names: Set<String> = []
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                position += 1
                return .object([:])
            }
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw fail("expected a member name") }
                let name = try string()
                guard names.insert(name).inserted else { throw fail("member \"\(name)\" repeated") }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw fail("expected ':'") }
                position += 1
                skipWhitespace()
                let member = try value(depth: depth + 1, keepMembers: false)
                if keepMembers { members[name] = member }
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"):
                    position += 1
                    return .object(members)
                default: throw fail("expected ',' or '}'")
                }
            }
        }

        private mutating func array(depth: Int) throws(Invalid) -> StrictJSON {
            position += 1
            var count = 0
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                position += 1
                return .array(count: 0)
            }
            while true {
                skipWhitespace()
                _ = try value(depth: depth + 1, keepMembers: false)
                count += 1
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"):
                    position += 1
                    return .array(count: count)
                default: throw fail("expected ',' or ']'")
                }
            }
        }

        private mutating func string() throws(Invalid) -> String {
            position += 1
            var scalars = String.UnicodeScalarView()
            var start = position
            while true {
                guard let byte = current else { throw fail("unterminated string") }
                if byte == UInt8(ascii: "\"") {
                    scalars.append(contentsOf: String(decoding: bytes[start..<position], as: UTF8.self).unicodeScalars)
                    position += 1
                    return String(scalars)
                }
                guard byte >= 0x20 else { throw fail("raw control character \(byte) in a string") }
                guard byte == UInt8(ascii: "\\") else {
                    position += 1
                    continue
                }
                scalars.append(contentsOf: String(decoding: bytes[start..<position], as: UTF8.self).unicodeScalars)
                position += 1
                guard let escaped = current else { throw fail("unterminated escape") }
                position += 1
                switch escaped {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let unit = try hex4()
                    switch unit {
                    case 0xD800...0xDBFF:
                        guard current == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u")
                        else { throw fail("lone high surrogate") }
                        position += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("high surrogate without a low one") }
                        scalars.append(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)
                    case 0xDC00...0xDFFF: throw fail("lone low surrogate")
                    default: scalars.append(Unicode.Scalar(unit)!)
                    }
                default: throw fail("bad escape")
                }
                start = position
            }
        }

        private mutating func hex4() throws(Invalid) -> UInt32 {
            guard bytes.count - position >= 4 else { throw fail("short \\u escape") }
            var unit: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw fail("bad hex digit in \\u escape")
                }
                unit = unit << 4 | UInt32(digit)
                position += 1
            }
            return unit
        }

        private mutating func number() throws(Invalid) -> Double {
            let start = position
            if current == UInt8(ascii: "-") { position += 1 }
            if current == UInt8(ascii: "0") {
                position += 1
            } else {
                guard digits() > 0 else { throw fail("number without digits") }
            }
            if current == UInt8(ascii: ".") {
                position += 1
                guard digits() > 0 else { throw fail("no digits after '.'") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                position += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
                guard digits() > 0 else { throw fail("no digits in the exponent") }
            }
            guard let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else {
                throw fail("number out of Double's grammar")
            }
            return value
        }

        private mutating func digits() -> Int {
            let start = position
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
            return position - start
        }
    }
}
