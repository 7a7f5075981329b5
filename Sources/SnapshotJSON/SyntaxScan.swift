/// The first place where a body stops being a prefix of a valid request (RFC 8259, plus simdjson's rule that
/// `\u` escapes of UTF-16 surrogates come in pairs), for the error path only: simdjson's own error position is
/// token-precise at best and, for the string errors its first stage finds, not tied to the structure at all.
///
/// One linear pass, no recursion: a state machine with an explicit stack of the open arrays and objects,
/// bounded by the nesting limit. Bytes at or above 0x80 are taken as they come inside strings (their UTF-8 is
/// checked by ``SourceLocator/firstInvalidUTF8(in:)``) and are invalid elsewhere.
struct SyntaxProblem: Error, Equatable {
    enum Kind: Equatable {
        /// Not JSON: `message` says what was expected.
        case malformed(message: String)
        /// The bracket at `offset` opens one level more than the limit.
        case tooDeep
    }

    /// At or before the first byte that no valid document can have there: the byte itself, or the start of the
    /// token it spoils (the backslash of an escape, the first letter of a literal, the opening quote of a string
    /// the body ends in); `bytes.count` when the body ends early.
    let offset: Int
    let kind: Kind

    static func malformed(_ offset: Int, _ message: String) -> SyntaxProblem {
        SyntaxProblem(offset: offset, kind: .malformed(message: message))
    }

    /// What a 400 says of the syntax errors that both the scan and simdjson report (one wording for each).
    enum Message {
        static let object = "expected a member name, ':', ',' or '}' in object"
        static let array = "expected a value, ',' or ']' in array"
        static let value = "expected a JSON value"
        static let literal = "invalid literal; expected true, false or null"
        static let number = "invalid number"
        static let trailing = "unexpected content after the JSON document"
        static let endOfInput = "unexpected end of input"
    }
}

