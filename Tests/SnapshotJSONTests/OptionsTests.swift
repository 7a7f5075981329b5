import SnapshotJSON
import Testing

@Suite struct OptionsTests {
    @Test func defaultsWhenAbsent() throws {
        let request = try Fixtures.request(oldItems: "", newItems: "")
        #expect(request.options == DiffOptions())
        #expect(request.options.renderings == [.staged])
        #expect(request.options.duplicates == .reject)
        #expect(request.options.pretty == false)
        #expect(request.options.ids == false)
    }

    @Test func readsEveryOption() throws {
        let request = try Fixtures.request(oldItems: "", newItems: "",
                                           options: #"{"pretty":true,"renderings":["sequential","ranges","staged"],"duplicates":"keepFirst","ids":true}"#)
        #expect(request.options == DiffOptions(renderings: [.sequential, .ranges, .staged], duplicates: .keepFirst, pretty: true, ids: true))
        #expect(try Fixtures.request(oldItems: "", newItems: "", options: #"{"ids":false}"#).options == DiffOptions())
        #expect(try Fixtures.request(oldItems: "", newItems: "", options: "{}").options == DiffOptions())
    }

    @Test(arguments: [
        (#"[]"#, [Violation(path: "options", message: "expected object, found array")]),
        (#"{"renderings":[],"duplicates":"keepLast","pretty":"yes","layout":1}"#, [
            // In the order written.
            Violation(path: "options.renderings", message: "expected at least one rendering"),
            Violation(path: "options.duplicates", message: #"expected "reject" or "keepFirst", found "keepLast""#),
            Violation(path: "options.pretty", message: "expected boolean, found string"),
            Violation(path: "options.layout", message: #"unknown option; expected "renderings", "duplicates", "pretty", "ids", "changedMembers" or "layouts""#),
        ]),
        (#"{"renderings":["staged","staged"]}"#,
         [Violation(path: "options.renderings[1]", message: #"duplicate rendering "staged""#)]),
        (#"{"renderings":["staged",1]}"#,
         [Violation(path: "options.renderings[1]", message: #"expected "staged", "sequential", "ranges" or "jsonPatch", found number"#)]),
        (#"{"renderings":["range"]}"#,
         [Violation(path: "options.renderings[0]", message: #"expected "staged", "sequential", "ranges" or "jsonPatch", found "range""#)]),
        (#"{"renderings":["ranges","ranges"]}"#,
         [Violation(path: "options.renderings[1]", message: #"duplicate rendering "ranges""#)]),
        (#"{"ids":"true"}"#, [Violation(path: "options.ids", message: "expected boolean, found string")]),
        (#"{"ids":1}"#, [Violation(path: "options.ids", message: "expected boolean, found number")]),
        (#"{"ids":null}"#, [Violation(path: "options.ids", message: "expected boolean, found null")]),
        (#"{"ids":true,"ids":true}"#, [Violation(path: "options.ids", message: "duplicate member name", byteOffset: 61)]),
        (#"{"renderings":"staged"}"#, [Violation(path: "options.renderings", message: "expected array, found string")]),
        (#"{"pretty":true,"pretty":false}"#, [Violation(path: "options.pretty", message: "duplicate member name", byteOffset: 64)]),
    ] as [(String, [Violation])])
    func reportsInvalidOptions(_ options: String, _ expected: [Violation]) {
        let json = #"{"old":{"items":[]},"new":{"items":[]},"options":\#(options)}"#
        #expect(Fixtures.violations(of: json) == expected)
    }

    @Test func reportsOptionAndSchemaViolationsTogether() {
        let json = #"{"options":{"pretty":1},"old":{"items":[{"id":true}]},"new":{"items":[]}}"#
        #expect(Fixtures.violations(of: json).map(\.path) == ["old.items[0].id", "options.pretty"])
    }

    /// `options.layouts` is decoded once, by the reader, into typed requests.
    @Test func decodesLayoutsIntoTypedRequests() throws {
        let options = #"{"layouts":[{"section":"photos","settings":{"containerWidth":375,"columns":2},"pageSize":50},{"settings":{"containerWidth":320}}]}"#
        let layouts = try Fixtures.request(oldItems: "", newItems: "", options: options).options.layouts
        #expect(layouts.map(\.section) == [.explicit(.string("photos")), .implicit])
        #expect(layouts.map(\.pageSize) == [50, nil])
        #expect(layouts.map(\.path) == ["options.layouts[0]", "options.layouts[1]"])
        #expect(layouts.map(\.paths.settings) == ["options.layouts[0].settings", "options.layouts[1].settings"])
    }

    /// Layout errors are listed once the rest of the request is valid, with paths quoted like every other path:
    /// the first 100, as every layer lists them, and the rest counted (they were listed up to 1,000 before the
    /// layers shared one collector).
    @Test func reportsLayoutErrorsOnceTheRestIsValid() {
        let entries = (0 ..< 150).map { #"{"section":\#($0),"settings":{"a b":1}}"# }.joined(separator: ",")
        let json = #"{"old":{"items":[]},"new":{"items":[]},"options":{"layouts":[\#(entries)]}}"#
        guard case .invalid(let violations, let omitted) = Fixtures.error(of: json) else {
            Issue.record("expected a 422")
            return
        }
        #expect(violations.count == Violations.listedLimit && violations.count + omitted == 300)
        #expect(violations.prefix(2).map(\.path) == [#"options.layouts[0].settings["a b"]"#, "options.layouts[0].settings.containerWidth"])
        let withSchemaViolation = #"{"old":{"items":[{"id":true}]},"new":{"items":[]},"options":{"layouts":[{}]}}"#
        #expect(Fixtures.violations(of: withSchemaViolation).map(\.path) == ["old.items[0].id"])
    }

    /// An option of many bad values costs a counter, and repeated renderings cost a constant each.
    @Test func manyBadOptionValuesAreCountedNotListed() {
        let renderings = Array(repeating: #""staged""#, count: 20_000).joined(separator: ",")
        let json = #"{"old":{"items":[]},"new":{"items":[]},"options":{"renderings":[\#(renderings)]}}"#
        guard case .invalid(let violations, let omitted) = Fixtures.error(of: json) else {
            Issue.record("accepted")
            return
        }
        #expect(violations.count == DiffRequest.maximumViolationCount && violations.count + omitted == 19_999)
        #expect(violations.first?.path == "options.renderings[1]")
    }
}
