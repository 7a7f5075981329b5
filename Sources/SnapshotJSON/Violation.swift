/// One place where a syntactically valid request breaks the request schema.
public struct Violation: Hashable, Sendable {
    /// Where, as a path from the request root: `new.sections[2].items[7].id`; member names that are not
    /// identifiers are written `["a b"]`. Empty for the request itself.
    public let path: String
    /// What is wrong, e.g. `expected string or integer, found object` (a ``ViolationRule``'s message).
    public let message: String
    /// The offending value's (or member name's) first byte in the body; `nil` for a missing member or an
    /// option value.
    public let byteOffset: Int?

    /// Creates a violation.
    ///
    /// - Parameters:
    ///   - path: The path from the request root.
    ///   - message: What is wrong.
    ///   - byteOffset: The offending value's first byte in the body, if there is one.
    public init(path: String, message: String, byteOffset: Int? = nil) {
        self.path = path
        self.message = message
        self.byteOffset = byteOffset
    }

    /// Creates a violation of `rule`, with its message.
    ///
    /// - Parameters:
    ///   - rule: The rule broken.
    ///   - path: The path from the request root.
    ///   - byteOffset: The offending value's first byte in the body, if there is one.
    public init(_ rule: ViolationRule, at path: String, byteOffset: Int? = nil) {
        self.init(path: path, message: rule.message, byteOffset: byteOffset)
    }
}
