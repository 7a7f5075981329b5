import ListDiff
import SnapshotJSON

extension SectionedDifference {
    /// Writes the difference as the body of a `POST /diff` response: `counts`, then each requested
    /// rendering, then `droppedDuplicates` when the keep-first policy was chosen.
    ///
    /// - Parameters:
    ///   - writer: The writer, positioned inside the response object.
    ///   - renderings: The renderings to include.
    ///   - reportDropped: Whether to include `droppedDuplicates` (the keep-first policy).
    ///   - ids: With `"ids": true`, the ids to name beside every entry of the renderings.
    public func writeMembers(
        into writer: inout JSONWriter, renderings: some Sequence<DiffOptions.Rendering>, reportDropped: Bool,
        ids: SubjectIDs? = nil
    ) {
        writer.key(.counts)
        writer.beginObject()
        writer.member(.sectionDeleted, counts.sectionDeleted)
        writer.member(.sectionInserted, counts.sectionInserted)
        writer.member(.sectionUpdated, counts.sectionUpdated)
        writer.member(.sectionMoved, counts.sectionMoved)
        writer.member(.elementDeleted, counts.elementDeleted)
        writer.member(.elementInserted, counts.elementInserted)
        writer.member(.elementUpdated, counts.elementUpdated)
        writer.member(.elementMoved, counts.elementMoved)
        writer.endObject()
        var (wantsStaged, wantsSequential, wantsRanges) = (false, false, false)
        for rendering in renderings {
            switch rendering {
            case .staged: wantsStaged = true
            case .sequential: wantsSequential = true
            case .ranges: wantsRanges = true
            case .jsonPatch: continue  // needs the snapshots' texts: DiffEndpoint writes it (writeJSONPatch)
            }
        }
        if wantsStaged {
            writer.key(.staged)
            writer.beginArray()
            for stage in staged { stage.write(into: &writer, ids: ids) }
            writer.endArray()
        }
        if wantsSequential || wantsRanges {
            writeSequential(into: &writer, operations: wantsSequential, ranges: wantsRanges, ids: ids)
        }
        if reportDropped {
            writer.key(.droppedDuplicates)
            writer.beginObject()
            writer.key(.old)
            droppedDuplicates.source.write(into: &writer)
            writer.key(.new)
            droppedDuplicates.target.write(into: &writer)
            writer.endObject()
        }
    }

    /// Writes `sequential` and/or `ranges` from one computation of the sequential operations.
    private func writeSequential(into writer: inout JSONWriter, operations: Bool, ranges: Bool, ids: SubjectIDs?) {
        let sequential = self.sequential
        let subjects = ids == nil ? [] : sequentialSubjects
        if operations {
            writer.key(.sequential)
            writer.beginArray()
            if let ids {
                for (change, subject) in zip(sequential, subjects) { change.write(into: &writer, id: (ids, subject)) }
            } else {
                for change in sequential { change.write(into: &writer) }
            }
            writer.endArray()
        }
        if ranges {
            writer.key(.ranges)
            writer.beginArray()
            var next = 0
            for range in SequentialRange.merging(sequential) {
                range.write(into: &writer, ids: ids.map { ($0, subjects[next..<next + range.count]) })
                next += range.count
            }
            writer.endArray()
        }
    }
}

extension Changeset {
    /// Writes the stage with DifferenceKit's eight list names, all present, and with `ids`, an `"ids"` object
    /// holding the same eight lists of the entries' ids.
    func write(into writer: inout JSONWriter, ids: SubjectIDs?) {
        writer.beginObject()
        writeLists(into: &writer)
        if let ids { writeIDs(of: ids, into: &writer) }
        writer.endObject()
    }

