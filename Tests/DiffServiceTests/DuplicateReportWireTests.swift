@testable import DiffService
import ListDiff
import SnapshotJSON
import Testing

/// The engine builds only what a duplicate-ids problem lists (``DuplicateReportLimits/problem``); the problem is
/// the one the complete report gives, byte for byte.
@Suite struct DuplicateReportWireTests {
    /// Sections `s0…` of `count` items each, ids given by `id(section, index)`, section ids by `sectionID`.
    private static func sectioned(_ sections: Int, _ count: Int, sectionID: (Int) -> Int, id: (Int, Int) -> Int) -> String {
        #"{"sections":["# + (0 ..< sections).map { s in
            #"{"id":\#(sectionID(s)),"items":["# + (0 ..< count).map { #"{"id":\#(id(s, $0))}"# }.joined(separator: ",") + "]}"
        }.joined(separator: ",") + "]}"
    }

    static let bodies: [String] = [
        // More repeated ids than are listed, each twice or three times, in the old snapshot only.
        diffBody(old: items((0 ..< 1500).flatMap { [$0, $0, $0 % 7 == 0 ? $0 : 100_000 + $0] }), new: items([1])),
        // One id many times, in both snapshots: more occurrences than listed paths.
        diffBody(old: items(Array(repeating: 7, count: 40) + [1, 2]), new: items([3] + Array(repeating: 3, count: 12))),
        // Repeated section ids and item ids in both snapshots, across sections: sections are listed first.
        diffBody(
            old: sectioned(30, 40, sectionID: { $0 % 11 }, id: { s, i in (s * 40 + i) % 700 }),
            new: sectioned(700, 3, sectionID: { $0 % 650 }, id: { s, i in (s * 3 + i) % 1900 })),
        // Only section ids repeat, more than are listed.
        diffBody(old: sectioned(2400, 1, sectionID: { $0 / 2 }, id: { s, _ in s }), new: items([])),
    ]

    @Test(arguments: bodies)
    func theProblemIsTheOneOfTheCompleteReport(body: String) throws {
        let request = try parseDiffRequest(Array(body.utf8))
        func problem(_ limits: DuplicateReportLimits) throws -> [UInt8] {
            do {
                _ = try SectionedDifference(from: request.old.sections, to: request.new.sections, reportLimits: limits)
            } catch {
                return error.problem(old: request.old, new: request.new).response(instance: "/diff").body
            }
            Issue.record("no duplicate")
            return []
        }
        let complete = try problem(.unlimited)
        #expect(try problem(.problem) == complete)
        var statistics = DiffStatistics()
        guard case .failure(let answered) = DiffEndpoint.result(for: Array(body.utf8), statistics: &statistics) else {
            Issue.record("the request was diffed")
            return
        }
        #expect(answered.response(instance: "/diff").body == complete)
    }

    @Test func aLayoutsDuplicateProblemIsTheOneOfTheCompleteReport() {
        // An id more times than paths are listed, then more repeated ids than are listed.
        let ids: [WireID] = Array(repeating: .string("x"), count: 30)
            + (0 ..< 1300).flatMap { n in [WireID.integer(Int64(n)), .string("\(n)"), .integer(Int64(n))] }
        let path = { (index: Int) in "items[\(index)]" }
        // The problem as it was made from every repeated id with all its positions.
        let repeated = RepeatedIdentifiers.find(in: ids)
        var complete = Problem(.duplicateIDs, detail: "\(repeated.count) item ids appear more than once; every item needs its own id.")
        complete.duplicates = repeated.prefix(Problem.listedEntryLimit).map { id, positions in
            Problem.Duplicate(snapshot: "layout", kind: "item", writeID: { id.write(into: &$0) }, positions: positions, path: path)
        }
        complete.duplicateCount = repeated.count
        let problem = LayoutEndpoint.duplicateProblem(ids, path: path, snapshot: nil)
        #expect(problem?.response(instance: "/layout").body == complete.response(instance: "/layout").body)
        #expect(LayoutEndpoint.duplicateProblem([.integer(1), .string("1")], path: path, snapshot: nil) == nil)
    }
}
