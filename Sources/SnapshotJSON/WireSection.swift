/// A section of a snapshot: its id, a key for its own members, and its items in order.
public struct WireSection: Hashable, Sendable {
    /// The section's id, or ``SectionID/implicit`` for a bare `{"items": [...]}` snapshot.
    public let id: SectionID
    /// Every member other than `"id"` and `"items"`, canonicalised (the empty object when there are none).
    public let content: ContentKey
    /// The section's items, in order.
    public let items: [WireItem]
    /// The section's object as the client wrote it, when it was read from a `/diff` body.
    let source: SourceText?

    init(id: SectionID, content: ContentKey, items: [WireItem], source: SourceText?) {
        self.id = id
        self.content = content
        self.items = items
        self.source = source
    }

    /// The section as the client wrote it (its whole object, `items` included), when it was read from a `/diff`
    /// body with an `"id"`; `nil` for the implicit section of a bare item list.
    public var json: ArraySlice<UInt8>? { source?.bytes }

    /// The top-level members other than `"id"` and `"items"` whose values differ from those of `old` (the same
    /// section in the other snapshot of the request); `nil` when either section has no ``json``.
    ///
    /// - Complexity: O(*n*) in the two sections' text lengths.
    public func memberChanges(from old: WireSection) -> [MemberChange]? {
        guard let source, let oldSource = old.source else { return nil }
        return MemberChange.changes(from: oldSource, to: source, ignoring: ["id", "items"])
    }

    /// Whether both sections have the same id, contents and items (where they were written is not compared).
    public static func == (lhs: WireSection, rhs: WireSection) -> Bool {
        lhs.id == rhs.id && lhs.content == rhs.content && lhs.items == rhs.items
    }

    /// Feeds the id, the content and the items to `hasher` (consistent with ``==(_:_:)``).
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(content)
        hasher.combine(items)
    }
}
