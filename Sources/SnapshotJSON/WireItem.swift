/// An item of a snapshot: its id and a key for the rest of its members.
///
/// Two items are equal when their ids and contents are; ``idNumber`` is not compared.
public struct WireItem: Hashable, Sendable {
    /// The item's id; item ids are meant to be unique across the whole snapshot.
    public let id: WireID
    /// Every member other than `"id"`, compared as canonical JSON (see ``ContentKey``).
    public let content: ContentKey
    /// The number the parse gave ``id`` (from 0): the items of one request, in both snapshots, have the same
    /// number exactly when they have the same id. -1 when the parse did not number the ids.
    public let idNumber: Int

    init(id: WireID, content: ContentKey, idNumber: Int) {
        self.id = id
        self.content = content
        self.idNumber = idNumber
    }

    /// Whether both items have the same id and equal contents.
    public static func == (lhs: WireItem, rhs: WireItem) -> Bool {
        lhs.id == rhs.id && lhs.content == rhs.content
    }

    /// Feeds the id and the content's hash to `hasher` (consistent with ``==(_:_:)``).
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(content)
    }
}
