import Crypto
import FoundationEssentials
import Waterfall

/// Turns a layout ``Continuation`` into the opaque, URL-safe cursor a client sends back with the next page,
/// and back: base64url (no padding) of the continuation's versioned bytes followed by a 128-bit
/// HMAC-SHA256 tag, so that a cursor that was altered, truncated or made up is refused.
///
/// The key comes from a secret shared by every replica (`SNAPDIFF_CURSOR_KEY`), so a cursor made by one
/// replica continues on any other: the service stays stateless.
public struct CursorCodec: Sendable {
    /// Why a cursor is refused.
    public enum Failure: Error, Equatable, Sendable {
        /// Not base64url, too short or too long, or not a continuation of a known version.
        case malformed(String)
        /// The tag does not match: altered, or made with another key.
        case tampered
    }

    /// The secret used when `SNAPDIFF_CURSOR_KEY` is not set: cursors then detect corruption, and any
    /// deployment with the same default accepts them; set a secret of your own to make them unforgeable.
    public static let defaultSecret = "snapdiff: set SNAPDIFF_CURSOR_KEY to a secret of your own"
    /// The longest cursor accepted, in characters.
    public static let maximumLength = 2048
    private static let tagLength = 16

    private let key: SymmetricKey

    /// Creates a codec whose key is derived from `secret` (SHA-256).
    ///
    /// - Parameter secret: Any string; the same on every replica.
    public init(secret: String = CursorCodec.defaultSecret) {
        key = SymmetricKey(data: SHA256.hash(data: Array(secret.utf8)))
    }

    /// The cursor for a continuation.
    public func seal(_ continuation: Continuation) -> String {
        let payload = continuation.bytes
        let tag = HMAC<SHA256>.authenticationCode(for: payload, using: key)
        let data = Data(payload + Array(tag).prefix(Self.tagLength))
        return String(
            data.base64EncodedString().compactMap { character -> Character? in
                switch character {
                case "+": "-"
                case "/": "_"
                case "=": nil
                default: character
                }
            })
    }

    /// The continuation in a cursor.
    ///
    /// - Throws: ``Failure/malformed(_:)`` or ``Failure/tampered``.
    public func open(_ cursor: String) throws(Failure) -> Continuation {
        guard cursor.utf8.count <= Self.maximumLength else { throw .malformed("longer than \(Self.maximumLength) characters") }
        guard cursor.utf8.allSatisfy({ $0.isBase64URL }) else { throw .malformed("not base64url") }
        var text = String(cursor.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        text += String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: text), data.count > Self.tagLength else { throw .malformed("too short") }
        let bytes = Array(data)
        let payload = Array(bytes.dropLast(Self.tagLength))
        let expected = Array(HMAC<SHA256>.authenticationCode(for: payload, using: key)).prefix(Self.tagLength)
        // Compare every byte whatever the first difference, so timing says nothing about the tag.
        var difference: UInt8 = 0
        for (wanted, given) in zip(expected, bytes.suffix(Self.tagLength)) { difference |= wanted ^ given }
        guard difference == 0 else { throw .tampered }
        do {
            return try Continuation(bytes: payload)
        } catch {
            throw .malformed("not a continuation of this version")
        }
    }
}

extension UInt8 {
    fileprivate var isBase64URL: Bool {
        switch self {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
