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

    /// The diff keeps the first item of an id: the other snapshot's items are decided against it, and the
    /// first snapshot's later items of the id, which the diff drops, are left undecided (compared by content).
    @Test func anIdRepeatedInTheFirstSnapshotIsDecidedAgainstItsFirstItem() throws {
        let json = #"{"old":{"items":[{"id":1,"a":1},{"id":1,"a":2}]},"new":{"items":[{"id":1,"a":1},{"id":1, "a":2}]}}"#
        let request = try parseDiffRequest(Array(json.utf8))
        let old = request.old.sections[0].items, new = request.new.sections[0].items
        #expect(old.map(\.contentNumber) == [0, -1])
        #expect(new[0].contentNumber == 0 && new[1].contentNumber > 1)
        #expect(new[0].isContentEqual(to: old[0]) && new[1].isContentEqual(to: old[1]))
        #expect(!new[1].isContentEqual(to: old[0]) && !new[0].isContentEqual(to: old[1]))
    }

    /// Random snapshots whose ids repeat (keepFirst), whose contents are written in several spellings, and whose
    /// items often repeat, byte for byte, items of the other snapshot: every item of the second snapshot and the
    /// first item of its id in the first have decided numbers, equal exactly when their contents are equal; the
    /// first snapshot's later items of an id are undecided.
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
        let old = items(Int.random(in: 0 ... 8, using: &random))
        var new = items(Int.random(in: 0 ... 8, using: &random))
        for index in new.indices where !old.isEmpty && Bool.random(using: &random) { new[index] = old.randomElement(using: &random)! }
        let json = #"{"old":{"items":[\#(old.joined(separator: ","))]},"new":{"items":[\#(new.joined(separator: ","))]},"options":{"duplicates":"keepFirst"}}"#
        let request = try parseDiffRequest(Array(json.utf8))
        let oldItems = request.old.sections[0].items, newItems = request.new.sections[0].items
        var firstOfID: [WireID: WireItem] = [:]
        for item in oldItems {
            if firstOfID[item.id] == nil {
                firstOfID[item.id] = item
                #expect(item.contentNumber >= 0, "\(json)")
            } else {
                #expect(item.contentNumber == -1, "\(json)")
            }
        }
        for item in newItems {
            guard let counterpart = firstOfID[item.id] else { continue }
            #expect(item.contentNumber >= 0, "\(json)")
            #expect((item.contentNumber == counterpart.contentNumber) == (item.content == counterpart.content), "\(json)")
        }
    }
}
