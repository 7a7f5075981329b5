@testable import DiffService
import Testing

/// Every class of error, answered as problem+json with the right type, status and location.
@Suite struct ProblemTests {
    private static let validBody = diffBody(old: items([1]), new: items([2]))

    @Test(arguments: ["/nope", "/diff/", "/DIFF", "/healthz/extra", "/%2e%2e/etc/passwd"])
    func unknownPathIsNotFound(path: String) throws {
        try withService { service in
            let problem = try expectProblem(try service.connect().request("GET", path), .notFound)
            #expect(problem["instance"] == .string(path))
        }
    }

    @Test(arguments: [
        ("GET", "/diff", "POST, OPTIONS"), ("PUT", "/diff", "POST, OPTIONS"), ("DELETE", "/", "GET, HEAD, OPTIONS"),
        ("POST", "/healthz", "GET, HEAD, OPTIONS"), ("POST", "/readyz", "GET, HEAD, OPTIONS"),
        ("PATCH", "/openapi.yaml", "GET, HEAD, OPTIONS"), ("GET", "/layout", "POST, OPTIONS"),
    ])
    func wrongMethodIsNotAllowedWithAllow(method: String, path: String, allowed: String) throws {
        try withService { service in
            let response = try service.connect()
                .request(method, path, headers: [("Content-Type", "application/json")], body: Array(Self.validBody.utf8))
            try expectProblem(response, .methodNotAllowed)
            #expect(response.header("Allow") == allowed)
        }
    }

    @Test(arguments: [["Content-Type": "text/plain"], [:], ["Content-Type": "application/x-www-form-urlencoded"], ["Content-Type": "json"]])
    func nonJSONContentTypeIsUnsupported(headers: [String: String]) throws {
        try withService { service in
            let response = try service.connect()
                .request("POST", "/diff", headers: headers.map { ($0.key, $0.value) }, body: Array(Self.validBody.utf8))
            let problem = try expectProblem(response, .unsupportedMediaType)
            #expect(problem["instance"] == .string("/diff"))
        }
    }

    @Test func malformedJSONPointsAtTheOffendingCharacter() throws {
        let body = "{\n  \"old\": {\"items\": []},\n  \"new\": {\"items\": [{\"id\": 1},, {\"id\": 2}]}\n}"
        let bytes = Array(body.utf8)
        let expectedOffset = try #require(body.utf8.firstRange(of: ",,".utf8)).lowerBound
        let offset = body.utf8.distance(from: body.utf8.startIndex, to: expectedOffset) + 1  // the second comma
        try withService { service in
            let response = try service.connect()
                .request("POST", "/diff", headers: [("Content-Type", "application/json")], body: bytes)
            let problem = try expectProblem(response, .malformedJSON)
            #expect(problem["offset"] == .integer(offset))
            #expect(problem["line"] == .integer(3))
            // Column is 1-based: `  "new": {"items": [{"id": 1},` is 30 characters, the second comma the 31st.
            #expect(problem["column"] == .integer(31))
            #expect(bytes[offset] == UInt8(ascii: ","))
        }
    }

