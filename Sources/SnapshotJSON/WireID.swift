internal import SimdJSON

/// The id of an item or a section as written on the wire: a JSON string or a JSON integer.
///
/// `1` and `"1"` are different ids. Strings are compared by their Unicode scalars (their UTF-8 bytes) with
/// **no** normalisation: `"\u00e9"` and `"e\u0301"` are different ids, while `"\u00e9"` and `"é"` are the
/// same one (escapes are decoded before comparing).
///
/// - Important: `String.==` applies canonical equivalence, so never compare two `.string` payloads with
///   `==` yourself; compare the `WireID`s.
public enum WireID: Hashable, Sendable {
    /// A JSON string id, unescaped.
    case string(String)
    /// A JSON integer id, written without fraction or exponent, within `Int64`.
    case integer(Int64)

    /// Whether two ids are the same: same case, and the same integer or the same UTF-8 bytes.
    ///
    /// - Complexity: O(*n*) in the length of string ids.
    public static func == (lhs: WireID, rhs: WireID) -> Bool {
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)): a == b
        case let (.string(a), .string(b)): Self.sameScalars(a, b)
        default: false
        }
    }

    /// Hashes the case and the integer or the UTF-8 bytes (consistent with ``==(_:_:)``).
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .integer(let value):
            hasher.combine(0 as UInt8)
            hasher.combine(value)
        case .string(let value):
            hasher.combine(1 as UInt8)
            combineUTF8(value, into: &hasher)  // (in place: native strings, small or not)
        }
    }

    static func sameScalars(_ a: String, _ b: String) -> Bool { utf8Equal(a, b) }
}

extension WireID: CustomStringConvertible {
    /// The id as JSON: `42` or `"a"` (quoted by ``JSONString``).
    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .string(let value): JSONString.quoted(value)
        }
    }
}
