extension SectionedDifference {
    /// Decides every section's and element's fate from the identity matching: deletions, insertions, the
    /// kept subsequences (hence the minimal moves) and the reported updates.
    ///
    /// - Complexity: O(n + m + k log k).
    @usableFromInline
    init(matching: Matching, dropped: DroppedDuplicates) {
        let m = matching
        var counts = ChangeCounts()

        // Sections: deletions and the index of each survivor after them.
        var sourceSectionCompact = [OptionalIndex](repeatElement(.absent, count: m.sourceSectionTarget.count))
        var survivingSections = 0
        for (section, target) in m.sourceSectionTarget.enumerated() {
            if target.isAbsent {
                counts.sectionDeleted += 1
            } else {
                sourceSectionCompact[section] = OptionalIndex(survivingSections)
                survivingSections += 1
            }
        }

        // The candidates for a kept subsequence, their old positions and their preference: first the sections,
        // then each section's elements. Reused, sized once for the longest list (growing them costs more than
        // filling them).
        var candidates: [Int] = [], values: [Int] = [], preferred: [Bool] = []
        var longestList = m.targetSectionSource.count
        for section in m.targetSectionSource.indices {
            longestList = max(longestList, m.targetSectionStart[section + 1] - m.targetSectionStart[section])
        }
        candidates.reserveCapacity(longestList)
        values.reserveCapacity(longestList)
        preferred.reserveCapacity(longestList)

        // Sections: the kept order among survivors; the others move.
        var sectionMoved = [Bool](repeatElement(false, count: m.targetSectionSource.count))
        for (section, source) in m.targetSectionSource.enumerated() {
            guard let source = source.index else {
                counts.sectionInserted += 1
                continue
            }
            if m.sectionChanged[section] { counts.sectionUpdated += 1 }
            candidates.append(section)
            values.append(source)
            preferred.append(sourceSectionCompact[source] == OptionalIndex(section))
        }
        let keptSections = preferredLongestIncreasingSubsequence(
            of: values, domain: m.sourceSectionTarget.count, preferred: preferred)
        for (position, section) in candidates.enumerated() where !keptSections[position] {
            sectionMoved[section] = true
            counts.sectionMoved += 1
        }

        // Source elements: deleted when gone, or when their target lies in an inserted section. Survivors
        // are numbered within their section in the order they keep until the moves.
        var sourceElementCompact = [OptionalIndex](repeatElement(.absent, count: m.sourceElementCount))
        for section in m.sourceSectionTarget.indices {
            let sectionSurvives = m.sourceSectionTarget[section].index != nil
            var compact = 0
            for element in m.sourceSectionStart[section]..<m.sourceSectionStart[section + 1] {
                if let target = m.sourceElementTarget[element].index,
                    m.targetSectionSource[Int(m.targetElementSection[target])].index != nil
                {
                    sourceElementCompact[element] = OptionalIndex(compact)
                    compact += 1
                } else if sectionSurvives {
                    counts.elementDeleted += 1
                }
            }
        }

        // Target elements: insertions, stays (the preferred longest increasing subsequence of old positions
        // within a surviving section) and moves.
        var elementFate = [ElementFate](repeatElement(.coveredBySectionInsert, count: m.targetElementCount))
        var elementUpdated = [Bool](repeatElement(false, count: m.targetElementCount))
        for section in m.targetSectionSource.indices {
            guard let sourceSection = m.targetSectionSource[section].index else { continue }
            let start = m.targetSectionStart[section]
            candidates.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
            preferred.removeAll(keepingCapacity: true)
            for element in start..<m.targetSectionStart[section + 1] {
                guard let source = m.targetElementSource[element].index,
                    m.sourceSectionTarget[Int(m.sourceElementSection[source])].index != nil
                else {
                    elementFate[element] = .inserted
                    counts.elementInserted += 1
                    continue
                }
                if m.elementChanged[element] {
                    elementUpdated[element] = true
                    counts.elementUpdated += 1
                }
                if Int(m.sourceElementSection[source]) == sourceSection {
                    candidates.append(element)
                    values.append(source - m.sourceSectionStart[sourceSection])
                    preferred.append(sourceElementCompact[source] == OptionalIndex(element - start))
                } else {
                    elementFate[element] = .moved
                    counts.elementMoved += 1
                }
            }
            let kept = preferredLongestIncreasingSubsequence(
                of: values,
                domain: m.sourceSectionStart[sourceSection + 1] - m.sourceSectionStart[sourceSection],
                preferred: preferred)
            for (position, element) in candidates.enumerated() {
                if kept[position] {
                    elementFate[element] = .stays
                } else {
                    elementFate[element] = .moved
                    counts.elementMoved += 1
                }
            }
        }

        self.matching = matching
        self.sectionMoved = sectionMoved
        self.sourceSectionCompact = sourceSectionCompact
        self.sourceElementCompact = sourceElementCompact
        self.elementFate = elementFate
        self.elementUpdated = elementUpdated
        self.counts = counts
        self.droppedDuplicates = dropped
        _checkInvariants()
    }

    /// The path of a target element in the target snapshot.
    func targetPath(_ element: Int) -> ElementPath {
        let section = Int(matching.targetElementSection[element])
        return ElementPath(element: element - matching.targetSectionStart[section], section: section)
    }

    /// The path of a source element in the source snapshot.
    func sourcePath(_ element: Int) -> ElementPath {
        let section = Int(matching.sourceElementSection[element])
        return ElementPath(element: element - matching.sourceSectionStart[section], section: section)
    }
}
