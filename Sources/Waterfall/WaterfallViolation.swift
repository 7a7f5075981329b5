/// One value out of its allowed range: which value, and what is allowed.
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
    /// What is allowed, as a phrase (`must be a number from 0.25 to 8`).
    public var reason: String

    /// Creates a violation.
    public init(_ subject: Subject, _ reason: String) {
        self.subject = subject
        self.reason = reason
    }
}
