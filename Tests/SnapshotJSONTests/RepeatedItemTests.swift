import SnapshotJSON
import TestSupport
import Testing

/// The walk does not validate again an item of the second snapshot whose text repeats, byte for byte, a clean
/// item of the first: these tests check that this changes nothing a caller can see.
@Suite struct RepeatedItemTests {
    typealias Value = RandomisedContentTests.Value

    /// Random snapshot pairs — the new one mostly the old one's items, some edited, inserted, deleted and moved,
    /// in sections or bare, old or new first — parse to the same request as when no item repeats byte for byte
    /// (the same text with a space after every item's `{`).
    @Test(arguments: 0 ..< 40)
    func repeatedItemsReadAsIfWalked(seed: Int) throws {
        var g = SplitMix(seed: UInt64(seed))
        let old = (0 ..< Int.random(in: 0 ... 30, using: &g)).map { index in
            Self.item(id: Bool.random(using: &g) ? "\(index)" : #""i\u00e9\#(index)""#, &g)
        }
        var new = old
        for _ in 0 ..< Int.random(in: 0 ... 6, using: &g) {
            switch Int.random(in: 0 ..< 4, using: &g) {
            case 0 where !new.isEmpty: new.remove(at: Int.random(in: 0 ..< new.count, using: &g))
            case 1: new.insert(Self.item(id: "\(1000 + new.count)", &g), at: Int.random(in: 0 ... new.count, using: &g))
            case 2 where !new.isEmpty:
                let at = Int.random(in: 0 ..< new.count, using: &g)
                new[at] = new[at].replacingFirstMember(with: #""edited\#(Int.random(in: 0 ... .max, using: &g))":true"#)
            case 3 where new.count > 1: new.swapAt(Int.random(in: 0 ..< new.count, using: &g), Int.random(in: 0 ..< new.count, using: &g))
            default: break
            }
        }
        let sectioned = Bool.random(using: &g), newFirst = Bool.random(using: &g)
        func snapshot(_ items: [String]) -> String {
            guard sectioned else { return #"{"items":[\#(items.joined(separator: ","))]}"# }
            let half = items.count / 2
            return #"{"sections":[{"id":"a","items":[\#(items[..<half].joined(separator: ","))]},{"id":"b","items":[\#(items[half...].joined(separator: ","))]}]}"#
        }
        func body(_ new: [String]) -> [UInt8] {
            let members = [#""old":\#(snapshot(old))"#, #""new":\#(snapshot(new))"#]
            return Array("{\((newFirst ? members.reversed() : members).joined(separator: ","))}".utf8)
        }
        let repeated = try parseDiffRequest(body(new))
        let walked = try parseDiffRequest(body(new.map { "{ " + $0.dropFirst() }))
        #expect(repeated == walked)
        for (a, b) in zip(repeated.new.sections.flatMap(\.items), walked.new.sections.flatMap(\.items)) {
            #expect(a.id == b.id && a.content.canonicalBytes == b.content.canonicalBytes)
        }
        #expect(repeated.new.itemCount == new.count)
        // Equal content numbers only for the same id and content; the first snapshot's are all distinct.
        let items = repeated.old.sections.flatMap(\.items) + repeated.new.sections.flatMap(\.items)
        let first = (newFirst ? repeated.new : repeated.old).sections.flatMap(\.items)
        #expect(Set(first.map(\.contentNumber)).count == first.count && first.allSatisfy { $0.contentNumber >= 0 })
        for a in items where a.contentNumber >= 0 {
            for b in items where a.contentNumber == b.contentNumber {
                #expect(a.id == b.id && a.content.canonicalBytes == b.content.canonicalBytes)
            }
        }
        // The numbers decide content equality as a comparison of canonical encodings would, in the read text as
        // in the walked one.
        for request in [repeated, walked] {
            for a in request.new.sections.flatMap(\.items) {
                for b in request.old.sections.flatMap(\.items) where a.id == b.id {
                    #expect(a.isContentEqual(to: b) == (a.content.canonicalBytes == b.content.canonicalBytes))
                }
            }
        }
    }

    /// Unchanged items of the second snapshot take their originals' content numbers (so the diff compares no
    /// content for them); an edited one gets its own; items of a document have none.
    @Test func unchangedItemsShareTextNumbers() throws {
        let items = (0 ..< 6).map { #"{"id":\#($0),"title":"t\#($0)"}"# }
        var edited = items
        edited[3] = #"{"id":3,"title":"changed"}"#
        let json = #"{"old":{"items":[\#(items.joined(separator: ","))]},"new":{"items":[\#(edited.joined(separator: ","))]}}"#
        let request = try parseDiffRequest(Array(json.utf8))
        let old = request.old.sections[0].items.map(\.contentNumber), new = request.new.sections[0].items.map(\.contentNumber)
        #expect(old == Array(0 ..< 6))
        #expect(new[0 ..< 3] == old[0 ..< 3] && new[4...] == old[4...])
        #expect(!old.contains(new[3]))
    }

    /// A repeated item with a violation is reported again, at its own place.
    @Test func violationsOfARepeatedItemAreReportedAgain() {
        let item = #"{"id":1,"a":1,"a":2,"n":1e1000000001}"#
        let json = #"{"old":{"items":[\#(item)]},"new":{"items":[\#(item)]}}"#
        #expect(Fixtures.violations(of: json).map(\.path) == ["old.items[0].n", "old.items[0].a", "new.items[0].n", "new.items[0].a"])
    }

    /// The same text deeper in the document is held to the nesting limit there.
    @Test func aRepeatedItemDeeperInTheDocumentIsTooDeep() {
        // A bare item list puts items at level 4; sections put them at level 6. 124 arrays inside the item
        // reach level 128 from level 4 (the limit), level 130 from level 6.
        let nested = String(repeating: "[", count: 124) + String(repeating: "]", count: 124)
        let item = #"{"id":1,"x":\#(nested)}"#
        let fits = #"{"old":{"items":[\#(item)]},"new":{"items":[\#(item)]}}"#
        #expect(Fixtures.error(of: fits) == nil, "\(String(describing: Fixtures.error(of: fits)))")
        let deeper = #"{"old":{"items":[\#(item)]},"new":{"sections":[{"id":"s","items":[\#(item)]}]}}"#
        guard case .tooDeep = Fixtures.error(of: deeper) else {
            Issue.record("expected tooDeep, got \(String(describing: Fixtures.error(of: deeper)))")
            return
        }
    }

    static func item(id: String, _ g: inout SplitMix) -> String {
        let members = (0 ..< Int.random(in: 0 ... 3, using: &g)).map { index in
            #""m\#(index)":\#(RandomisedContentTests.json(RandomisedContentTests.value(&g, depth: 0), variant: Bool.random(using: &g)))"#
        }
        return "{" + ([#""id":\#(id)"#] + members).joined(separator: ",") + "}"
    }
}

private extension String {
    /// The item with `member` in place of its first member after the id (or added when there is none).
    func replacingFirstMember(with member: String) -> String {
        "{" + dropFirst().dropLast() + ",\(member)}"
    }
}
