import ListDiff
import SnapshotJSON

extension SectionedDifference {
    /// Writes the difference as RFC 6902 JSON Patch operations which, applied in order to the old snapshot as the
    /// JSON document the client sent (`{"sections": [...]}` or `{"items": [...]}`), give the new one exactly.
    ///
    /// The operations follow ``sequential`` one for one, walked with ``forEachSequential(_:)`` rather than held (a
    /// moved item is one `move`, so moves stay minimal): `remove` for removed sections and items, `move`, `add`
    /// with the whole value for inserted ones, and for an updated item or section one `add`, `replace` or `remove`
    /// per top-level member that differs. Duplicates the keep-first policy dropped are removed from the old
    /// document first and added to the new one last (those of an inserted section come with it); a snapshot that
    /// changes form (bare list to sections, or back) is one `remove` and one `add`.
    ///
    /// - Parameters:
    ///   - oldIsBareItemList: Whether the old snapshot is a bare item list (``Snapshot/isBareItemList``): all the
    ///     patch reads of it, so that it can be freed before the patch is written.
    ///   - new: Where the new snapshot's items and sections lie in the request (``SnapshotTexts``): inserted ones
    ///     are copied from it.
    ///   - updated: The updated members (``UpdatedMembers``).
    ///   - writer: The writer, positioned at the value.
    /// - Complexity: O(*n* + *m* + *k* log(*n* + *m*)) for *k* moves (the ``forEachSequential(_:)`` walk), plus
    ///   the lengths of the values written.
    func writeJSONPatch(
        oldIsBareItemList: Bool, new: SnapshotTexts, updated: UpdatedMembers, into writer: inout JSONWriter
    ) {
        writer.beginArray()
        defer { writer.endArray() }
        guard oldIsBareItemList == new.isBareItemList else {
            writer.patch(.remove, oldIsBareItemList ? "/items" : "/sections")
            writer.patch(.add, new.isBareItemList ? "/items" : "/sections") { writer in
                writer.beginArray()
                if new.isBareItemList {
                    for element in 0 ..< new.itemCount(section: 0) {
                        writer.json(new.item(section: 0, element: element).bytes)
                    }
                } else {
                    for section in 0 ..< new.sectionCount { writer.json(new.section(section).bytes) }
                }
                writer.endArray()
            }
            return
        }
        let pointer = PatchPointer(bare: new.isBareItemList)
        // The old document without its dropped duplicates: elements first, while section indices are as sent.
        for path in droppedDuplicates.source.elements.reversed() {
            writer.patch(.remove, pointer.element(path.section, path.element))
        }
        for section in droppedDuplicates.source.sections.reversed() {
            writer.patch(.remove, pointer.section(section))
        }
        let sent = SentPositions(dropped: droppedDuplicates.target)
        var insertedWhole = Set<Int>()  // sections (as sent) added with their text, dropped duplicates included
        forEachSequential { change in
            switch change {
            case .removeSection(let index):
                writer.patch(.remove, pointer.section(index))
            case .insertSection(let index):
                let sentIndex = sent.section(index)
                insertedWhole.insert(sentIndex)
                writer.patch(.add, pointer.section(index), value: new.section(sentIndex).bytes)
            case .moveSection(let move):
                writer.patch(.move, pointer.section(move.target), from: pointer.section(move.source))
            case .updateSection(let index):
                writer.patchMembers(updated.changes(ofSection: index), of: pointer.section(index))
            case .removeElement(let path):
                writer.patch(.remove, pointer.element(path.section, path.element))
            case .insertElement(let path):
                let (section, element) = sent.element(path)
                let value = new.item(section: section, element: element).bytes
                writer.patch(.add, pointer.element(path.section, path.element), value: value)
            case .moveElement(let move):
                writer.patch(
                    .move, pointer.element(move.target.section, move.target.element),
                    from: pointer.element(move.source.section, move.source.element))
            case .updateElement(let path):
                writer.patchMembers(updated.changes(ofElement: path), of: pointer.element(path.section, path.element))
            }
        }
        // The new document's dropped duplicates, in ascending order: sections first, then elements.
        for section in droppedDuplicates.target.sections {
            writer.patch(.add, pointer.section(section), value: new.section(section).bytes)
        }
        for path in droppedDuplicates.target.elements where !insertedWhole.contains(path.section) {
            let value = new.item(section: path.section, element: path.element).bytes
            writer.patch(.add, pointer.element(path.section, path.element), value: value)
        }
    }
}

/// JSON Pointers (RFC 6901) into a snapshot document.
private struct PatchPointer {
    /// Whether the document is a bare `{"items": [...]}` list.
    let bare: Bool

    func section(_ index: Int) -> String { "/sections/\(index)" }

    func element(_ section: Int, _ element: Int) -> String {
        bare ? "/items/\(element)" : "/sections/\(section)/items/\(element)"
    }

    /// `pointer` extended by a member name, escaped as RFC 6901 says (`~` as `~0`, `/` as `~1`).
    static func member(_ name: String, of pointer: String) -> String {
        pointer + "/" + name.replacing("~", with: "~0").replacing("/", with: "~1")
    }
}

/// An RFC 6902 operation name.
private enum PatchOperation: String {
    case add, remove, replace, move
}

extension JSONWriter {
    /// Writes one operation: `{"op": …, "from": …, "path": …, "value": …}`.
    ///
    /// Inlined, so that each operation of the patch's walk (a closure, ``SectionedDifference/forEachSequential(_:)``'s
    /// body) writes its own members without a call and an optional value to test (a `remove` is written ~60
    /// instructions faster).
    @inline(__always)
    fileprivate mutating func patch(
        _ operation: PatchOperation, _ path: String, from: String? = nil,
        writeValue: ((inout JSONWriter) -> Void)? = nil
    ) {
        inline { writer in
            writer.beginObject()
            writer.member(.op, operation.rawValue)
            if let from { writer.member(.from, from) }
            writer.member(.path, path)
            if let writeValue {
                writer.key(.value)
                writeValue(&writer)
            }
            writer.endObject()
        }
    }

    fileprivate mutating func patch(_ operation: PatchOperation, _ path: String, value: ArraySlice<UInt8>) {
        patch(operation, path) { writer in writer.json(value) }
    }

    /// Writes one operation per changed member of the object at `pointer`.
    fileprivate mutating func patchMembers(_ changes: ArraySlice<MemberChange>, of pointer: String) {
        for change in changes {
            let path = PatchPointer.member(change.name, of: pointer)
            switch change.kind {
            case .added: patch(.add, path, value: change.value ?? [])
            case .replaced: patch(.replace, path, value: change.value ?? [])
            case .removed: patch(.remove, path)
            }
        }
    }
}

extension JSONWriter.Name {
    fileprivate static let op = Self("op")
    fileprivate static let from = Self("from")
    fileprivate static let path = Self("path")
    fileprivate static let value = Self("value")
}
