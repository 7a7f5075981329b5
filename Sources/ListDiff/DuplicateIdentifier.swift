/// A repeated identifier and every position it stands at in one snapshot.
public struct DuplicateIdentifier<ID: Hashable & Sendable, Position: Hashable & Sendable>: Hashable, Sendable {
    /// The snapshot that repeats the id.
    public var snapshot: SnapshotRole
    /// The repeated id.
    public var id: ID
    /// Every position of the id in that snapshot, ascending; at least two.
    public var positions: [Position]

    /// Creates a duplicate record.
    ///
    /// - Parameters:
    ///   - snapshot: The snapshot that repeats the id.
    ///   - id: The repeated id.
    ///   - positions: Every position of the id, ascending.
    public init(snapshot: SnapshotRole, id: ID, positions: [Position]) {
        self.snapshot = snapshot
        self.id = id
        self.positions = positions
    }
}