extension SourceLocator {
    /// The first syntax problem of `bytes`, or nil when they are one complete JSON document.
    static func firstSyntaxProblem(in bytes: [UInt8], maximumDepth: Int) -> SyntaxProblem? {
        /// What the next token may be.
        enum Expecting { case value, valueOrEnd, key, keyOrEnd, colon, separatorOrEnd, nothing }
        let objectMessage = SyntaxProblem.Message.object
        let arrayMessage = SyntaxProblem.Message.array
        let endOfInput = SyntaxProblem.malformed(bytes.count, SyntaxProblem.Message.endOfInput)

        var inObject: [Bool] = []  // the open containers, innermost last: object (true) or array (false)
        inObject.reserveCapacity(min(maximumDepth, 16))
        var expecting = Expecting.value
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                index += 1
                continue
            }
            switch expecting {
            case .value, .valueOrEnd:
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard inObject.count < maximumDepth else { return SyntaxProblem(offset: index, kind: .tooDeep) }
                    inObject.append(byte == UInt8(ascii: "{"))
                    expecting = byte == UInt8(ascii: "{") ? .keyOrEnd : .valueOrEnd
                    index += 1
                    continue
                case UInt8(ascii: "]") where expecting == .valueOrEnd:
                    inObject.removeLast()
                    index += 1
                case UInt8(ascii: "\""):
                    do { index = try stringEnd(in: bytes, quote: index) } catch { return error }
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    let literal =
                        switch byte {
                        case UInt8(ascii: "t"): "true".utf8
                        case UInt8(ascii: "f"): "false".utf8
                        default: "null".utf8
                        }
                    for (step, expected) in literal.enumerated() {
                        guard index + step < bytes.count else { return endOfInput }
                        guard bytes[index + step] == expected else {
                            return .malformed(index, SyntaxProblem.Message.literal)
                        }
                    }
                    index += literal.count
                case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
                    do { index = try numberEnd(in: bytes, start: index) } catch { return error }
                default:
                    return .malformed(index, SyntaxProblem.Message.value)
                }
            case .key, .keyOrEnd:
                if byte == UInt8(ascii: "}") && expecting == .keyOrEnd {
                    inObject.removeLast()
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    do { index = try stringEnd(in: bytes, quote: index) } catch { return error }
                    expecting = .colon
                    continue
                } else {
                    return .malformed(index, objectMessage)
                }
            case .colon:
                guard byte == UInt8(ascii: ":") else { return .malformed(index, objectMessage) }
                expecting = .value
                index += 1
                continue
            case .separatorOrEnd:
                let object = inObject.last == true
                if byte == UInt8(ascii: ",") {
                    expecting = object ? .key : .value
                    index += 1
                    continue
                }
                guard byte == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    return .malformed(index, object ? objectMessage : arrayMessage)
                }
                inObject.removeLast()
                index += 1
            case .nothing:
                return .malformed(index, SyntaxProblem.Message.trailing)
            }
            // A value (or a container) ended.
            expecting = inObject.isEmpty ? .nothing : .separatorOrEnd
        }
        return expecting == .nothing ? nil : endOfInput
    }

    /// The index just past the closing quote of the string that opens at `quote`, or its first problem.
    private static func stringEnd(in bytes: [UInt8], quote: Int) throws(SyntaxProblem) -> Int {
        let unterminated = SyntaxProblem.malformed(quote, "unterminated string")
        /// The value of the four hexadecimal digits at `index`, nil when one is not, -1 when the body ends first.
        func hex(at index: Int) -> Int? {
            var value = 0
            for offset in index ..< index + 4 {
                guard offset < bytes.count else { return -1 }
                let byte = bytes[offset]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a") ... UInt8(ascii: "f"), UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = (byte | 0x20) - UInt8(ascii: "a") + 10
                default: return nil
                }
                value = value << 4 | Int(digit)
            }
            return value
        }
        var index = quote + 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { return index + 1 }
            if byte < 0x20 {
                let hex = String(byte, radix: 16)
                throw .malformed(index, "unescaped control character U+\(byte < 0x10 ? "000" : "00")\(hex) in string")
            }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { throw unterminated }
            switch bytes[index + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 2
            case UInt8(ascii: "u"):
                guard let unit = hex(at: index + 2) else {
                    throw .malformed(index, #"invalid \u escape: expected four hexadecimal digits"#)
                }
                if unit < 0 { throw unterminated }
                let unpaired = SyntaxProblem.malformed(index, "unpaired UTF-16 surrogate escape")
                if (0xDC00 ... 0xDFFF).contains(unit) { throw unpaired }
                guard (0xD800 ... 0xDBFF).contains(unit) else {
                    index += 6
                    continue
                }
                // A high surrogate: a low one must follow at once.
                for (step, expected) in [UInt8(ascii: "\\"), UInt8(ascii: "u")].enumerated() {
                    guard index + 6 + step < bytes.count else { throw unterminated }
                    guard bytes[index + 6 + step] == expected else { throw unpaired }
                }
                guard let low = hex(at: index + 8) else { throw unpaired }
                if low < 0 { throw unterminated }
                guard (0xDC00 ... 0xDFFF).contains(low) else { throw unpaired }
                index += 12
            default:
                throw .malformed(index, "invalid escape sequence")
            }
        }
        throw unterminated
    }

    /// The index just past the number that starts at `start` (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`),
    /// or the problem at its first offending byte.
    private static func numberEnd(in bytes: [UInt8], start: Int) throws(SyntaxProblem) -> Int {
        func isDigit(_ index: Int) -> Bool { index < bytes.count && (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(bytes[index]) }
        /// At least one digit at `index`: the index past the last one, or the problem.
        func digits(from index: Int) throws(SyntaxProblem) -> Int {
            guard index < bytes.count else { throw .malformed(bytes.count, SyntaxProblem.Message.endOfInput) }
            guard isDigit(index) else { throw .malformed(index, SyntaxProblem.Message.number) }
            var end = index + 1
            while isDigit(end) { end += 1 }
            return end
        }
        var index = start
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        if index < bytes.count && bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { throw .malformed(index, SyntaxProblem.Message.number) }  // a leading zero
        } else {
            index = try digits(from: index)
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index = try digits(from: index + 1)
        }
        if index < bytes.count && bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            index = try digits(from: index)
        }
        return index
    }
}
