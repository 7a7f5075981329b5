import SnapshotJSON
import Testing

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

    /// The diff may match either item of an id the first snapshot repeats: such items are left undecided and
    /// compared by content.
    @Test func anIdRepeatedInTheFirstSnapshotIsLeftUndecided() throws {
        let json = #"{"old":{"items":[{"id":1,"a":1},{"id":1,"a":2}]},"new":{"items":[{"id":1,"a":1},{"id":1, "a":2}]}}"#
        let request = try parseDiffRequest(Array(json.utf8))
        let old = request.old.sections[0].items, new = request.new.sections[0].items
        #expect(new.map(\.contentNumber) == [-1, -1])
        #expect(new[0].isContentEqual(to: old[0]) && new[1].isContentEqual(to: old[1]))
        #expect(!new[1].isContentEqual(to: old[0]) && !new[0].isContentEqual(to: old[1]))
    }
}
