import SnapshotJSON

extension UpdatedMembers {
    /// Writes `{"sections": [{"section": i, "members": [...]}], "elements": [{"path": [s, e], "members": [...]}]}`:
    /// the names of the top-level members that differ, at the positions the renderings give.
    func write(into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(.sections)
        writer.beginArray()
        for entry in sections {
            writer.inline { writer in
                writer.beginObject()
                writer.member(.section, Int(entry.position))
                writer.writeNames(changes(of: entry))
                writer.endObject()
            }
        }
        writer.endArray()
        writer.key(.elements)
        writer.beginArray()
        for entry in elements {
            writer.inline { writer in
                writer.beginObject()
                writer.key(.path)
                writer.pair(entry.position.section, entry.position.element)
                writer.writeNames(changes(of: entry))
                writer.endObject()
            }
        }
        writer.endArray()
        writer.endObject()
    }
}

extension JSONWriter {
    /// Writes `"members": [names]` on one line.
    fileprivate mutating func writeNames(_ changes: ArraySlice<MemberChange>) {
        key(.members)
        inline { writer in
            writer.beginArray()
            for change in changes { writer.value(change.name) }
            writer.endArray()
        }
    }
}

extension JSONWriter.Name {
    fileprivate static let elements = Self("elements")
    fileprivate static let members = Self("members")
    fileprivate static let path = Self("path")
    fileprivate static let section = Self("section")
    fileprivate static let sections = Self("sections")
}
