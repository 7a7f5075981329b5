import ListDiff

/// Why UIKit would refuse a batch update (it raises an `NSInternalInconsistencyException` or crashes).
struct BatchUpdateRejection: Error, CustomStringConvertible {
    var description: String
}

/// Applies staged changesets the way `UICollectionView.performBatchUpdates` does, and refuses everything
/// UIKit would reject: indices out of range, an index used twice, one index path both reloaded and
/// deleted or moved, element changes inside a section deleted or inserted in the same batch, section
/// moves or insertions mixed with element insertions or moves (IGListKit #691, RxDataSources #321), and
/// counts that do not reconcile.
///
/// Like a data source, it takes inserted and reloaded values from the target snapshot.
struct BatchUpdateSimulator {
    private(set) var sections: Snapshot
    let target: Snapshot

    init(source: Snapshot, target: Snapshot) {
        sections = source
        self.target = target
    }

    /// Applies every stage in order, each as one batch.
    mutating func apply(_ changeset: StagedChangeset) throws(BatchUpdateRejection) {
        for (number, stage) in changeset.enumerated() {
            do {
                try apply(stage)
            } catch {
                throw BatchUpdateRejection(description: "stage \(number + 1): \(error.description)")
            }
        }
    }

    /// Applies one batch update.
    mutating func apply(_ stage: Changeset) throws(BatchUpdateRejection) {
        let before = sections
        if !(stage.sectionMoved.isEmpty && stage.sectionInserted.isEmpty)
            && !(stage.elementInserted.isEmpty && stage.elementMoved.isEmpty)
        {
            throw reject("section moves/insertions mixed with element insertions/moves in one batch")
        }

        // Sections, before coordinates.
        let deleted = try uniqueSet(stage.sectionDeleted, below: before.count, "deleted section")
        let movedFrom = try uniqueSet(stage.sectionMoved.map(\.source), below: before.count, "moved section")
        let reloaded = try uniqueSet(stage.sectionUpdated, below: before.count, "reloaded section")
        guard deleted.isDisjoint(with: movedFrom) else { throw reject("a section both deleted and moved") }
        guard reloaded.isDisjoint(with: deleted.union(movedFrom)) else {
            throw reject("a section both reloaded and deleted or moved")
        }

        // Sections, after coordinates.
        let afterCount = before.count - deleted.count + stage.sectionInserted.count
        let placed = stage.sectionInserted + stage.sectionMoved.map(\.target)
        _ = try uniqueSet(placed, below: afterCount, "inserted or moved-to section")
        var origin = [Int?](repeating: nil, count: afterCount)  // before index, nil when inserted
        var isPlaced = [Bool](repeating: false, count: afterCount)
        for index in stage.sectionInserted { isPlaced[index] = true }
        for move in stage.sectionMoved {
            origin[move.target] = move.source
            isPlaced[move.target] = true
        }
        var stayers = before.indices.filter { !deleted.contains($0) && !movedFrom.contains($0) }.makeIterator()
        for index in 0..<afterCount where !isPlaced[index] {
            guard let next = stayers.next() else { throw reject("section counts do not reconcile") }
            origin[index] = next
        }
        guard stayers.next() == nil else { throw reject("section counts do not reconcile") }

        // Elements, before coordinates.
        func checkBefore(_ paths: [ElementPath], _ what: String) throws(BatchUpdateRejection) -> Set<ElementPath> {
            for path in paths {
                guard path.section >= 0, path.section < before.count,
                    path.element >= 0, path.element < before[path.section].elements.count
                else { throw reject("\(what) \(path) out of range") }
                guard !deleted.contains(path.section) else { throw reject("\(what) \(path) in a deleted section") }
            }
            let set = Set(paths)
            guard set.count == paths.count else { throw reject("\(what): a path listed twice") }
            return set
        }
        let elementDeleted = try checkBefore(stage.elementDeleted, "deleted element")
        let elementMovedFrom = try checkBefore(stage.elementMoved.map(\.source), "moved element")
        let elementReloaded = try checkBefore(stage.elementUpdated, "reloaded element")
        guard elementDeleted.isDisjoint(with: elementMovedFrom) else { throw reject("an element both deleted and moved") }
        guard elementReloaded.isDisjoint(with: elementDeleted.union(elementMovedFrom)) else {
            throw reject("an element both reloaded and deleted or moved")
        }

        // Elements, after coordinates.
        var explicit = [[Int: Item]](repeating: [:], count: afterCount)
        func place(_ path: ElementPath, _ item: Item, _ what: String) throws(BatchUpdateRejection) {
            guard path.section >= 0, path.section < afterCount else { throw reject("\(what) \(path) out of range") }
            guard origin[path.section] != nil else { throw reject("\(what) \(path) in an inserted section") }
            guard explicit[path.section].updateValue(item, forKey: path.element) == nil else {
                throw reject("\(what) \(path): a path listed twice")
            }
        }
        for path in stage.elementInserted {
            guard path.section < target.count, path.element >= 0, path.element < target[path.section].elements.count
            else { throw reject("inserted element \(path) is not in the data source") }
            try place(path, target[path.section].elements[path.element], "inserted element")
        }
        for move in stage.elementMoved {
            try place(move.target, before[move.source.section].elements[move.source.element], "moved-to element")
        }

        var after: Snapshot = []
        for index in 0..<afterCount {
            guard let from = origin[index] else {
                guard index < target.count else { throw reject("inserted section \(index) is not in the data source") }
                after.append(target[index])
                continue
            }
            var section = before[from]
            if reloaded.contains(from) {
                guard let model = target.first(where: { $0.model.id == section.model.id })?.model else {
                    throw reject("reloaded section \(from) is not in the data source")
                }
                section.model = model
            }
            var remaining: [Item] = []
            for (element, item) in section.elements.enumerated() {
                let path = ElementPath.at(from, element)
                if elementDeleted.contains(path) || elementMovedFrom.contains(path) { continue }
                if elementReloaded.contains(path) {
                    guard let fresh = target.lazy.flatMap(\.elements).first(where: { $0.id == item.id }) else {
                        throw reject("reloaded element \(path) is not in the data source")
                    }
                    remaining.append(fresh)
                } else {
                    remaining.append(item)
                }
            }
            let count = remaining.count + explicit[index].count
            var elements: [Item] = []
            var rest = remaining.makeIterator()
            for position in 0..<count {
                if let item = explicit[index][position] {
                    elements.append(item)
                } else if let item = rest.next() {
                    elements.append(item)
                } else {
                    throw reject("element counts of section \(index) do not reconcile")
                }
            }
            guard explicit[index].keys.allSatisfy({ $0 >= 0 && $0 < count }) else {
                throw reject("an element index of section \(index) is beyond its count \(count)")
            }
            section.elements = elements
            after.append(section)
        }
        sections = after
    }

    private func uniqueSet(_ indices: [Int], below count: Int, _ what: String) throws(BatchUpdateRejection) -> Set<Int> {
        guard indices.allSatisfy({ $0 >= 0 && $0 < count }) else { throw reject("\(what) out of range in \(indices)") }
        let set = Set(indices)
        guard set.count == indices.count else { throw reject("\(what) listed twice in \(indices)") }
        return set
    }

    private func reject(_ reason: String) -> BatchUpdateRejection { BatchUpdateRejection(description: reason) }
}