    /// Writes the eight lists.
    private func writeLists(into writer: inout JSONWriter) {
        writer.writeIndices(.sectionDeleted, sectionDeleted)
        writer.writeIndices(.sectionInserted, sectionInserted)
        writer.writeIndices(.sectionUpdated, sectionUpdated)
        writer.key(.sectionMoved)
        writer.inline { writer in
            writer.beginArray()
            for move in sectionMoved { writer.pair(move.source, move.target) }
            writer.endArray()
        }
        writer.writePaths(.elementDeleted, elementDeleted)
        writer.writePaths(.elementInserted, elementInserted)
        writer.writePaths(.elementUpdated, elementUpdated)
        writer.key(.elementMoved)
        writer.inline { writer in
            writer.beginArray()
            for move in elementMoved {
                writer.beginArray()
                writer.pair(move.source.section, move.source.element)
                writer.pair(move.target.section, move.target.element)
                writer.endArray()
            }
            writer.endArray()
        }
    }

    /// Writes `"ids": {…}`: for each of the eight lists, the id of each entry's section or item — a deletion's
    /// and a stage-1 update's in the old snapshot, any other's in the new one (a move's at its target).
    private func writeIDs(of ids: SubjectIDs, into writer: inout JSONWriter) {
        writer.key(.ids)
        writer.beginObject()
        writer.writeIDs(.sectionDeleted, of: sectionDeleted.lazy.map { .section($0, in: .source) }, ids)
        writer.writeIDs(.sectionInserted, of: sectionInserted.lazy.map { .section($0, in: .target) }, ids)
        writer.writeIDs(.sectionUpdated, of: sectionUpdated.lazy.map { .section($0, in: .target) }, ids)
        writer.writeIDs(.sectionMoved, of: sectionMoved.lazy.map { .section($0.target, in: .target) }, ids)
        writer.writeIDs(.elementDeleted, of: elementDeleted.lazy.map { .element($0, in: .source) }, ids)
        writer.writeIDs(.elementInserted, of: elementInserted.lazy.map { .element($0, in: .target) }, ids)
        writer.writeIDs(.elementUpdated, of: elementUpdated.lazy.map { .element($0, in: .source) }, ids)
        writer.writeIDs(.elementMoved, of: elementMoved.lazy.map { .element($0.target, in: .target) }, ids)
        writer.endObject()
    }
}

extension SequentialChange {
    /// Writes the operation as `{"op": name, …}` with `section`, `path` or `from`/`to`, and with `id`, the
    /// subject's `"id"`.
    func write(into writer: inout JSONWriter, id: (SubjectIDs, ChangeSubject)? = nil) {
        writer.inline { writer in
            writer.beginObject()
            writeMembers(into: &writer)
            if let (ids, subject) = id {
                writer.key(.id)
                ids.write(subject, into: &writer)
            }
            writer.endObject()
        }
    }

    private func writeMembers(into writer: inout JSONWriter) {
        writer.member(.op, operationName)
        switch self {
        case .removeSection(let index), .insertSection(let index), .updateSection(let index):
            writer.member(.section, index)
        case .moveSection(let move):
            writer.member(.from, move.source)
            writer.member(.to, move.target)
        case .removeElement(let path), .insertElement(let path), .updateElement(let path):
            writer.key(.path)
            writer.pair(path.section, path.element)
        case .moveElement(let move):
            writer.key(.from)
            writer.pair(move.source.section, move.source.element)
            writer.key(.to)
            writer.pair(move.target.section, move.target.element)
        }
    }

    /// The operation's name on the wire.
    var operationName: String {
        switch self {
        case .removeSection: "removeSection"
        case .insertSection: "insertSection"
        case .moveSection: "moveSection"
        case .updateSection: "updateSection"
        case .removeElement: "removeElement"
        case .insertElement: "insertElement"
        case .moveElement: "moveElement"
        case .updateElement: "updateElement"
        }
    }
}

