/// A repeated identifier, the positions it stands at in one snapshot, and how many times it appears there.
public struct DuplicateIdentifier<ID: Hashable & Sendable, Position: Hashable & Sendable>: Hashable, Sendable {
    /// The snapshot that repeats the id.
    public var snapshot: SnapshotRole
    /// The repeated id.
    public var id: ID
    /// The positions of the id in that snapshot, ascending: every one (at least two), or the first
    /// ``DuplicateReportLimits/positionsPerID`` when the report was limited.
    public var positions: [Position]
    /// How many times the id appears in the snapshot (at least two), whether or not every position is listed.
    public var occurrences: Int

    /// Creates a duplicate record listing every position.
    ///
    /// - Parameters:
    ///   - snapshot: The snapshot that repeats the id.
    ///   - id: The repeated id.
    ///   - positions: Every position of the id, ascending.
    public init(snapshot: SnapshotRole, id: ID, positions: [Position]) {
        self.init(snapshot: snapshot, id: id, positions: positions, occurrences: positions.count)
    }

    /// Creates a duplicate record listing the first positions.
    ///
    /// - Parameters:
    ///   - snapshot: The snapshot that repeats the id.
    ///   - id: The repeated id.
    ///   - positions: The first positions of the id, ascending.
    ///   - occurrences: How many times the id appears (at least `positions.count`).
    public init(snapshot: SnapshotRole, id: ID, positions: [Position], occurrences: Int) {
        precondition(occurrences >= positions.count, "fewer occurrences than listed positions")
        self.snapshot = snapshot
        self.id = id
        self.positions = positions
        self.occurrences = occurrences
    }
}
