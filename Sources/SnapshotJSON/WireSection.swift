/// A section of a snapshot: its id, a key for its own members, and its items in order.
public struct WireSection: Hashable, Sendable {
    /// The section's id, or ``SectionID/implicit`` for a bare `{"items": [...]}` snapshot.
    public let id: SectionID
    /// Every member other than `"id"` and `"items"`, canonicalised (the empty object when there are none).
    public let content: ContentKey
    /// The section's items, in order.
    public let items: [WireItem]
}
