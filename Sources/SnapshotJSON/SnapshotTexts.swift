/// Where a snapshot's items and sections lie in the `/diff` body, without the items: 8 bytes an item where a
/// ``WireItem`` is 32. A JSON Patch copies inserted items and sections from the body as sent; it keeps these, so
/// that the snapshots can be freed before it is written.
public struct SnapshotTexts: Sendable {
    /// Whether the snapshot was written in the bare `{"items": [...]}` form (``Snapshot/isBareItemList``).
    public let isBareItemList: Bool
    /// The body the snapshot was read from, if any.
    private let text: RequestText?
    /// The position of the snapshot's first section among the body's (``RequestText/section(_:)``).
    private let firstSection: Int
    /// Where each section's items lie in ``itemPlaces``.
    private let starts: SectionStarts
    /// Where each item's object lies in the body, section after section (``WireItem/textPlace``: the offset in
    /// the low 32 bits, the length in the high 32).
    private let itemPlaces: [UInt64]

    /// The places of `snapshot`'s items and sections.
    ///
    /// - Complexity: O(*s* + *n*) for *s* sections and *n* items.
    public init(_ snapshot: Snapshot) {
        isBareItemList = snapshot.isBareItemList
        text = snapshot.text
        firstSection = snapshot.firstSection
        starts = SectionStarts(snapshot)
        var places: [UInt64] = []
        places.reserveCapacity(snapshot.itemCount)
        for section in snapshot.sections {
            for index in section.items.indices {  // (read in place: iterating would copy each item)
                places.append(section.items[index].textPlace)
            }
        }
        itemPlaces = places
    }

    /// The number of sections.
    public var sectionCount: Int { starts.sectionCount }

    /// The number of items of the section at `section`.
    public func itemCount(section: Int) -> Int { starts.itemCount(section: section) }

    /// Item `element` of the section at `section` as the client wrote it (its whole object, `"id"` included):
    /// ``WireItem/json``.
    public func item(section: Int, element: Int) -> JSONText {
        let flat = starts.flat(section: section, element: element)
        guard let text else { preconditionFailure("a snapshot with items and no body") }
        let place = itemPlaces[flat]
        let offset = Int(UInt32(truncatingIfNeeded: place))
        return JSONText(text: text, range: offset ..< offset + Int(place >> 32))
    }

    /// The section at `index` as the client wrote it (its whole object, `items` included), as
    /// ``Snapshot/sectionText(_:)`` gives it.
    ///
    /// - Precondition: The snapshot was read as `{"sections": [...]}` from a request that asks for a JSON Patch or
    ///   the changed members (the parse keeps where sections lie only then).
    public func section(_ index: Int) -> JSONText {
        precondition(index >= 0 && index < sectionCount, "section index out of range")
        guard let text, !isBareItemList else { preconditionFailure("a bare item list has no section objects") }
        return JSONText(text: text, range: text.section(firstSection + index))
    }
}
