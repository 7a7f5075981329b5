/// Reads a JSON document whose root is an object (a `/layout` request) with simdjson, checking syntax,
/// UTF-8, nesting depth, number exponents and duplicate member names exactly as ``parseDiffRequest(_:)``
/// does. A root member `"items"` is read like a bare snapshot's item list (ids exact: `1` and `"1"` differ,
/// `1.0` is not an id); every other member is returned as canonical bytes.
///
/// - Parameter body: The JSON text.
/// - Returns: The root object (without `"items"`) and the items.
/// - Throws: ``RequestError`` for an empty or malformed body; `.invalid` when the root is not an object, an
///   object repeats a member name, or an item is not an object with a valid `id`.
public func parseJSONDocument(_ body: [UInt8]) throws(RequestError) -> JSONDocument {
    try RequestReader.readDocument(body)
}
