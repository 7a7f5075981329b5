/// Where each section's items start among a snapshot's items counted section after section: an item's flat
/// index, for the tables that keep a value per item without the items (``SnapshotIDs``, ``SnapshotTexts``).
struct SectionStarts: Sendable {
    /// Each section's first flat index, and the number of items at the end (a body under 4 GiB holds fewer than
    /// 2^29 items).
    private let starts: [UInt32]

    /// The starts of `snapshot`'s sections.
    ///
    /// - Complexity: O(*s*) for *s* sections.
    init(_ snapshot: Snapshot) {
        var starts: [UInt32] = []
        starts.reserveCapacity(snapshot.sections.count + 1)
        var count = 0
        for section in snapshot.sections {
            starts.append(UInt32(count))
            count += section.items.count
        }
        starts.append(UInt32(count))
        self.starts = starts
    }

    /// The number of sections.
    var sectionCount: Int { starts.count - 1 }

    /// The number of items of the section at `section`.
    func itemCount(section: Int) -> Int { Int(starts[section + 1] - starts[section]) }

    /// The flat index of item `element` of the section at `section`.
    func flat(section: Int, element: Int) -> Int {
        precondition(element >= 0 && element < itemCount(section: section), "item index out of range")
        return Int(starts[section]) + element
    }
}
