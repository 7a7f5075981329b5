/// Why a request body is not a valid diff request.
///
/// Suggested HTTP mapping: ``invalid(_:)`` is 422; every other case is 400, except ``tooLarge(byteCount:)``
/// (413).
public enum RequestError: Error, Hashable, Sendable {
    /// The body is empty or whitespace only.
    case emptyBody
    /// The body is not JSON (RFC 8259). `line` and `column` are 1-based; the column counts Unicode scalars.
    case malformedJSON(message: String, byteOffset: Int, line: Int, column: Int)
    /// The body is not UTF-8; `byteOffset` is the first byte of the first invalid sequence.
    case invalidUTF8(byteOffset: Int)
    /// Arrays and objects nest deeper than `limit` (``DiffRequest/maximumNestingDepth``); `byteOffset` is the
    /// bracket that opens the first level too many.
    case tooDeep(limit: Int, byteOffset: Int)
    /// The body is longer than the parser accepts (4 GiB).
    case tooLarge(byteCount: Int)
    /// The body is JSON but not a valid request: the problems found, in document order, at most
    /// ``DiffRequest/maximumViolationCount`` (for `options.layouts`, once the rest of the request is valid);
    /// `omitted` counts the ones found past that.
    case invalid([Violation], omitted: Int = 0)
}
