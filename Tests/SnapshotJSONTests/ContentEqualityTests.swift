import SnapshotJSON
import Testing

@Suite struct ContentEqualityTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let lhs: String
        let rhs: String
        let equal: Bool
        var testDescription: String { "\(lhs) \(equal ? "==" : "!=") \(rhs)" }
    }

    static let numbers: [Case] = [
        Case(lhs: #""n":1"#, rhs: #""n":1.0"#, equal: true),
        Case(lhs: #""n":1"#, rhs: #""n":1e0"#, equal: true),
        Case(lhs: #""n":1"#, rhs: #""n":10e-1"#, equal: true),
        Case(lhs: #""n":1"#, rhs: #""n":0.1e1"#, equal: true),
        Case(lhs: #""n":1"#, rhs: #""n":1.000E+0"#, equal: true),
        Case(lhs: #""n":100"#, rhs: #""n":1e2"#, equal: true),
        Case(lhs: #""n":1.5"#, rhs: #""n":15e-1"#, equal: true),
        Case(lhs: #""n":0.001"#, rhs: #""n":1e-3"#, equal: true),
        Case(lhs: #""n":10.50"#, rhs: #""n":1.05e1"#, equal: true),
        Case(lhs: #""n":-0"#, rhs: #""n":0"#, equal: true),
        Case(lhs: #""n":-0.0e7"#, rhs: #""n":0e-3"#, equal: true),
        Case(lhs: #""n":-2.5"#, rhs: #""n":-25e-1"#, equal: true),
        Case(lhs: #""n":123456789012345678901234567890"#, rhs: #""n":1.2345678901234567890123456789e29"#, equal: true),
        Case(lhs: #""n":9007199254740993"#, rhs: #""n":9007199254740992"#, equal: false),
        Case(lhs: #""n":0.1"#, rhs: #""n":0.10000000000000001"#, equal: false),
        Case(lhs: #""n":1"#, rhs: #""n":-1"#, equal: false),
        Case(lhs: #""n":1"#, rhs: #""n":10"#, equal: false),
        // Plain integers compared by their text alone: one spelling each, but for -0.
        Case(lhs: #""n":10"#, rhs: #""n":-0"#, equal: false),
        Case(lhs: #""n":-0"#, rhs: #""n":-1"#, equal: false),
        Case(lhs: #""n":0"#, rhs: #""n":-0"#, equal: true),
        Case(lhs: #""n":-10"#, rhs: #""n":-1"#, equal: false),
        Case(lhs: #""n":1e1000000000"#, rhs: #""n":10e999999999"#, equal: true),
        Case(lhs: #""n":1e-1000000000"#, rhs: #""n":1e1000000000"#, equal: false),
    ]

    static let structure: [Case] = [
        Case(lhs: #""a":1,"b":2"#, rhs: #""b":2,"a":1"#, equal: true),
        Case(lhs: #""x":{"p":1,"q":[1,{"r":null,"s":true}]}"#, rhs: #""x":{"q":[1.0,{"s":true,"r":null}],"p":1}"#, equal: true),
        Case(lhs: #""a":[1,2]"#, rhs: #""a":[2,1]"#, equal: false),
        Case(lhs: #""a":[[1],[]]"#, rhs: #""a":[[],[1]]"#, equal: false),
        Case(lhs: #""a":[]"#, rhs: #""a":{}"#, equal: false),
        Case(lhs: #""a":null"#, rhs: "", equal: false),
        Case(lhs: #""a":null"#, rhs: #""a":false"#, equal: false),
        Case(lhs: #""a":"1""#, rhs: #""a":1"#, equal: false),
        Case(lhs: #""a":"""#, rhs: #""a":null"#, equal: false),
        Case(lhs: #""ab":"c""#, rhs: #""a":"bc""#, equal: false),
        Case(lhs: #""a":["b","c"]"#, rhs: #""a":["bc"]"#, equal: false),
        Case(lhs: #""a":[1],"b":[]"#, rhs: #""a":[],"b":[1]"#, equal: false),
        Case(lhs: #""a":{"b":1}"#, rhs: #""a":{"b":1,"c":1}"#, equal: false),
        Case(lhs: #""b":1,"a":{"d":1,"c":2},"ab":0"#, rhs: #""ab":0,"a":{"c":2,"d":1},"b":1"#, equal: true),
        Case(lhs: "", rhs: "", equal: true),
        // A member named "" is content like any other, at any depth (only the item's own "id" is skipped).
        Case(lhs: #""a":{"":null,"b":1}"#, rhs: #""a":{"":false,"b":1}"#, equal: false),
        Case(lhs: #""":1"#, rhs: #""":2"#, equal: false),
    ]

    static let strings: [Case] = [
        Case(lhs: #""s":"\u00e9""#, rhs: #""s":"é""#, equal: true),
        Case(lhs: #""s":"\u00e9""#, rhs: #""s":"e\u0301""#, equal: false),
        Case(lhs: "\"s\":\"\u{e9}\"", rhs: "\"s\":\"e\u{301}\"", equal: false),  // both literal
        Case(lhs: #""s":"e\u0301""#, rhs: "\"s\":\"e\u{301}\"", equal: true),
        Case(lhs: #""s":"\ud83d\ude00""#, rhs: #""s":"😀""#, equal: true),
        Case(lhs: #""s":"\n\t\"\\\/""#, rhs: #""s":"\u000a\u0009\u0022\u005c/""#, equal: true),
        Case(lhs: #""s":"a\u0000b""#, rhs: #""s":"a""#, equal: false),
        Case(lhs: #""\u0061":1"#, rhs: #""a":1"#, equal: true),
        Case(lhs: #""s":"A""#, rhs: #""s":"a""#, equal: false),
    ]

    @Test(arguments: numbers + structure + strings)
    func comparesContent(_ testCase: Case) throws {
        let (lhs, rhs) = try Fixtures.contents(testCase.lhs, testCase.rhs)
        #expect((lhs == rhs) == testCase.equal)
        #expect((rhs == lhs) == testCase.equal)
        if testCase.equal {
            #expect(lhs.contentHash == rhs.contentHash)
            #expect(lhs.canonicalBytes == rhs.canonicalBytes)
        } else {
            #expect(lhs.canonicalBytes != rhs.canonicalBytes)
        }
    }

    @Test func idIsNotContent() throws {
        let request = try Fixtures.request(oldItems: #"{"id":1,"x":1},{"x":1,"id":"b"}"#, newItems: #"{"id":2,"x":1.0}"#)
        let contents = request.old.sections[0].items.map(\.content) + request.new.sections[0].items.map(\.content)
        #expect(Set(contents).count == 1)
    }

    @Test func sectionContentExcludesIDAndItems() throws {
        let request = try parseDiffRequest(Fixtures.body(#"""
            {"old":{"sections":[{"id":"a","title":"News","items":[{"id":1}]},{"id":"b","items":[]}]},
             "new":{"sections":[{"items":[],"title":"News","id":"z"},{"id":"b","items":[],"title":"x"}]}}
            """#))
        #expect(request.old.sections[0].content == request.new.sections[0].content)
        #expect(request.old.sections[1].content != request.new.sections[1].content)
    }

    /// `/diff` items keep their raw text (equal texts are equal at once; texts that differ are canonicalised),
    /// sections' contents are canonical: the same content is equal, and hashes alike, either way.
    @Test func rawAndCanonicalKeysAgree() throws {
        let members = [#""v":1,"w":[true,null,"é"]"#, #" "w" : [ true , null , "\u00e9" ] , "v" : 1.0 "#, #""v":2"#]
        let items = members.enumerated().map { #"{"id":\#($0.offset),\#($0.element)}"# }.joined(separator: ",")
        let raw = try Fixtures.request(oldItems: items, newItems: items).old.sections[0].items.map(\.content)
        let again = try Fixtures.request(oldItems: items, newItems: "").old.sections[0].items.map(\.content)
        let sections = members.enumerated().map { #"{"id":\#($0.offset),"items":[],\#($0.element)}"# }.joined(separator: ",")
        let canonical = try parseDiffRequest(Fixtures.body(#"{"old":{"sections":[\#(sections)]},"new":{"items":[]}}"#))
            .old.sections.map(\.content)
        for (index, key) in raw.enumerated() {
            #expect(key == again[index] && key == canonical[index] && canonical[index] == key)
            #expect(key.contentHash == canonical[index].contentHash)
            #expect(key.canonicalBytes == canonical[index].canonicalBytes)
        }
        #expect(raw[0] == raw[1] && raw[1] == canonical[0] && raw[0] != raw[2] && canonical[2] != raw[1])
    }

    @Test func keysOfOneRequestAreHashable() throws {
        let items = (0 ..< 50).map { #"{"id":\#($0),"v":\#($0 % 5)}"# }.joined(separator: ",")
        let request = try Fixtures.request(oldItems: items, newItems: "")
        #expect(Set(request.old.sections[0].items.map(\.content)).count == 5)
    }
}
