/// What ``DuplicatePolicy/keepFirst`` dropped from the two snapshots, in input positions.
public struct DroppedDuplicates: Hashable, Sendable {
    /// Positions dropped from one snapshot.
    public struct Positions: Hashable, Sendable {
        /// Indices of dropped sections (each dropped with all its elements), ascending.
        public var sections: [Int] = []
        /// Paths of dropped elements of kept sections, ascending.
        public var elements: [ElementPath] = []

        /// Creates a record, empty unless given.
        public init(sections: [Int] = [], elements: [ElementPath] = []) {
            self.sections = sections
            self.elements = elements
        }

        /// Whether nothing was dropped.
        public var isEmpty: Bool { sections.isEmpty && elements.isEmpty }
    }

    /// What was dropped from the source snapshot.
    public var source = Positions()
    /// What was dropped from the target snapshot.
    public var target = Positions()

    /// Creates a record, empty unless given.
    public init(source: Positions = Positions(), target: Positions = Positions()) {
        self.source = source
        self.target = target
    }

    /// Whether nothing was dropped from either snapshot.
    public var isEmpty: Bool { source.isEmpty && target.isEmpty }
}
