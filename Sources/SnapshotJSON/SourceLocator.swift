/// Error-path-only scans of a body, for the errors simdjson reports without a position (invalid UTF-8,
/// unterminated strings, raw control characters), only at token precision (bad escapes) or too late (see
/// ``firstSyntaxProblem(in:maximumDepth:)``).
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
}
