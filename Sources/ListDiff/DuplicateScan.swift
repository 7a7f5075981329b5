/// The slow path taken only when a snapshot repeats an id and ``DuplicatePolicy/reject`` applies: the report of
/// the repeats, within ``DuplicateReportLimits``.
///
/// Each list (a snapshot's sections, then its elements) is read twice through a table of first occurrences of the
/// caller's kind (numbered when it can): once to find which ids repeat, a bit per position, and once to list the
/// first repeated ids with their first positions and count their occurrences. No position is kept for an id
/// that is not listed.
@usableFromInline
enum DuplicateScan {
    /// The report on `source` and `target`.
    ///
    /// Inlinable, as the rest of the diff, so that it is specialised for the caller's element type: generic
    /// code hashing unknown ids runs several times slower.
    ///
    /// - Complexity: O(n) expected for n sections and elements; memory O(n) bits, plus the tables of first
    ///   occurrences and what is listed.
    @inlinable
    static func report<Section: DifferentiableSection, Table: ElementTable>(
        source: [Section], target: [Section], limits: DuplicateReportLimits, table: Table.Type
    ) -> DuplicateIdentifiersError<Section.DifferenceIdentifier, Section.Element.DifferenceIdentifier>
    where Table.Element == Section.Element {
        var budget = limits.listedIDs
        var repeatedCount = 0
        var sections: [DuplicateIdentifier<Section.DifferenceIdentifier, Int>] = []
        for (snapshot, role) in [(source, SnapshotRole.source), (target, .target)] {
            var table = HashedElementTable<Section>(source: [snapshot], target: [])
            sections += scan(
                [snapshot], through: &table, role: role, limits: limits, budget: &budget, repeatedCount: &repeatedCount,
                position: { $0.element })
        }
        var elements: [DuplicateIdentifier<Section.Element.DifferenceIdentifier, ElementPath>] = []
        for (snapshot, role) in [(source, SnapshotRole.source), (target, .target)] {
            let lists = snapshot.map(\.elements)
            if var table = Table(source: lists, target: []) {
                elements += scan(
                    lists, through: &table, role: role, limits: limits, budget: &budget, repeatedCount: &repeatedCount,
                    position: { $0 })
            } else {
                var table = HashedElementTable(source: lists, target: [])
                elements += scan(
                    lists, through: &table, role: role, limits: limits, budget: &budget, repeatedCount: &repeatedCount,
                    position: { $0 })
            }
        }
        return DuplicateIdentifiersError(sections: sections, elements: elements, repeatedCount: repeatedCount)
    }

    /// The listed repeats of one list of lists (a snapshot's elements, or its sections as one list), found
    /// through `table` as source elements; adds the list's repeated ids to `repeatedCount`, and takes what it
    /// lists from `budget`.
    @inlinable
    static func scan<Element: Differentiable, Table: ElementTable, Position>(
        _ lists: [[Element]], through table: inout Table, role: SnapshotRole, limits: DuplicateReportLimits,
        budget: inout Int, repeatedCount: inout Int, position: (ElementPath) -> Position
    ) -> [DuplicateIdentifier<Element.DifferenceIdentifier, Position>] where Table.Element == Element {
        // First pass: which ids repeat. Elements are read in place (iterating would copy each one).
        var tally = RepeatTally(count: lists.reduce(0) { $0 + $1.count })
        var flat = 0
        for list in lists.indices {
            let elements = lists[list]
            for index in elements.indices {
                if case .source(let first) = table.claimSource(elements, index, flat: flat) {
                    tally.recordRepeat(of: first)
                }
                flat += 1
            }
        }
        repeatedCount += tally.repeatedCount
        guard budget > 0, let start = tally.firstRepeated else { return [] }
        // Second pass, from the first repeated id: the table now gives every element its id's first position.
        var listing = RepeatListing<Element.DifferenceIdentifier, Position>(
            tally, limit: budget, positionLimit: limits.positionsPerID)
        flat = 0
        for list in lists.indices {
            let elements = lists[list]
            guard flat + elements.count > start else {
                flat += elements.count
                continue
            }
            for index in elements.indices {
                if flat >= start, case .source(let first) = table.claimSource(elements, index, flat: flat) {
                    listing.visit(flat, first: first, at: position(ElementPath(element: index, section: list))) {
                        elements[index].differenceIdentifier
                    }
                }
                flat += 1
            }
        }
        budget -= listing.entries.count
        return listing.entries.map {
            DuplicateIdentifier(snapshot: role, id: $0.id, positions: $0.positions, occurrences: $0.occurrences)
        }
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
