/// Parses and validates the body of `POST /diff`.
///
/// One pass of simdjson On-Demand checks the JSON (every value), the request schema and the ids, and makes a
/// ``ContentKey`` of every item's and section's content: a section's is canonicalised at once, an item's keeps
/// its raw text, so that unchanged items compare by their bytes. Syntax errors win over schema violations;
/// schema violations are all collected and the first ``DiffRequest/maximumViolationCount`` listed (those of
/// `options.layouts` once the rest is valid).
///
/// ```swift
/// let request = try parseDiffRequest(Array(#"{"old":{"items":[]},"new":{"items":[{"id":1}]}}"#.utf8))
/// request.new.sections[0].items[0].id  // .integer(1)
/// ```
///
/// - Parameter body: The request body. When `body.capacity - body.count >= DiffRequest.requiredPadding`,
///   the bytes are read in place; otherwise they are copied once into a padded buffer.
/// - Returns: The request, with default options where `"options"` is absent.
/// - Throws: ``RequestError``: `.emptyBody`, `.malformedJSON` (with line and column), `.invalidUTF8`,
///   `.tooDeep`, `.tooLarge`, or `.invalid` with every violation found.
/// - Complexity: O(*n*) in the body's length (plus O(*m* log *m*) to sort an object's *m* members).
public func parseDiffRequest(_ body: [UInt8]) throws(RequestError) -> DiffRequest {
    try RequestReader.read(body)
}
