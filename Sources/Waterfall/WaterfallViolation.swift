/// One value out of its allowed range: which value, and what is allowed.
///
/// Both are typed values, named without reference to any wire format: the service writes where the client put
/// the value and the English.
public struct WaterfallViolation: Hashable, Sendable {
    /// Where a violation is.
    public enum Subject: Hashable, Sendable {
        /// A setting, or the page size.
        case setting(WaterfallSetting)
        /// A size value of the item at `index` among the items given.
        case item(index: Int, ItemSizeField)
    }

    /// The offending value.
    public var subject: Subject
    /// What is allowed.
    public var allowed: Allowed

    /// Creates a violation.
    ///
    /// - Parameters:
    ///   - subject: The offending value.
    ///   - allowed: What is allowed.
    public init(_ subject: Subject, allowed: Allowed) {
        self.subject = subject
        self.allowed = allowed
    }
}
