/// How many changes of each kind a difference holds; the same for its staged and sequential renderings.
public struct ChangeCounts: Hashable, Sendable {
    /// Deleted sections.
    public var sectionDeleted = 0
    /// Inserted sections.
    public var sectionInserted = 0
    /// Sections whose own content changed.
    public var sectionUpdated = 0
    /// Moved sections (a minimum: sections that keep their relative order are not counted).
    public var sectionMoved = 0
    /// Deleted elements, not counting elements of deleted sections.
    public var elementDeleted = 0
    /// Inserted elements, not counting elements of inserted sections.
    public var elementInserted = 0
    /// Elements whose content changed.
    public var elementUpdated = 0
    /// Moved elements (a minimum: elements that keep their relative order within a section are not counted).
    public var elementMoved = 0

    /// Creates counts, all zero unless given.
    public init(
        sectionDeleted: Int = 0, sectionInserted: Int = 0, sectionUpdated: Int = 0, sectionMoved: Int = 0,
        elementDeleted: Int = 0, elementInserted: Int = 0, elementUpdated: Int = 0, elementMoved: Int = 0
    ) {
        self.sectionDeleted = sectionDeleted
        self.sectionInserted = sectionInserted
        self.sectionUpdated = sectionUpdated
        self.sectionMoved = sectionMoved
        self.elementDeleted = elementDeleted
        self.elementInserted = elementInserted
        self.elementUpdated = elementUpdated
        self.elementMoved = elementMoved
    }

    /// The total number of changes.
    public var total: Int {
        sectionDeleted + sectionInserted + sectionUpdated + sectionMoved
            + elementDeleted + elementInserted + elementUpdated + elementMoved
    }
}
