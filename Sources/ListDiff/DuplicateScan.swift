/// The slow path taken only when a snapshot repeats an id: finds every repetition with its positions, and
/// what ``DuplicatePolicy/keepFirst`` keeps.
struct DuplicateScan<Section: DifferentiableSection> {
    typealias SectionID = Section.DifferenceIdentifier
    typealias ElementID = Section.Element.DifferenceIdentifier
    typealias Failure = DuplicateIdentifiersError<SectionID, ElementID>

    /// Every repeated section id with all its positions, in order of first position.
    private(set) var sectionDuplicates: [DuplicateIdentifier<SectionID, Int>] = []
    /// Every repeated element id (over all sections) with all its paths, in order of first position.
    private(set) var elementDuplicates: [DuplicateIdentifier<ElementID, ElementPath>] = []
    /// The sections keepFirst keeps, in order.
    private(set) var keptSections: [Section] = []
    /// The elements keepFirst keeps, per kept section.
    private(set) var keptElements: [[Section.Element]] = []
    /// What keepFirst drops, in input positions.
    private(set) var dropped = DroppedDuplicates.Positions()

    /// Scans one snapshot.
    ///
    /// - Parameters:
    ///   - sections: The snapshot.
    ///   - role: Which snapshot it is.
    ///   - keeping: Whether to collect what ``DuplicatePolicy/keepFirst`` keeps and drops (not needed to reject,
    ///     and a copy of every element).
    /// - Complexity: O(n) expected for n sections and elements.
    init(of sections: [Section], in role: SnapshotRole, keeping: Bool) {
        var sectionPositions = Positions<SectionID, Int>()
        var elementPositions = Positions<ElementID, ElementPath>()
        var keptElementIDs = Set<ElementID>()
        for (sectionIndex, section) in sections.enumerated() {
            let isKept = sectionPositions.record(section.differenceIdentifier, at: sectionIndex)
            guard keeping else {
                for (elementIndex, element) in section.elements.enumerated() {
                    _ = elementPositions.record(
                        element.differenceIdentifier, at: ElementPath(element: elementIndex, section: sectionIndex))
                }
                continue
            }
            if isKept {
                keptSections.append(section)
            } else {
                dropped.sections.append(sectionIndex)
            }
            var kept: [Section.Element] = []
            for (elementIndex, element) in section.elements.enumerated() {
                let id = element.differenceIdentifier
                let path = ElementPath(element: elementIndex, section: sectionIndex)
                _ = elementPositions.record(id, at: path)
                guard isKept else { continue }
                if keptElementIDs.insert(id).inserted {
                    kept.append(element)
                } else {
                    dropped.elements.append(path)
                }
            }
            if isKept { keptElements.append(kept) }
        }
        sectionDuplicates = sectionPositions.repeated.map { .init(snapshot: role, id: $0.id, positions: $0.positions) }
        elementDuplicates = elementPositions.repeated.map { .init(snapshot: role, id: $0.id, positions: $0.positions) }
    }
}

/// The first position of each id, and every position of the ids that repeat.
///
/// Only repeated ids get an array of positions, so the scan costs one dictionary entry per id however many
/// ids there are.
private struct Positions<ID: Hashable, Position> {
    private var first: [ID: (position: Position, ordinal: Int)] = [:]
    private var repeats: [ID: [Position]] = [:]

    /// Records `id` at `position`; returns whether this is its first appearance.
    mutating func record(_ id: ID, at position: Position) -> Bool {
        if let earlier = first[id] {
            repeats[id, default: [earlier.position]].append(position)
            return false
        }
        first[id] = (position, first.count)
        return true
    }

    /// The ids that appear more than once, with all their positions, in order of first appearance.
    ///
    /// - Complexity: O(*r* log *r*) for *r* repeated ids.
    var repeated: [(id: ID, positions: [Position])] {
        repeats.map { (id: $0.key, positions: $0.value, ordinal: first[$0.key]!.ordinal) }
            .sorted { $0.ordinal < $1.ordinal }
            .map { (id: $0.id, positions: $0.positions) }
    }
}
