/// The ids of a snapshot's sections and items, by position, without the items: 9 bytes an item where a
/// ``WireItem`` is 32. An answer that names the ids of its changes (`"ids": true`) keeps these, so that the
/// snapshots can be freed while the answer is written.
public struct SnapshotIDs: Sendable {
    /// Each section's id, in order.
    private let sectionIDs: [SectionID]
    /// Where each section's items lie in ``kinds`` and ``payloads``.
    private let starts: SectionStarts
    /// Each item's id kind and payload (``WireItem/storedID``), section after section.
    private let kinds: [WireItem.IDKind]
    private let payloads: [Int64]
    /// The body the items were read from (string ids lie in it).
    private let text: RequestText?

    /// The ids of `snapshot`.
    ///
    /// - Complexity: O(*s* + *n*) for *s* sections and *n* items.
    public init(_ snapshot: Snapshot) {
        sectionIDs = snapshot.sections.map(\.id)
        starts = SectionStarts(snapshot)
        var kinds: [WireItem.IDKind] = [], payloads: [Int64] = []
        kinds.reserveCapacity(snapshot.itemCount)
        payloads.reserveCapacity(snapshot.itemCount)
        for section in snapshot.sections {
            for index in section.items.indices {  // (read in place: iterating would copy each item)
                let (kind, payload) = section.items[index].storedID
                kinds.append(kind)
                payloads.append(payload)
            }
        }
        self.kinds = kinds
        self.payloads = payloads
        text = snapshot.text
    }

    /// The id of the section at `index`.
    public func section(_ index: Int) -> SectionID { sectionIDs[index] }

    /// The id of item `element` of the section at `section`.
    ///
    /// - Complexity: O(*n*) in the length of a string id (a new `String`).
    public func item(section: Int, element: Int) -> WireID {
        let flat = starts.flat(section: section, element: element)
        guard let text else { preconditionFailure("a snapshot with items and no body") }
        return WireItem.id(kinds[flat], payload: payloads[flat], in: text)
    }
}