extension SequentialRange {
    /// Writes the range as `{"op": name, "section": first, "count": n}` or `{"op": name, "path": [section, first],
    /// "count": n}`, a move as ``SequentialChange`` does; with `ids`, a range's `"ids"` (in index order) or a
    /// move's `"id"`.
    ///
    /// - Parameter ids: The ids and the subjects of the range's sequential operations, in their order.
    func write(into writer: inout JSONWriter, ids: (SubjectIDs, ArraySlice<ChangeSubject>)?) {
        let first: Int, section: Int?
        switch self {
        case .moveSection(let move):
            return SequentialChange.moveSection(move).write(into: &writer, id: ids.map { ($0, $1.first!) })
        case .moveElement(let move):
            return SequentialChange.moveElement(move).write(into: &writer, id: ids.map { ($0, $1.first!) })
        case .removeSections(let range), .insertSections(let range), .updateSections(let range):
            (first, section) = (range.lowerBound, nil)
        case .removeElements(let range, let index), .insertElements(let range, let index),
            .updateElements(let range, let index):
            (first, section) = (range.lowerBound, index)
        }
        writer.inline { writer in
            writer.beginObject()
            writer.member(.op, operationName)
            if let section {
                writer.key(.path)
                writer.pair(section, first)
            } else {
                writer.member(.section, first)
            }
            writer.member(.count, count)
            if let (ids, subjects) = ids {
                // Removals run descending; the list is in index order.
                let isRemoval = switch self { case .removeSections, .removeElements: true; default: false }
                writer.key(.ids)
                writer.beginArray()
                if isRemoval {
                    for subject in subjects.reversed() { ids.write(subject, into: &writer) }
                } else {
                    for subject in subjects { ids.write(subject, into: &writer) }
                }
                writer.endArray()
            }
            writer.endObject()
        }
    }

    /// The operation's name on the wire.
    var operationName: String {
        switch self {
        case .removeSections: "removeSections"
        case .insertSections: "insertSections"
        case .moveSection: "moveSection"
        case .updateSections: "updateSections"
        case .removeElements: "removeElements"
        case .insertElements: "insertElements"
        case .moveElement: "moveElement"
        case .updateElements: "updateElements"
        }
    }
}

extension DroppedDuplicates.Positions {
    /// Writes `{"sections": [...], "elements": [[s, i], ...]}`.
    func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.writeIndices(.sections, sections)
        writer.writePaths(.elements, elements)
        writer.endObject()
    }
}

extension JSONWriter {
    /// Writes a member holding an array of integers, on one line.
    mutating func writeIndices(_ name: Name, _ indices: [Int]) {
        key(name)
        inline { writer in
            writer.beginArray()
            for index in indices { writer.value(index) }
            writer.endArray()
        }
    }

    /// Writes a member holding an array of the subjects' ids, on one line.
    mutating func writeIDs(_ name: Name, of subjects: some Sequence<ChangeSubject>, _ ids: SubjectIDs) {
        key(name)
        inline { writer in
            writer.beginArray()
            for subject in subjects { ids.write(subject, into: &writer) }
            writer.endArray()
        }
    }

    /// Writes a member holding an array of `[section, element]` pairs, on one line.
    mutating func writePaths(_ name: Name, _ paths: [ElementPath]) {
        key(name)
        inline { writer in
            writer.beginArray()
            for path in paths { writer.pair(path.section, path.element) }
            writer.endArray()
        }
    }
}

/// The member names of a `/diff` response, encoded once (a name written through `key(_: String)` is checked for
/// escapes every time).
private extension JSONWriter.Name {
    static let count = Self("count")
    static let counts = Self("counts")
    static let droppedDuplicates = Self("droppedDuplicates")
    static let elementDeleted = Self("elementDeleted")
    static let elementInserted = Self("elementInserted")
    static let elementMoved = Self("elementMoved")
    static let elementUpdated = Self("elementUpdated")
    static let elements = Self("elements")
    static let from = Self("from")
    static let id = Self("id")
    static let ids = Self("ids")
    static let new = Self("new")
    static let old = Self("old")
    static let op = Self("op")
    static let path = Self("path")
    static let ranges = Self("ranges")
    static let section = Self("section")
    static let sectionDeleted = Self("sectionDeleted")
    static let sectionInserted = Self("sectionInserted")
    static let sectionMoved = Self("sectionMoved")
    static let sectionUpdated = Self("sectionUpdated")
    static let sections = Self("sections")
    static let sequential = Self("sequential")
    static let staged = Self("staged")
    static let to = Self("to")
}
