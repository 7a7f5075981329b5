/// A reference JSON (RFC 8259) validator that reads one byte at a time, for tests: the length of the longest
/// prefix of a body that is still a prefix of some valid JSON document, so that the byte at that index (if any)
/// is the first one that makes the body invalid. Slow and simple on purpose; strings must be well-formed UTF-8.
enum JSONPrefix {
    private enum Container { case object, array }
    private enum Number { case minus, zero, integer, dot, fraction, exponentMark, exponentSign, exponent }
    private enum State {
        case value(first: Bool)
        case afterValue
        case key(first: Bool)
        case colon
        case string(key: Bool)
        case escape(key: Bool)
        case unicode(key: Bool, remaining: Int)
        case utf8(key: Bool, remaining: Int, range: ClosedRange<UInt8>)
        case literal(rest: ArraySlice<UInt8>)
        case number(Number)
        case end
    }

    /// The length of the longest valid prefix of `bytes` (`bytes.count` when the whole body is one).
    static func validLength(_ bytes: [UInt8]) -> Int {
        var stack: [Container] = []
        var state = State.value(first: false)
        func completed() -> State { stack.isEmpty ? .end : .afterValue }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        /// The next state after `byte`, or nil when no valid document continues this way.
        func step(_ byte: UInt8) -> State? {
            switch state {
            case .value(let first):
                if isSpace(byte) { return state }
                switch byte {
                case UInt8(ascii: "{"): stack.append(.object); return .key(first: true)
                case UInt8(ascii: "["): stack.append(.array); return .value(first: true)
                case UInt8(ascii: "\""): return .string(key: false)
                case UInt8(ascii: "t"): return .literal(rest: Array("rue".utf8)[...])
                case UInt8(ascii: "f"): return .literal(rest: Array("alse".utf8)[...])
                case UInt8(ascii: "n"): return .literal(rest: Array("ull".utf8)[...])
                case UInt8(ascii: "-"): return .number(.minus)
                case UInt8(ascii: "0"): return .number(.zero)
                case UInt8(ascii: "]") where first && stack.last == .array: stack.removeLast(); return completed()
                default: return isDigit(byte) ? .number(.integer) : nil
                }
            case .afterValue:
                if isSpace(byte) { return state }
                switch (byte, stack.last) {
                case (UInt8(ascii: ","), .object): return .key(first: false)
                case (UInt8(ascii: ","), .array): return .value(first: false)
                case (UInt8(ascii: "}"), .object), (UInt8(ascii: "]"), .array): stack.removeLast(); return completed()
                default: return nil
                }
            case .key(let first):
                if isSpace(byte) { return state }
                if byte == UInt8(ascii: "\"") { return .string(key: true) }
                if byte == UInt8(ascii: "}") && first { stack.removeLast(); return completed() }
                return nil
            case .colon:
                if isSpace(byte) { return state }
                return byte == UInt8(ascii: ":") ? .value(first: false) : nil
            case .string(let key):
                switch byte {
                case UInt8(ascii: "\""): return key ? .colon : completed()
                case UInt8(ascii: "\\"): return .escape(key: key)
                case 0..<0x20: return nil
                case 0x20..<0x80: return state
                case 0xC2...0xDF: return .utf8(key: key, remaining: 1, range: 0x80...0xBF)
                case 0xE0: return .utf8(key: key, remaining: 2, range: 0xA0...0xBF)
                case 0xED: return .utf8(key: key, remaining: 2, range: 0x80...0x9F)
                case 0xE1...0xEF: return .utf8(key: key, remaining: 2, range: 0x80...0xBF)
                case 0xF0: return .utf8(key: key, remaining: 3, range: 0x90...0xBF)
                case 0xF1...0xF3: return .utf8(key: key, remaining: 3, range: 0x80...0xBF)
                case 0xF4: return .utf8(key: key, remaining: 3, range: 0x80...0x8F)
                default: return nil
                }
            case .utf8(let key, let remaining, let range):
                guard range.contains(byte) else { return nil }
                return remaining == 1 ? .string(key: key) : .utf8(key: key, remaining: remaining - 1, range: 0x80...0xBF)
            case .escape(let key):
                if Array(#""\/bfnrt"#.utf8).contains(byte) { return .string(key: key) }
                return byte == UInt8(ascii: "u") ? .unicode(key: key, remaining: 4) : nil
            case .unicode(let key, let remaining):
                guard isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20) else { return nil }
                return remaining == 1 ? .string(key: key) : .unicode(key: key, remaining: remaining - 1)
            case .literal(let rest):
                guard byte == rest.first else { return nil }
                return rest.count == 1 ? completed() : .literal(rest: rest.dropFirst())
            case .number(let number):
                let digit = isDigit(byte)
                switch number {
                case .minus: return byte == UInt8(ascii: "0") ? .number(.zero) : digit ? .number(.integer) : nil
                case .dot: return digit ? .number(.fraction) : nil
                case .exponentMark:
                    return digit ? .number(.exponent) : byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") ? .number(.exponentSign) : nil
                case .exponentSign: return digit ? .number(.exponent) : nil
                case .zero, .integer, .fraction, .exponent:
                    if digit && number != .zero { return state }
                    if byte == UInt8(ascii: ".") && (number == .zero || number == .integer) { return .number(.dot) }
                    if byte | 0x20 == UInt8(ascii: "e") && number != .exponent { return .number(.exponentMark) }
                    // The number ends here; the byte belongs to what follows it.
                    state = completed()
                    return step(byte)
                }
            case .end:
                return isSpace(byte) ? state : nil
            }
        }
        for (index, byte) in bytes.enumerated() {
            guard let next = step(byte) else { return index }
            state = next
        }
        return bytes.count
    }
}
