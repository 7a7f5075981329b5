import SnapshotJSON
import Testing

@Suite struct SchemaViolationTests {
    @Test func collectsEveryViolationInDocumentOrder() {
        let json = #"""
            {"old":{"sections":[{"id":1.5,"items":[{"id":{}},{"x":1},{"id":"a","t":1,"t":2}]},{"items":[]}]},
             "new":{"items":{}},"optoins":{}}
            """#
        let at = { (marker: String) in Fixtures.offset(of: marker, in: json) }
        #expect(Fixtures.violations(of: json) == [
            Violation(path: "old.sections[0].id", message: "expected string or integer, found number with a fraction or an exponent", byteOffset: at("1.5")),
            Violation(path: "old.sections[0].items[0].id", message: "expected string or integer, found object", byteOffset: at("{}")),
            Violation(path: "old.sections[0].items[1].id", message: "missing required member"),
            Violation(path: "old.sections[0].items[2].t", message: "duplicate member name", byteOffset: at(#""t":2"#)),
            Violation(path: "old.sections[1].id", message: "missing required member"),
            Violation(path: "new.items", message: "expected array, found object", byteOffset: at(#"{}},"optoins""#) ),
            Violation(path: "optoins", message: #"unknown member; expected "old", "new" or "options""#, byteOffset: at(#""optoins""#)),
        ])
    }

    @Test func capsTheNumberOfViolations() {
        let items = (0 ..< 150).map { _ in #"{"id":null}"# }.joined(separator: ",")
        let violations = Fixtures.violations(of: #"{"old":{"items":[\#(items)]},"new":{"items":[]}}"#)
        #expect(violations.count == DiffRequest.maximumViolationCount)
        #expect(violations.last?.path == "old.items[99].id")
    }

    /// A section's content that repeats names more often than violations are listed: the first ones listed in
    /// document order, whether the members were sorted or not, and every other one counted.
    @Test(arguments: [false, true])
    func listsTheFirstRepeatedNamesOfAContentAndCountsTheRest(sorted: Bool) {
        // Each name three times: in name order ("m00" three times, then "m01" …), or not (m49 … m0, three times).
        let names = (0 ..< 150).map { sorted ? "m" + ($0 / 3 < 10 ? "0" : "") + "\($0 / 3)" : "m\(49 - $0 % 50)" }
        let members = names.enumerated().map { #""\#($1)":\#($0)"# }.joined(separator: ",")
        let json = #"{"old":{"sections":[{"id":1,"items":[],\#(members)}]},"new":{"items":[]}}"#
        guard case .invalid(let violations, let omitted) = Fixtures.error(of: json) else {
            Issue.record("expected a 422")
            return
        }
        #expect(violations.count == 100 && omitted == 0)
        let repeated = names.indices.filter { names[..<$0].contains(names[$0]) }
        #expect(violations.map(\.path) == repeated.map { "old.sections[0].\(names[$0])" })
        #expect(violations.map { $0.byteOffset! } == violations.map { $0.byteOffset! }.sorted())
        let more = (0 ..< 300).map { #""a":\#($0)"# }.joined(separator: ",")
        guard case .invalid(let listed, let counted) = Fixtures.error(
            of: #"{"old":{"sections":[{"id":1,"items":[],"b":0,\#(more)}]},"new":{"items":[]}}"#)
        else {
            Issue.record("expected a 422")
            return
        }
        #expect(listed.count == DiffRequest.maximumViolationCount && counted == 299 - listed.count)
    }

    @Test(arguments: [
        (#"[1]"#, "array"), (#""x""#, "string"), (#"42"#, "number"), (#"null"#, "null"), (#"true"#, "boolean"),
    ])
    func requiresAnObject(_ json: String, _ found: String) {
        #expect(Fixtures.violations(of: json) == [Violation(path: "", message: "expected object, found \(found)", byteOffset: 0)])
    }

    @Test(arguments: [
        (#"{}"#, [Violation(path: "old", message: "missing required member"), Violation(path: "new", message: "missing required member")]),
        (#"{"old":{"sections":[],"items":[]},"new":{"items":[]}}"#,
         [Violation(path: "old", message: #"has both "sections" and "items"; expected one of them"#, byteOffset: 7)]),
        (#"{"old":{},"new":{"items":[]}}"#, [Violation(path: "old.sections", message: "missing required member")]),
        (#"{"old":{"items":[],"extra":1},"new":{"items":[]}}"#,
         [Violation(path: "old.extra", message: #"unknown member; expected "sections" or "items""#, byteOffset: 19)]),
        (#"{"old":{"items":[]},"old":{"items":[]},"new":{"items":[]}}"#,
         [Violation(path: "old", message: "duplicate member name", byteOffset: 20)]),
        (#"{"old":{"items":[{"id":1,"id":2}]},"new":{"items":[]}}"#,
         [Violation(path: "old.items[0].id", message: "duplicate member name", byteOffset: 25)]),
        (#"{"old":{"items":[{"id":1,"x":{"a":1,"a":1}}]},"new":{"items":[]}}"#,
         [Violation(path: "old.items[0].x.a", message: "duplicate member name", byteOffset: 36)]),
        (#"{"old":{"items":[{"id":1,"a b":{"c":1,"c":2}}]},"new":{"items":[]}}"#,
         [Violation(path: #"old.items[0]["a b"].c"#, message: "duplicate member name", byteOffset: 38)]),
        (#"{"old":{"items":[{"id":1,"n":[0,1e1000000001]}]},"new":{"items":[]}}"#,
         [Violation(path: "old.items[0].n[1]", message: "number exponent out of range (limit ±1000000000)", byteOffset: 32)]),
        (#"{"old":{"sections":[{"id":"s","items":[],"items":[]}]},"new":{"items":[]}}"#,
         [Violation(path: "old.sections[0].items", message: "duplicate member name", byteOffset: 41)]),
        // A repeated name "" ends the path like any other.
        (#"{"old":{"sections":[{"id":1,"items":[],"":1,"":2}]},"new":{"items":[]}}"#,
         [Violation(path: #"old.sections[0][""]"#, message: "duplicate member name", byteOffset: 44)]),
        (#"{"old":{"items":[{"id":1,"":1,"":2}]},"new":{"items":[]}}"#,
         [Violation(path: #"old.items[0][""]"#, message: "duplicate member name", byteOffset: 30)]),
        (#"{"old":{"sections":[{"id":1,"items":[],"x":{"":1,"":2}}]},"new":{"items":[]}}"#,
         [Violation(path: #"old.sections[0].x[""]"#, message: "duplicate member name", byteOffset: 49)]),
        (#"{"old":{"sections":[{"id":"s"}]},"new":{"items":[7]}}"#,
         [Violation(path: "old.sections[0].items", message: "missing required member"),
          Violation(path: "new.items[0]", message: "expected object, found number", byteOffset: 49)]),
        (#"{"old":{"sections":{}},"new":[]}"#,
         [Violation(path: "old.sections", message: "expected array, found object", byteOffset: 19),
          Violation(path: "new", message: "expected object, found array", byteOffset: 29)]),
    ] as [(String, [Violation])])
    func reportsPathAndMessage(_ json: String, _ expected: [Violation]) {
        #expect(Fixtures.violations(of: json) == expected)
    }

    /// A name met a third time is reported again, each repetition at its own place, in document order — in
    /// items (validated without encoding), in sections and options (encoded), and in objects of any size.
    @Test func reportsEveryRepeatedNameInDocumentOrder() {
        let wide = (0 ..< 40).map { #""k\#($0)":0"# }.joined(separator: ",")
        let containers: [((String) -> String, String)] = [
            ({ #"{"old":{"items":[{"id":1,"o":\#($0)}]},"new":{"items":[]}}"# }, "old.items[0].o"),
            ({ #"{"old":{"sections":[{"id":1,"items":[],"o":\#($0)}]},"new":{"items":[]}}"# }, "old.sections[0].o"),
            ({ #"{"old":{"items":[]},"new":{"items":[]},"options":{"layouts":[\#($0)]}}"# }, "options.layouts[0]"),
        ]
        // A section's own members: its content, whose repeated names the encoder finds as it sorts them.
        let sectionMembers: (String) -> String = { object in
            #"{"old":{"sections":[{"id":1,"items":[],\#(object.dropFirst().dropLast())}]},"new":{"items":[]}}"#
        }
        for (container, prefix) in containers + [(sectionMembers, "old.sections[0]")] {
            for object in [#"{"b":1,"a":1,"b":2,"a":2,"b":3}"#, #"{\#(wide),"b":1,"a":1,"b":2,"a":2,"b":3}"#] {
                let json = container(object)
                let at = { (marker: String) in Fixtures.offset(of: marker, in: json) }
                let repeated = Fixtures.violations(of: json).filter { $0.message == "duplicate member name" }
                #expect(repeated == [
                    Violation(path: "\(prefix).a", message: "duplicate member name", byteOffset: at(#""a":2"#)),
                    Violation(path: "\(prefix).b", message: "duplicate member name", byteOffset: at(#""b":2"#)),
                    Violation(path: "\(prefix).b", message: "duplicate member name", byteOffset: at(#""b":3"#)),
                ].sorted { $0.byteOffset! < $1.byteOffset! }, "\(json)")
            }
        }
    }

    @Test func acceptsExponentAtTheLimitAndLongDigitStrings() throws {
        let (lhs, rhs) = try Fixtures.contents(#""n":1\#(String(repeating: "0", count: 5000))"#, #""n":1e5000"#)
        #expect(lhs == rhs)
        _ = try Fixtures.contents(#""n":1e-1000000000"#, #""n":-1E+1000000000"#)
    }
}
