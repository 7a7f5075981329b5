import ListDiff
import Testing

@Suite struct SequentialChangeTests {
    @Test func reversalIsTwoMovesEachInTheStateThePreviousLeft() throws {
        let changes = try SectionedDifference(from: [1, 2, 3], to: [3, 2, 1]).sequential
        // [1,2,3] → move 3 to the front → [3,1,2] → move 1 to the end → [3,2,1].
        #expect(changes == [.moveElement(Move(source: .at(0, 2), target: .at(0, 0))), .moveElement(Move(source: .at(0, 1), target: .at(0, 2)))])
    }

    @Test func removalsComeDescendingSoEarlierIndicesStayValid() throws {
        let changes = try SectionedDifference(from: [1, 2, 3, 4], to: [2, 4]).sequential
        #expect(changes == [.removeElement(.at(0, 2)), .removeElement(.at(0, 0))])
    }

    @Test func insertionsComeAscendingAtFinalIndices() throws {
        let changes = try SectionedDifference(from: [2, 4], to: [1, 2, 3, 4, 5]).sequential
        #expect(changes == [.insertElement(.at(0, 0)), .insertElement(.at(0, 2)), .insertElement(.at(0, 4))])
    }

    @Test func sectionsAndElementsTogether() throws {
        var target = [section(3, [30, 11]), section(1, [10])]
        target[1].model.content = 1
        target[0].elements[0].content = 1
        let source = [section(1, [10, 11]), section(2, [20]), section(3, [30])]
        let changes = try SectionedDifference(from: source, to: target).sequential
        #expect(
            changes == [
                .removeSection(1),
                .moveSection(Move(source: 0, target: 1)),
                .moveElement(Move(source: .at(1, 1), target: .at(0, 1))),
                .updateElement(.at(0, 0)),
                .updateSection(1),
            ])
        var applier = SequentialApplier(source: source, target: target)
        try applier.apply(changes)
        #expect(applier.sections == target)
    }
}
