import ListDiff
import SnapshotJSON

/// The ids of the sections and items a difference was computed on, by position: the request's two snapshots,
/// less what ``DuplicatePolicy/keepFirst`` dropped (the difference's indices skip those).
///
/// It writes the id of a change's subject for `"ids": true`: a string or an integer as the client sent it,
/// `null` for the implicit section of a bare item list. A class, so that the renderings' writers take an optional
/// one as one pointer: without `ids`, the default path pays a nil check and nothing more.
public final class SubjectIDs: Sendable {
    /// Per snapshot (source, target): each diffed section's id.
    private let sectionIDs: (source: [SectionID], target: [SectionID])
    /// Per snapshot: each diffed section's items.
    private let items: (source: [[WireItem]], target: [[WireItem]])

    /// The ids of the request's snapshots as diffed.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - dropped: What the difference dropped from each (``SectionedDifference/droppedDuplicates``).
    /// - Complexity: O(*s*) in the number of sections, or O(*n*) in the number of items when something was dropped.
    public init(_ request: DiffRequest, dropped: DroppedDuplicates) {
        let source = Self.kept(request.old, without: dropped.source)
        let target = Self.kept(request.new, without: dropped.target)
        sectionIDs = (source.ids, target.ids)
        items = (source.items, target.items)
    }

    private static func kept(_ snapshot: Snapshot, without dropped: DroppedDuplicates.Positions)
        -> (ids: [SectionID], items: [[WireItem]])
    {
        guard !dropped.isEmpty else { return (snapshot.sections.map(\.id), snapshot.sections.map(\.items)) }
        let droppedSections = Set(dropped.sections)
        var droppedElements: [Int: Set<Int>] = [:]
        for path in dropped.elements { droppedElements[path.section, default: []].insert(path.element) }
        var ids: [SectionID] = [], items: [[WireItem]] = []
        for (index, section) in snapshot.sections.enumerated() where !droppedSections.contains(index) {
            ids.append(section.id)
            guard let gone = droppedElements[index] else {
                items.append(section.items)
                continue
            }
            items.append(section.items.indices.filter { !gone.contains($0) }.map { section.items[$0] })
        }
        return (ids, items)
    }

    /// Writes the id of the section or item at `subject`.
    ///
    /// - Parameters:
    ///   - subject: A position in one of the diffed snapshots.
    ///   - writer: Where to write the id.
    public func write(_ subject: ChangeSubject, into writer: inout JSONWriter) {
        switch subject {
        case .section(let index, .source): sectionIDs.source[index].write(into: &writer)
        case .section(let index, .target): sectionIDs.target[index].write(into: &writer)
        case .element(let path, .source): items.source[path.section][path.element].id.write(into: &writer)
        case .element(let path, .target): items.target[path.section][path.element].id.write(into: &writer)
        }
    }
}
