import ListDiff
import SnapshotJSON

/// The ids of the sections and items a difference was computed on, by position: the request's two snapshots,
/// less what ``DuplicatePolicy/keepFirst`` dropped (the difference's indices skip those).
///
/// It writes the id of a change's subject for `"ids": true`: a string or an integer as the client sent it,
/// `null` for the implicit section of a bare item list. A class, so that the renderings' writers take an optional
/// one as one pointer: without `ids`, the default path pays a nil check and nothing more.
public final class SubjectIDs: Sendable {
    /// The ids of each snapshot as sent (not its items: the snapshots can be freed while the answer is written),
    /// and where each diffed position lies in it.
    private let source: (ids: SnapshotIDs, positions: SentPositions)
    private let target: (ids: SnapshotIDs, positions: SentPositions)

    /// The ids of the request's snapshots as diffed.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - dropped: What the difference dropped from each (``SectionedDifference/droppedDuplicates``).
    /// - Complexity: O(*n*) in the number of sections and items (their ids are copied, 9 bytes an item).
    public init(_ request: DiffRequest, dropped: DroppedDuplicates) {
        source = (SnapshotIDs(request.old), SentPositions(dropped: dropped.source))
        target = (SnapshotIDs(request.new), SentPositions(dropped: dropped.target))
    }

    /// Writes the id of the section or item at `subject`.
    ///
    /// - Parameters:
    ///   - subject: A position in one of the diffed snapshots.
    ///   - writer: Where to write the id.
    public func write(_ subject: ChangeSubject, into writer: inout JSONWriter) {
        switch subject {
        case .section(let index, let role):
            let side = role == .source ? source : target
            side.ids.section(side.positions.section(index)).write(into: &writer)
        case .element(let path, let role):
            let side = role == .source ? source : target
            let (section, element) = side.positions.element(path)
            side.ids.item(section: section, element: element).write(into: &writer)
        }
    }
}
