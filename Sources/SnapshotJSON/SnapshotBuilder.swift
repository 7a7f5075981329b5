internal import SimdJSON

/// Builds the two ``Snapshot``s of a `/diff` request from what its walk recorded: the sections (``DiffRequestSchema``)
/// and the probed items (their texts, ids and repeats), with every content comparison the diff will need decided
/// (``WireItem/contentNumber``), so that the diff compares numbers and never reads JSON.
///
/// The snapshot walked first is built first, and is the reference of the other. The diff matches an item of the
/// other snapshot with the item of its id that the reference keeps: the first of that id in the reference's kept
/// sections (keepFirst drops a section whose id an earlier section has, with its items). Each item of the other is
/// compared now with that counterpart: it takes the counterpart's number when their contents are equal, and keeps
/// its own (its probe index, which no other item has) otherwise. An item whose bytes repeat its counterpart's
/// (``JSONProbe/repeatOf``) is that item again, id and content: it costs neither a comparison nor a new item.
struct SnapshotBuilder {
    private let sections: [DiffRequestSchema.SectionRecord]
    /// The probes, their ids numbered (``IDNumbering``, ``JSONProbe/memberNumber``).
    private let probes: ProbeTable
    private let text: RequestText

    /// `probes` must stay valid (the walk's parser unused) while the builder is used; `text` holds the body the
    /// records point into, and the arena of the sections' contents.
    init(sections: [DiffRequestSchema.SectionRecord], probes: ProbeTable, text: RequestText) {
        self.sections = sections
        self.probes = probes
        self.text = text
    }

    /// Both snapshots of a request.
    ///
    /// - Complexity: O(*n*) for *n* items, plus the comparison of each item whose text differs from its
    ///   counterpart's.
    func snapshots(
        old: DiffRequestSchema.SnapshotRecord, new: DiffRequestSchema.SnapshotRecord
    ) -> (old: Snapshot, new: Snapshot) {
        let oldFirst = old.firstSection <= new.firstSection
        let (first, second) = oldFirst ? (old, new) : (new, old)
        let built = reference(to: snapshot(first), first)
        var reference: Reference? = built
        let other = snapshot(second, repeating: &reference)
        return oldFirst ? (built.snapshot, other) : (other, built.snapshot)
    }

    /// The snapshot walked first, which repeats nothing.
    private func snapshot(_ record: DiffRequestSchema.SnapshotRecord) -> Snapshot {
        var nothing: Reference? = nil
        return snapshot(record, repeating: &nothing)
    }

    /// `built`, made from `record`, as the reference of the other snapshot, with the counterparts of the other's
    /// items found from the identity numbers.
    ///
    /// The ids are numbered from 0 in order of first appearance, the snapshot walked first first: its ids are all
    /// different exactly when its last item's number is its item count - 1, and each item's number is then its
    /// index. Only when an id repeats is a table of counterparts made.
    ///
    /// - Complexity: O(1) when the snapshot's ids are all different, else O(*n*) for its *n* items.
    private func reference(to built: Snapshot, _ record: DiffRequestSchema.SnapshotRecord) -> Reference {
        let first = record.firstItem
        let count = built.itemCount
        if count == 0 || probes[first + count - 1].memberNumber == count - 1 {
            return Reference(built, firstItem: first, counterparts: nil)
        }
        // An id that repeats: the item the diff keeps is the first of its id in a kept section.
        let dropped = droppedSections(of: built)
        var table = [Int32](repeating: Reference.absent, count: count)
        var flat = 0
        for (section, items) in built.sections.enumerated().map({ ($0.offset, $0.element.items.count) }) {
            defer { flat += items }
            guard !dropped.contains(section) else { continue }
            for index in flat ..< flat + items {
                let number = probes[first + index].memberNumber
                if table[number] == Reference.absent { table[number] = Int32(index) }
            }
        }
        return Reference(built, firstItem: first, counterparts: table)
    }

    /// The sections of `snapshot` that keepFirst drops: those whose id an earlier section has.
    private func droppedSections(of snapshot: Snapshot) -> Set<Int> {
        guard snapshot.sections.count > 1 else { return [] }
        var seen = Set<SectionID>(), dropped = Set<Int>()
        for (index, section) in snapshot.sections.enumerated() where !seen.insert(section.id).inserted {
            dropped.insert(index)
        }
        return dropped
    }

    /// A snapshot already built, whose items the other's repeat or are compared with (a value passed `inout`
    /// through the other's sections, so that it allocates nothing and its last section found persists).
    private struct Reference {
        let snapshot: Snapshot
        /// The index among the snapshot's items of each section's first item, and the item count at the end
        /// (32-bit: a body holds fewer than 2^29 items, see ``WireItem``; 4 bytes a section of a snapshot of
        /// many).
        let starts: [UInt32]
        /// The probe index of the snapshot's first item.
        let firstItem: Int
        /// By identity number, the index of the item the diff keeps for that id, or ``absent``; empty when the
        /// snapshot's ids are all different (the number is the index).
        let counterparts: [Int32]
        /// The snapshot's item count.
        let itemCount: Int

