/// The slow path taken only when a snapshot repeats an id and ``DuplicatePolicy/reject`` applies: every
/// repetition with its positions.
@usableFromInline
struct DuplicateScan<Section: DifferentiableSection> {
    @usableFromInline typealias SectionID = Section.DifferenceIdentifier
    @usableFromInline typealias ElementID = Section.Element.DifferenceIdentifier

    /// Every repeated section id with all its positions, in order of first position.
    @usableFromInline let sectionDuplicates: [DuplicateIdentifier<SectionID, Int>]
    /// Every repeated element id (over all sections) with all its paths, in order of first position.
    @usableFromInline let elementDuplicates: [DuplicateIdentifier<ElementID, ElementPath>]

    /// Scans one snapshot.
    ///
    /// Inlinable, as the rest of the diff, so that it is specialised for the caller's element type: generic
    /// code hashing and sorting tuples of unknown ids runs several times slower.
    ///
    /// - Complexity: O(n + r log r) expected for n sections and elements of which r ids repeat.
    @inlinable
    init(of sections: [Section], in role: SnapshotRole) {
        var sectionPositions = Positions<SectionID, Int>()
        var elementPositions = Positions<ElementID, ElementPath>()
        for sectionIndex in sections.indices {
            _ = sectionPositions.record(sections[sectionIndex].differenceIdentifier, at: sectionIndex)
            let elements = sections[sectionIndex].elements
            for elementIndex in elements.indices {
                _ = elementPositions.record(
                    elements[elementIndex].differenceIdentifier,
                    at: ElementPath(element: elementIndex, section: sectionIndex))
            }
        }
        sectionDuplicates = sectionPositions.repeated.map { .init(snapshot: role, id: $0.id, positions: $0.positions) }
        elementDuplicates = elementPositions.repeated.map { .init(snapshot: role, id: $0.id, positions: $0.positions) }
    }
}

/// What ``DuplicatePolicy/keepFirst`` keeps of a snapshot that repeats an id: the first section of each section
/// id, and in it the elements whose id no earlier kept element has.
///
/// Only the ids are remembered, never where a repeat was: keeping needs no report.
@usableFromInline
struct FirstOccurrences<Section: DifferentiableSection> {
    /// The sections kept, in order.
    @usableFromInline var sections: [Section] = []
    /// The elements kept, per kept section.
    @usableFromInline var elements: [[Section.Element]] = []
    /// What was dropped, in input positions.
    @usableFromInline var dropped = DroppedDuplicates.Positions()

    /// Keeps the first occurrences of `snapshot`.
    ///
    /// - Complexity: O(n) expected for n sections and elements.
    @inlinable
    init(of snapshot: [Section]) {
        var keptSectionIDs = Set<Section.DifferenceIdentifier>()
        var keptElementIDs = Set<Section.Element.DifferenceIdentifier>()
        for sectionIndex in snapshot.indices {
            guard keptSectionIDs.insert(snapshot[sectionIndex].differenceIdentifier).inserted else {
                dropped.sections.append(sectionIndex)
                continue
            }
            sections.append(snapshot[sectionIndex])
            let all = snapshot[sectionIndex].elements
            var kept: [Section.Element] = []
            kept.reserveCapacity(all.count)
            for elementIndex in all.indices {
                if keptElementIDs.insert(all[elementIndex].differenceIdentifier).inserted {
                    kept.append(all[elementIndex])
                } else {
                    dropped.elements.append(ElementPath(element: elementIndex, section: sectionIndex))
                }
            }
            elements.append(kept)
        }
    }
}
