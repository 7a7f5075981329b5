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
    public func writeMembers(
        into writer: inout JSONWriter, renderings: some Sequence<DiffOptions.Rendering>, reportDropped: Bool
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
        if renderings.contains(.staged) {
            writer.key(.staged)
            writer.beginArray()
            for stage in staged { stage.write(into: &writer) }
            writer.endArray()
        }
        if renderings.contains(.sequential) {
            writer.key(.sequential)
            writer.beginArray()
            for change in sequential { change.write(into: &writer) }
            writer.endArray()
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
}

extension Changeset {
    /// Writes the stage with DifferenceKit's eight list names, all present.
    func write(into writer: inout JSONWriter) {
        writer.beginObject()
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
        writer.endObject()
    }
}

extension SequentialChange {
    /// Writes the operation as `{"op": name, …}` with `section`, `path` or `from`/`to`.
    func write(into writer: inout JSONWriter) {
        writer.inline { writer in writeMembers(into: &writer) }
    }

    private func writeMembers(into writer: inout JSONWriter) {
        writer.beginObject()
        switch self {
        case .removeSection(let index), .insertSection(let index), .updateSection(let index):
            writer.member(.op, operationName)
            writer.member(.section, index)
        case .moveSection(let move):
            writer.member(.op, operationName)
            writer.member(.from, move.source)
            writer.member(.to, move.target)
        case .removeElement(let path), .insertElement(let path), .updateElement(let path):
            writer.member(.op, operationName)
            writer.key(.path)
            writer.pair(path.section, path.element)
        case .moveElement(let move):
            writer.member(.op, operationName)
            writer.key(.from)
            writer.pair(move.source.section, move.source.element)
            writer.key(.to)
            writer.pair(move.target.section, move.target.element)
        }
        writer.endObject()
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
    static let counts = Self("counts")
    static let droppedDuplicates = Self("droppedDuplicates")
    static let elementDeleted = Self("elementDeleted")
    static let elementInserted = Self("elementInserted")
    static let elementMoved = Self("elementMoved")
    static let elementUpdated = Self("elementUpdated")
    static let elements = Self("elements")
    static let from = Self("from")
    static let new = Self("new")
    static let old = Self("old")
    static let op = Self("op")
    static let path = Self("path")
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
