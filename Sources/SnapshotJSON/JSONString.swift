/// The one JSON string escaper: what the service writes in responses, in JSON paths and in messages that quote
/// a value.
///
/// `"` and `\` are escaped with a backslash, line feed, carriage return and tab as `\n`, `\r`, `\t`, every
/// other control character (U+0000 … U+001F) as `\u00XX`; everything else, non-ASCII included, is written as
/// is (UTF-8).
public enum JSONString {
    /// Appends `string` as a quoted JSON string to `bytes`.
    ///
    /// - Parameters:
    ///   - string: The string to write.
    ///   - bytes: Where to append it, quotes included.
    /// - Complexity: O(*n*) in the string's UTF-8 length; one scan and a bulk copy when nothing needs escaping.
    @inlinable
    public static func appendQuoted(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        let utf8 = string.utf8
        let span = utf8.span
        var plain = true  // the common case: nothing to escape
        for index in span.indices {
            let byte = span[index]
            plain = plain && byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
        }
        if plain {
            bytes.append(contentsOf: utf8)
        } else {
            for byte in utf8 { appendEscaped(byte, to: &bytes) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `string` as a quoted JSON string: `"a\"b"`.
    ///
    /// - Parameter string: The string to quote.
    /// - Returns: The JSON text.
    /// - Complexity: O(*n*) in the string's UTF-8 length.
    public static func quoted(_ string: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count + 2)
        appendQuoted(string, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends one UTF-8 byte of a string, escaped if JSON requires it.
    @usableFromInline
    static func appendEscaped(_ byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0 ..< 0x20:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0xF)])
        default: bytes.append(byte)
        }
    }
}
