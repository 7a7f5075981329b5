import SnapshotJSON
import Testing
import TestSupport

/// The reader decides content equality before the diff: an item of each snapshot with the same id get equal
/// non-negative content numbers exactly when their contents are equal, so the diff compares numbers.
@Suite struct ContentNumberTests {
    @Test func equalContentsWrittenDifferentlyShareANumber() throws {
        let json = #"{"old":{"items":[{"id":1,"a":1,"b":[true]},{"id":2,"a":1}]},"new":{"items":[{"b":[ true ],"id":1,"a":1.0},{"id":2,"a":2}]}}"#
        let request = try parseDiffRequest(Array(json.utf8))
        let old = request.old.sections[0].items, new = request.new.sections[0].items
        #expect(new[0].contentNumber == old[0].contentNumber)
        #expect(new[1].contentNumber >= 0 && new[1].contentNumber != old[1].contentNumber)
        #expect(new[0].isContentEqual(to: old[0]) && !new[1].isContentEqual(to: old[1]))
    }

    /// The diff keeps the first item of an id: the other snapshot's items are decided against it, and every
    /// item of the snapshot walked first has a number no other item of it has (a later item of an id, which the
    /// diff drops, equals nothing).
    @Test func anIdRepeatedInTheFirstSnapshotIsDecidedAgainstItsFirstItem() throws {
        let json = #"{"old":{"items":[{"id":1,"a":1},{"id":1,"a":2}]},"new":{"items":[{"id":1,"a":1},{"id":1, "a":2}]}}"#
        let request = try parseDiffRequest(Array(json.utf8))
        let old = request.old.sections[0].items, new = request.new.sections[0].items
        #expect(old.map(\.contentNumber) == [0, 1])
        #expect(new[0].contentNumber == 0 && new[1].contentNumber > 1)
        #expect(new[0].isContentEqual(to: old[0]) && !new[1].isContentEqual(to: old[0]))
        #expect(!new[0].isContentEqual(to: old[1]) && !new[1].isContentEqual(to: old[1]))
    }

    /// keepFirst drops a section whose id an earlier one has, with its items: an id whose first item is in a
    /// dropped section is matched with its first item in a kept one, and decided against that one (this item
    /// was once left undecided, and the diff compared it by reading JSON again).
    @Test func anIdFirstSeenInADroppedSectionIsDecidedAgainstItsKeptItem() throws {
        let json = #"{"old":{"sections":[{"id":"s","items":[{"id":9}]},{"id":"s","items":[{"id":1,"a":1}]},{"id":"t","items":[{"id":1,"a":2}]}]},"new":{"items":[{"id":1,"a":2.0}]},"options":{"duplicates":"keepFirst"}}"#
        let request = try parseDiffRequest(Array(json.utf8))
        let kept = request.old.sections[2].items[0], new = request.new.sections[0].items[0]
        #expect(new.isContentEqual(to: kept))
        #expect(!new.isContentEqual(to: request.old.sections[1].items[0]))
    }

    /// Random sectioned snapshots whose section and item ids repeat (keepFirst), whose contents are written in
    /// several spellings, and whose items often repeat, byte for byte, items of the other snapshot: for every id
    /// both snapshots keep, the kept items' numbers are equal exactly when their contents are equal; the items
    /// of the snapshot walked first all have different numbers.
    @Test(arguments: 0 ..< 150)
    func numbersDecideEveryComparisonTheDiffMakes(seed: UInt64) throws {
        var random = SplitMix(seed: seed &+ 0xC0FFEE)
        let spellings = [[#""a":1,"b":[true]"#, #" "b" : [ true ] , "a" : 1.0 "#], [#""a":2"#, #""a":2.0"#], [#""a":"x""#, #""a":"\u0078""#]]
        func items(_ count: Int) -> [String] {
            (0 ..< count).map { _ in
                let spelling = spellings.randomElement(using: &random)!.randomElement(using: &random)!
                return #"{"id":\#(Int.random(in: 0 ..< 6, using: &random)),\#(spelling)}"#
            }
        }
        func sections(_ pool: [String]) -> [String] {
            (0 ..< Int.random(in: 1 ... 3, using: &random)).map { _ in
                var chosen = items(Int.random(in: 0 ... 4, using: &random))
                for index in chosen.indices where !pool.isEmpty && Bool.random(using: &random) { chosen[index] = pool.randomElement(using: &random)! }
                return #"{"id":\#(Int.random(in: 0 ..< 2, using: &random)),"items":[\#(chosen.joined(separator: ","))]}"#
            }
        }
        let oldItems = items(8)
        let json = #"{"old":{"sections":[\#(sections([]).joined(separator: ","))]},"new":{"sections":[\#(sections(oldItems).joined(separator: ","))]},"options":{"duplicates":"keepFirst"}}"#
        let request = try parseDiffRequest(Array(json.utf8))
        /// The item keepFirst keeps for each id: the first in the first section of each section id.
        func kept(_ snapshot: Snapshot) -> [WireID: WireItem] {
            var sectionIDs = Set<SectionID>(), items: [WireID: WireItem] = [:]
            for section in snapshot.sections where sectionIDs.insert(section.id).inserted {
                for item in section.items where items[item.id] == nil { items[item.id] = item }
            }
            return items
        }
        let numbers = request.old.sections.flatMap { $0.items.map(\.contentNumber) }
        #expect(Set(numbers).count == numbers.count, "\(json)")
        let old = kept(request.old)
        for (id, item) in kept(request.new) {
            guard let counterpart = old[id] else { continue }
            #expect(item.isContentEqual(to: counterpart) == (item.content == counterpart.content), "\(json)")
        }
    }
}
