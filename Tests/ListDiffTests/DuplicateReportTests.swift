import ListDiff
import PropertyBased
import Testing

/// An ``Item`` whose id is also numbered (its id itself: dense when ids are small), so that the report is
/// found through an array of first positions rather than by hashing.
private struct NumberedItem: IdentityNumbered, Hashable, Sendable {
    var id: Int
    var identityNumber: Int { id }
    var differenceIdentifier: Int { id }
    func isContentEqual(to source: NumberedItem) -> Bool { true }
}

/// Sections of small random ids: most repeat, in both snapshots, among sections and among items.
private let snapshots = Gen.int(in: 0...6).array(of: 0...6).array(of: 0...5)

private func sections(_ shape: [[Int]], sectionIDs: [Int]) -> Snapshot {
    shape.indices.map { section(sectionIDs[$0 % sectionIDs.count], shape[$0]) }
}

/// The report by definition: for each snapshot, each id that occurs more than once, with all its positions,
/// in order of first position; section ids of both snapshots first, then element ids.
private func bruteForceReport(_ source: Snapshot, _ target: Snapshot) -> DuplicateIdentifiersError<Int, Int> {
    func repeats<Position>(_ occurrences: [(id: Int, position: Position)], _ role: SnapshotRole)
        -> [DuplicateIdentifier<Int, Position>]
    {
        var order: [Int] = []
        for occurrence in occurrences where !order.contains(occurrence.id) { order.append(occurrence.id) }
        return order.compactMap { id in
            let positions = occurrences.filter { $0.id == id }.map(\.position)
            return positions.count > 1 ? DuplicateIdentifier(snapshot: role, id: id, positions: positions) : nil
        }
    }
    func sectionIDs(_ snapshot: Snapshot) -> [(id: Int, position: Int)] {
        snapshot.enumerated().map { (id: $0.element.model.id, position: $0.offset) }
    }
    func elementIDs(_ snapshot: Snapshot) -> [(id: Int, position: ElementPath)] {
        snapshot.indices.flatMap { s in snapshot[s].elements.indices.map { (id: snapshot[s].elements[$0].id, position: .at(s, $0)) } }
    }
    return DuplicateIdentifiersError(
        sections: repeats(sectionIDs(source), .source) + repeats(sectionIDs(target), .target),
        elements: repeats(elementIDs(source), .source) + repeats(elementIDs(target), .target))
}

/// The first `limits.listedIDs` entries of `full` (sections first), each with its first `limits.positionsPerID`
/// positions, its occurrences and the total count kept.
private func prefix<S, E>(of full: DuplicateIdentifiersError<S, E>, _ limits: DuplicateReportLimits)
    -> DuplicateIdentifiersError<S, E>
{
    func truncated<ID, Position>(_ duplicate: DuplicateIdentifier<ID, Position>) -> DuplicateIdentifier<ID, Position> {
        DuplicateIdentifier(
            snapshot: duplicate.snapshot, id: duplicate.id, positions: Array(duplicate.positions.prefix(limits.positionsPerID)),
            occurrences: duplicate.positions.count)
    }
    let sections = full.sections.prefix(limits.listedIDs).map(truncated)
    let elements = full.elements.prefix(limits.listedIDs - sections.count).map(truncated)
    return DuplicateIdentifiersError(sections: sections, elements: elements, repeatedCount: full.repeatedCount)
}

/// The error a diff throws, or `nil` when the snapshots repeat no id.
private func report<S, E>(_ diff: () throws(DuplicateIdentifiersError<S, E>) -> SectionedDifference)
    -> DuplicateIdentifiersError<S, E>?
{
    do {
        _ = try diff()
        return nil
    } catch {
        return error
    }
}

private func numberedItems(_ snapshot: Snapshot) -> [ArraySection<Header, NumberedItem>] {
    snapshot.map { ArraySection(model: $0.model, elements: $0.elements.map { NumberedItem(id: $0.id) }) }
}

@Suite struct DuplicateReportTests {
    @Test func theUnlimitedReportListsEveryRepeatWithAllItsPositions() async throws {
        await propertyCheck(count: 800, input: snapshots, snapshots, Gen.int(in: 1...6)) { old, new, distinctSections in
            let sectionIDs = Array(0 ..< distinctSections)
            let source = sections(old, sectionIDs: sectionIDs), target = sections(new, sectionIDs: sectionIDs.reversed())
            let expected = bruteForceReport(source, target)
            let hashed = report { () throws(DuplicateIdentifiersError<Int, Int>) in
                try SectionedDifference(from: source, to: target)
            }
            let numbered = report { () throws(DuplicateIdentifiersError<Int, Int>) in
                try SectionedDifference(from: numberedItems(source), to: numberedItems(target))
            }
            #expect(hashed == (expected.repeatedCount > 0 ? expected : nil))
            #expect(numbered == hashed)
            #expect(expected.elements.allSatisfy { $0.occurrences == $0.positions.count })
        }
    }

