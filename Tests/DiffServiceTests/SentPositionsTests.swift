@testable import DiffService
import ListDiff
import Testing
import TestSupport

/// ``SentPositions`` finds a kept position's sent one by binary search over what was dropped; these compare it
/// with the table of every kept index it replaces, over random dropped sets.
@Suite struct SentPositionsTests {
    /// A snapshot's shape (items per section) and a random set of dropped sections and elements of kept ones.
    private struct Case {
        var itemCounts: [Int]
        var dropped: DroppedDuplicates.Positions

        init(seed: UInt64) {
            var random = SplitMix(seed: seed)
            itemCounts = (0 ..< Int.random(in: 0 ... 8, using: &random)).map { _ in Int.random(in: 0 ... 12, using: &random) }
            let sectionOdds = Double.random(in: 0 ... 0.6, using: &random)
            let elementOdds = Double.random(in: 0 ... 0.8, using: &random)
            var dropped = DroppedDuplicates.Positions()
            for (section, count) in itemCounts.enumerated() {
                if Double.random(in: 0 ..< 1, using: &random) < sectionOdds {
                    dropped.sections.append(section)
                    continue
                }
                for element in 0 ..< count where Double.random(in: 0 ..< 1, using: &random) < elementOdds {
                    dropped.elements.append(ElementPath(element: element, section: section))
                }
            }
            self.dropped = dropped
        }
    }

    @Test func binarySearchAgreesWithTheTableOfKeptIndices() {
        for seed in 0 ..< 500 as Range<UInt64> { check(seed: seed) }
    }

    /// Checks every kept section and element of the case of `seed`.
    private func check(seed: UInt64) {
        let testCase = Case(seed: seed)
        let positions = SentPositions(dropped: testCase.dropped)
        // The table: the sent index of each kept section, and of each kept element of it.
        let goneSections = Set(testCase.dropped.sections)
        let keptSections = testCase.itemCounts.indices.filter { !goneSections.contains($0) }
        for (keptSection, sentSection) in keptSections.enumerated() {
            #expect(positions.section(keptSection) == sentSection, "seed \(seed), section \(keptSection)")
            let goneElements = Set(testCase.dropped.elements.filter { $0.section == sentSection }.map(\.element))
            let keptElements = (0 ..< testCase.itemCounts[sentSection]).filter { !goneElements.contains($0) }
            for (keptElement, sentElement) in keptElements.enumerated() {
                let sent = positions.element(ElementPath(element: keptElement, section: keptSection))
                #expect(
                    sent.section == sentSection && sent.element == sentElement,
                    "seed \(seed), kept [\(keptSection), \(keptElement)] is sent \(sent), not [\(sentSection), \(sentElement)]")
            }
        }
    }
}
