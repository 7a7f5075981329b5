/// A JSON document read by ``parseJSONDocument(_:)``.
public struct JSONDocument: Sendable {
    /// A reader at the root object, without its `"items"` member.
    public var root: CanonicalReader
    /// The root's `"items"`, when present: each with its id and the canonical content of its other members.
    public var items: [WireItem]?
}
