/// One operation of a sequential changeset, as RecyclerView's `notifyItem*` calls and DiffUtil's dispatch
/// expect: every index refers to the list **as left by all previous operations**.
///
/// A sequential changeset orders its operations as: section removals, element removals, section moves,
/// section insertions (an inserted section arrives with all its elements), element moves, element
/// insertions, then element and section updates at their final positions.
public enum SequentialChange: Hashable, Sendable, CustomStringConvertible {
    /// Remove the section at this index.
    case removeSection(Int)
    /// Insert the target snapshot's section (with all its elements) at this index.
    case insertSection(Int)
    /// Move the section at `source` so that it stands at `target` afterwards.
    case moveSection(Move<Int>)
    /// The section at this index (its final index) has new content of its own.
    case updateSection(Int)
    /// Remove the element at this path.
    case removeElement(ElementPath)
    /// Insert the target snapshot's element at this path.
    case insertElement(ElementPath)
    /// Move the element at `source` so that it stands at `target` afterwards, possibly in another section.
    case moveElement(Move<ElementPath>)
    /// The element at this path (its final path) has new content.
    case updateElement(ElementPath)

    /// A short textual form such as `moveElement [0, 2] → [1, 0]`.
    public var description: String {
        switch self {
        case .removeSection(let index): "removeSection \(index)"
        case .insertSection(let index): "insertSection \(index)"
        case .moveSection(let move): "moveSection \(move)"
        case .updateSection(let index): "updateSection \(index)"
        case .removeElement(let path): "removeElement \(path)"
        case .insertElement(let path): "insertElement \(path)"
        case .moveElement(let move): "moveElement \(move)"
        case .updateElement(let path): "updateElement \(path)"
        }
    }
}