        /// No item of the snapshot has the id.
        static let absent: Int32 = -1

        init(_ snapshot: Snapshot, firstItem: Int, counterparts: [Int32]?) {
            self.snapshot = snapshot
            var starts: [UInt32] = []
            starts.reserveCapacity(snapshot.sections.count + 1)
            var start: UInt32 = 0
            starts.append(start)
            for section in snapshot.sections {
                start += UInt32(section.items.count)
                starts.append(start)
            }
            self.starts = starts
            self.firstItem = firstItem
            self.counterparts = counterparts ?? []
            itemCount = Int(start)
        }

        /// The section of the item found last (the other snapshot's items mostly meet their counterparts in
        /// order).
        private var lastSection = 0

        /// The item at `index` among the snapshot's items.
        @inline(__always)
        mutating func item(at index: Int) -> WireItem {
            let sections = snapshot.sections
            if index >= Int(starts[lastSection]) && index < Int(starts[lastSection + 1]) {
                return sections[lastSection].items[index - Int(starts[lastSection])]
            }
            // The last section starting at or before `index` (binary search: snapshots may have many sections).
            var low = 0, high = sections.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if Int(starts[middle]) <= index { low = middle } else { high = middle - 1 }
            }
            lastSection = low
            return sections[low].items[index - Int(starts[low])]
        }

        /// The index among the snapshot's items of the item the diff matches an item whose identity number is
        /// `number` with, or ``absent``.
        func counterpart(_ number: Int) -> Int {
            if counterparts.isEmpty { return number < itemCount ? number : Int(Self.absent) }
            return number < counterparts.count ? Int(counterparts[number]) : Int(Self.absent)
        }
    }

    /// Builds a snapshot; every item's content number is its probe index, but for an item of the snapshot built
    /// second whose content equals its counterpart's in `reference`, which takes that one's.
    private func snapshot(_ record: DiffRequestSchema.SnapshotRecord, repeating reference: inout Reference?) -> Snapshot {
        let first = record.firstSection
        var firstItem = record.firstItem  // the section's: its items follow the previous section's
        return Snapshot(
            sections: sections[first ..< first + record.sectionCount].map { section in
                defer { firstItem += Int(section.itemCount) }
                return self.section(section, firstItem: firstItem, repeating: &reference)
            },
            text: text, firstSection: first)
    }

    /// The section of `record`, whose first item is probe `first`.
    private func section(
        _ record: DiffRequestSchema.SectionRecord, firstItem first: Int, repeating reference: inout Reference?
    ) -> WireSection {
        var items: [WireItem] = []
        items.reserveCapacity(Int(record.itemCount))
        let indices = first ..< first + Int(record.itemCount)
        if reference != nil {
            for index in indices { items.append(item(index, repeating: &reference!)) }
        } else {
            for index in indices { items.append(item(index, probes[index], contentNumber: index)) }
        }
        let idKind: WireSection.IDKind =
            switch record.idKind {
            case .integer: .integer
            case .stringInText: .inBody
            case .stringUnescaped: .unescaped
            case .none: .implicit
            }
        return WireSection(
            text: text, idKind: idKind, idPayload: record.idPacked, contentOffset: Int(record.contentOffset),
            contentCount: Int(record.contentLength), items: items)
    }

    /// Item `index` of the snapshot built second: its counterpart in `reference` again when it repeats its bytes,
    /// else a new item whose content number is the counterpart's when their contents are equal.
    @inline(__always)
    private func item(_ index: Int, repeating reference: inout Reference) -> WireItem {
        let probe = probes[index]
        let counterpart = reference.counterpart(probe.memberNumber)
        guard counterpart >= 0 else { return item(index, probe, contentNumber: index) }
        let other = reference.item(at: counterpart)
        if probe.repeatOf == reference.firstItem + counterpart { return other }  // the same bytes: that item again
        let same = text.sameItemContent(probe.text, as: other.textRange)
        return item(index, probe, contentNumber: same ? other.contentNumber : index)
    }

    /// The item of probe `index`, whose content number is `contentNumber`.
    @inline(__always)
    private func item(_ index: Int, _ probe: JSONProbe, contentNumber: Int) -> WireItem {
        let (idKind, idPayload) = Self.storedID(probe.member)
        return WireItem(text: text, textRange: probe.text, idKind: idKind, idPayload: idPayload,
                        identityNumber: probe.memberNumber, contentNumber: contentNumber)
    }

    /// How an item's id is stored (see ``WireItem/IDKind``): the walk's packing is WireItem's (``WireItem/IDPlace``),
    /// so the payload is taken as it is.
    private static func storedID(_ id: JSONScalar) -> (WireItem.IDKind, Int64) {
        switch id.kind {
        case .integer: (.integer, id.packed)
        case .stringInText: (.inBody, id.packed)
        case .stringUnescaped, .none: (.unescaped, id.packed)
        }
    }
}
