/// An item of a snapshot: its id and a key for the rest of its members.
///
/// Two items are equal when their ids and contents are; ``identityNumber`` and ``contentNumber`` are not compared.
///
/// An item is where it lies in the `/diff` body it was read from (32 bytes, whatever its size): its text, its
/// id's bytes and its numbers; its ``id`` and ``content`` are made when read. A request holds an item per item of
/// both snapshots, so this size is most of what a request of many small items costs (the body is at most 4 GiB,
/// simdjson's limit, so 32-bit offsets reach all of it).
public struct WireItem: Hashable, Sendable {
    /// How the id is written.
    enum IDKind: UInt32, Sendable {
        /// A JSON integer: the payload is its value.
        case integer
        /// A string written without escapes: its UTF-8 bytes are the body's (``IDPlace``).
        case inBody
        /// A string written with escapes: its unescaped UTF-8 bytes are in ``RequestText/unescapedIDs``.
        case unescaped
    }

    /// Where a string id's bytes lie, in the body or among the unescaped ids (per ``IDKind``), from its payload:
    /// the offset in the low 32 bits and the length in the high 32 bits, as the parse packs it
    /// (``JSONScalar/packed``).
    struct IDPlace {
        let offset: Int
        let count: Int

        init(payload: Int64) {
            offset = Int(UInt32(truncatingIfNeeded: payload))
            count = Int(UInt64(bitPattern: payload) >> 32)
        }
    }

    /// The body the item was read from.
    private let text: RequestText
    /// The item's whole object in ``text``.
    private let textOffset: UInt32, textCount: UInt32
    /// The integer id, or the string id's ``IDPlace``, packed.
    private let idPayload: Int64
    /// The id's ``IDKind`` in the top 2 bits, and ``identityNumber`` + 1 in the low 30: a body (under 4 GiB)
    /// holds fewer than 2^29 items, each at least `{"id":0}` and a separator, so their numbers fit.
    private let kindAndIdentity: UInt32
    private let storedContentNumber: Int32

    private static let identityBits: UInt32 = 30
    private static let identityMask: UInt32 = 1 << identityBits - 1

    /// How the id is written.
    private var idKind: IDKind {
        switch kindAndIdentity >> Self.identityBits {
        case IDKind.integer.rawValue: .integer
        case IDKind.inBody.rawValue: .inBody
        default: .unescaped
        }
    }

    /// The number the parse gave ``id`` (from 0): the items of one request, in both snapshots, have the same
    /// number exactly when they have the same id. -1 when the parse did not number the ids.
    public var identityNumber: Int { Int(kindAndIdentity & Self.identityMask) - 1 }
    /// The number of the item's content, decided by the reader before the diff: an item of one snapshot and the
    /// item of its id that the other keeps (the first of its id in a kept section) have equal numbers exactly
    /// when their contents are equal, so the diff compares numbers and never reads JSON. The items of the
    /// snapshot walked first all have different numbers.
    public var contentNumber: Int { Int(storedContentNumber) }

    /// An item whose text is `text[textRange]`, whose id is of `kind` (with `payload`: see ``idPayload``).
    init(text: RequestText, textRange: Range<Int>, idKind: IDKind, idPayload: Int64, identityNumber: Int, contentNumber: Int) {
        guard let offset = UInt32(exactly: textRange.lowerBound), let count = UInt32(exactly: textRange.count),
            identityNumber >= -1, identityNumber < Int(Self.identityMask), let content = Int32(exactly: contentNumber)
        else { preconditionFailure("an item beyond 4 GiB, or numbered beyond 2^30 - 2 or 2^31") }
        self.text = text
        textOffset = offset
        textCount = count
        self.idPayload = idPayload
        kindAndIdentity = idKind.rawValue << Self.identityBits | UInt32(identityNumber + 1)
        storedContentNumber = content
    }

    /// The item's id; item ids are meant to be unique across the whole snapshot.
    ///
    /// - Complexity: O(*n*) in the length of a string id (a new `String` each time).
    public var id: WireID { Self.id(idKind, payload: idPayload, in: text) }

    /// How the item's id is written, and where it lies or its value (what ``SnapshotIDs`` keeps of an item).
    var storedID: (kind: IDKind, payload: Int64) { (idKind, idPayload) }

    /// The id of `kind` and `payload` (see ``storedID``) of an item read from `text`.
    static func id(_ kind: IDKind, payload: Int64, in text: RequestText) -> WireID {
        switch kind {
        case .integer: return .integer(payload)
        case .inBody:
            let place = IDPlace(payload: payload)
            return .string(text.string(at: place.offset, count: place.count))
        case .unescaped:
            let place = IDPlace(payload: payload)
            return .string(text.unescapedID(at: place.offset, count: place.count))
        }
    }

    /// Every member other than `"id"`, compared as canonical JSON (see ``ContentKey``).
    ///
    /// - Complexity: O(*n* log *n*) in the item's text: it is read again and canonicalised (the diff does not
    ///   use it; see ``contentNumber``).
    public var content: ContentKey { ContentKey(encoding: text.canonicalItem(at: Int(textOffset), count: Int(textCount))) }

    /// Where the item's object lies in the body.
    var textRange: Range<Int> { Int(textOffset) ..< Int(textOffset) + Int(textCount) }

    /// Whether both items have the same id and equal contents (their contents are canonicalised: for tests and
    /// diagnostics; the diff compares ``contentNumber``s).
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
    /// The item as the client wrote it (its whole object, `"id"` included).
    public var json: JSONText { JSONText(text: text, range: Int(textOffset) ..< Int(textOffset) + Int(textCount)) }

    /// Where the item's object lies in the body, packed: the offset in the low 32 bits and the length in the
    /// high 32 (what ``SnapshotTexts`` keeps of an item).
    var textPlace: UInt64 { UInt64(textOffset) | UInt64(textCount) << 32 }
}
