import ListDiff
import SnapshotJSON

/// The ids of the sections and items a difference was computed on, by position: the request's two snapshots,
/// less what ``DuplicatePolicy/keepFirst`` dropped (the difference's indices skip those).
///
/// It writes the id of a change's subject for `"ids": true`: a string or an integer as the client sent it,
/// `null` for the implicit section of a bare item list. A class, so that the renderings' writers take an optional
/// one as one pointer: without `ids`, the default path pays a nil check and nothing more.
public final class SubjectIDs: Sendable {
    /// The snapshots as sent, and where each diffed position lies in them.
    private let source: (snapshot: Snapshot, positions: SentPositions)
    private let target: (snapshot: Snapshot, positions: SentPositions)

    /// The ids of the request's snapshots as diffed.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - dropped: What the difference dropped from each (``SectionedDifference/droppedDuplicates``).
    /// - Complexity: O(1), or O(*n*) in the number of items of the sections that lost some when something was
    ///   dropped.
    public init(_ request: DiffRequest, dropped: DroppedDuplicates) {
        source = (request.old, SentPositions(request.old, dropped: dropped.source))
        target = (request.new, SentPositions(request.new, dropped: dropped.target))
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
            side.snapshot.sections[side.positions.section(index)].id.write(into: &writer)
        case .element(let path, let role):
            let side = role == .source ? source : target
            let (section, element) = side.positions.element(path)
            side.snapshot.sections[section].items[element].id.write(into: &writer)
        }
    }
}
