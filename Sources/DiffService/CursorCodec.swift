import Crypto
import Waterfall

/// Turns a layout ``Continuation`` into the opaque, URL-safe cursor a client sends back with the next page,
/// and back: canonical base64url (no padding) of the continuation's versioned bytes followed by a 128-bit
/// HMAC-SHA256 tag, so that a cursor that was altered, truncated or made up is refused.
///
/// The keys come from secrets shared by every replica (`SNAPDIFF_CURSOR_KEY`), so a cursor made by one
/// replica continues on any other: the service stays stateless. The first key seals; every key opens, so a
/// key is rotated by putting the new one first and dropping the old one once its cursors have expired.
/// Without a secret, ``init()`` draws a random key: its cursors then continue only on the same codec, and
/// nobody can make one.
public struct CursorCodec: Sendable {
    /// Why a cursor is refused.
    public enum Failure: Error, Equatable, Sendable {
        /// Not canonical base64url, too short or too long, or not a continuation of a known version.
        case malformed(String)
        /// The tag does not match: altered, or made with another key.
        case tampered
    }

    /// The longest cursor accepted, in characters.
    public static let maximumLength = 2048
    private static let tagLength = 16

    /// The key that seals, then the other keys that open.
    private let keys: [SymmetricKey]

    /// Creates a codec with this process's random 256-bit key (drawn once, at first use): its cursors open in this
    /// process only, so set secrets (``init(secrets:)``) when several replicas or restarts must continue each
    /// other's cursors.
    public init() {
        keys = [Self.processKey]
    }

    /// A codec with a fresh random key (another process's, as far as this one can tell).
    init(randomKey: Void) {
        keys = [SymmetricKey(size: .bits256)]
    }

    /// The random key of this process, drawn once: codecs made without secrets share it.
    private static let processKey = SymmetricKey(size: .bits256)

    /// Creates a codec whose keys are derived from `secrets` (SHA-256 of each): the first seals, all of them open.
    ///
    /// - Parameter secrets: At least one secret, the one that seals first; the same list on every replica.
    /// - Precondition: `secrets` is not empty.
    public init(secrets: [String]) {
        precondition(!secrets.isEmpty, "a cursor codec needs at least one secret")
        keys = secrets.map { SymmetricKey(data: SHA256.hash(data: Array($0.utf8))) }
    }

    /// Creates a codec whose only key is derived from `secret` (``init(secrets:)`` with one secret).
    ///
    /// - Parameter secret: Any string; the same on every replica.
    public init(secret: String) {
        self.init(secrets: [secret])
    }

    /// The cursor for a continuation, sealed with the first key.
    ///
    /// - Complexity: O(*n*) in the size of the continuation.
    public func seal(_ continuation: Continuation) -> String {
        let payload = continuation.bytes
        return Base64URL.encode(payload + Self.tag(for: payload, key: keys[0]))
    }

    /// The continuation in a cursor sealed with any of the keys.
    ///
    /// - Throws: ``Failure/malformed(_:)`` or ``Failure/tampered``.
    /// - Complexity: O(*n* × *k*) for a cursor of *n* characters and *k* keys.
    public func open(_ cursor: String) throws(Failure) -> Continuation {
        guard cursor.utf8.count <= Self.maximumLength else { throw .malformed("longer than \(Self.maximumLength) characters") }
        guard cursor.utf8.allSatisfy({ Base64URL.value(of: $0) != nil }) else { throw .malformed("not base64url") }
        guard let bytes = Base64URL.decode(cursor.utf8) else { throw .malformed("not canonical base64url") }
        guard bytes.count > Self.tagLength else { throw .malformed("too short") }
        let payload = Array(bytes.dropLast(Self.tagLength))
        let given = Array(bytes.suffix(Self.tagLength))
        guard keys.contains(where: { Self.tag(for: payload, key: $0).matches(given) }) else { throw .tampered }
        do {
            return try Continuation(bytes: payload)
        } catch {
            throw .malformed("not a continuation of this version")
        }
    }

    /// The first ``tagLength`` bytes of the HMAC-SHA256 of `payload`.
    private static func tag(for payload: [UInt8], key: SymmetricKey) -> [UInt8] {
        Array(Array(HMAC<SHA256>.authenticationCode(for: payload, using: key)).prefix(tagLength))
    }
}

extension [UInt8] {
    /// Whether two tags are equal, comparing every byte whatever the first difference, so that timing says
    /// nothing about the expected tag.
    fileprivate func matches(_ other: [UInt8]) -> Bool {
        guard count == other.count else { return false }
        var difference: UInt8 = 0
        for (wanted, given) in zip(self, other) { difference |= wanted ^ given }
        return difference == 0
    }
}
