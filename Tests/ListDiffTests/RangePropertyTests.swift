import ListDiff
import PropertyBased
import Testing

@Suite struct RangePropertyTests {
    @Test(arguments: [(5, 7, 14), (12, 60, 80)])
    func rangesExpandToTheSequentialProgramAndReproduceTheTarget(maxSections: Int, maxItems: Int, maxEdits: Int)
        async throws
    {
        let pairs = SnapshotPair.generator(maxSections: maxSections, maxItems: maxItems, maxEdits: maxEdits, runs: true)
        await propertyCheck(count: maxItems > 10 ? 200 : 1500, input: pairs) { pair in
            let difference = try SectionedDifference(from: pair.source, to: pair.target)
            let ranges = difference.ranges
            let expanded = ranges.flatMap(\.changes)
            #expect(expanded == difference.sequential, "\(pair)")
            #expect(ranges.map(\.count).reduce(0, +) == difference.counts.total)
            var applier = SequentialApplier(source: pair.source, target: pair.target)
            try applier.apply(expanded)
            #expect(applier.sections == pair.target, "\(pair)")
            for (earlier, later) in zip(ranges, ranges.dropFirst()) {
                #expect(!Self.couldMerge(earlier, later), "\(earlier) then \(later) in \(pair)")
            }
        }
    }

    @Test func sequentialSubjectsNameWhatEachOperationTouches() async throws {
        await propertyCheck(count: 1500, input: SnapshotPair.generator(runs: true)) { pair in
            let difference = try SectionedDifference(from: pair.source, to: pair.target)
            let changes = difference.sequential
            let subjects = difference.sequentialSubjects
            #expect(subjects.count == changes.count)
            var applier = SequentialApplier(source: pair.source, target: pair.target)
            for (change, subject) in zip(changes, subjects) {
                #expect(Self.id(of: subject, in: pair) == Self.id(touchedBy: change, in: applier.sections, pair: pair),
                        "\(change) \(subject) in \(pair)")
                try applier.apply(change)
            }
        }
    }

    @Test func appendingAThousandItemsIsOneOperation() throws {
        let old = Array(0..<10), new = Array(0..<1010)
        let ranges = try SectionedDifference(from: old, to: new).ranges
        #expect(ranges == [.insertElements(10..<1010, section: 0)])
    }

    @Test func runsStopAtAGapAndAtASectionBoundary() throws {
        let source = [section(1, [1, 2, 3, 4, 5]), section(2, [6, 7])]
        var target = [section(1, [1, 4, 10, 11]), section(2, [12])]
        target[0].elements[1].content = 1
        target[0].elements[0].content = 1
        #expect(
            try SectionedDifference(from: source, to: target).ranges == [
                .removeElements(4..<5, section: 0), .removeElements(1..<3, section: 0),
                .removeElements(0..<2, section: 1),
                .insertElements(2..<4, section: 0), .insertElements(0..<1, section: 1),
                .updateElements(0..<2, section: 0),
            ])
    }

    @Test func sectionRunsMergeAndMovesNever() throws {
        let source = [section(1, []), section(2, []), section(3, []), section(4, [])]
        let target = [section(4, []), section(5, []), section(6, []), section(3, [])]
        #expect(
            try SectionedDifference(from: source, to: target).ranges == [
                .removeSections(0..<2), .moveSection(Move(source: 0, target: 1)), .insertSections(1..<3),
            ])
    }

    /// Whether `later`, applied right after `earlier`, touches indices that make the two one contiguous run of the
    /// same kind in the same section (whatever the order inside it).
    static func couldMerge(_ earlier: SequentialRange, _ later: SequentialRange) -> Bool {
        func removals(_ s: Range<Int>, _ t: Range<Int>) -> Bool { t.lowerBound <= s.lowerBound && s.lowerBound <= t.upperBound }
        func insertions(_ s: Range<Int>, _ t: Range<Int>) -> Bool { s.lowerBound <= t.lowerBound && t.lowerBound <= s.upperBound }
        func updates(_ s: Range<Int>, _ t: Range<Int>) -> Bool { t.lowerBound <= s.upperBound && s.lowerBound <= t.upperBound }
        switch (earlier, later) {
        case (.removeSections(let s), .removeSections(let t)): return removals(s, t)
        case (.insertSections(let s), .insertSections(let t)): return insertions(s, t)
        case (.updateSections(let s), .updateSections(let t)): return updates(s, t)
        case (.removeElements(let s, let a), .removeElements(let t, let b)): return a == b && removals(s, t)
        case (.insertElements(let s, let a), .insertElements(let t, let b)): return a == b && insertions(s, t)
        case (.updateElements(let s, let a), .updateElements(let t, let b)): return a == b && updates(s, t)
        default: return false
        }
    }

    /// The id of a subject, looked up in the snapshot it names (section ids negated to tell them apart).
    static func id(of subject: ChangeSubject, in pair: SnapshotPair) -> Int? {
        switch subject {
        case .section(let index, let role):
            let snapshot = role == .source ? pair.source : pair.target
            return snapshot.indices.contains(index) ? -snapshot[index].model.id : nil
        case .element(let path, let role):
            let snapshot = role == .source ? pair.source : pair.target
            guard snapshot.indices.contains(path.section),
                snapshot[path.section].elements.indices.contains(path.element)
            else { return nil }
            return snapshot[path.section].elements[path.element].id
        }
    }

    /// The id of what `change` removes, moves or updates in `sections`, or inserts from the target.
    static func id(touchedBy change: SequentialChange, in sections: Snapshot, pair: SnapshotPair) -> Int? {
        switch change {
        case .removeSection(let index): -sections[index].model.id
        case .moveSection(let move): -sections[move.source].model.id
        case .insertSection(let index), .updateSection(let index): -pair.target[index].model.id
        case .removeElement(let path): sections[path.section].elements[path.element].id
        case .moveElement(let move): sections[move.source.section].elements[move.source.element].id
        case .insertElement(let path), .updateElement(let path): pair.target[path.section].elements[path.element].id
        }
    }
}
