import Testing
import TestSupport

/// `POST /diff` answers, compared whole against changesets worked out by hand.
@Suite struct DiffRouteTests {
    /// Posts `body` and returns the parsed 200 answer.
    private func diff(_ body: String, contentType: String = "application/json") throws -> (TestClient.Response, JSON) {
        try withService { service in
            let response = try service.connect()
                .request("POST", "/diff", headers: [("Content-Type", contentType)], body: Array(body.utf8))
            #expect(response.status == 200, "\(response.text)")
            #expect(response.header("Content-Type") == "application/json")
            return (response, try JSON(parsing: response.body))
        }
    }

    private static func counts(_ values: [String: Int]) -> JSON {
        let names = [
            "sectionDeleted", "sectionInserted", "sectionUpdated", "sectionMoved",
            "elementDeleted", "elementInserted", "elementUpdated", "elementMoved",
        ]
        return .object(Dictionary(uniqueKeysWithValues: names.map { ($0, .integer(values[$0] ?? 0)) }))
    }

    @Test func reversingThreeItemsIsExactlyTwoMoves() throws {
        let (_, answer) = try diff(diffBody(old: items([1, 2, 3]), new: items([3, 2, 1])))
        let expected = try JSON(parsing: """
            {"counts": \(Self.counts(["elementMoved": 2])),
             "staged": [{"sectionDeleted": [], "sectionInserted": [], "sectionUpdated": [], "sectionMoved": [],
                         "elementDeleted": [], "elementInserted": [], "elementUpdated": [],
                         "elementMoved": [[[0, 2], [0, 0]], [[0, 0], [0, 2]]]}]}
            """)
        #expect(answer == expected)
    }

