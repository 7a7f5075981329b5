/// One stage of a ``StagedChangeset``: a set of changes that UIKit accepts as **one** batch update.
///
/// The eight lists carry DifferenceKit's names, so a client migrating from DifferenceKit maps them one to
/// one. Which lists a stage fills, and which coordinates its indices use, follow the five-stage order:
///
/// | stage | lists | coordinates |
/// |---|---|---|
/// | 1 | ``elementUpdated`` | paths in the source snapshot |
/// | 2 | ``sectionDeleted``, ``elementDeleted`` | indices / paths in the source snapshot |
/// | 3 | ``sectionInserted``, ``sectionMoved`` | inserts: final index; moves: index after stage 2 → final index |
/// | 4 | ``elementInserted``, ``elementMoved`` | inserts: final path; moves: path after stage 3 → final path |
/// | 5 | ``sectionUpdated`` | final index |
///
/// Every index refers to the data left by the previous stage. All lists are sorted ascending (moves by
/// their target).
public struct Changeset: Hashable, Sendable {
    /// Indices of deleted sections, in the source snapshot.
    public var sectionDeleted: [Int] = []

    /// Indices of inserted sections, in the target snapshot.
    public var sectionInserted: [Int] = []

    /// Indices of sections whose own content changed, in the target snapshot.
    public var sectionUpdated: [Int] = []

    /// Section moves: index after the stage-2 deletions → index in the target snapshot.
    public var sectionMoved: [Move<Int>] = []

    /// Paths of deleted elements, in the source snapshot. Elements of a deleted section are not listed.
    public var elementDeleted: [ElementPath] = []

    /// Paths of inserted elements, in the target snapshot. Elements of an inserted section are not listed.
    public var elementInserted: [ElementPath] = []

    /// Paths of elements whose content changed, in the source snapshot.
    public var elementUpdated: [ElementPath] = []

    /// Element moves: path after stage 3 → path in the target snapshot.
    public var elementMoved: [Move<ElementPath>] = []

    /// Creates an empty stage.
    public init() {}

    /// Whether the stage holds no change.
    public var isEmpty: Bool { changeCount == 0 }

    /// The number of changes in the stage.
    public var changeCount: Int {
        sectionDeleted.count + sectionInserted.count + sectionUpdated.count + sectionMoved.count
            + elementDeleted.count + elementInserted.count + elementUpdated.count + elementMoved.count
    }
}
