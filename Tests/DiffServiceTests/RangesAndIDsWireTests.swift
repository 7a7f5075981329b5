import DiffService
import Testing
import TestSupport

/// The `ranges` rendering and the ids on the wire, over random sectioned snapshots with string and integer ids:
/// expanded, the ranges are the sequential operations of the same answer, and their `ids` the operations' `id`s (a
/// removal run's in index order, so reversed); each stage's ids are those of the items at its paths.
@Suite struct RangesAndIDsWireTests {
    @Test(arguments: 0..<40)
    func rangesExpandToTheSequentialOperationsWithTheirIDs(seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed))
        let (old, new) = Self.snapshots(&random)
        let body = #"{"old": \#(old), "new": \#(new), "options": {"renderings": ["sequential", "ranges"], "ids": true}}"#
        let response = DiffEndpoint.respond(to: Array(body.utf8))
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        let answer = try JSON(parsing: response.body)
        let sequential = answer["sequential"]?.array ?? []
        var expanded: [JSON] = []
        for range in answer["ranges"]?.array ?? [] {
            guard let op = range["op"]?.string, let count = range["count"]?.int else {
                expanded.append(range)  // a move, as in sequential
                continue
            }
            let ids = range["ids"]?.array ?? []
            #expect(ids.count == count, "\(range)")
            let removal = op.hasPrefix("remove")
            for offset in 0..<count {
                let step = removal ? count - 1 - offset : offset
                let single = String(op.dropLast())  // removeElements → removeElement
                if let section = range["section"]?.int {
                    expanded.append(.object(["op": .string(single), "section": .integer(section + step), "id": ids[step]]))
                } else if let path = range["path"]?.array, let s = path.first, let first = path.last?.int {
                    expanded.append(.object(["op": .string(single), "path": .array([s, .integer(first + step)]), "id": ids[step]]))
                }
            }
        }
        #expect(expanded == sequential, "\(body)")
    }

    /// Each stage's `ids` name, entry for entry, the item at the old path (deletions, stage-1 updates) or at the new
    /// path (insertions, a move's target) in the snapshots sent.
    @Test(arguments: 0..<40)
    func stageIDsNameTheItemsAtTheirPaths(seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed))
        let (old, new) = Self.snapshots(&random)
        let body = #"{"old": \#(old), "new": \#(new), "options": {"ids": true}}"#
        let answer = try JSON(parsing: DiffEndpoint.respond(to: Array(body.utf8)).body)
        let (oldJSON, newJSON) = (try JSON(parsing: old), try JSON(parsing: new))
        func id(_ snapshot: JSON, _ path: JSON?) -> JSON? {
            guard let section = path?[0]?.int, let item = path?[1]?.int else { return nil }
            return snapshot["sections"]?[section]?["items"]?[item]?["id"]
        }
        for stage in answer["staged"]?.array ?? [] {
            let ids = stage["ids"]
            for (list, snapshot) in [("elementDeleted", oldJSON), ("elementUpdated", oldJSON), ("elementInserted", newJSON)] {
                #expect(stage[list]?.array?.map { id(snapshot, $0) } == ids?[list]?.array, "\(list) in \(body)")
            }
            #expect(stage["elementMoved"]?.array?.map { id(newJSON, $0[1]) } == ids?["elementMoved"]?.array, "\(body)")
        }
    }

    /// Two snapshots of up to four sections of up to twelve items: the new one drops, inserts (in runs), updates
    /// and moves items of the old one; ids are strings or integers.
    static func snapshots(_ random: inout SplitMix) -> (String, String) {
        func id(_ n: Int) -> String { n % 3 == 0 ? "\(n)" : "\"i\(n)\"" }
        var next = 0
        var sections = (0..<Int.random(in: 1...4, using: &random)).map { _ in
            (0..<Int.random(in: 0...12, using: &random)).map { _ -> (Int, Int) in
                next += 1
                return (next, 0)
            }
        }
        let old = sections
        for index in sections.indices {
            sections[index].removeAll { _ in Int.random(in: 0..<4, using: &random) == 0 }
            let runAt = Int.random(in: 0...sections[index].count, using: &random)
            let run = (0..<Int.random(in: 0...5, using: &random)).map { _ -> (Int, Int) in
                next += 1
                return (next, 0)
            }
            sections[index].insert(contentsOf: run, at: runAt)
            for item in sections[index].indices where Int.random(in: 0..<4, using: &random) == 0 {
                sections[index][item].1 = 1
            }
            if sections[index].count > 1, Int.random(in: 0..<2, using: &random) == 0 {
                sections[index].swapAt(0, sections[index].count - 1)
            }
        }
        func json(_ sections: [[(Int, Int)]]) -> String {
            let body = sections.enumerated().map { index, items in
                let list = items.map { #"{"id": \#(id($0.0)), "v": \#($0.1)}"# }.joined(separator: ", ")
                return #"{"id": \#(id(100 + index)), "items": [\#(list)]}"#
            }
            return #"{"sections": [\#(body.joined(separator: ", "))]}"#
        }
        return (json(old), json(sections))
    }
}
