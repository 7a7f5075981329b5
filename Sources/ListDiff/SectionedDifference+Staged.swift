extension SectionedDifference {
    /// The difference as up to five stages, each safe as one UIKit batch update, in DifferenceKit's order
    /// and coordinates (see ``Changeset``). Empty stages are left out.
    ///
    /// - Complexity: O(n + m).
    public var staged: StagedChangeset {
        let m = matching
        var updates = Changeset()
        var deletions = Changeset()
        var sectionChanges = Changeset()
        var elementChanges = Changeset()
        var sectionUpdates = Changeset()
        // The counts are the lists' lengths: reserving them saves growing each list as it fills.
        updates.elementUpdated.reserveCapacity(counts.elementUpdated)
        deletions.sectionDeleted.reserveCapacity(counts.sectionDeleted)
        deletions.elementDeleted.reserveCapacity(counts.elementDeleted)
        sectionChanges.sectionInserted.reserveCapacity(counts.sectionInserted)
        sectionChanges.sectionMoved.reserveCapacity(counts.sectionMoved)
        elementChanges.elementInserted.reserveCapacity(counts.elementInserted)
        elementChanges.elementMoved.reserveCapacity(counts.elementMoved)
        sectionUpdates.sectionUpdated.reserveCapacity(counts.sectionUpdated)

        // Stage 1: element updates at source paths.
        // Stage 2: section deletions and element deletions at source positions.
        for section in m.sourceSectionTarget.indices {
            guard m.sourceSectionTarget[section].index != nil else {
                deletions.sectionDeleted.append(section)
                continue
            }
            let start = m.sourceSectionStart[section]
            for element in start..<m.sourceSectionStart[section + 1] {
                let path = ElementPath(element: element - start, section: section)
                if sourceElementCompact[element].isAbsent {
                    deletions.elementDeleted.append(path)
                } else if elementUpdated[m.sourceElementTarget[element].present] {
                    updates.elementUpdated.append(path)
                }
            }
        }

        // Stage 3: section insertions at final indices; moves from the index after deletions.
        // Stage 5: section updates at final indices.
        for (section, source) in m.targetSectionSource.enumerated() {
            guard let source = source.index else {
                sectionChanges.sectionInserted.append(section)
                continue
            }
            if sectionMoved[section] {
                sectionChanges.sectionMoved.append(Move(source: sourceSectionCompact[source].present, target: section))
            }
            if m.sectionChanged[section] { sectionUpdates.sectionUpdated.append(section) }
        }

        // Stage 4: element insertions at final paths; moves from the path in stage 3's data, where every
        // surviving section already stands at its final index and holds its surviving elements in old order.
        for element in 0..<m.targetElementCount {
            switch elementFate[element] {
            case .coveredBySectionInsert, .stays:
                continue
            case .inserted:
                elementChanges.elementInserted.append(targetPath(element))
            case .moved:
                let source = m.targetElementSource[element].present
                let from = ElementPath(
                    element: sourceElementCompact[source].present,
                    section: m.sourceSectionTarget[Int(m.sourceElementSection[source])].present)
                elementChanges.elementMoved.append(Move(source: from, target: targetPath(element)))
            }
        }

        // The stages are moved into the result (`consume`): a copy would retain each of their eight lists.
        var stages: [Changeset] = []
        stages.reserveCapacity(5)
        if !updates.isEmpty { stages.append(consume updates) }
        if !deletions.isEmpty { stages.append(consume deletions) }
        if !sectionChanges.isEmpty { stages.append(consume sectionChanges) }
        if !elementChanges.isEmpty { stages.append(consume elementChanges) }
        if !sectionUpdates.isEmpty { stages.append(consume sectionUpdates) }
        return StagedChangeset(nonEmpty: stages)
    }
}
