import Testing

@testable import SnapshotJSON

/// The parse keeps item and section records only while the request is valid: a body of empty objects (3 bytes
/// each, refused for their missing ids) cannot make its tables outgrow what a large input reserves (an item is at
/// least `{"id":0}`, a section `{"id":0,"items":[]}`), so its memory stays within the route's reservation.
@Suite struct ParseRecordBoundTests {
    /// The records and violations of a walk of `body`.
    private func parse(_ body: String) -> (items: Int, sections: Int, violations: Int, omitted: Int) {
        var padded = Array(body.utf8)
        padded.reserveCapacity(padded.count + DiffRequest.requiredPadding)
        padded.append(contentsOf: repeatElement(0, count: DiffRequest.requiredPadding))
        padded.removeLast(DiffRequest.requiredPadding)  // (the spare capacity holds zeros)
        let counts = RequestReader.recordCounts(walking: padded)
        #expect(counts != nil)
        return counts ?? (0, 0, 0, 0)
    }

    @Test(arguments: [10, 200_000])  // 200,000: over 4 MiB of objects a side, where the parse reserves
    func emptyItemsKeepNoRecordAfterTheFirstViolation(count: Int) {
        let empties = Array(repeating: "{}", count: count).joined(separator: ",")
        let flood = parse(#"{"old":{"items":[\#(empties)]},"new":{"sections":[\#(empties)]}}"#)
        #expect(flood.items == 0 && flood.sections == 0)
        #expect(flood.violations == min(3 * count, DiffRequest.maximumViolationCount))
        #expect(flood.violations + flood.omitted == count + 2 * count)  // an id per item; an id and items per section
    }

    /// Records are kept up to the first violation, and a valid body keeps one per item and section.
    @Test func validItemsBeforeAViolationKeepTheirRecords() {
        let valid = parse(#"{"old":{"items":[{"id":1},{"id":2}]},"new":{"sections":[{"id":0,"items":[{"id":1}]}]}}"#)
        #expect(valid.items == 3 && valid.sections == 2 && valid.violations == 0)
        let broken = parse(#"{"old":{"items":[{"id":1},{"id":2},{},{"id":3}]},"new":{"items":[{"id":4}]}}"#)
        #expect(broken.items == 2 && broken.sections == 0 && broken.violations == 1)
    }
}
