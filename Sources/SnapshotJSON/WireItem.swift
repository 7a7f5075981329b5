/// An item of a snapshot: its id and a key for the rest of its members.
public struct WireItem: Hashable, Sendable {
    /// The item's id; item ids are meant to be unique across the whole snapshot.
    public let id: WireID
    /// Every member other than `"id"`, compared as canonical JSON (see ``ContentKey``).
    public let content: ContentKey
}
