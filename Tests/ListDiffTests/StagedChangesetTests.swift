import ListDiff
import Testing

/// One case per row of the five-stage table, and the peers' known bugs.
@Suite struct StagedChangesetTests {
    private func stages(_ source: Snapshot, _ target: Snapshot) throws -> [Changeset] {
        let staged = try SectionedDifference(from: source, to: target).staged
        var simulator = BatchUpdateSimulator(source: source, target: target)
        try simulator.apply(staged)
        #expect(simulator.sections == target)
        return Array(staged)
    }

    @Test func stageOneUpdatesElementsAtSourcePaths() throws {
        var target = [section(1, [10]), section(2, [20, 21, 22])]
        target[1].elements[2].content = 5
        target.swapAt(0, 1)  // the update is reported at its source path, before the section moves
        let result = try stages([section(1, [10]), section(2, [20, 21, 22])], target)
        #expect(result[0].elementUpdated == [.at(1, 2)])
        #expect(result[0].changeCount == 1)
    }

    @Test func stageTwoDeletesSectionsAndElementsButNotElementsOfDeletedSections() throws {
        let result = try stages(
            [section(1, [10, 11]), section(2, [20, 21, 22]), section(3, [30])],
            [section(2, [20, 22]), section(3, [30])])
        #expect(result.count == 1)
        #expect(result[0].sectionDeleted == [0])
        #expect(result[0].elementDeleted == [.at(1, 1)])
    }

    @Test func stageThreeInsertsSectionsAtFinalIndicesAndMovesFromIndicesAfterDeletions() throws {
        let result = try stages(
            [section(0, []), section(1, [10]), section(2, [20]), section(3, [30])],
            [section(3, [30]), section(9, [90]), section(1, [10]), section(2, [20])])
        #expect(result.map(\.sectionDeleted) == [[0], []])
        #expect(result[1].sectionInserted == [1])
        // After deleting section 0: [1, 2, 3]; section 3 stands at 2 and moves to 0.
        #expect(result[1].sectionMoved == [Move(source: 2, target: 0)])
        #expect(result[1].elementInserted.isEmpty, "elements of an inserted section are not listed")
    }

    @Test func stageFourInsertsAtFinalPathsAndMovesFromStageThreePaths() throws {
        let result = try stages(
            [section(1, [10, 11, 12]), section(2, [20, 21])],
            [section(2, [20, 12, 21]), section(1, [10, 13])])
        // Stage 2: delete 11. Stage 3: move section 2 to 0. Stage 4 then sees [[20, 21], [10, 12]].
        let last = try #require(result.last)
        #expect(last.elementInserted == [.at(1, 1)])
        #expect(last.elementMoved == [Move(source: .at(1, 1), target: .at(0, 1))])
    }

    @Test func stageFiveUpdatesSectionsAtFinalIndices() throws {
        var target = [section(2, [20]), section(1, [10])]
        target[1].model.content = 7
        let result = try stages([section(1, [10]), section(2, [20])], target)
        #expect(result.last?.sectionUpdated == [1])
        #expect(result.last?.changeCount == 1)
    }

    @Test func reversalMovesOnlyTheEndsNotTheMiddle() throws {
        // DifferenceKit #65: [1,2,3] → [3,2,1] is two moves, 2→0 and 0→2; no move 1→1 of the middle.
        let result = try SectionedDifference(from: [1, 2, 3], to: [3, 2, 1]).staged
        #expect(result.count == 1)
        #expect(result[0].elementMoved == [Move(source: .at(0, 2), target: .at(0, 0)), Move(source: .at(0, 0), target: .at(0, 2))])
    }

    @Test func rotatingTheLastElementToTheFrontIsOneMove() throws {
        // IGListKit PR #1139: [0…5] → [5,0…4] is one move where peers report six.
        let result = try SectionedDifference(from: Array(0...5), to: [5] + Array(0...4)).staged
        #expect(result.flatMap(\.elementMoved) == [Move(source: .at(0, 5), target: .at(0, 0))])
    }

    @Test func swapIsOneMove() throws {
        // IGListKit #1302: a swap yields two moves in peers.
        let result = try SectionedDifference(from: ["a", "b"], to: ["b", "a"]).staged
        #expect(result.flatMap(\.elementMoved).count == 1)
    }

    @Test func crossSectionMoveLeavesNeighboursAlone() throws {
        let result = try stages(
            [section(1, [10, 11, 12]), section(2, [20, 21])],
            [section(1, [10, 12]), section(2, [20, 11, 21])])
        #expect(result.flatMap(\.elementMoved) == [Move(source: .at(0, 1), target: .at(1, 1))])
        #expect(result.flatMap(\.elementDeleted).isEmpty)
    }

    @Test func elementLeavingADeletedSectionIsInsertedAndEnteringAnInsertedSectionIsDeleted() throws {
        let result = try stages(
            [section(1, [10, 11]), section(2, [20, 21])],
            [section(2, [20, 10]), section(3, [21])])
        #expect(result.flatMap(\.elementMoved).isEmpty)
        #expect(result.flatMap(\.elementDeleted) == [.at(1, 1)])  // 21 goes into inserted section 3
        #expect(result.flatMap(\.elementInserted) == [.at(0, 1)])  // 10 leaves deleted section 1
        #expect(result.flatMap(\.sectionDeleted) == [0])
        #expect(result.flatMap(\.sectionInserted) == [1])
    }

    @Test func updatedAndMovedElementIsReloadedBeforeItMoves() throws {
        var target = [section(1, [11, 10])]
        target[0].elements[1].content = 1
        let result = try stages([section(1, [10, 11])], target)
        #expect(result.count == 2)
        #expect(result[0].elementUpdated == [.at(0, 0)])
        #expect(result[1].elementMoved.count == 1)
    }

    /// The README's example of a move to the index it came from that no minimal answer avoids: the only
    /// longest kept run is `x0, x1`, so `x3` and `x2` move, and `x2` goes from `[0, 2]` to `[0, 2]`.
    @Test func unavoidableMoveToItsOwnIndexIsTheOnlyOne() throws {
        let source = [section(1, [0, 1, 2, 3])]
        let target = [section(1, [9, 3, 2, 0, 1])]
        let result = try stages(source, target)
        let moves = result.flatMap(\.elementMoved)
        #expect(moves.count == 2)
        #expect(moves.filter { $0.source == $0.target } == [Move(source: .at(0, 2), target: .at(0, 2))])
        let best = try #require(BruteForce.elementMoves(SnapshotPair(source: source, target: target)))
        #expect(best.moves == 2 && best.inPlaceMoves == 1, "no minimal answer has fewer such moves")
    }

    @Test func emptySnapshotsAndEmptyStagesAreLeftOut() throws {
        #expect(try SectionedDifference(from: Snapshot(), to: Snapshot()).staged.isEmpty)
        let result = try stages([], [section(1, [10, 11])])
        #expect(result.count == 1)
        #expect(result[0].sectionInserted == [0])
        #expect(try stages([section(1, [10])], []).first?.sectionDeleted == [0])
    }
}
