import ListDiff
import SnapshotJSON

extension DuplicateReportLimits {
    /// What a duplicate-ids problem lists: the first ``Problem/listedEntryLimit`` repeated ids, each with its first
    /// ``Problem/listedPathLimit`` positions. The engine builds no more than that, whatever the number of repeats.
    static let problem = DuplicateReportLimits(listedIDs: Problem.listedEntryLimit, positionsPerID: Problem.listedPathLimit)
}

extension DuplicateIdentifiersError where SectionID == SnapshotJSON.SectionID, ElementID == WireID {
    /// The 422 problem naming the duplicate ids (the first ``Problem/listedEntryLimit``, each with the paths of its
    /// first ``Problem/listedPathLimit`` occurrences), with their total count: only the listed paths are rendered,
    /// so the problem costs the same whatever the number of repeats. The error need list no more than
    /// ``DuplicateReportLimits/problem`` asks for: its totals give the counts.
    func problem(old: Snapshot, new: Snapshot) -> Problem {
        func name(_ role: SnapshotRole) -> String { role == .source ? "old" : "new" }
        func snapshot(_ role: SnapshotRole) -> Snapshot { role == .source ? old : new }
        var duplicates: [Problem.Duplicate] = []
        for duplicate in sections.prefix(Problem.listedEntryLimit) {
            let id = duplicate.id
            let root = name(duplicate.snapshot)
            var listed = Problem.Duplicate(
                snapshot: root, kind: "section", writeID: { id.write(into: &$0) }, positions: duplicate.positions,
                path: { "\(root).sections[\($0)]" })
            listed.occurrences = duplicate.occurrences
            duplicates.append(listed)
        }
        for duplicate in elements.prefix(Problem.listedEntryLimit - duplicates.count) {
            let id = duplicate.id
            let bare = snapshot(duplicate.snapshot).isBareItemList
            let root = name(duplicate.snapshot)
            var listed = Problem.Duplicate(
                snapshot: root, kind: "item", writeID: { id.write(into: &$0) }, positions: duplicate.positions,
                path: { bare ? "\(root).items[\($0.element)]" : "\(root).sections[\($0.section)].items[\($0.element)]" })
            listed.occurrences = duplicate.occurrences
            duplicates.append(listed)
        }
        let total = repeatedCount
        // The detail names a few; the `duplicates` member lists the first ones.
        let listed = duplicates.prefix(3).map { duplicate in
            "\(duplicate.kind) id \(idText(duplicate)) at \(duplicate.paths.prefix(3).joined(separator: ", "))"
                + (duplicate.occurrences > 3 ? " and \(duplicate.occurrences - 3) more" : "")
        }
        var problem = Problem(
            .duplicateIDs,
            detail: "\(total == 1 ? "1 id appears" : "\(total) ids appear") more than once: "
                + listed.joined(separator: "; ") + (total > 3 ? "; …" : "")
                + ". Ids must be unique per snapshot (item ids across all sections), or send options.duplicates = \"keepFirst\".")
        problem.duplicates = duplicates
        problem.duplicateCount = total
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
