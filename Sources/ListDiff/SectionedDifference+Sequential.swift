extension SectionedDifference {
    /// The difference as a flat list of operations in which every index refers to the state left by the
    /// operations before it, as RecyclerView's `notifyItem*` calls and DiffUtil's dispatch expect.
    ///
    /// The order is: section removals (descending), element removals (descending within each section),
    /// section moves, section insertions (ascending; an inserted section arrives with all its elements),
    /// element moves, element insertions (ascending), then element and section updates at their final
    /// positions. There is one operation per change, so the counts match ``counts``.
    ///
    /// - Complexity: O(n + m + k log(n + m)) for k moves.
    public var sequential: [SequentialChange] {
        var operations: [SequentialChange] = []
        operations.reserveCapacity(counts.total)
        forEachSequential { operations.append($0) }
        return operations
    }

    /// Calls `body` with each operation of ``sequential``, in the same order, without holding them all: for a
    /// caller that reads them once (a JSON Patch is written from them), this saves ``sequential``'s array.
    ///
    /// - Parameter body: Called once per operation, `counts.total` times in all.
    /// - Complexity: O(n + m + k log(n + m)) for k moves, as ``sequential``.
    public func forEachSequential(_ body: (SequentialChange) -> Void) {
        let m = matching
        forEachRemoval { section in
            body(.removeSection(section))
        } element: { path, compactSection in
            body(.removeElement(ElementPath(element: path.element, section: compactSection)))
        }
        forEachSectionMove(body)
        for (section, source) in m.targetSectionSource.enumerated() where source.isAbsent {
            body(.insertSection(section))
        }
        forEachElementMove(body)
        for element in 0..<m.targetElementCount where elementFate[element] == .inserted {
            body(.insertElement(targetPath(element)))
        }
        forEachSequentialUpdate(body)
    }

    /// Calls `body` with each update operation of ``sequential`` (`updateElement` and `updateSection`, the last
    /// ones), in the same order: what ``forEachSequential(_:)`` ends with, without placing the moves before them,
    /// for a caller that reads only the updates.
    ///
    /// - Parameter body: Called once per update, `counts.elementUpdated + counts.sectionUpdated` times in all.
    /// - Complexity: O(n + m).
    public func forEachSequentialUpdate(_ body: (SequentialChange) -> Void) {
        forEachUpdate { target, _ in
            body(.updateSection(target))
        } element: { target, _ in
            body(.updateElement(target))
        }
    }

    /// Calls `element` with each updated element and `section` with each updated section, in the order of
    /// ``forEachSequentialUpdate(_:)`` (elements first), with the position of the old version each replaces:
    /// the source element or section with the same id.
    ///
    /// - Parameters:
    ///   - section: Called with an updated section's index in the target and its source section's index.
    ///   - element: Called with an updated element's path in the target (its final position, as
    ///     ``SequentialChange/updateElement(_:)`` gives it) and its source element's path in the source.
    /// - Complexity: O(n + m).
    public func forEachUpdate(
        section: (_ target: Int, _ source: Int) -> Void,
        element: (_ target: ElementPath, _ source: ElementPath) -> Void
    ) {
        let m = matching
        for flat in 0..<m.targetElementCount where elementUpdated[flat] {
            // An updated element has a source: it is matched, and its content changed.
            element(targetPath(flat), sourcePath(m.targetElementSource[flat].present))
        }
        for (target, source) in m.targetSectionSource.enumerated() where m.sectionChanged[target] {
            guard let source = source.index else { continue }
            section(target, source)
        }
    }

    /// Calls `section` with each deleted source section, descending, then `element` with the source path of each
    /// deleted element of a surviving section and that section's index after the section deletions, section by
    /// section and descending within each: the order of the sequential removals (and of their subjects).
    func forEachRemoval(section: (Int) -> Void, element: (_ path: ElementPath, _ compactSection: Int) -> Void) {
        let m = matching
        for index in m.sourceSectionTarget.indices.reversed() where m.sourceSectionTarget[index].isAbsent {
            section(index)
        }
        for index in m.sourceSectionTarget.indices {
            guard let compactSection = sourceSectionCompact[index].index else { continue }
            let start = m.sourceSectionStart[index]
            for flat in (start..<m.sourceSectionStart[index + 1]).reversed() where sourceElementCompact[flat].isAbsent {
                element(ElementPath(element: flat - start, section: index), compactSection)
            }
        }
    }

    /// Calls `body` with each section move, after the section removals: the list then holds the surviving
    /// sections in old order, and the moved ones are placed in final order after the kept section that precedes
    /// them.
    private func forEachSectionMove(_ body: (SequentialChange) -> Void) {
        let m = matching
        var arrivals: [Int] = []
        var anchors: [Int] = []
        var anchor = -1
        for (section, source) in m.targetSectionSource.enumerated() {
            guard let source = source.index else { continue }
            if sectionMoved[section] {
                arrivals.append(section)
                anchors.append(anchor)
            } else {
                anchor = sourceSectionCompact[source].present
            }
        }
        guard !arrivals.isEmpty else { return }
        let survivors = m.sourceSectionTarget.count - counts.sectionDeleted
        let layout = SlotLayout(base: 0, memberCount: survivors, arrivalAnchors: anchors)
        var occupied = [Bool](repeatElement(false, count: layout.end))
        for slot in layout.memberSlots { occupied[slot] = true }
        var tree = OccupancyTree(occupied: occupied)
        for (arrival, section) in arrivals.enumerated() {
            let oldSlot = layout.memberSlots[sourceSectionCompact[m.targetSectionSource[section].present].present]
            let from = tree.occupied(before: oldSlot)
            tree.add(-1, at: oldSlot)
            let newSlot = layout.arrivalSlots[arrival]
            let to = tree.occupied(before: newSlot)
            tree.add(1, at: newSlot)
            body(.moveSection(Move(source: from, target: to)))
        }
        tree._checkInvariants()
    }

    /// Calls `body` with each element move, after the section insertions: every surviving section then stands
    /// at its final index and holds its surviving elements (those staying, moving within and moving out) in old
    /// order; moved elements are placed in final path order after the staying element that precedes them.
    private func forEachElementMove(_ body: (SequentialChange) -> Void) {
        guard counts.elementMoved > 0 else { return }
        let m = matching
        // One slot line for all surviving sections, in final order.
        var sectionBase = [Int](repeatElement(0, count: m.targetSectionSource.count))
        var memberSlot = [Int](repeatElement(-1, count: m.sourceElementCount))
        var arrivalSlot = [Int](repeatElement(-1, count: m.targetElementCount))
        var occupied: [Bool] = []
        var anchors: [Int] = []
        var arrivals: [Int] = []
        var members: [Int] = []
        for (section, sourceSection) in m.targetSectionSource.enumerated() {
            guard let sourceSection = sourceSection.index else { continue }
            sectionBase[section] = occupied.count
            members.removeAll(keepingCapacity: true)
            for element in m.sourceSectionStart[sourceSection]..<m.sourceSectionStart[sourceSection + 1]
            where sourceElementCompact[element].index != nil {
                members.append(element)
            }
            anchors.removeAll(keepingCapacity: true)
            arrivals.removeAll(keepingCapacity: true)
            var anchor = -1
            for element in m.targetSectionStart[section]..<m.targetSectionStart[section + 1] {
                switch elementFate[element] {
                case .stays:
                    anchor = sourceElementCompact[m.targetElementSource[element].present].present
                case .moved:
                    arrivals.append(element)
                    anchors.append(anchor)
                case .inserted, .coveredBySectionInsert:
                    continue
                }
            }
            let layout = SlotLayout(base: occupied.count, memberCount: members.count, arrivalAnchors: anchors)
            occupied.append(contentsOf: repeatElement(false, count: layout.end - occupied.count))
            for (member, element) in members.enumerated() {
                memberSlot[element] = layout.memberSlots[member]
                occupied[layout.memberSlots[member]] = true
            }
            for (arrival, element) in arrivals.enumerated() { arrivalSlot[element] = layout.arrivalSlots[arrival] }
        }

        var tree = OccupancyTree(occupied: occupied)
        for element in 0..<m.targetElementCount where elementFate[element] == .moved {
            let source = m.targetElementSource[element].present
            let fromSection = m.sourceSectionTarget[Int(m.sourceElementSection[source])].present
            let oldSlot = memberSlot[source]
            let from = tree.occupied(before: oldSlot) - tree.occupied(before: sectionBase[fromSection])
            tree.add(-1, at: oldSlot)
            let toSection = Int(m.targetElementSection[element])
            let newSlot = arrivalSlot[element]
            let to = tree.occupied(before: newSlot) - tree.occupied(before: sectionBase[toSection])
            tree.add(1, at: newSlot)
            body(
                .moveElement(
                    Move(
                        source: ElementPath(element: from, section: fromSection),
                        target: ElementPath(element: to, section: toSection))))
        }
        tree._checkInvariants()
    }
}
