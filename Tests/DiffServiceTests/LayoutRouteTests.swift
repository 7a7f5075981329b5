@testable import DiffService
import MicroHTTP
import SnapshotJSON
import Testing
import TestSupport
import Waterfall

/// `POST /layout` and `options.layouts` in `/diff`, over a real socket.
@Suite struct LayoutRouteTests {
    private static let settings =
        #"{"containerWidth": 375, "scale": 3, "columns": 2, "columnSpacing": 8, "itemSpacing": 8, "insets": {"leading": 16, "trailing": 16}}"#

    private static func photos(_ range: Range<Int>) -> String {
        "[" + range.map { #"{"id": "p\#($0)", "aspectRatio": \#(0.5 + Double($0 % 7) / 4), "extraHeight": \#($0 % 3 * 10)}"# }
            .joined(separator: ",") + "]"
    }

    private func post(_ client: TestClient, _ target: String, _ body: String) throws -> TestClient.Response {
        try client.request("POST", target, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
    }

    @Test func pagesThroughCursorsEqualTheOneShotLayout() throws {
        try withService { service in
            let client = try service.connect()
            let whole = try JSON(parsing: try post(client, "/layout", #"{"settings": \#(Self.settings), "items": \#(Self.photos(0..<23))}"#).body)
            var frames: [JSON] = []
            var cursor: String?
            var next = 0
            while next < 23 {
                let page = min(next + 5, 23)
                let cursorMember = cursor.map { #", "cursor": "\#($0)""# } ?? ""
                let response = try post(
                    client, "/layout", #"{"settings": \#(Self.settings), "items": \#(Self.photos(next..<23)), "pageSize": 5\#(cursorMember)}"#)
                #expect(response.status == 200, "\(response.text)")
                let answer = try JSON(parsing: response.body)
                #expect(answer["firstIndex"]?.int == next)
                frames += try #require(answer["items"]?.array)
                cursor = try #require(answer["nextCursor"]?.string)
                #expect(cursor?.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } == true, "URL-safe")
                if page == 23 {
                    #expect(answer["columnHeights"] == whole["columnHeights"])
                    #expect(answer["contentHeight"] == whole["contentHeight"])
                }
                next = page
            }
            #expect(frames == whole["items"]?.array)
        }
    }

    @Test func cursorProblems() throws {
        try withService { service in
            let client = try service.connect()
            let first = try JSON(parsing: try post(client, "/layout", #"{"settings": \#(Self.settings), "items": \#(Self.photos(0..<3))}"#).body)
            let cursor = try #require(first["nextCursor"]?.string)
            var altered = Array(cursor)
            altered[4] = altered[4] == "A" ? "B" : "A"
            try expectProblem(
                try post(client, "/layout", #"{"settings": \#(Self.settings), "items": [], "cursor": "\#(String(altered))"}"#),
                .invalidCursor)
            try expectProblem(
                try post(client, "/layout", #"{"settings": \#(Self.settings), "items": [], "cursor": "not a cursor!"}"#), .invalidCursor)
            let other = #"{"containerWidth": 375, "scale": 3, "columns": 3}"#
            try expectProblem(try post(client, "/layout", #"{"settings": \#(other), "items": [], "cursor": "\#(cursor)"}"#), .cursorMismatch)
            let balanced = #"{"containerWidth": 375, "strategy": "balanced"}"#
            let notStable = try expectProblem(
                try post(client, "/layout", #"{"settings": \#(balanced), "items": [], "cursor": "\#(cursor)"}"#), .layoutNotAppendStable)
            #expect(notStable["errors"]?[0]?["path"]?.string == "cursor")
            try expectProblem(
                try post(client, "/layout", #"{"settings": \#(balanced), "items": \#(Self.photos(0..<3)), "pageSize": 2}"#),
                .layoutNotAppendStable)
        }
    }

    @Test(arguments: [
        (#"{"containerWidth": -1}"#, #"[{"id": 1, "aspectRatio": 1}]"#, "settings.containerWidth"),
        (#"{"containerWidth": 300, "columns": 0}"#, #"[{"id": 1, "aspectRatio": 1}]"#, "settings.columns"),
        (#"{"containerWidth": 300, "columns": {"count": 65}}"#, #"[{"id": 1, "aspectRatio": 1}]"#, "settings.columns.count"),
        (#"{"containerWidth": 100, "columns": 4, "columnSpacing": 40}"#, #"[{"id": 1, "aspectRatio": 1}]"#, "settings.columns"),
        (#"{"containerWidth": 300, "scale": 1e400}"#, "[]", "settings.scale"),
        (#"{"containerWidth": 300, "colums": 2}"#, "[]", "settings.colums"),
        // Member names that are not identifiers are quoted, as in `/diff` (one path renderer).
        (#"{"containerWidth": 300, "a b": 2}"#, "[]", #"settings["a b"]"#),
        (#"{"containerWidth": 300, "insets": {"top\n": 1}}"#, "[]", #"settings.insets["top\n"]"#),
        (#"{"containerWidth": 300}"#, #"[{"id": 1, "aspectRatio": 0}]"#, "items[0].aspectRatio"),
        (#"{"containerWidth": 300}"#, #"[{"id": 1, "aspectRatio": 1000}]"#, "items[0].aspectRatio"),
        (#"{"containerWidth": 300}"#, #"[{"id": 1, "width": 0, "height": 10}]"#, "items[0].width"),
        (#"{"containerWidth": 300}"#, #"[{"id": 1, "width": 10}]"#, "items[0].height"),
        (#"{"containerWidth": 300}"#, #"[{"id": 1}]"#, "items[0]"),
        (#"{"containerWidth": 300}"#, #"[{"id": 1, "aspectRatio": 1, "fixedHeight": 10}]"#, "items[0]"),
        (#"{"containerWidth": 300}"#, #"[{"id": 1, "fixedHeight": "tall"}]"#, "items[0].fixedHeight"),
    ])
    func invalidLayoutInputNamesTheField(settings: String, items: String, path: String) throws {
        try withService { service in
            let problem = try expectProblem(
                try post(try service.connect(), "/layout", #"{"settings": \#(settings), "items": \#(items)}"#), .invalidRequest)
            let paths = (problem["errors"]?.array ?? []).compactMap { $0["path"]?.string }
            #expect(paths.contains(path), "\(problem)")
        }
    }

    /// The paths of a `/layout` answer's errors, answered without a socket.
    private func errorPaths(_ body: String) throws -> [String] {
        let response = LayoutEndpoint.respond(to: Array(body.utf8), cursors: CursorCodec(secret: "test"))
        #expect(response.status == 422)
        return (try JSON(parsing: response.body)["errors"]?.array ?? []).compactMap { $0["path"]?.string }
    }

    /// Issue 15's example: every out-of-range value is named, not only the first.
    @Test func everyOutOfRangeValueIsNamed() throws {
        let paths = try errorPaths(
            #"{"settings":{"containerWidth":0,"scale":0,"columns":65},"items":[{"id":"a","aspectRatio":0},{"id":"b","fixedHeight":-1}]}"#)
        #expect(
            Set(paths) == ["settings.containerWidth", "settings.scale", "settings.columns", "items[0].aspectRatio", "items[1].fixedHeight"],
            "\(paths)")
        #expect(paths.count == 5)
    }

    /// Out-of-range settings and sizes are reported with the type errors of other items, not after them.
    @Test func outOfRangeValuesAreNamedAlongsideTypeErrors() throws {
        let paths = try errorPaths(
            #"{"settings":{"containerWidth":300,"columns":{"count":0},"insets":{"top":-1}},"pageSize":0,"items":[{"id":"a","aspectRatio":"wide"},{"id":"b","width":5,"height":0},{"id":"c"}]}"#
        )
        #expect(
            Set(paths) == [
                "items[0].aspectRatio", "items[1].height", "items[2]", "settings.columns.count", "settings.insets.top", "pageSize",
            ], "\(paths)")
        #expect(paths.count == 6)
    }

    /// Values out of range are answered after repeated ids and a bad cursor, as the engine answered them when it
    /// checked them; an item beyond the page is checked too.
    @Test func outOfRangeValuesComeAfterRepeatedIdsAndTheCursor() throws {
        let cursors = CursorCodec(secret: "test")
        func type(_ body: String) throws -> String? {
            try JSON(parsing: LayoutEndpoint.respond(to: Array(body.utf8), cursors: cursors).body)["type"]?.string
        }
        let items = #"[{"id": 1, "aspectRatio": 1}, {"id": 2, "aspectRatio": 0}, {"id": 1, "aspectRatio": 1}]"#
        #expect(try type(#"{"settings": {"containerWidth": 0}, "items": \#(items)}"#) == ProblemType.duplicateIDs.uri)
        let unique = #"[{"id": 1, "aspectRatio": 1}, {"id": 2, "fixedHeight": 10}, {"id": 3, "aspectRatio": 0}]"#
        #expect(try type(#"{"settings": {"containerWidth": 300}, "items": \#(unique), "cursor": "x"}"#) == ProblemType.invalidCursor.uri)
        #expect(try errorPaths(#"{"settings": {"containerWidth": 300}, "items": \#(unique), "pageSize": 1}"#) == ["items[2].aspectRatio"])
        #expect(try errorPaths(#"{"settings": {"containerWidth": 300}, "items": \#(unique), "pageSize": 0}"#) == ["pageSize", "items[2].aspectRatio"])
    }

    /// A body's members may come in any order: the items are measured in the first walk when the settings come
    /// first, and in a second one otherwise, with the same answer (the errors listed in the order met). The
    /// regression case: `pageSize` -1 after the items once crashed the measuring of the first walk.
    @Test(arguments: [
        [#""pageSize": -1"#],
        [#""pageSize": 2"#],
        [#""pageSize": 2"#, #""pretty": true"#],
        [#""pageSize": 0"#, #""cursor": "x""#],
        [#""pageSize": 1"#, #""extra": 1"#],
    ])
    func membersInAnyOrderAnswerAlike(others: [String]) throws {
        let items = #"[{"id": "a", "aspectRatio": 1, "note": [1]}, {"id": "b", "fixedHeight": 10}, {"id": "c", "aspectRatio": 0}]"#
        let valid = #"[{"id": "a", "aspectRatio": 1, "note": [1]}, {"id": "b", "fixedHeight": 10}, {"id": "c", "width": 4, "height": 3}]"#
        func permutations(_ members: [String]) -> [[String]] {
            guard members.count > 1 else { return [members] }
            return members.indices.flatMap { i in
                permutations(Array(members[..<i] + members[(i + 1)...])).map { [members[i]] + $0 }
            }
        }
        for list in [items, valid] {
            let members = [#""settings": \#(Self.settings)"#, #""items": \#(list)"#] + others
            var answers: [(status: Int, body: [UInt8], paths: Set<String>)] = []
            for order in permutations(members) {
                let body = "{" + order.joined(separator: ", ") + "}"
                let response = LayoutEndpoint.respond(to: Array(body.utf8), cursors: CursorCodec(secret: "test"))
                let paths = try response.status == 200
                    ? [] : Set((JSON(parsing: response.body)["errors"]?.array ?? []).compactMap { $0["path"]?.string })
                answers.append((response.status, response.status == 200 ? response.body : [], paths))
            }
            for answer in answers.dropFirst() {
                #expect(answer.status == answers[0].status && answer.body == answers[0].body && answer.paths == answers[0].paths)
            }
        }
    }

    /// Items decoded in the first walk (the settings first) list their errors after every error of the root's
    /// members, those written after the items too, as a second walk's are listed.
    @Test func itemErrorsOfTheFirstWalkFollowTheRootErrors() throws {
        let body = #"{"settings": {"containerWidth": 300}, "items": [{"id": "a", "aspectRatio": "x"}], "pageSize": "y", "extra": 1}"#
        #expect(try errorPaths(body) == ["pageSize", "extra", "items[0].aspectRatio"])
    }

    /// The answer is reserved once: its estimate is at least what is written, whatever the ids and the numbers.
    @Test(arguments: [false, true])
    func answerFitsItsReservation(pretty: Bool) throws {
        let settings = WaterfallSettings(
            containerWidth: 100_000, scale: 3, columns: .count(64), columnSpacing: ExactDecimal(1), itemSpacing: 100_000)
        let items = (0..<300).map { WaterfallItem(size: .fixedHeight(100_000), extraHeight: ExactDecimal(Double($0 % 7) + 0.1), isFullWidth: $0 % 50 == 0) }
        let ids: [WireID] = (0..<300).map {
            $0 % 3 == 0 ? .integer(Int64.min + Int64($0)) : .string(String(repeating: "\"\\\u{1}é", count: $0 % 5))
        }
        let page = try WaterfallLayout.layout(items, settings: settings)
        var writer = JSONWriter(pretty: pretty, capacity: 0)
        writer.beginObject()
        page.writeMembers(into: &writer, ids: ids, cursor: page.continuation.map(CursorCodec(secret: "test").seal))
        writer.endObject()
        writer.finish()
        let idsLength = ids.reduce(0) { length, id in
            var written = JSONWriter()
            id.write(into: &written)
            return length + written.bytes.count
        }
        #expect(writer.bytes.count <= page.answerCapacity(idsLength: idsLength, pretty: pretty))
    }

    /// In `/diff`, every layout's offending values are listed, in the new and the old section.
    @Test func diffLayoutsNameEveryOutOfRangeValue() throws {
        try withService { service in
            let body = #"""
                {"old": {"items": [{"id": 1, "aspectRatio": 1000}]},
                 "new": {"items": [{"id": 1, "aspectRatio": 0}, {"id": 2, "fixedHeight": 0}]},
                 "options": {"layouts": [{"settings": {"containerWidth": 300, "scale": 9}, "pageSize": 0}]}}
                """#
            let problem = try expectProblem(try post(try service.connect(), "/diff", body), .invalidRequest)
            let paths = (problem["errors"]?.array ?? []).compactMap { $0["path"]?.string }
            #expect(
                Set(paths) == [
                    "options.layouts[0].settings.scale", "options.layouts[0].pageSize", "new.items[0].aspectRatio",
                    "new.items[1].fixedHeight", "old.items[0].aspectRatio",
                ], "\(paths)")
            #expect(paths.count == 5)
        }
    }

    /// A layout's item paths are where the items were written, counting the items keepFirst dropped, in a
    /// section's items (each path is made only for an error).
    @Test func diffLayoutPathsCountDroppedItems() throws {
        try withService { service in
            let body = #"""
                {"old": {"sections": [{"id": "a", "items": []}, {"id": "p", "items": [{"id": 1, "aspectRatio": 1}, {"id": 1, "aspectRatio": 1}, {"id": 2, "width": 0, "height": 1}]}]},
                 "new": {"sections": [{"id": "p", "items": [{"id": 3, "aspectRatio": 1}, {"id": 3, "aspectRatio": 1}, {"id": 3, "aspectRatio": 1}, {"id": 4, "fixedHeight": 0}]}]},
                 "options": {"duplicates": "keepFirst", "layouts": [{"section": "p", "settings": {"containerWidth": 300}}]}}
                """#
            let problem = try expectProblem(try post(try service.connect(), "/diff", body), .invalidRequest)
            let paths = (problem["errors"]?.array ?? []).compactMap { $0["path"]?.string }
            #expect(
                Set(paths) == ["new.sections[0].items[3].fixedHeight", "old.sections[1].items[2].width"], "\(paths)")
        }
    }

    /// Issue 15: heights are exact for the numbers as written (550 ÷ 1.1 is 500 pixels, not 499), and
    /// numbers too long to be taken exactly are refused, not approximated.
    @Test func heightsAreExactForTheDecimalsWritten() throws {
        let body = #"{"settings":{"containerWidth":550,"columns":1},"items":[{"id":"a","aspectRatio":1.1}]}"#
        let response = LayoutEndpoint.respond(to: Array(body.utf8), cursors: CursorCodec(secret: "test"))
        #expect(response.status == 200)
        let height = try JSON(parsing: response.body)["items"]?[0]?["frame"]?["height"]
        #expect(height == .number(500) || height == .integer(500), "\(String(decoding: response.body, as: UTF8.self))")
        let trailingZeros = #"{"settings":{"containerWidth":550,"columns":1},"items":[{"id":"a","aspectRatio":1.100000000000000000000000000000000000000000000}]}"#
        #expect(LayoutEndpoint.respond(to: Array(trailingZeros.utf8), cursors: CursorCodec(secret: "test")).status == 200)
        let paths = try errorPaths(
            #"{"settings":{"containerWidth":550,"columns":1},"items":[{"id":"a","aspectRatio":1.10000000000000000000000000000000000001}]}"#)
        #expect(paths == ["items[0].aspectRatio"])
    }

    /// The documented geometry: the container width is floored to whole pixels (100.9 pt at scale 1 is 100
    /// px), columns share it after the insets, and a full-width item spans the container minus the insets.
    @Test func fullWidthItemsSpanTheFlooredContainerMinusTheInsets() throws {
        let body = #"""
            {"settings":{"containerWidth":100.9,"columns":2,"columnSpacing":5,"insets":{"leading":10,"trailing":5}},
             "items":[{"id":"a","fixedHeight":10,"fullWidth":true},{"id":"b","fixedHeight":10}]}
            """#
        let response = LayoutEndpoint.respond(to: Array(body.utf8), cursors: CursorCodec(secret: "test"))
        #expect(response.status == 200)
        let page = try JSON(parsing: response.body)
        func number(_ value: JSON?) -> Double? {
            switch value {
            case .integer(let integer): Double(integer)
            case .number(let number): number
            default: nil
            }
        }
        #expect(number(page["items"]?[0]?["frame"]?["width"]) == 85)  // ⌊100.9⌋ − 10 − 5
        #expect(number(page["items"]?[0]?["frame"]?["x"]) == 10)
        #expect(number(page["columnWidth"]) == 40)  // ⌊(85 − 5) ÷ 2⌋
        #expect(number(page["items"]?[1]?["frame"]?["width"]) == 40)
    }

    /// Paths are rendered as in `/diff`: a name that is not an identifier is quoted, at the root and in
    /// `/diff`'s `options.layouts` too.
    @Test func pathsQuoteNamesThatAreNotIdentifiers() throws {
        #expect(try errorPaths(#"{"settings":{"containerWidth":300},"items":[],"a b":1}"#) == [#"["a b"]"#])
        let body = #"{"old":{"items":[]},"new":{"items":[]},"options":{"layouts":[{"settings":{"containerWidth":300,"x\"y":1}}]}}"#
        let response = DiffEndpoint.respond(to: Array(body.utf8))
        #expect(response.status == 422)
        let paths = (try JSON(parsing: response.body)["errors"]?.array ?? []).compactMap { $0["path"]?.string }
        #expect(paths == [#"options.layouts[0].settings["x\"y"]"#])
    }

    /// A member name repeated anywhere in a body is a 422 naming it, in `/layout` as in `/diff`.
    @Test func repeatedMemberNamesAreRefused() throws {
        let paths = try errorPaths(#"{"settings":{"containerWidth":300},"items":[{"id":"a","aspectRatio":1,"aspectRatio":2}]}"#)
        #expect(paths == ["items[0].aspectRatio"])
        try withService { service in
            let body = #"{"old":{"items":[{"id":1,"meta":{"a":1,"a":1}}]},"new":{"items":[]}}"#
            let problem = try expectProblem(try post(try service.connect(), "/diff", body), .invalidRequest)
            #expect(problem["errors"]?[0]?["path"]?.string == "old.items[0].meta.a", "\(problem)")
        }
    }

    @Test func duplicateLayoutIdsAreNamed() throws {
        try withService { service in
            let problem = try expectProblem(
                try post(
                    try service.connect(), "/layout",
                    #"{"settings": {"containerWidth": 300}, "items": [{"id": 1, "aspectRatio": 1}, {"id": "1", "aspectRatio": 1}, {"id": 1, "aspectRatio": 2}]}"#),
                .duplicateIDs)
            #expect(problem["duplicates"]?[0]?["paths"] == .array([.string("items[0]"), .string("items[2]")]))
            #expect(problem["duplicates"]?.array?.count == 1, "1 and \"1\" are different ids")
        }
    }

    @Test func diffReturnsTheFirstPageAndTheItemsWhoseFrameChanged() throws {
        try withService { service in
            let body = #"""
                {"old": {"sections": [{"id": "photos", "items": [{"id": 1, "aspectRatio": 1}, {"id": 2, "aspectRatio": 0.5}, {"id": 3, "aspectRatio": 2}]}]},
                 "new": {"sections": [{"id": "top", "items": []}, {"id": "photos", "items": [{"id": 1, "aspectRatio": 1}, {"id": 2, "aspectRatio": 0.5}, {"id": 4, "aspectRatio": 1}, {"id": 3, "aspectRatio": 2}]}]},
                 "options": {"layouts": [{"section": "photos", "settings": {"containerWidth": 300, "columns": 2}, "pageSize": 3}]}}
                """#
            let response = try post(try service.connect(), "/diff", body)
            #expect(response.status == 200, "\(response.text)")
            let layout = try #require(try JSON(parsing: response.body)["layouts"]?[0])
            #expect(layout["section"] == .string("photos"))
            #expect(layout["items"]?.array?.count == 3)
            #expect(layout["nextCursor"]?.string != nil)
            // 1 and 2 keep their frames; 4 is new; 3 (beyond the page) is not reported.
            #expect(layout["changedFrames"] == .array([]))
            let moved = #"""
                {"old": {"items": [{"id": 1, "aspectRatio": 1}, {"id": 2, "aspectRatio": 0.5}, {"id": 3, "aspectRatio": 2}]},
                 "new": {"items": [{"id": 2, "aspectRatio": 0.5}, {"id": 1, "aspectRatio": 1}, {"id": 3, "aspectRatio": 2}]},
                 "options": {"layouts": [{"settings": {"containerWidth": 300, "columns": 2}}]}}
                """#
            let answer = try JSON(parsing: try post(try service.connect(), "/diff", moved).body)
            #expect(answer["layouts"]?[0]?["changedFrames"] == .array([.integer(2), .integer(1), .integer(3)]))
            #expect(answer["layouts"]?[0]?["section"] == .null)
        }
    }

    @Test func diffLayoutProblemsNameTheirPath() throws {
        try withService { service in
            let client = try service.connect()
            let missing = try expectProblem(
                try post(client, "/diff", diffBody(old: items([1]), new: items([1]), options: #"{"layouts": [{"section": "x", "settings": {"containerWidth": 300}}]}"#)),
                .invalidRequest)
            #expect(missing["errors"]?[0]?["path"]?.string == "options.layouts[0].section")
            let unsized = try expectProblem(
                try post(client, "/diff", diffBody(old: items([1]), new: items([1, 2]), options: #"{"layouts": [{"settings": {"containerWidth": 300}}]}"#)),
                .invalidRequest)
            let paths = (unsized["errors"]?.array ?? []).compactMap { $0["path"]?.string }
            #expect(paths == ["new.items[0]", "new.items[1]", "old.items[0]"])
        }
    }

    /// The README's first page and its cursor, made by a server with the README's example key; the cursor with
    /// its last character changed only in the two bits base64url leaves unused is a 400 (issue 14).
    @Test func readmeCursorIsRealAndItsNonCanonicalTwinIsInvalid() throws {
        let settings = #"{"containerWidth": 375, "scale": 3, "columns": 2, "columnSpacing": 8, "itemSpacing": 8}"#
        let next = { (cursor: String) in #"{"settings": \#(settings), "items": [{"id": "p3", "aspectRatio": 1, "extraHeight": 24}], "cursor": "\#(cursor)"}"# }
        try withService(cursorSecrets: ["readme-example-key-not-a-secret"]) { service in
            let client = try service.connect()
            let first = try post(
                client, "/layout",
                #"{"settings": \#(settings), "items": [{"id": "p1", "aspectRatio": 1.5}, {"id": "p2", "width": 800, "height": 1200}, "#
                    + #"{"id": "p3", "aspectRatio": 1, "extraHeight": 24}], "pageSize": 2}"#)
            #expect(try JSON(parsing: first.body)["nextCursor"]?.string == "ARR3HtHax1IcAgAChgPRBtyBiI3gf7fk3t_rCni-AZY")
            #expect(try post(client, "/layout", next("ARR3HtHax1IcAgAChgPRBtyBiI3gf7fk3t_rCni-AZY")).status == 200)
            try expectProblem(try post(client, "/layout", next("ARR3HtHax1IcAgAChgPRBtyBiI3gf7fk3t_rCni-AZZ")), .invalidCursor)
        }
        // The issue's vector: the former README cursor (sealed with the former built-in key) ending …v2l for …v2k.
        try withService(cursorSecrets: ["snapdiff: set SNAPDIFF_CURSOR_KEY to a secret of your own"]) { service in
            let client = try service.connect()
            #expect(try post(client, "/layout", next("ARR3HtHax1IcAgAChgPRBi_ItbGqsV5b4pwSWEi9v2k")).status == 200)
            let problem = try expectProblem(try post(client, "/layout", next("ARR3HtHax1IcAgAChgPRBi_ItbGqsV5b4pwSWEi9v2l")), .invalidCursor)
            #expect(problem["detail"]?.string?.contains("not canonical base64url") == true, "\(problem)")
        }
    }

    @Test func cursorsWorkAcrossReplicasSharingTheKey() throws {
        func layout(_ service: ServiceRouter, _ body: String) -> HTTPResponse {
            service.respond(to: HTTPRequest(method: "POST", path: "/layout", headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
        }
        let first = ServiceRouter(logger: quietLogger, cursors: CursorCodec(secret: "shared"))
        let second = ServiceRouter(logger: quietLogger, cursors: CursorCodec(secret: "shared"))
        let stranger = ServiceRouter(logger: quietLogger, cursors: CursorCodec(secret: "other"))
        let page = try JSON(parsing: layout(first, #"{"settings": \#(Self.settings), "items": \#(Self.photos(0..<2))}"#).body)
        let cursor = try #require(page["nextCursor"]?.string)
        let next = #"{"settings": \#(Self.settings), "items": \#(Self.photos(2..<4)), "cursor": "\#(cursor)"}"#
        #expect(layout(second, next).status == 200)
        #expect(layout(stranger, next).status == 400)
    }
}
