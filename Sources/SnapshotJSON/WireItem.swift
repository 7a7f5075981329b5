/// An item of a snapshot: its id and a key for the rest of its members.
///
/// Two items are equal when their ids and contents are; ``identityNumber`` and ``contentNumber`` are not compared.
public struct WireItem: Hashable, Sendable {
    /// How the id is held: as a value, or as where its bytes lie in the request body.
    enum StoredID: Sendable {
        /// An id made when the item was read.
        case value(WireID)
        /// A string id written without escapes, whose UTF-8 bytes are the body's at `offset ..< offset + count`
        /// (the body that ``content`` refers to): its `String` is made only if ``id`` is read. The diff itself
        /// matches ids by ``identityNumber``, so most requests never read them.
        case inBody(offset: Int, count: Int)
    }

    private let storedID: StoredID
    /// Every member other than `"id"`, compared as canonical JSON (see ``ContentKey``).
    public let content: ContentKey
    /// The number the parse gave ``id`` (from 0): the items of one request, in both snapshots, have the same
    /// number exactly when they have the same id. -1 when the parse did not number the ids.
    public let identityNumber: Int
    /// The number of the item's content, decided by the reader: an item of the second snapshot and the first
    /// item of its id in the other have equal non-negative numbers exactly when their contents are equal, so the
    /// diff (which keeps the first item of an id) compares numbers. -1 for a later item of an id in the snapshot
    /// read first: comparing it compares the contents (``content``), which the diff does only when keepFirst drops
    /// a whole section holding the first item of an id.
    public let contentNumber: Int

    init(id: StoredID, content: ContentKey, identityNumber: Int, contentNumber: Int) {
        if case .inBody = id { precondition(content.body != nil, "an id in the body needs a content in the body") }
        storedID = id
        self.content = content
        self.identityNumber = identityNumber
        self.contentNumber = contentNumber
    }

    /// The item with its content equality left undecided (see ``contentNumber``).
    var undecided: WireItem {
        WireItem(id: storedID, content: content, identityNumber: identityNumber, contentNumber: -1)
    }

    /// The item's id; item ids are meant to be unique across the whole snapshot.
    ///
    /// - Complexity: O(*n*) in the id's length when the id is read from the body (a new `String` each time).
    public var id: WireID {
        switch storedID {
        case .value(let id): id
        // (`init` checked that the content is in the body.)
        case .inBody(let offset, let count): .string(content.body!.string(at: offset, count: count))
        }
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

extension WireItem {
    /// The item as the client wrote it (its whole object, `"id"` included), when it was read from a `/diff` body.
    public var json: JSONText? { content.source }
}
