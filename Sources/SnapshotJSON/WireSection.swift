/// A section of a snapshot: its id, a key for its own members, and its items in order.
///
/// A section is where it lies in the `/diff` body it was read from (32 bytes, whatever its size): its id's bytes
/// and its content's canonical encoding; its ``id`` and ``content`` are made when read. A request holds a section
/// per section of both snapshots, so this size is most of what a request of many small sections costs.
public struct WireSection: Hashable, Sendable {
    /// How the id is written.
    enum IDKind: Sendable {
        /// No id: the single section of a bare `{"items": [...]}` snapshot (``SectionID/implicit``).
        case implicit
        /// A JSON integer: the payload is its value.
        case integer
        /// A string written without escapes: its UTF-8 bytes are the body's (``WireItem/IDPlace``).
        case inBody
        /// A string written with escapes: its unescaped UTF-8 bytes are among the request's unescaped ids.
        case unescaped
    }

    /// The body the section was read from (which holds its id's bytes and its content's arena), tagged with how
    /// the id is written: an enum whose every case is one reference takes a reference's 8 bytes (Swift keeps the
    /// tag in the reference's spare bits), where a separate kind would round the section up by 8.
    private enum Source: Sendable {
        case implicit(RequestText)
        case integer(RequestText)
        case inBody(RequestText)
        case unescaped(RequestText)

        init(_ text: RequestText, _ kind: IDKind) {
            switch kind {
            case .implicit: self = .implicit(text)
            case .integer: self = .integer(text)
            case .inBody: self = .inBody(text)
            case .unescaped: self = .unescaped(text)
            }
        }

        /// The body.
        var text: RequestText {
            switch self {
            case .implicit(let text), .integer(let text), .inBody(let text), .unescaped(let text): text
            }
        }

        /// How the id is written.
        var kind: IDKind {
            switch self {
            case .implicit: .implicit
            case .integer: .integer
            case .inBody: .inBody
            case .unescaped: .unescaped
            }
        }
    }

    /// The body, and how the id is written.
    private let source: Source
    /// The integer id, or the string id's ``WireItem/IDPlace``, packed (0 for an implicit section).
    private let idPayload: Int64
    /// Where the content's canonical encoding lies in ``RequestText/arena`` (an arena under 4 GiB: the parse
    /// refuses a larger one); none for a section without content members, whose content is `{}`.
    private let contentOffset: UInt32, contentCount: UInt32
    /// The section's items, in order.
    public let items: [WireItem]

    /// A section of `text` whose id is of `idKind` (with `idPayload`: see ``idPayload``), whose content's
    /// encoding is `text.arena`'s bytes at `contentOffset ..< contentOffset + contentCount`.
    init(text: RequestText, idKind: IDKind, idPayload: Int64, contentOffset: Int, contentCount: Int, items: [WireItem]) {
        guard let offset = UInt32(exactly: contentOffset), let count = UInt32(exactly: contentCount) else {
            preconditionFailure("a section's content beyond 4 GiB")
        }
        source = Source(text, idKind)
        self.idPayload = idPayload
        self.contentOffset = offset
        self.contentCount = count
        self.items = items
    }

    /// The same section with other items (the same id and content).
    func replacingItems(_ items: [WireItem]) -> WireSection {
        WireSection(text: source.text, idKind: source.kind, idPayload: idPayload, contentOffset: Int(contentOffset),
                    contentCount: Int(contentCount), items: items)
    }

    /// The section's id, or ``SectionID/implicit`` for a bare `{"items": [...]}` snapshot.
    ///
    /// - Complexity: O(*n*) in the length of a string id (a new `String` each time).
    public var id: SectionID {
        switch source {  // (an explicit id is read as an item's is)
        case .implicit: .implicit
        case .integer(let text): .explicit(WireItem.id(.integer, payload: idPayload, in: text))
        case .inBody(let text): .explicit(WireItem.id(.inBody, payload: idPayload, in: text))
        case .unescaped(let text): .explicit(WireItem.id(.unescaped, payload: idPayload, in: text))
        }
    }

    /// Every member other than `"id"` and `"items"`, canonicalised (the empty object when there are none).
    ///
    /// - Complexity: O(*n*) in the length of the encoding, which is hashed each time (most are `{}`; keeping the
    ///   hash would cost 8 bytes a section).
    public var content: ContentKey {
        guard contentCount != 0 else { return ContentKey.emptyObject }
        let arena = source.text.arena, offset = Int(contentOffset), count = Int(contentCount)
        return ContentKey(arena: arena, offset: offset, count: count,
                          hash: ContentKey.hash(arena.bytes(at: offset, count: count)))
    }

    /// Whether both sections have the same id, equal contents and equal items (where they were written is not
    /// compared).
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
