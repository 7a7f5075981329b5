import ListDiff
import PropertyBased
import Testing

/// ``SectionedDifference/forEachSequential(_:)`` is what the JSON Patch is written from, and
/// ``SectionedDifference/forEachUpdate(section:element:)`` what the changed members are found from: they must give
/// exactly ``SectionedDifference/sequential``'s operations (all of them, or its updates, the latter each with the
/// old version of the same id), in order, and those must still take the source to the target.
@Suite struct SequentialVisitorTests {
    @Test func visitorYieldsExactlyTheSequentialOperationsInOrder() async throws {
        await propertyCheck(count: 1500, input: SnapshotPair.generator()) { pair in
            let difference = try SectionedDifference(from: pair.source, to: pair.target)
            var visited: [SequentialChange] = []
            difference.forEachSequential { visited.append($0) }
            #expect(visited == difference.sequential, "\(pair)")
            #expect(visited.count == difference.counts.total, "\(pair)")
            var updates: [SequentialChange] = []
            difference.forEachSequentialUpdate { updates.append($0) }
            let expectedUpdates = visited.filter {
                switch $0 {
                case .updateElement, .updateSection: true
                default: false
                }
            }
            #expect(updates == expectedUpdates, "\(pair)")
            #expect(Array(visited.suffix(updates.count)) == updates, "\(pair)")  // sequential ends with them
            // forEachUpdate: the same updates, in the same order, each with the old version of the same id,
            // whose content differs.
            var paired: [SequentialChange] = []
            difference.forEachUpdate { target, source in
                paired.append(.updateSection(target))
                #expect(pair.source[source].model.id == pair.target[target].model.id, "\(pair)")
                #expect(pair.source[source].model != pair.target[target].model, "\(pair)")
            } element: { target, source in
                paired.append(.updateElement(target))
                let old = pair.source[source.section].elements[source.element]
                let new = pair.target[target.section].elements[target.element]
                #expect(old.id == new.id && old != new, "\(pair)")
            }
            #expect(paired == updates, "\(pair)")
            var applier = SequentialApplier(source: pair.source, target: pair.target)
            try applier.apply(visited)
            #expect(applier.sections == pair.target, "\(pair)")
        }
    }

    @Test func visitorOfLargerSnapshotsWithRunsReachesTheTarget() async throws {
        let pairs = SnapshotPair.generator(maxSections: 12, maxItems: 60, maxEdits: 80, runs: true)
        await propertyCheck(count: 150, input: pairs) { pair in
            let difference = try SectionedDifference(from: pair.source, to: pair.target)
            var visited: [SequentialChange] = []
            difference.forEachSequential { visited.append($0) }
            #expect(visited == difference.sequential)
            var applier = SequentialApplier(source: pair.source, target: pair.target)
            try applier.apply(visited)
            #expect(applier.sections == pair.target)
        }
    }
}
