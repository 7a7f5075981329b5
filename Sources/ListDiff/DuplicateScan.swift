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
