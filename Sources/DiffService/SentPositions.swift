import ListDiff
import SnapshotJSON

/// Turns positions in a snapshot whose dropped duplicates are left out (the positions of every rendering) into
/// positions in the snapshot as the client sent it (``DuplicatePolicy/keepFirst`` drops repeated ids).
struct SentPositions {
    /// The sent index of each kept section, or `nil` when no section was dropped.
    private let sections: [Int]?
    /// For each sent section that lost elements, the sent index of each kept element.
    private let elements: [Int: [Int]]

    /// - Parameters:
    ///   - snapshot: The snapshot as sent.
    ///   - dropped: What the diff dropped from it.
    init(_ snapshot: Snapshot, dropped: DroppedDuplicates.Positions) {
        if dropped.sections.isEmpty {
            sections = nil
        } else {
            let gone = Set(dropped.sections)
            sections = snapshot.sections.indices.filter { !gone.contains($0) }
        }
        var elements: [Int: [Int]] = [:]
        for (section, paths) in Dictionary(grouping: dropped.elements, by: \.section) {
            let gone = Set(paths.map(\.element))
            elements[section] = snapshot.sections[section].items.indices.filter { !gone.contains($0) }
        }
        self.elements = elements
    }

    /// The sent index of the kept section at `index`.
    func section(_ index: Int) -> Int { sections?[index] ?? index }

    /// The sent section and element index of the kept element at `path`.
    func element(_ path: ElementPath) -> (section: Int, element: Int) {
        let section = section(path.section)
        guard !elements.isEmpty else { return (section, path.element) }  // nothing dropped: no lookup per id
        return (section, elements[section]?[path.element] ?? path.element)
    }
}
