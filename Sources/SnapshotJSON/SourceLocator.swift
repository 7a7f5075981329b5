/// Error-path-only scans of a body, for the errors simdjson reports without a position (invalid UTF-8,
/// unterminated strings, raw control characters) or only at token precision (bad escapes).
enum SourceLocator {
    /// 1-based line and column of `offset`; columns count Unicode scalars (UTF-8 lead bytes).
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes[0 ..< min(max(offset, 0), bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// The first byte of the first ill-formed UTF-8 sequence (overlong forms, surrogates and code points
    /// above U+10FFFF are ill-formed), or `bytes.count` when there is none.
    static func firstInvalidUTF8(in bytes: [UInt8]) -> Int {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let (trailing, minimum, bits): (Int, UInt32, UInt8) =
                switch lead {
                case 0xC0 ... 0xDF: (1, 0x80, lead & 0x1F)
                case 0xE0 ... 0xEF: (2, 0x800, lead & 0x0F)
                case 0xF0 ... 0xF7: (3, 0x10000, lead & 0x07)
                default: (-1, 0, 0)
                }
            guard trailing > 0, index + trailing < bytes.count else { return index }
            var scalar = UInt32(bits)
            for next in bytes[index + 1 ... index + trailing] {
                guard next & 0xC0 == 0x80 else { return index }
                scalar = scalar << 6 | UInt32(next & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800 ... 0xDFFF).contains(scalar) { return index }
            index += trailing + 1
        }
        return bytes.count
    }

    /// The first raw control character inside a string or escape whose backslash is followed by anything but
    /// `" \\ / b f n r t u` (a control character included), else the opening quote of an unterminated string.
    static func stringProblem(in bytes: [UInt8]) -> (offset: Int, message: String)? {
        var index = 0
        var opening: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if opening != nil {
                if byte == UInt8(ascii: "\\") {
                    if index + 1 < bytes.count, !Array("\"\\/bfnrtu".utf8).contains(bytes[index + 1]) {
                        return (index, "invalid escape sequence")
                    }
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") {
                    opening = nil
                } else if byte < 0x20 {
                    let hex = String(byte, radix: 16)
                    return (index, "unescaped control character U+\(byte < 0x10 ? "000" : "00")\(hex) in string")
                }
            } else if byte == UInt8(ascii: "\"") {
                opening = index
            }
            index += 1
        }
        return opening.map { ($0, "unterminated string") }
    }

    /// The first bad escape sequence in the string that opens at `quote`.
    static func escapeProblem(in bytes: [UInt8], stringAt quote: Int) -> (offset: Int, message: String) {
        func unit(at index: Int) -> UInt32? {
            guard index >= 0, index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                  bytes[index + 1] == UInt8(ascii: "u") else { return nil }
            var value: UInt32 = 0
            for byte in bytes[index + 2 ..< index + 6] {
                guard let digit = Character(UnicodeScalar(byte)).hexDigitValue else { return nil }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
        var index = quote + 1
        while index + 1 < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            guard bytes[index] == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            let escaped = bytes[index + 1]
            if Array("\"\\/bfnrt".utf8).contains(escaped) {
                index += 2
            } else if escaped != UInt8(ascii: "u") {
                return (index, "invalid escape sequence")
            } else if let code = unit(at: index) {
                if (0xDC00 ... 0xDFFF).contains(code) { return (index, "unpaired UTF-16 surrogate escape") }
                if (0xD800 ... 0xDBFF).contains(code) {
                    guard let low = unit(at: index + 6), (0xDC00 ... 0xDFFF).contains(low) else {
                        return (index, "unpaired UTF-16 surrogate escape")
                    }
                    index += 12
                } else {
                    index += 6
                }
            } else {
                return (index, "invalid \\u escape: expected four hexadecimal digits")
            }
        }
        return (quote, "invalid string")
    }
}
