import DiffService
import Testing
import TestSupport

/// The `jsonPatch` rendering and the `changedMembers` option: the patch turns `old`, as sent, into `new`.
@Suite struct JSONPatchTests {
    /// The answer to `old` → `new` with `options`, parsed.
    private func answer(old: String, new: String, options: String) throws -> JSON {
        let response = DiffEndpoint.respond(to: Array(diffBody(old: old, new: new, options: options).utf8))
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        return try JSON(parsing: response.body)
    }

    /// Checks that the answer's patch, applied to `old`, gives `new`, and returns the answer.
    @discardableResult
    private func checkPatch(old: String, new: String, keepFirst: Bool = false) throws -> JSON {
        let duplicates = keepFirst ? #", "duplicates": "keepFirst""# : ""
        let answer = try answer(old: old, new: new, options: #"{"renderings": ["jsonPatch"]\#(duplicates)}"#)
        let patch = try #require(answer["jsonPatch"])
        let patched = try JSONPatchApplier.apply(patch, to: try JSON(parsing: old))
        #expect(patched == (try JSON(parsing: new)), "patch \(patch)\nfrom \(old)\nto \(new)")
        return answer
    }

    @Test func movesInsertsAndMemberUpdatesAcrossSections() throws {
        let answer = try checkPatch(
            old: #"{"sections":[{"id":"a","title":"A","items":[{"id":1,"t":"x"},{"id":2,"t":"y","n":{"k":[1,2]}},{"id":3}]},{"id":"b","items":[{"id":4}]}]}"#,
            new: #"{"sections":[{"id":"b","items":[{"id":4},{"id":1,"t":"x"}],"title":"B"},{"id":"c","items":[{"id":5,"a/b~c":1}]},{"id":"a","title":"A2","items":[{"id":2,"n":{"k":[1,2]},"t":"z","new":null}]}]}"#)
        let expected = try JSON(parsing: """
            [{"op": "remove", "path": "/sections/0/items/2"},
             {"op": "move", "from": "/sections/0", "path": "/sections/1"},
             {"op": "add", "path": "/sections/1", "value": {"id": "c", "items": [{"id": 5, "a/b~c": 1}]}},
             {"op": "move", "from": "/sections/2/items/0", "path": "/sections/0/items/1"},
             {"op": "replace", "path": "/sections/2/items/0/t", "value": "z"},
             {"op": "add", "path": "/sections/2/items/0/new", "value": null},
             {"op": "add", "path": "/sections/0/title", "value": "B"},
             {"op": "replace", "path": "/sections/2/title", "value": "A2"}]
            """)
        #expect(answer["jsonPatch"] == expected)
    }

    @Test func memberNamesAreEscapedAsJSONPointers() throws {
        let answer = try checkPatch(
            old: #"{"items":[{"id":"k","a/b":1,"~x":2,"q\"":3}]}"#, new: #"{"items":[{"id":"k","~x":5,"q\"":3}]}"#)
        let expected = try JSON(parsing: #"""
            [{"op": "replace", "path": "/items/0/~0x", "value": 5}, {"op": "remove", "path": "/items/0/a~1b"}]
            """#)
        #expect(answer["jsonPatch"] == expected)
    }

    /// "é" and "e\u0301" are two member names in JSON (their bytes differ) though Swift's `==` takes them for one.
    @Test func canonicallyEquivalentNamesAreTwoMembers() throws {
        // (Not through checkPatch: the test's own JSON objects are keyed by String, and would merge the two.)
        let answer = try answer(
            old: #"{"items":[{"id":1,"\u00e9":1,"e\u0301":2}]}"#, new: #"{"items":[{"id":1,"\u00e9":1,"e\u0301":3}]}"#,
            options: #"{"renderings": ["jsonPatch"]}"#)
        guard case .array(let operations)? = answer["jsonPatch"], operations.count == 1,
            case .string(let path)? = operations[0]["path"]
        else { Issue.record("one operation expected: \(answer)"); return }
        #expect(Array(path.utf8) == Array("/items/0/e\u{301}".utf8))
        #expect(operations[0]["value"] == .integer(3))
    }

    @Test func membersInAnotherOrderAreNoUpdate() throws {
        let answer = try checkPatch(
            old: #"{"items":[{"id":1,"a":{"x":1,"y":[true]},"b":2}]}"#, new: #"{"items":[{"b":2,"a":{"y":[true],"x":1.0},"id":1}]}"#)
        #expect(answer["jsonPatch"] == .array([]))
    }

    @Test func aSnapshotChangingFormIsReplacedWhole() throws {
        try checkPatch(old: #"{"items":[{"id":1},{"id":2}]}"#, new: #"{"sections":[{"id":"s","items":[{"id":2}]}]}"#)
        try checkPatch(old: #"{"sections":[{"id":"s","items":[{"id":2}]}]}"#, new: #"{"items":[{"id":1},{"id":2}]}"#)
    }

    @Test func droppedDuplicatesAreRemovedFirstAndAddedLast() throws {
        try checkPatch(
            old: #"{"sections":[{"id":"a","items":[{"id":1},{"id":1,"v":2},{"id":2}]},{"id":"a","items":[{"id":3}]},{"id":"b","items":[{"id":2}]}]}"#,
            new: #"{"sections":[{"id":"b","items":[{"id":3},{"id":3,"w":1}]},{"id":"b","items":[]},{"id":"a","items":[{"id":2},{"id":1,"v":9}]}]}"#,
            keepFirst: true)
    }

    /// Found by `scripts/jsonpatch-check`: an inserted section arrives whole, its dropped duplicates included.
    @Test func droppedDuplicatesOfAnInsertedSectionComeWithIt() throws {
        try checkPatch(
            old: #"{"sections":[]}"#, new: #"{"sections":[{"id":"b","items":[{"id":2},{"id":2}]}]}"#, keepFirst: true)
        try checkPatch(
            old: #"{"sections":[{"id":"a","items":[{"id":1},{"id":2}]}]}"#,
            new: #"{"sections":[{"id":"a","items":[{"id":2}]},{"id":"b","items":[{"id":1},{"id":3},{"id":1,"v":1}]}]}"#,
            keepFirst: true)
    }

    /// Under keepFirst, each update is compared with the old version the diff kept, found where it was sent:
    /// duplicates dropped before it on either side (an item, a section) must not shift it onto a neighbour, whose
    /// other members (`w`, `x`, `u`) would then show as changed.
    @Test func keptVersionsAreComparedWhereTheyWereSent() throws {
        let old = #"{"sections":[{"id":"s","items":[{"id":1,"v":0},{"id":1,"w":5},{"id":2,"v":0}]},{"id":"s","x":1,"items":[]},{"id":"t","title":"A","items":[{"id":3,"v":0}]}]}"#
        let new = #"{"sections":[{"id":"t","title":"B","items":[{"id":3,"v":1}]},{"id":"t","z":1,"items":[]},{"id":"s","items":[{"id":1,"v":0},{"id":1,"u":3},{"id":2,"v":1}]}]}"#
        let patched = try checkPatch(old: old, new: new, keepFirst: true)
        #expect(patched["droppedDuplicates"] == (try JSON(parsing: """
            {"old": {"sections": [1], "elements": [[0, 1]]}, "new": {"sections": [1], "elements": [[2, 1]]}}
            """)))
        let members = try answer(
            old: old, new: new, options: #"{"changedMembers": true, "duplicates": "keepFirst", "renderings": ["staged"]}"#)
        #expect(members["changedMembers"] == (try JSON(parsing: """
            {"sections": [{"section": 0, "members": ["title"]}],
             "elements": [{"path": [0, 0], "members": ["v"]}, {"path": [1, 1], "members": ["v"]}]}
            """)))
    }

    @Test func changedMembersNamesEveryDifferingMember() throws {
        let answer = try answer(
            old: #"{"sections":[{"id":"s","title":"S","items":[{"id":1,"a":1,"b":[1],"c":0},{"id":2,"a":1}]}]}"#,
            new: #"{"sections":[{"id":"s","title":"T","items":[{"id":2,"a":1},{"id":1,"c":0,"b":[1,2],"d":{}}]}]}"#,
            options: #"{"changedMembers": true}"#)
        let expected = try JSON(parsing: """
            {"sections": [{"section": 0, "members": ["title"]}],
             "elements": [{"path": [0, 1], "members": ["b", "d", "a"]}]}
            """)
        #expect(answer["changedMembers"] == expected)
    }

    /// Random sectioned snapshots (section moves, deletes, inserts and updates; items moving across sections,
    /// inserted, deleted and updated; bare lists): the patch always gives `new`.
    @Test(arguments: 0 ..< 300) func randomPatchReachesTheNewSnapshot(seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15)
        let bare = seed % 5 == 0
        let old = Self.snapshot(bare: bare, using: &random)
        let new = Self.edit(old, bare: bare, using: &random)
        try checkPatch(old: Self.render(old, bare: bare), new: Self.render(new, bare: bare))
    }

    /// Over the same random cases, `changedMembers` names exactly the updated items and sections, each with exactly
    /// the top-level members whose values differ (compared here on the parsed JSON).
    @Test(arguments: 0 ..< 150) func changedMembersAreTheMembersThatDiffer(seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15)
        let bare = seed % 5 == 0
        let oldSnapshot = Self.snapshot(bare: bare, using: &random)
        let newSnapshot = Self.edit(oldSnapshot, bare: bare, using: &random)
        let (oldText, newText) = (Self.render(oldSnapshot, bare: bare), Self.render(newSnapshot, bare: bare))
        let answer = try answer(old: oldText, new: newText, options: #"{"changedMembers": true}"#)
        let (old, new) = (try JSON(parsing: oldText), try JSON(parsing: newText))
        let sections = { (snapshot: JSON) -> [JSON] in
            if case .array(let list)? = snapshot["sections"] { return list }
            return [.object(["items": snapshot["items"] ?? .array([])])]
        }
        func items(_ section: JSON) -> [JSON] { if case .array(let list)? = section["items"] { list } else { [] } }
        func differing(_ a: JSON, _ b: JSON, ignoring: Set<String>) -> Set<String> {
            guard case .object(let x) = a, case .object(let y) = b else { return [] }
            return Set(x.keys).union(y.keys).subtracting(ignoring).filter { x[$0] != y[$0] }
        }
        var expectedElements: [String: Set<String>] = [:]
        var expectedSections: [Int: Set<String>] = [:]
        let oldItems = Dictionary(uniqueKeysWithValues: sections(old).flatMap(items).map { ($0["id"]!.description, $0) })
        let oldSections = Dictionary(uniqueKeysWithValues: sections(old).map { ($0["id"]?.description ?? "", $0) })
        for (s, section) in sections(new).enumerated() {
            if let before = oldSections[section["id"]?.description ?? ""] {
                let names = differing(before, section, ignoring: ["id", "items"])
                if !names.isEmpty { expectedSections[s] = names }
                for (e, item) in items(section).enumerated() {
                    guard let previous = oldItems[item["id"]!.description] else { continue }
                    let names = differing(previous, item, ignoring: ["id"])
                    if !names.isEmpty { expectedElements["\(s),\(e)"] = names }
                }
            }
        }
        var reportedElements: [String: Set<String>] = [:]
        var reportedSections: [Int: Set<String>] = [:]
        func members(_ entry: JSON) -> Set<String> {
            guard case .array(let names)? = entry["members"] else { return [] }
            var set = Set<String>()
            for case .string(let name) in names { set.insert(name) }
            return set
        }
        if case .array(let list)? = answer["changedMembers"]?["elements"] {
            for entry in list {
                guard case .array(let path)? = entry["path"], case .integer(let s) = path[0], case .integer(let e) = path[1]
                else { continue }
                reportedElements["\(s),\(e)"] = members(entry)
            }
        }
        if case .array(let list)? = answer["changedMembers"]?["sections"] {
            for entry in list { if case .integer(let s)? = entry["section"] { reportedSections[s] = members(entry) } }
        }
        #expect(reportedElements == expectedElements, "\(oldText)\n\(newText)")
        #expect(reportedSections == expectedSections, "\(oldText)\n\(newText)")
    }

    private typealias Section = (id: Int, title: Int, items: [(id: Int, value: Int)])

    private static func snapshot(bare: Bool, using random: inout SplitMix) -> [Section] {
        var nextID = 0
        return (0 ..< (bare ? 1 : Int.random(in: 0 ... 5, using: &random))).map { section in
            (section, 0, (0 ..< Int.random(in: 0 ... 6, using: &random)).map { _ in
                nextID += 1
                return (nextID, Int.random(in: 0 ... 2, using: &random))
            })
        }
    }

    private static func edit(_ old: [Section], bare: Bool, using random: inout SplitMix) -> [Section] {
        var sections = old
        if !bare {
            sections.removeAll { _ in Int.random(in: 0 ..< 6, using: &random) == 0 }
            sections.shuffle(using: &random)
            for index in sections.indices where Bool.random(using: &random) { sections[index].title += 1 }
            for id in 0 ..< Int.random(in: 0 ... 2, using: &random) {
                sections.insert((100 + id, 0, [(1000 + id, 0)]), at: Int.random(in: 0 ... sections.count, using: &random))
            }
        }
        guard !sections.isEmpty else { return sections }
        var pool = sections.flatMap(\.items).filter { _ in Int.random(in: 0 ..< 5, using: &random) != 0 }
        pool.shuffle(using: &random)
        for index in pool.indices where Int.random(in: 0 ..< 3, using: &random) == 0 { pool[index].value += 1 }
        for id in 0 ..< Int.random(in: 0 ... 3, using: &random) { pool.append((2000 + id, 7)) }
        for index in sections.indices { sections[index].items = [] }
        for item in pool { sections[Int.random(in: 0 ..< sections.count, using: &random)].items.append(item) }
        return sections
    }

    /// Items carry `"v"` (absent when 0) and sometimes a nested member; sections a `"title"` when non-zero.
    private static func render(_ sections: [Section], bare: Bool) -> String {
        func item(_ item: (id: Int, value: Int)) -> String {
            let value = item.value == 0 ? "" : #","v":\#(item.value),"n":{"k":[\#(item.value),"s/\#(item.id)"]}"#
            return #"{"id":\#(item.id)\#(value)}"#
        }
        func items(_ list: [(id: Int, value: Int)]) -> String { "[" + list.map(item).joined(separator: ",") + "]" }
        if bare { return #"{"items":\#(items(sections[0].items))}"# }
        return #"{"sections":["# + sections.map { section in
            let title = section.title == 0 ? "" : #","title":"t\#(section.title)""#
            return #"{"id":"s\#(section.id)"\#(title),"items":\#(items(section.items))}"#
        }.joined(separator: ",") + "]}"
    }
}
