/// A change between two snapshots as up to five ordered stages, each safe as one UIKit batch update.
///
/// Apply the stages in order, each inside its own `performBatchUpdates`, updating the data source to the
/// state after that stage before the batch (see ``Changeset`` for the stages and their coordinates). Empty
/// stages are left out, so an unchanged snapshot yields an empty collection.
public struct StagedChangeset: RandomAccessCollection, Hashable, Sendable {
    /// The non-empty stages, in the order they must be applied.
    public private(set) var stages: [Changeset]

    /// Creates a staged changeset from stages, dropping empty ones.
    ///
    /// - Parameter stages: The stages in application order.
    public init(_ stages: [Changeset] = []) {
        self.stages = stages.filter { !$0.isEmpty }
    }

    /// Creates a staged changeset from stages that are all non-empty.
    init(nonEmpty stages: [Changeset]) {
        assert(!stages.contains { $0.isEmpty }, "an empty stage")
        self.stages = stages
    }

    /// The index of the first stage.
    public var startIndex: Int { stages.startIndex }

    /// The index past the last stage.
    public var endIndex: Int { stages.endIndex }

    /// The stage at `position`.
    public subscript(position: Int) -> Changeset { stages[position] }
}