    @Test func aLimitedReportIsThePrefixOfTheFullOneWithItsTotals() async throws {
        await propertyCheck(
            count: 1500, input: snapshots, snapshots, Gen.int(in: 1...6), Gen.int(in: 0...12), Gen.int(in: 0...4)
        ) { old, new, distinctSections, listedIDs, positionsPerID in
            let sectionIDs = Array(0 ..< distinctSections)
            let source = sections(old, sectionIDs: sectionIDs), target = sections(new, sectionIDs: sectionIDs.reversed())
            let limits = DuplicateReportLimits(listedIDs: listedIDs, positionsPerID: positionsPerID)
            let full = report { () throws(DuplicateIdentifiersError<Int, Int>) in
                try SectionedDifference(from: source, to: target)
            }
            let hashed = report { () throws(DuplicateIdentifiersError<Int, Int>) in
                try SectionedDifference(from: source, to: target, reportLimits: limits)
            }
            let numbered = report { () throws(DuplicateIdentifiersError<Int, Int>) in
                try SectionedDifference(from: numberedItems(source), to: numberedItems(target), reportLimits: limits)
            }
            guard let full else { return #expect(hashed == nil && numbered == nil) }
            #expect(hashed == prefix(of: full, limits))
            #expect(numbered == prefix(of: full, limits))
            #expect(hashed?.repeatedCount == full.sections.count + full.elements.count)
        }
    }

    @Test func aLimitedFlatListReportIsThePrefixOfTheFullOne() async throws {
        let lists = Gen.int(in: 0...8).array(of: 0...20)
        await propertyCheck(count: 800, input: lists, lists, Gen.int(in: 0...5), Gen.int(in: 0...3)) {
            old, new, listedIDs, positionsPerID in
            let limits = DuplicateReportLimits(listedIDs: listedIDs, positionsPerID: positionsPerID)
            let full = report { () throws(DuplicateIdentifiersError<Never, Int>) in
                try SectionedDifference(from: old, to: new)
            }
            let limited = report { () throws(DuplicateIdentifiersError<Never, Int>) in
                try SectionedDifference(from: old, to: new, reportLimits: limits)
            }
            guard let full else { return #expect(limited == nil) }
            #expect(limited == prefix(of: full, limits))
        }
    }

    @Test func repeatedIdentifiersWithinLimitsAreThePrefixOfAllOfThem() async throws {
        await propertyCheck(count: 800, input: Gen.int(in: 0...8).array(of: 0...30), Gen.int(in: 0...5), Gen.int(in: 0...3)) {
            ids, listedIDs, positionsPerID in
            let all = RepeatedIdentifiers.find(in: ids)
            let limited = RepeatedIdentifiers.find(
                in: ids, limits: DuplicateReportLimits(listedIDs: listedIDs, positionsPerID: positionsPerID))
            #expect(limited.repeatedCount == all.count)
            #expect(limited.listed.map(\.id) == all.prefix(listedIDs).map(\.id))
            #expect(limited.listed.map(\.positions) == all.prefix(listedIDs).map { Array($0.positions.prefix(positionsPerID)) })
            #expect(limited.listed.map(\.occurrences) == all.prefix(listedIDs).map(\.positions.count))
            for (id, positions) in all { #expect(positions == ids.indices.filter { ids[$0] == id }) }
        }
    }

    @Test func aLimitedReportListsSectionsFirstThenElementsAndCountsEveryRepeat() throws {
        let source = [section(1, [10, 11, 10, 10]), section(2, [11, 12]), section(1, [13, 10])]
        let target = [section(3, [14]), section(3, [14, 15, 15]), section(3, [])]
        let limits = DuplicateReportLimits(listedIDs: 3, positionsPerID: 2)
        let error = try #require(throws: DuplicateIdentifiersError<Int, Int>.self) {
            try SectionedDifference(from: source, to: target, reportLimits: limits)
        }
        #expect(
            error.sections == [
                DuplicateIdentifier(snapshot: .source, id: 1, positions: [0, 2]),
                DuplicateIdentifier(snapshot: .target, id: 3, positions: [0, 1], occurrences: 3),
            ])
        #expect(error.elements == [DuplicateIdentifier(snapshot: .source, id: 10, positions: [.at(0, 0), .at(0, 2)], occurrences: 4)])
        // Sections 1 and 3, items 10, 11, 14 and 15.
        #expect(error.repeatedCount == 6)

        let countOnly = try #require(throws: DuplicateIdentifiersError<Int, Int>.self) {
            try SectionedDifference(from: source, to: target, reportLimits: DuplicateReportLimits(listedIDs: 0))
        }
        #expect(countOnly == DuplicateIdentifiersError(sections: [], elements: [], repeatedCount: 6))
        #expect(DuplicateReportLimits.unlimited == DuplicateReportLimits(listedIDs: .max, positionsPerID: .max))
    }
}