    @Test(arguments: [
        (#"{"old": {"items": []}, "new": {"items": [}"#, "unclosed"),
        (#"{"old": {"items": []}, "new": {"items": []}} x"#, "trailing"),
        (#"{"old": {"items": [tru]}, "new": {"items": []}}"#, "literal"),
        (#"{"old": {"items": ["#, "truncated"),
        (#"{"old": "unterminated"#, "string"),
        ("[1, 2", "array"),
    ])
    func malformedJSONIsBadRequestWithALocation(body: String, label: String) throws {
        try withService { service in
            let problem = try expectProblem(try service.connect().postDiff(body), .malformedJSON)
            let offset = try #require(problem["offset"]?.int, "\(label)")
            #expect((0...body.utf8.count).contains(offset), "\(label)")
            #expect((problem["line"]?.int ?? 0) >= 1, "\(label)")
            #expect((problem["column"]?.int ?? 0) >= 1, "\(label)")
        }
    }

    @Test func invalidUTF8IsBadRequestAtItsByte() throws {
        let prefix = Array(#"{"old": {"items": [{"id": "caf"#.utf8)
        let body = prefix + [0xC3, 0x28] + Array(#""}]}, "new": {"items": []}}"#.utf8)
        try withService { service in
            let response = try service.connect()
                .request("POST", "/diff", headers: [("Content-Type", "application/json")], body: body)
            let problem = try expectProblem(response, .invalidUTF8)
            #expect(problem["offset"] == .integer(prefix.count))
        }
    }

    @Test func tooDeepNestingIsBadRequestAtTheFirstLevelTooMany() throws {
        // Levels: request 1, "new" 2, "items" 3, the item 4; the 125th bracket of "x" opens level 129.
        let prefix = #"{"old": {"items": []}, "new": {"items": [{"id": 1, "x": "#
        let body = prefix + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "}]}}"
        try withService { service in
            let problem = try expectProblem(try service.connect().postDiff(body), .nestingTooDeep)
            #expect(problem["limit"] == .integer(128))
            #expect(problem["offset"] == .integer(prefix.utf8.count + 124))
        }
    }

    @Test(arguments: ["", " \r\n\t "])
    func emptyBodyIsBadRequest(body: String) throws {
        try withService { service in
            let problem = try expectProblem(try service.connect().postDiff(body), .emptyBody)
            #expect(problem["instance"] == .string("/diff"))
        }
    }

    @Test func hugeExponentInContentIsAnInvalidValue() throws {
        let body = diffBody(old: items([1]), new: #"{"items": [{"id": 1, "n": 1e9999999999}]}"#)
        try withService { service in
            let problem = try expectProblem(try service.connect().postDiff(body), .invalidRequest)
            #expect(problem["errors"]?[0]?["path"] == .string("new.items[0].n"))
            #expect(problem["errors"]?[0]?["message"]?.string?.contains("exponent") == true)
            #expect(problem["errors"]?.array?.count == 1)
        }
    }

    @Test func hugeButInRangeExponentIsContent() throws {
        // 1e999 is far outside Double but within the exponent limit: it is compared exactly, not rejected.
        let body = diffBody(
            old: #"{"items": [{"id": 1, "n": 1e999}, {"id": 2, "n": 1e999}]}"#,
            new: #"{"items": [{"id": 1, "n": 10e998}, {"id": 2, "n": 1e998}]}"#)
        try withService { service in
            let response = try service.connect().postDiff(body)
            #expect(response.status == 200, "\(response.text)")
            #expect(try JSON(parsing: response.body)["counts"]?["elementUpdated"] == .integer(1))
        }
    }

    @Test func fourHundredDigitIDIsAnInvalidValue() throws {
        let id = "9" + String(repeating: "0", count: 399)
        let body = diffBody(old: items([1]), new: #"{"items": [{"id": 2}, {"id": \#(id)}]}"#)
        try withService { service in
            let problem = try expectProblem(try service.connect().postDiff(body), .invalidRequest)
            #expect(problem["errors"]?[0]?["path"] == .string("new.items[1].id"))
            #expect(
                problem["errors"]?[0]?["message"] == .string("expected string or integer, found integer outside the 64-bit range"))
        }
    }

    @Test func everyInvalidValueIsListedWithItsPath() throws {
        let sections = (0..<3).map { section in
            let itemList = (0..<8).map { item in
                section == 2 && item == 7 ? #"{"id": {"nested": true}}"# : #"{"id": "s\#(section)i\#(item)"}"#
            }
            return #"{"id": \#(section), "items": [\#(itemList.joined(separator: ", "))]}"#
        }
        let body = """
            {"old": {"sections": [{"id": true, "items": []}, {"id": 1, "items": [{"id": 1.5}, {"title": "no id"}]}]},
             "new": {"sections": [\(sections.joined(separator: ", "))]},
             "options": {"renderings": ["staged", "sideways"], "pretty": "yes"},
             "extra": 1}
            """
        try withService { service in
            let problem = try expectProblem(try service.connect().postDiff(body), .invalidRequest)
            let errors = try #require(problem["errors"]?.array)
            let byPath = Dictionary(errors.map { ($0["path"]?.string ?? "?", $0["message"]?.string ?? "?") }) { a, _ in a }
            #expect(byPath["new.sections[2].items[7].id"] == "expected string or integer, found object")
            #expect(byPath["old.sections[0].id"] == "expected string or integer, found boolean")
            #expect(byPath["old.sections[1].items[0].id"] == "expected string or integer, found number with a fraction or an exponent")
            #expect(byPath["old.sections[1].items[1].id"] == "missing required member")
            #expect(byPath["options.renderings[1]"] != nil)
            #expect(byPath["options.pretty"] != nil)
            #expect(byPath["extra"] != nil)
            #expect(errors.count == 7, "\(errors)")
        }
    }

    @Test func duplicatesListEveryRepeatedIDWithItsPathsInBothSnapshots() throws {
        let body = diffBody(
            old: #"{"items": [{"id": 1}, {"id": "a"}, {"id": 1}, {"id": "a"}, {"id": 1}]}"#,
            new: #"{"sections": [{"id": "s", "items": [{"id": 7}]}, {"id": "t", "items": [{"id": 8}, {"id": 7}]}, {"id": "s", "items": []}]}"#)
        try withService { service in
            let problem = try expectProblem(try service.connect().postDiff(body), .duplicateIDs)
            let duplicates = try #require(problem["duplicates"]?.array)
            let found = Set(duplicates.map { "\($0["snapshot"]!) \($0["kind"]!) \($0["id"]!) \($0["paths"]!)" })
            #expect(
                found == [
                    #""old" "item" 1 ["old.items[0]","old.items[2]","old.items[4]"]"#,
                    #""old" "item" "a" ["old.items[1]","old.items[3]"]"#,
                    #""new" "section" "s" ["new.sections[0]","new.sections[2]"]"#,
                    #""new" "item" 7 ["new.sections[0].items[0]","new.sections[1].items[1]"]"#,
                ])
            #expect(duplicates.count == 4)
        }
    }
}

/// Problem details read as English: "1 id appears", "2 ids appear".
@Suite struct DuplicateDetailGrammarTests {
    private func detail(_ body: String, layout: Bool = false) throws -> String {
        let response =
            layout
            ? LayoutEndpoint.respond(to: Array(body.utf8), cursors: CursorCodec(secret: "test"))
            : DiffEndpoint.respond(to: Array(body.utf8))
        return try #require(try JSON(parsing: response.body)["detail"]?.string)
    }

    @Test func oneIdAppearsAndTwoIdsAppear() throws {
        #expect(try detail(#"{"old": {"items": [{"id": 1}, {"id": 1}]}, "new": {"items": []}}"#).hasPrefix("1 id appears more than once"))
        #expect(
            try detail(#"{"old": {"items": [{"id": 1}, {"id": 1}, {"id": 2}, {"id": 2}]}, "new": {"items": []}}"#)
                .hasPrefix("2 ids appear more than once"))
        let settings = #"{"containerWidth": 300}"#
        #expect(
            try detail(#"{"settings": \#(settings), "items": [{"id": 1, "aspectRatio": 1}, {"id": 1, "aspectRatio": 1}]}"#, layout: true)
                .hasPrefix("1 item id appears more than once"))
        #expect(
            try detail(
                #"{"settings": \#(settings), "items": [{"id": 1, "aspectRatio": 1}, {"id": 1, "aspectRatio": 1}, {"id": 2, "aspectRatio": 1}, {"id": 2, "aspectRatio": 1}]}"#,
                layout: true
            ).hasPrefix("2 item ids appear more than once"))
    }
}
