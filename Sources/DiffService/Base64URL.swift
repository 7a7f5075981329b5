/// Base64url without padding (RFC 4648 §5), strict in both directions: ``encode(_:)`` writes the one canonical
/// text of some bytes, and ``decode(_:)`` accepts nothing else (no padding, no character outside the alphabet, no
/// set bit in the unused low bits of the last character), so that no two cursors open to the same bytes.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The canonical base64url text of `bytes`, without padding.
    ///
    /// - Complexity: O(*n*) in the number of bytes.
    static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let group = bytes[index..<min(index + 3, bytes.count)]
            var bits = 0
            for byte in group { bits = bits << 8 | Int(byte) }
            bits <<= 8 * (3 - group.count)
            for sextet in 0...group.count { text.append(alphabet[bits >> (18 - 6 * sextet) & 63]) }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of a canonical base64url text, or `nil` when `text` is not the exact ``encode(_:)`` of some
    /// bytes: a character outside `A–Z a–z 0–9 - _` (padding `=` included), a length of 4*k* + 1, or a last
    /// character whose unused low bits are not zero.
    ///
    /// - Complexity: O(*n*) in the length of the text.
    static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count * 3 / 4)
        var bits = 0
        var bitCount = 0
        for character in text {
            guard let sextet = value(of: character) else { return nil }
            bits = (bits << 6 | sextet) & 0xFFF
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                bytes.append(UInt8(truncatingIfNeeded: bits >> bitCount))
            }
        }
        // What is left over (0, 2 or 4 bits) encodes nothing and must be zero.
        guard bits & (1 << bitCount - 1) == 0 else { return nil }
        return bytes
    }

    /// The value of a base64url character, `nil` for any other byte.
    static func value(of character: UInt8) -> Int? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(character - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(character - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(character - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
