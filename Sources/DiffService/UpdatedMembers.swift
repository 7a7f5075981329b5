import ListDiff
import SnapshotJSON

/// The top-level members that differ in every updated item and section of a diff, at the positions the
/// renderings give them (in the new snapshot, dropped duplicates left out): what `"changedMembers"` lists and
/// what a JSON Patch replaces.
struct UpdatedMembers {
    /// An updated section or element: its position, and where its changed members lie (one run of
    /// ``UpdatedMembers/changes(of:)``; 12 or 16 bytes, where an array of its own would cost a heap block each).
    struct Entry<Position> {
        let position: Position
        fileprivate let start: Int32
        fileprivate let end: Int32
    }

    /// Each updated section's index and changed members, in ascending order.
    private(set) var sections: [Entry<Int32>] = []
    /// Each updated element's path and changed members, in path order.
    private(set) var elements: [Entry<ElementPath>] = []
    /// The changed members of every updated section and element, one run after another, in the order found.
    private var changes: [MemberChange] = []

    /// The changed members of an entry of ``sections`` or ``elements``.
    func changes<Position>(of entry: Entry<Position>) -> ArraySlice<MemberChange> {
        changes[Int(entry.start) ..< Int(entry.end)]
    }

    /// The changed members of the updated section at `index`, found by binary search in ``sections``.
    ///
    /// - Precondition: The difference updates that section.
    /// - Complexity: O(log *u*) for *u* updated sections.
    func changes(ofSection index: Int) -> ArraySlice<MemberChange> {
        let entry = sections.indices.partitionPoint { Int(sections[$0].position) < index }
        guard entry < sections.count, Int(sections[entry].position) == index else {
            preconditionFailure("section \(index) is not updated")
        }
        return changes(of: sections[entry])
    }

    /// The changed members of the updated element at `path`, found by binary search in ``elements``.
    ///
    /// - Precondition: The difference updates that element.
    /// - Complexity: O(log *u*) for *u* updated elements.
    func changes(ofElement path: ElementPath) -> ArraySlice<MemberChange> {
        let entry = elements.indices.partitionPoint { elements[$0].position < path }
        guard entry < elements.count, elements[entry].position == path else {
            preconditionFailure("element \(path) is not updated")
        }
        return changes(of: elements[entry])
    }

    /// Appends `found` to ``changes`` and returns the entry of `position` that points at them.
    private mutating func entry<Position>(_ position: Position, _ found: [MemberChange]) -> Entry<Position> {
        let start = Int32(changes.count)
        changes.append(contentsOf: found)
        return Entry(position: position, start: start, end: Int32(changes.count))
    }

    /// Compares the old and new versions of every item and section the difference updates.
    ///
    /// The updates are the sequential ones (``SectionedDifference/forEachUpdate(section:element:)``), at the
    /// positions the renderings give them, each with the old version the diff matched it to; both are read where
    /// the client sent them (dropped duplicates skipped), one pair at a time.
    ///
    /// - Complexity: O(*n* + *m*) in the snapshots' items, plus the lengths of the updated items and sections.
    init(_ difference: SectionedDifference, old: Snapshot, new: Snapshot) {
        let sentOld = SentPositions(dropped: difference.droppedDuplicates.source)
        let sentNew = SentPositions(dropped: difference.droppedDuplicates.target)
        // Visited in ascending order (sections by index, elements by path): no sort.
        difference.forEachUpdate { target, source in
            var found: [MemberChange] = []
            if let newText = new.sectionText(sentNew.section(target)),
                let oldText = old.sectionText(sentOld.section(source))
            {
                found = newText.memberChanges(from: oldText, ignoring: ["id", "items"])
            }
            sections.append(entry(Int32(target), found))
        } element: { target, source in
            let (newSection, newElement) = sentNew.element(target)
            let (oldSection, oldElement) = sentOld.element(source)
            let newItem = new.sections[newSection].items[newElement]
            let oldItem = old.sections[oldSection].items[oldElement]
            elements.append(entry(target, newItem.json.memberChanges(from: oldItem.json, ignoring: ["id"])))
        }
        assert(sections.indices.dropFirst().allSatisfy { sections[$0 - 1].position < sections[$0].position })
        assert(elements.indices.dropFirst().allSatisfy { elements[$0 - 1].position < elements[$0].position })
    }
}
