import SnapshotJSON
import Testing

@Suite struct OptionsTests {
    @Test func defaultsWhenAbsent() throws {
        let request = try Fixtures.request(oldItems: "", newItems: "")
        #expect(request.options == DiffOptions())
        #expect(request.options.renderings == [.staged])
        #expect(request.options.duplicates == .reject)
        #expect(request.options.pretty == false)
    }

    @Test func readsEveryOption() throws {
        let request = try Fixtures.request(oldItems: "", newItems: "",
                                           options: #"{"pretty":true,"renderings":["sequential","staged"],"duplicates":"keepFirst"}"#)
        #expect(request.options == DiffOptions(renderings: [.sequential, .staged], duplicates: .keepFirst, pretty: true))
        #expect(try Fixtures.request(oldItems: "", newItems: "", options: "{}").options == DiffOptions())
    }

    @Test(arguments: [
        (#"[]"#, [Violation(path: "options", message: "expected object, found array")]),
        (#"{"renderings":[],"duplicates":"keepLast","pretty":"yes","layout":1}"#, [
            Violation(path: "options.duplicates", message: #"expected "reject" or "keepFirst", found "keepLast""#),
            Violation(path: "options.layout", message: #"unknown option; expected "renderings", "duplicates", "pretty" or "layouts""#),
            Violation(path: "options.pretty", message: "expected boolean, found string"),
            Violation(path: "options.renderings", message: "expected at least one rendering"),
        ]),
        (#"{"renderings":["staged","staged"]}"#,
         [Violation(path: "options.renderings[1]", message: #"duplicate rendering "staged""#)]),
        (#"{"renderings":["staged",1]}"#,
         [Violation(path: "options.renderings[1]", message: #"expected "staged" or "sequential", found number"#)]),
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
}
