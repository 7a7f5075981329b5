import ListDiff

/// Applies sequential changes one by one, each index referring to the state the previous ones left, and
/// refuses any index out of range or any update whose id does not match — as RecyclerView would crash or
/// show the wrong row. Inserted and updated values come from the target snapshot at the given (final) index.
struct SequentialApplier {
    private(set) var sections: Snapshot
    let target: Snapshot

    init(source: Snapshot, target: Snapshot) {
        sections = source
        self.target = target
    }

    mutating func apply(_ changes: [SequentialChange]) throws(BatchUpdateRejection) {
        for (number, change) in changes.enumerated() {
            do {
                try apply(change)
            } catch {
                throw BatchUpdateRejection(description: "operation \(number) \(change): \(error.description)")
            }
        }
    }

    mutating func apply(_ change: SequentialChange) throws(BatchUpdateRejection) {
        switch change {
        case .removeSection(let index):
            try check(index >= 0 && index < sections.count)
            sections.remove(at: index)
        case .insertSection(let index):
            try check(index >= 0 && index <= sections.count && index < target.count)
            sections.insert(target[index], at: index)
        case .moveSection(let move):
            try check(move.source >= 0 && move.source < sections.count)
            let moved = sections.remove(at: move.source)
            try check(move.target >= 0 && move.target <= sections.count)
            sections.insert(moved, at: move.target)
        case .updateSection(let index):
            try check(index >= 0 && index < sections.count && index < target.count)
            try check(sections[index].model.id == target[index].model.id, "updated section id differs")
            sections[index].model = target[index].model
        case .removeElement(let path):
            try checkExisting(path)
            sections[path.section].elements.remove(at: path.element)
        case .insertElement(let path):
            try check(path.section >= 0 && path.section < sections.count)
            try check(path.element >= 0 && path.element <= sections[path.section].elements.count)
            try check(path.section < target.count && path.element < target[path.section].elements.count)
            sections[path.section].elements.insert(target[path.section].elements[path.element], at: path.element)
        case .moveElement(let move):
            try checkExisting(move.source)
            let moved = sections[move.source.section].elements.remove(at: move.source.element)
            try check(move.target.section >= 0 && move.target.section < sections.count)
            try check(move.target.element >= 0 && move.target.element <= sections[move.target.section].elements.count)
            sections[move.target.section].elements.insert(moved, at: move.target.element)
        case .updateElement(let path):
            try checkExisting(path)
            let fresh = target[path.section].elements[path.element]
            try check(sections[path.section].elements[path.element].id == fresh.id, "updated element id differs")
            sections[path.section].elements[path.element] = fresh
        }
    }

    private func checkExisting(_ path: ElementPath) throws(BatchUpdateRejection) {
        try check(path.section >= 0 && path.section < sections.count)
        try check(path.element >= 0 && path.element < sections[path.section].elements.count)
    }

    private func check(_ condition: Bool, _ reason: String = "index out of range") throws(BatchUpdateRejection) {
        guard condition else { throw BatchUpdateRejection(description: reason) }
    }
}
