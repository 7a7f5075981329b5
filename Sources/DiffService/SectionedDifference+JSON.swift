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
        writer.key(literal: "counts")
        writer.beginObject()
        writer.member(literal: "sectionDeleted", counts.sectionDeleted)
        writer.member(literal: "sectionInserted", counts.sectionInserted)
        writer.member(literal: "sectionUpdated", counts.sectionUpdated)
        writer.member(literal: "sectionMoved", counts.sectionMoved)
        writer.member(literal: "elementDeleted", counts.elementDeleted)
        writer.member(literal: "elementInserted", counts.elementInserted)
        writer.member(literal: "elementUpdated", counts.elementUpdated)
        writer.member(literal: "elementMoved", counts.elementMoved)
        writer.endObject()
        if renderings.contains(.staged) {
            writer.key(literal: "staged")
            writer.beginArray()
            for stage in staged { stage.write(into: &writer) }
            writer.endArray()
        }
        if renderings.contains(.sequential) {
            writer.key(literal: "sequential")
            writer.beginArray()
            for change in sequential { change.write(into: &writer) }
            writer.endArray()
        }
        if reportDropped {
            writer.key(literal: "droppedDuplicates")
            writer.beginObject()
            writer.key(literal: "old")
            droppedDuplicates.source.write(into: &writer)
            writer.key(literal: "new")
            droppedDuplicates.target.write(into: &writer)
            writer.endObject()
        }
    }
}

extension Changeset {
    /// Writes the stage with DifferenceKit's eight list names, all present.
    func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.writeIndices("sectionDeleted", sectionDeleted)
        writer.writeIndices("sectionInserted", sectionInserted)
        writer.writeIndices("sectionUpdated", sectionUpdated)
        writer.key(literal: "sectionMoved")
        writer.inline { writer in
            writer.beginArray()
            for move in sectionMoved { writer.pair(move.source, move.target) }
            writer.endArray()
        }
        writer.writePaths("elementDeleted", elementDeleted)
        writer.writePaths("elementInserted", elementInserted)
        writer.writePaths("elementUpdated", elementUpdated)
        writer.key(literal: "elementMoved")
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
            writer.member(literal: "op", operationName)
            writer.member(literal: "section", index)
        case .moveSection(let move):
            writer.member(literal: "op", operationName)
            writer.member(literal: "from", move.source)
            writer.member(literal: "to", move.target)
        case .removeElement(let path), .insertElement(let path), .updateElement(let path):
            writer.member(literal: "op", operationName)
            writer.key(literal: "path")
            writer.pair(path.section, path.element)
        case .moveElement(let move):
            writer.member(literal: "op", operationName)
            writer.key(literal: "from")
            writer.pair(move.source.section, move.source.element)
            writer.key(literal: "to")
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
        writer.writeIndices("sections", sections)
        writer.writePaths("elements", elements)
        writer.endObject()
    }
}

extension JSONWriter {
    /// Writes a member holding an array of integers, on one line.
    mutating func writeIndices(_ name: StaticString, _ indices: [Int]) {
        key(literal: name)
        inline { writer in
            writer.beginArray()
            for index in indices { writer.value(index) }
            writer.endArray()
        }
    }

    /// Writes a member holding an array of `[section, element]` pairs, on one line.
    mutating func writePaths(_ name: StaticString, _ paths: [ElementPath]) {
        key(literal: name)
        inline { writer in
            writer.beginArray()
            for path in paths { writer.pair(path.section, path.element) }
            writer.endArray()
        }
    }
}
