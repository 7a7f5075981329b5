import ListDiff
import PropertyBased
import Testing

/// An ``Item`` whose id is also numbered, as a parser interning ids would number it.
private struct NumberedItem: IdentityNumbered, Hashable, Sendable {
    var item: Item
    var identityNumber: Int

    var differenceIdentifier: Int { item.id }
    func isContentEqual(to source: NumberedItem) -> Bool { item.isContentEqual(to: source.item) }
}

private typealias NumberedSection = ArraySection<Header, NumberedItem>

/// Numbers the item ids of both snapshots in order of first appearance (source first), as one interning table
/// over the two would; `spread` multiplies the numbers (to make them sparse), `unnumbered` leaves one id out.
private func numbered(
    _ source: Snapshot, _ target: Snapshot, spread: Int = 1, unnumbered: Int? = nil
) -> ([NumberedSection], [NumberedSection]) {
    var numbers: [Int: Int] = [:]
    func convert(_ snapshot: Snapshot) -> [NumberedSection] {
        snapshot.map { section in
            NumberedSection(
                model: section.model,
                elements: section.elements.map { item in
                    let number = numbers[item.id] ?? numbers.count
                    numbers[item.id] = number
                    return NumberedItem(item: item, identityNumber: item.id == unnumbered ? -1 : number * spread)
                })
        }
    }
    let converted = convert(source)
    return (converted, convert(target))
}

/// The same difference, whichever way elements were matched.
private func expectSameDifference(_ hashed: SectionedDifference, _ numbered: SectionedDifference) {
    #expect(numbered.staged == hashed.staged)
    #expect(numbered.sequential == hashed.sequential)
    #expect(numbered.counts == hashed.counts)
    #expect(numbered.droppedDuplicates == hashed.droppedDuplicates)
}

@Suite struct IdentityNumberedTests {
    @Test func numberedElementsGiveTheHashedDifference() async throws {
        await propertyCheck(count: 1000, input: SnapshotPair.generator()) { pair in
            let (source, target) = numbered(pair.source, pair.target)
            expectSameDifference(
                try SectionedDifference(from: pair.source, to: pair.target),
                try SectionedDifference(from: source, to: target))
        }
    }

    @Test func sparseOrMissingNumbersFallBackToHashing() async throws {
        await propertyCheck(count: 300, input: SnapshotPair.generator(), Gen.int(in: 0...30)) { pair, id in
            let hashed = try SectionedDifference(from: pair.source, to: pair.target)
            let (sparseSource, sparseTarget) = numbered(pair.source, pair.target, spread: 1000)
            expectSameDifference(hashed, try SectionedDifference(from: sparseSource, to: sparseTarget))
            let (source, target) = numbered(pair.source, pair.target, unnumbered: id)
            expectSameDifference(hashed, try SectionedDifference(from: source, to: target))
        }
    }

    @Test func repeatedIdsAreFoundThroughNumbersToo() async throws {
        await propertyCheck(count: 500, input: SnapshotPair.generator(), Gen.int(in: 0...999), Gen.int(in: 0...999)) {
            pair, from, to in
            // Copy one item of the target next to another: the target now repeats an id.
            var target = pair.target
            let paths = target.indices.flatMap { s in target[s].elements.indices.map { (s, $0) } }
            guard !paths.isEmpty else { return }
            let (s, e) = paths[from % paths.count]
            let (t, f) = paths[to % paths.count]
            target[t].elements.insert(target[s].elements[e], at: f)
            let (numberedSource, numberedTarget) = numbered(pair.source, target)

            let hashedError = #expect(throws: DuplicateIdentifiersError<Int, Int>.self) {
                try SectionedDifference(from: pair.source, to: target)
            }
            let numberedError = #expect(throws: DuplicateIdentifiersError<Int, Int>.self) {
                try SectionedDifference(from: numberedSource, to: numberedTarget)
            }
            #expect(numberedError == hashedError)
            expectSameDifference(
                try SectionedDifference(from: pair.source, to: target, duplicates: .keepFirst),
                try SectionedDifference(from: numberedSource, to: numberedTarget, duplicates: .keepFirst))
        }
    }
}
