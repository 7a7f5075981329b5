import ListDiff
import SnapshotJSON

extension DuplicateIdentifiersError where SectionID == SnapshotJSON.SectionID, ElementID == WireID {
    /// The 422 problem naming every duplicate id with the JSON paths of all its occurrences.
    func problem(old: Snapshot, new: Snapshot) -> Problem {
        func name(_ role: SnapshotRole) -> String { role == .source ? "old" : "new" }
        func snapshot(_ role: SnapshotRole) -> Snapshot { role == .source ? old : new }
        var duplicates: [Problem.Duplicate] = []
        for duplicate in sections {
            let id = duplicate.id
            duplicates.append(
                Problem.Duplicate(
                    snapshot: name(duplicate.snapshot), kind: "section", writeID: { id.write(into: &$0) },
                    paths: duplicate.positions.map { "\(name(duplicate.snapshot)).sections[\($0)]" }))
        }
        for duplicate in elements {
            let id = duplicate.id
            let bare = snapshot(duplicate.snapshot).isBareItemList
            let root = name(duplicate.snapshot)
            duplicates.append(
                Problem.Duplicate(
                    snapshot: root, kind: "item", writeID: { id.write(into: &$0) },
                    paths: duplicate.positions.map {
                        bare ? "\(root).items[\($0.element)]" : "\(root).sections[\($0.section)].items[\($0.element)]"
                    }))
        }
        let listed = duplicates.prefix(3).map { "\($0.kind) id \(idText($0)) at \($0.paths.joined(separator: ", "))" }
        var problem = Problem(
            .duplicateIDs,
            detail: "\(duplicates.count == 1 ? "1 id appears" : "\(duplicates.count) ids appear") more than once: "
                + listed.joined(separator: "; ") + (duplicates.count > 3 ? "; …" : "")
                + ". Ids must be unique per snapshot (item ids across all sections), or send options.duplicates = \"keepFirst\".")
        problem.duplicates = duplicates
        return problem
    }

    private func idText(_ duplicate: Problem.Duplicate) -> String {
        var writer = JSONWriter()
        duplicate.writeID(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

extension WireID {
    /// Writes the id as it came: a JSON string or integer.
    func write(into writer: inout JSONWriter) {
        switch self {
        case .string(let string): writer.value(string)
        case .integer(let integer): writer.value(Int(integer))
        }
    }
}

extension SectionID {
    /// Writes the section id; the implicit section of a bare item list is `null`.
    func write(into writer: inout JSONWriter) {
        switch self {
        case .implicit: writer.null()
        case .explicit(let id): id.write(into: &writer)
        }
    }
}
