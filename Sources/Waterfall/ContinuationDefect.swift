/// Why bytes are not a ``Continuation`` of this version.
public enum ContinuationDefect: Hashable, Sendable {
    /// The first byte is not ``Continuation/version``.
    case unknownVersion
    /// The bytes end before the continuation does.
    case truncated
    /// An integer is encoded in more than 63 bits.
    case integerTooLong
    /// An integer is beyond what a continuation can hold.
    case integerOutOfRange
    /// The column count is not 1 … ``WaterfallGeometry/maximumColumnCount``, or the next column is not one of
    /// the columns.
    case columnCountOutOfRange
    /// Bytes follow the continuation.
    case trailingBytes
}
