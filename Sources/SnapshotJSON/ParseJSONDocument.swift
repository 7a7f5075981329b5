/// Reads a `/layout` body with simdjson, checking syntax, UTF-8, nesting depth, number exponents and repeated
/// member names exactly as ``parseDiffRequest(_:)`` does, and that the root is an object whose `"items"`, if
/// any, is an array of objects with valid ids (ids exact: `1` and `"1"` differ, `1.0` is not an id).
///
/// - Parameters:
///   - body: The JSON text.
///   - depth: How deep the document's readers enter (the root is depth 0, the items 2): containers deeper are
///     validated but not listed, so that values no reader reads cost no memory (``JSONReader/isListed``).
///     Everything by default.
/// - Returns: The root object and the items.
/// - Throws: ``RequestError`` for an empty or malformed body; `.invalid`, listing every violation in the order
///   met, when the root is not an object, an object repeats a member name, or an item is not an object with a
///   valid `id`.
public func parseJSONDocument(_ body: [UInt8], depth: Int = .max) throws(RequestError) -> JSONDocument {
    let reading = try RequestReader.readTree(body, listedDepth: depth)
    var violations = SchemaViolations(reading)
    guard let document = JSONDocument(reading.tree, violations: &violations), violations.isEmpty else {
        throw violations.error
    }
    return document
}
