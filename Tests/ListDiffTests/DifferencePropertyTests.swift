import ListDiff
import PropertyBased
import Testing

/// Every difference made here also checks its tables (``SectionedDifference/_checkInvariants()``, which debug
/// builds compile in), so a broken table fails a test even where the renderings happen to come out right.
@Suite struct DifferencePropertyTests {
    @Test func stagesApplyAsUIKitBatchesAndReproduceTheTarget() async throws {
        await propertyCheck(count: 1500, input: SnapshotPair.generator()) { pair in
            let difference = try SectionedDifference(from: pair.source, to: pair.target)
            difference._checkInvariants()
            var simulator = BatchUpdateSimulator(source: pair.source, target: pair.target)
            try simulator.apply(difference.staged)
            #expect(simulator.sections == pair.target, "\(pair)")
        }
    }

    @Test func sequentialOperationsReproduceTheTarget() async throws {
        await propertyCheck(count: 1500, input: SnapshotPair.generator()) { pair in
            let difference = try SectionedDifference(from: pair.source, to: pair.target)
            difference._checkInvariants()
            var applier = SequentialApplier(source: pair.source, target: pair.target)
            try applier.apply(difference.sequential)
            #expect(applier.sections == pair.target, "\(pair)")
        }
    }

    @Test func largerSnapshotsReproduceTheTargetBothWays() async throws {
        await propertyCheck(count: 150, input: SnapshotPair.generator(maxSections: 12, maxItems: 60, maxEdits: 80)) {
            pair in
            let difference = try SectionedDifference(from: pair.source, to: pair.target)
            difference._checkInvariants()
            var simulator = BatchUpdateSimulator(source: pair.source, target: pair.target)
            try simulator.apply(difference.staged)
            #expect(simulator.sections == pair.target)
            var applier = SequentialApplier(source: pair.source, target: pair.target)
            try applier.apply(difference.sequential)
            #expect(applier.sections == pair.target)
        }
    }

    @Test func snapshotDiffedWithItselfIsEmpty() async throws {
        await propertyCheck(count: 500, input: SnapshotPair.generator()) { pair in
            for snapshot in [pair.source, pair.target] {
                let difference = try SectionedDifference(from: snapshot, to: snapshot)
                difference._checkInvariants()
                #expect(difference.isEmpty)
                #expect(difference.staged.isEmpty)
                #expect(difference.sequential.isEmpty)
            }
        }
    }

    @Test func moveCountsEqualTheBruteForceMinimum() async throws {
        await propertyCheck(count: 1500, input: SnapshotPair.generator()) { pair in
            let difference = try SectionedDifference(from: pair.source, to: pair.target)
            difference._checkInvariants()
            let stages = difference.staged
            let elementMoves = stages.flatMap(\.elementMoved)
            let sectionMoves = stages.flatMap(\.sectionMoved)
            if let best = BruteForce.elementMoves(pair) {
                #expect(difference.counts.elementMoved == best.moves, "\(pair)")
                #expect(elementMoves.count == best.moves)
                #expect(elementMoves.filter { $0.source == $0.target }.count == best.inPlaceMoves, "\(pair)")
            }
            if let best = BruteForce.sectionMoves(pair) {
                #expect(difference.counts.sectionMoved == best.moves, "\(pair)")
                #expect(sectionMoves.count == best.moves)
                #expect(sectionMoves.filter { $0.source == $0.target }.count == best.inPlaceMoves, "\(pair)")
            }
        }
    }

    @Test func countsAgreeWithBothRenderings() async throws {
        await propertyCheck(count: 500, input: SnapshotPair.generator()) { pair in
            let difference = try SectionedDifference(from: pair.source, to: pair.target)
            difference._checkInvariants()
            let stages = difference.staged
            let counts = difference.counts
            #expect(stages.flatMap(\.sectionDeleted).count == counts.sectionDeleted)
            #expect(stages.flatMap(\.sectionInserted).count == counts.sectionInserted)
            #expect(stages.flatMap(\.sectionUpdated).count == counts.sectionUpdated)
            #expect(stages.flatMap(\.elementDeleted).count == counts.elementDeleted)
            #expect(stages.flatMap(\.elementInserted).count == counts.elementInserted)
            #expect(stages.flatMap(\.elementUpdated).count == counts.elementUpdated)
            #expect(difference.sequential.count == counts.total)
        }
    }

    @Test func flatListsReproduceTheTarget() async throws {
        let lists = Gen.int(in: 0...40).array(of: 0...30)
        await propertyCheck(count: 800, input: lists, lists) { old, new in
            let source = Array(Set(old)).sorted().shuffled()
            let target = Array(Set(new)).sorted().shuffled()
            let difference = try SectionedDifference(from: source, to: target)
            difference._checkInvariants()
            var simulator = BatchUpdateSimulator(
                source: [TestSection(model: Header(id: 0), elements: source.map { Item(id: $0) })],
                target: [TestSection(model: Header(id: 0), elements: target.map { Item(id: $0) })])
            try simulator.apply(difference.staged)
            #expect(simulator.sections.first?.elements.map(\.id) == target)
            #expect(difference.counts.sectionDeleted + difference.counts.sectionInserted == 0)
        }
    }
}
