import ListDiff
import SnapshotJSON

/// The top-level members that differ in every updated item and section of a diff, at the positions the
/// renderings give them (in the new snapshot, dropped duplicates left out): what `"changedMembers"` lists and
/// what a JSON Patch replaces.
struct UpdatedMembers {
    /// Each updated section's index and changed members, in ascending order.
    var sections: [(index: Int, changes: [MemberChange])] = []
    /// Each updated element's path and changed members, in path order.
    var elements: [(path: ElementPath, changes: [MemberChange])] = []

    /// The changed members of the updated section at `index`, found by binary search in ``sections`` (no index
    /// of the entries is kept beside them).
    ///
    /// - Precondition: The difference updates that section.
    /// - Complexity: O(log *u*) for *u* updated sections.
    func changes(ofSection index: Int) -> [MemberChange] {
        let entry = sections.indices.partitionPoint { sections[$0].index < index }
        guard entry < sections.count, sections[entry].index == index else {
            preconditionFailure("section \(index) is not updated")
        }
        return sections[entry].changes
    }

    /// The changed members of the updated element at `path`, found by binary search in ``elements``.
    ///
    /// - Precondition: The difference updates that element.
    /// - Complexity: O(log *u*) for *u* updated elements.
    func changes(ofElement path: ElementPath) -> [MemberChange] {
        let entry = elements.indices.partitionPoint { elements[$0].path < path }
        guard entry < elements.count, elements[entry].path == path else {
            preconditionFailure("element \(path) is not updated")
        }
        return elements[entry].changes
    }

    /// Compares the old and new versions of every item and section the difference updates.
    ///
    /// The updates are the sequential ones (``SectionedDifference/forEachSequentialUpdate(_:)``), at the positions
    /// the renderings give them, walked without holding the operations.
    ///
    /// - Complexity: O(*n*) in the old snapshot's items, plus the lengths of the updated items and sections, plus
    ///   the walk.
    init(_ difference: SectionedDifference, old: Snapshot, new: Snapshot) {
        let oldPositions = OldVersions(old, dropped: difference.droppedDuplicates.source)
        let sent = SentPositions(dropped: difference.droppedDuplicates.target)
        var sections: [(index: Int, changes: [MemberChange])] = []
        var updatedItems: [(path: ElementPath, item: WireItem)] = []
        var sectionTexts: (old: [JSONText], new: [JSONText])?  // made once, when a section is updated
        difference.forEachSequentialUpdate { change in
            switch change {
            case .updateSection(let index):
                if sectionTexts == nil { sectionTexts = (old.sectionTexts ?? [], new.sectionTexts ?? []) }
                let sentIndex = sent.section(index)
                var changes: [MemberChange] = []
                if let oldIndex = oldPositions.section(new.sections[sentIndex].id), let texts = sectionTexts,
                    sentIndex < texts.new.count, oldIndex < texts.old.count
                {
                    changes = texts.new[sentIndex].memberChanges(from: texts.old[oldIndex], ignoring: ["id", "items"])
                }
                sections.append((index, changes))
            case .updateElement(let path):
                let (section, element) = sent.element(path)
                updatedItems.append((path, new.sections[section].items[element]))
            default:
                return
            }
        }
        sections.sort { $0.index < $1.index }
        self.sections = sections  // (sorted first: sorting self's copy would copy the array, the local holding it)
        let oldItems = oldPositions.items(matching: updatedItems.map(\.item))
        for ((path, item), oldItem) in zip(updatedItems, oldItems) {
            var changes: [MemberChange] = []
            if let oldItem {
                changes = item.json.memberChanges(from: oldItem.json, ignoring: ["id"])
            }
            elements.append((path, changes))
        }
        elements.sort { $0.path < $1.path }
    }
}

/// The kept items and sections of the old snapshot, found by id.
private struct OldVersions {
    let snapshot: Snapshot
    let dropped: DroppedDuplicates.Positions
    /// The index of each kept old section, by id (kept ids are unique).
    private let sectionIndices: [SectionID: Int]

    /// - Complexity: O(*s*) in the old snapshot's sections.
    init(_ snapshot: Snapshot, dropped: DroppedDuplicates.Positions) {
        self.snapshot = snapshot
        self.dropped = dropped
        let gone = Set(dropped.sections)
        var indices: [SectionID: Int] = [:]
        indices.reserveCapacity(snapshot.sections.count)
        for (index, section) in snapshot.sections.enumerated() where !gone.contains(index) {
            if indices[section.id] == nil { indices[section.id] = index }
        }
        sectionIndices = indices
    }

    /// The index of the kept old section with the id.
    /// - Complexity: O(1) on average.
    func section(_ id: SectionID) -> Int? { sectionIndices[id] }

    /// For each of `items` (of the new snapshot), the kept old item with its id, if any: matched by identity
    /// number (equal exactly when the ids are, within one request) or, when the reader did not number ids, by id.
    ///
    /// - Complexity: O(*n* + *k*) for *n* old items and *k* items asked for.
    func items(matching items: [WireItem]) -> [WireItem?] {
        guard !items.isEmpty else { return [] }
        let numbered = items.allSatisfy { $0.identityNumber >= 0 }
        var wantedNumbers: [Int: Int] = [:]
        var wantedIDs: [WireID: Int] = [:]
        for (position, item) in items.enumerated() {
            if numbered { wantedNumbers[item.identityNumber] = position } else { wantedIDs[item.id] = position }
        }
        var found = [WireItem?](repeating: nil, count: items.count)
        let goneSections = Set(dropped.sections)
        let goneElements = Set(dropped.elements.map { [$0.section, $0.element] })
        for (sectionIndex, section) in snapshot.sections.enumerated() where !goneSections.contains(sectionIndex) {
            for (index, item) in section.items.enumerated() {
                let position = numbered ? wantedNumbers[item.identityNumber] : wantedIDs[item.id]
                guard let position, found[position] == nil, !goneElements.contains([sectionIndex, index]) else {
                    continue
                }
                found[position] = item
            }
        }
        return found
    }
}
