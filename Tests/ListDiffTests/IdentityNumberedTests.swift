import ListDiff
import PropertyBased
import Synchronization
import Testing

/// An ``Item`` whose id is also numbered, as a parser interning ids would number it.
private struct NumberedItem: IdentityNumbered, Hashable, Sendable {
    var item: Item
    var identityNumber: Int
    var contentNumber = -1

    var differenceIdentifier: Int { item.id }
    func isContentEqual(to source: NumberedItem) -> Bool { item.isContentEqual(to: source.item) }
}

private typealias NumberedSection = ArraySection<Header, NumberedItem>

/// Numbers the item ids of both snapshots in order of first appearance (source first), as one interning table
/// over the two would; `spread` multiplies the numbers (to make them sparse), `unnumbered` leaves one id out.
/// With `contents`, items also get content numbers: one per distinct (id, content), or -1 for items `unknown`
/// picks (a parser numbering texts numbers equal texts alike, and equal contents may be written differently).
private func numbered(
    _ source: Snapshot, _ target: Snapshot, spread: Int = 1, unnumbered: Int? = nil, contents: Bool = false,
    unknown: (Item) -> Bool = { _ in false }
) -> ([NumberedSection], [NumberedSection]) {
    var numbers: [Int: Int] = [:]
    var contentNumbers: [Item: Int] = [:]
    func convert(_ snapshot: Snapshot) -> [NumberedSection] {
        snapshot.map { section in
            NumberedSection(
                model: section.model,
                elements: section.elements.map { item in
                    let number = numbers[item.id] ?? numbers.count
                    numbers[item.id] = number
                    var numbered = NumberedItem(item: item, identityNumber: item.id == unnumbered ? -1 : number * spread)
                    if contents && !unknown(item) {
                        numbered.contentNumber = contentNumbers[item] ?? contentNumbers.count
                        contentNumbers[item] = numbered.contentNumber
                    }
                    return numbered
                })
        }
    }
    let converted = convert(source)
    return (converted, convert(target))
}

/// The same difference, whichever way elements were matched; each checks its tables first.
private func expectSameDifference(_ hashed: SectionedDifference, _ numbered: SectionedDifference) {
    hashed._checkInvariants()
    numbered._checkInvariants()
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

    /// Content numbers (some unknown) change nothing but which contents are compared.
    @Test func contentNumbersGiveTheHashedDifference() async throws {
        await propertyCheck(count: 1000, input: SnapshotPair.generator(), Gen.int(in: 0...3)) { pair, modulus in
            let (source, target) = numbered(pair.source, pair.target, contents: true) { $0.id % 4 < modulus }
            expectSameDifference(
                try SectionedDifference(from: pair.source, to: pair.target),
                try SectionedDifference(from: source, to: target))
        }
    }

    /// The numbered table keeps content numbers in 32 bits: larger ones are taken as unknown (the contents are
    /// compared), never truncated into a false match.
    @Test func contentNumbersBeyond32BitsGiveTheHashedDifference() async throws {
        await propertyCheck(count: 500, input: SnapshotPair.generator()) { pair in
            var (source, target) = numbered(pair.source, pair.target, contents: true)
            // Every positive number moves past 2^32, where truncating to 32 bits would make them all 0: equal.
            func widen(_ sections: inout [NumberedSection]) {
                for s in sections.indices {
                    for e in sections[s].elements.indices where sections[s].elements[e].contentNumber > 0 {
                        sections[s].elements[e].contentNumber <<= 32
                    }
                }
            }
            widen(&source)
            widen(&target)
            expectSameDifference(
                try SectionedDifference(from: pair.source, to: pair.target),
                try SectionedDifference(from: source, to: target))
        }
    }

    /// Elements with equal content numbers are not compared; others are, and equal contents are no update.
    @Test func equalContentNumbersAreNotCompared() throws {
        let comparisons = ComparisonCounter()
        let old = (0 ..< 50).map { CountedItem(id: $0, content: 0, contentNumber: $0, counter: comparisons) }
        var new = old
        new[7].content = 1
        new[7].contentNumber = 100  // edited: a new text
        new[9].contentNumber = 101  // the same content written differently: a new text too
        let difference = try SectionedDifference(
            from: [ArraySection(model: Header(id: 0), elements: old)], to: [ArraySection(model: Header(id: 0), elements: new)])
        #expect(comparisons.count.load(ordering: .relaxed) == 2)
        #expect(difference.counts.elementUpdated == 1)
        #expect(difference.staged.first?.elementUpdated == [ElementPath(element: 7, section: 0)])
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

/// Counts content comparisons.
private final class ComparisonCounter: Sendable {
    let count = Atomic<Int>(0)
}

/// An element that counts how often its content is compared.
private struct CountedItem: IdentityNumbered, Sendable {
    var id: Int
    var content: Int
    var contentNumber: Int
    let counter: ComparisonCounter

    var identityNumber: Int { id }
    var differenceIdentifier: Int { id }
    func isContentEqual(to source: CountedItem) -> Bool {
        counter.count.add(1, ordering: .relaxed)
        return content == source.content
    }
}