    @Test func identicalSnapshotsHaveNoStages() throws {
        let (_, answer) = try diff(diffBody(old: items([1, 2]), new: #"{"items":[{"id":1},{"id":2}]}"#))
        #expect(answer == .object(["counts": Self.counts([:]), "staged": .array([])]))
    }

    /// Sections a b c d → c' e a d: b deleted, e inserted, a moved after c, c's title updated; item 1 updated,
    /// 2 deleted, 4 and 5 swapped, 6 moved from d into a (3 and 7 go with their sections).
    static let sectioned = diffBody(
        old: """
            {"sections": [
              {"id": "a", "items": [{"id": 1}, {"id": 2}]},
              {"id": "b", "items": [{"id": 3}]},
              {"id": "c", "title": "C", "items": [{"id": 4}, {"id": 5}]},
              {"id": "d", "items": [{"id": 6}]}]}
            """,
        new: """
            {"sections": [
              {"id": "c", "title": "C2", "items": [{"id": 5}, {"id": 4}]},
              {"id": "e", "items": [{"id": 7}]},
              {"id": "a", "items": [{"id": 1, "x": true}, {"id": 6}]},
              {"id": "d", "items": []}]}
            """,
        options: #"{"renderings": ["staged", "sequential"]}"#)

    @Test func sectionedChangeIsStagedInDifferenceKitOrder() throws {
        let (_, answer) = try diff(Self.sectioned)
        let empty = #""sectionDeleted": [], "sectionInserted": [], "sectionUpdated": [], "sectionMoved": [], "elementDeleted": [], "elementInserted": [], "elementUpdated": [], "elementMoved": []"#
        func stage(_ members: String) throws -> JSON {
            // Later members win: start from the eight empty lists and override.
            guard case .object(var base) = try JSON(parsing: "{\(empty)}"),
                  case .object(let extra) = try JSON(parsing: "{\(members)}") else { throw Mismatch("not objects") }
            base.merge(extra) { $1 }
            return .object(base)
        }
        let expectedStaged: JSON = .array([
            try stage(#""elementUpdated": [[0, 0]]"#),
            try stage(#""sectionDeleted": [1], "elementDeleted": [[0, 1]]"#),
            try stage(#""sectionInserted": [1], "sectionMoved": [[0, 2]]"#),
            try stage(#""elementMoved": [[[0, 0], [0, 1]], [[3, 0], [2, 1]]]"#),
            try stage(#""sectionUpdated": [0]"#),
        ])
        #expect(answer["staged"] == expectedStaged)
        #expect(
            answer["counts"]
                == Self.counts([
                    "sectionDeleted": 1, "sectionInserted": 1, "sectionUpdated": 1, "sectionMoved": 1,
                    "elementDeleted": 1, "elementUpdated": 1, "elementMoved": 2,
                ]))
        let expectedSequential = try JSON(parsing: """
            [{"op": "removeSection", "section": 1}, {"op": "removeElement", "path": [0, 1]},
             {"op": "moveSection", "from": 0, "to": 1}, {"op": "insertSection", "section": 1},
             {"op": "moveElement", "from": [0, 0], "to": [0, 1]}, {"op": "moveElement", "from": [3, 0], "to": [2, 1]},
             {"op": "updateElement", "path": [2, 0]}, {"op": "updateSection", "section": 0}]
            """)
        #expect(answer["sequential"] == expectedSequential)
        #expect(answer.keys == ["counts", "staged", "sequential"])
    }

    @Test func rangesMergeAThousandAppendedItemsIntoOneOperation() throws {
        let (_, answer) = try diff(
            diffBody(old: items(Array(0..<10)), new: items(Array(0..<1010)), options: #"{"renderings": ["ranges"]}"#))
        let expected = try JSON(parsing: """
            {"counts": \(Self.counts(["elementInserted": 1000])),
             "ranges": [{"op": "insertElements", "path": [0, 10], "count": 1000}]}
            """)
        #expect(answer == expected)
    }

    @Test func rangesMergeRunsWithinASectionAndNeverMoves() throws {
        let (_, answer) = try diff(
            diffBody(
                old: items([1, 2, 3, 4, 5, 6, 7]), new: #"{"items": [{"id": 7}, {"id": 1, "v": 1}, {"id": 8}, {"id": 9}, {"id": 5, "v": 1}, {"id": 6, "v": 1}]}"#,
                options: #"{"renderings": ["ranges"], "ids": true}"#))
        // Remove 4, 3, 2 (one run, listed in index order), move 7 to the front, insert 8, 9 at 2...3, update 5, 6 at 4...5.
        let expected = try JSON(parsing: """
            [{"op": "removeElements", "path": [0, 1], "count": 3, "ids": [2, 3, 4]},
             {"op": "moveElement", "from": [0, 3], "to": [0, 0], "id": 7},
             {"op": "insertElements", "path": [0, 2], "count": 2, "ids": [8, 9]},
             {"op": "updateElements", "path": [0, 1], "count": 1, "ids": [1]},
             {"op": "updateElements", "path": [0, 4], "count": 2, "ids": [5, 6]}]
            """)
        #expect(answer["ranges"] == expected)
    }

    /// `"ids": true` names the section or item of every entry of every rendering: old ids for deletions and
    /// stage-1 updates, new ids for the rest (a move's item at its target).
    @Test func idsNameEveryEntryOfEveryRendering() throws {
        let body = Self.sectioned.replacingOccurrences(
            of: #"{"renderings": ["staged", "sequential"]}"#, with: #"{"renderings": ["staged", "sequential", "ranges"], "ids": true}"#)
        let (_, answer) = try diff(body)
        let idLists = answer["staged"]?.array?.map { stage in stage["ids"]?.keys.sorted().filter { stage["ids"]?[$0]?.array?.isEmpty == false }.map { "\($0): \(stage["ids"]![$0]!)" } }
        #expect(idLists == [
            ["elementUpdated: [1]"], ["elementDeleted: [2]", "sectionDeleted: [\"b\"]"],
            ["sectionInserted: [\"e\"]", "sectionMoved: [\"a\"]"], ["elementMoved: [4,6]"], ["sectionUpdated: [\"c\"]"],
        ])
        #expect(answer["sequential"]?.array?.map { $0["id"] } == [
            .string("b"), .integer(2), .string("a"), .string("e"), .integer(4), .integer(6), .integer(1), .string("c"),
        ])
        #expect(answer["ranges"]?.array?.map { $0["ids"] ?? $0["id"] } == [
            .array([.string("b")]), .array([.integer(2)]), .string("a"), .array([.string("e")]), .integer(4), .integer(6),
            .array([.integer(1)]), .array([.string("c")]),
        ])
        let (_, plain) = try diff(Self.sectioned)
        #expect(answer["sequential"]?.array?.map { $0.removing("id") } == plain["sequential"]?.array)
    }

    @Test func idsSkipWhatKeepFirstDroppedAndAreNullForABareListsSection() throws {
        let body = diffBody(
            old: #"{"items": [{"id": 1}, {"id": "a"}, {"id": 1, "v": 2}, {"id": 2}, {"id": 3}]}"#,
            new: #"{"items": [{"id": 1}, {"id": "a"}, {"id": 3}]}"#,
            options: #"{"duplicates": "keepFirst", "renderings": ["sequential"], "ids": true}"#)
        let (_, answer) = try diff(body)
        #expect(answer["sequential"] == (try JSON(parsing: #"[{"op": "removeElement", "path": [0, 2], "id": 2}]"#)))
        let (_, sections) = try diff(
            diffBody(old: items([1]), new: #"{"sections": [{"id": "s", "items": []}]}"#,
                     options: #"{"renderings": ["ranges"], "ids": true}"#))
        #expect(sections["ranges"] == (try JSON(parsing: """
            [{"op": "removeSections", "section": 0, "count": 1, "ids": [null]},
             {"op": "insertSections", "section": 0, "count": 1, "ids": ["s"]}]
            """)))
    }

    @Test func idsFalseIsTheDefaultAnswerByteForByte() throws {
        let (plain, _) = try diff(Self.sectioned)
        let (explicit, _) = try diff(
            Self.sectioned.replacingOccurrences(of: #""sequential"]}"#, with: #""sequential"], "ids": false}"#))
        #expect(plain.body == explicit.body)
    }

    @Test func sequentialRenderingAloneLeavesOutStaged() throws {
        let (_, answer) = try diff(
            diffBody(old: items([1, 2]), new: items([2, 3]), options: #"{"renderings": ["sequential"]}"#))
        let expected = try JSON(parsing: """
            {"counts": \(Self.counts(["elementDeleted": 1, "elementInserted": 1])),
             "sequential": [{"op": "removeElement", "path": [0, 0]}, {"op": "insertElement", "path": [0, 1]}]}
            """)
        #expect(answer == expected)
    }

    @Test func prettyIndentsTheSameDocument() throws {
        let body = diffBody(old: items([1, 2]), new: items([2, 3]), options: #"{"pretty": true}"#)
        let (pretty, prettyAnswer) = try diff(body)
        let (compact, compactAnswer) = try diff(diffBody(old: items([1, 2]), new: items([2, 3])))
        #expect(prettyAnswer == compactAnswer)
        #expect(pretty.text.hasPrefix("{\n  \"counts\": {\n    \"sectionDeleted\": 0,\n"), "\(pretty.text)")
        #expect(pretty.text.hasSuffix("}\n"))
        #expect(!compact.text.contains("\n  "))
    }

    @Test func keepFirstDropsLaterDuplicatesAndReportsThem() throws {
        let body = diffBody(
            old: #"{"items": [{"id": 1}, {"id": "a"}, {"id": 1, "v": 2}, {"id": 2}]}"#,
            new: #"{"sections": [{"id": "s", "items": [{"id": 2}, {"id": "a"}]}, {"id": "s", "items": [{"id": 9}]}, {"id": "t", "items": [{"id": 2}, {"id": 1}]}]}"#,
            options: #"{"duplicates": "keepFirst"}"#)
        let (_, answer) = try diff(body)
        #expect(
            answer["droppedDuplicates"]
                == (try JSON(parsing: #"{"old": {"sections": [], "elements": [[0, 2]]}, "new": {"sections": [1], "elements": [[2, 0]]}}"#)))
        // A bare list's implicit section is not "s" or "t": one section deleted, two inserted.
        #expect(answer["counts"] == Self.counts(["sectionDeleted": 1, "sectionInserted": 2]))
    }

    @Test func keepFirstOnItemListsDiffsWhatIsLeft() throws {
        let body = diffBody(
            old: #"{"items": [{"id": 1}, {"id": "a"}, {"id": 1, "v": 2}, {"id": 2}]}"#,
            new: #"{"items": [{"id": 2}, {"id": "a"}, {"id": 2, "v": 9}, {"id": 1}]}"#,
            options: #"{"duplicates": "keepFirst", "renderings": ["sequential"]}"#)
        let (_, answer) = try diff(body)
        // Left: [1, a, 2] → [2, a, 1], two moves, and no update (the dropped `2` with content is gone).
        let expected = try JSON(parsing: """
            {"counts": \(Self.counts(["elementMoved": 2])),
             "sequential": [{"op": "moveElement", "from": [0, 2], "to": [0, 0]},
                            {"op": "moveElement", "from": [0, 1], "to": [0, 2]}],
             "droppedDuplicates": {"old": {"sections": [], "elements": [[0, 2]]},
                                   "new": {"sections": [], "elements": [[0, 2]]}}}
            """)
        #expect(answer == expected)
    }

    @Test(arguments: ["application/json", "application/json; charset=utf-8", "application/vnd.foo+json", "Application/JSON"])
    func acceptsJSONMediaTypes(contentType: String) throws {
        let (_, answer) = try diff(diffBody(old: items([1]), new: items([1])), contentType: contentType)
        #expect(answer["counts"] == Self.counts([:]))
    }
}
