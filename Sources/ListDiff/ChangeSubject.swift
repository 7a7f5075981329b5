/// The section or element a change concerns, by where it stands in the snapshot that holds it: a removed one
/// in the source snapshot, any other (inserted, moved, updated) at its final position in the target snapshot.
///
/// A change's own indices may refer to an intermediate state (a sequential move's, say); the subject always
/// names a position in one of the two snapshots, so a client can look up the section's or element's id.
public enum ChangeSubject: Hashable, Sendable, CustomStringConvertible {
    /// The section at this index of the snapshot.
    case section(Int, in: SnapshotRole)
    /// The element at this path of the snapshot.
    case element(ElementPath, in: SnapshotRole)

    /// `source section 2`, `target element [0, 1]`.
    public var description: String {
        switch self {
        case .section(let index, let role): "\(role) section \(index)"
        case .element(let path, let role): "\(role) element \(path)"
        }
    }
}
