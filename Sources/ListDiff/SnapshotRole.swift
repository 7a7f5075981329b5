/// Which of the two snapshots of a difference something refers to.
public enum SnapshotRole: String, Hashable, Sendable, CaseIterable {
    /// The older snapshot, the one the changes start from.
    case source
    /// The newer snapshot, the one the changes lead to.
    case target
}
