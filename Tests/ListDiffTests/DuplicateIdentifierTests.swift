import ListDiff
import Testing

@Suite struct DuplicateIdentifierTests {
    @Test func namesEveryDuplicateWithAllPositionsInBothSnapshots() throws {
        let source = [section(1, [10, 11, 10]), section(2, [11, 12]), section(1, [13])]
        let target = [section(1, [10]), section(2, [12, 12, 12]), section(3, [14, 14])]
        let error = try #require(throws: DuplicateIdentifiersError<Int, Int>.self) {
            try SectionedDifference(from: source, to: target)
        }
        #expect(error.sections == [DuplicateIdentifier(snapshot: .source, id: 1, positions: [0, 2])])
        #expect(
            error.elements == [
                DuplicateIdentifier(snapshot: .source, id: 10, positions: [.at(0, 0), .at(0, 2)]),
                DuplicateIdentifier(snapshot: .source, id: 11, positions: [.at(0, 1), .at(1, 0)]),
                DuplicateIdentifier(snapshot: .target, id: 12, positions: [.at(1, 0), .at(1, 1), .at(1, 2)]),
                DuplicateIdentifier(snapshot: .target, id: 14, positions: [.at(2, 0), .at(2, 1)]),
            ])
    }

    /// Few sections are matched by comparing every pair, many by hashing: both find repeated section ids.
    @Test(arguments: [3, 8, 9, 40])
    func repeatedSectionIdsAreFoundWhateverTheSectionCount(count: Int) throws {
        let sections = (0 ..< count).map { section($0, [100 + $0]) }
        var repeating = sections
        repeating[count - 1] = section(1, [999])
        for (source, target) in [(repeating, sections), (sections, repeating)] {
            let error = try #require(throws: DuplicateIdentifiersError<Int, Int>.self) {
                try SectionedDifference(from: source, to: target)
            }
            #expect(error.sections.map(\.positions) == [[1, count - 1]])
        }
        let difference = try SectionedDifference(from: sections, to: Array(sections.reversed()))
        #expect(difference.counts.sectionMoved == count - 1)
        // A repeated id the source lacks (the hashing matcher records it as the target's own).
        var inserted = (0 ..< count).map { section(1000 + $0, [2000 + $0]) }
        inserted[count - 1] = section(1001, [999])
        let error = try #require(throws: DuplicateIdentifiersError<Int, Int>.self) {
            try SectionedDifference(from: sections, to: inserted)
        }
        #expect(error.sections == [DuplicateIdentifier(snapshot: .target, id: 1001, positions: [1, count - 1])])
        let fresh = try SectionedDifference(from: sections, to: Array(sections.prefix(count / 2) + inserted.prefix(count - 1)))
        #expect(fresh.counts.sectionInserted == count - 1 && fresh.counts.sectionDeleted == count - count / 2)
    }

    @Test func duplicatesOnlyInTheTargetAreFound() throws {
        let error = try #require(throws: DuplicateIdentifiersError<Int, Int>.self) {
            try SectionedDifference(from: [section(1, [10])], to: [section(1, [10]), section(1, [11])])
        }
        #expect(error.sections == [DuplicateIdentifier(snapshot: .target, id: 1, positions: [0, 1])])
        #expect(error.elements.isEmpty)
    }

    @Test func flatListDuplicatesArePathsInSectionZero() throws {
        let error = try #require(throws: DuplicateIdentifiersError<Never, String>.self) {
            try SectionedDifference(from: ["a", "b", "a"], to: ["b", "b"])
        }
        #expect(error.sections.isEmpty)
        #expect(
            error.elements == [
                DuplicateIdentifier(snapshot: .source, id: "a", positions: [.at(0, 0), .at(0, 2)]),
                DuplicateIdentifier(snapshot: .target, id: "b", positions: [.at(0, 0), .at(0, 1)]),
            ])
    }

    @Test func keepFirstDropsLaterOccurrencesAndReportsThem() throws {
        let source = [section(1, [10, 11, 10]), section(1, [12])]
        let target = [section(1, [11, 10]), section(2, [11, 13])]
        let difference = try SectionedDifference(from: source, to: target, duplicates: .keepFirst)
        #expect(difference.droppedDuplicates.source == .init(sections: [1], elements: [.at(0, 2)]))
        #expect(difference.droppedDuplicates.target == .init(sections: [], elements: [.at(1, 0)]))
        // Deduplicated: [S1 [10, 11]] → [S1 [11, 10], S2 [13]].
        let dedupedSource = [section(1, [10, 11])]
        let dedupedTarget = [section(1, [11, 10]), section(2, [13])]
        var simulator = BatchUpdateSimulator(source: dedupedSource, target: dedupedTarget)
        try simulator.apply(difference.staged)
        #expect(simulator.sections == dedupedTarget)
        #expect(difference.counts == ChangeCounts(sectionInserted: 1, elementMoved: 1))
    }

    @Test func keepFirstWithoutDuplicatesDropsNothing() throws {
        let difference = try SectionedDifference(from: [1, 2], to: [2, 3], duplicates: .keepFirst)
        #expect(difference.droppedDuplicates.isEmpty)
    }

    @Test func repeatedIdentifiersOfAFlatListInOrderOfFirstPosition() {
        #expect(RepeatedIdentifiers.find(in: [1, 2, 3]).isEmpty)
        let repeated = RepeatedIdentifiers.find(in: ["b", "a", "b", "c", "a", "b"])
        #expect(repeated.map(\.id) == ["b", "a"])
        #expect(repeated.map(\.positions) == [[0, 2, 5], [1, 4]])
    }
}
