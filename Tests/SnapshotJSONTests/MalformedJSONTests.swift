import SnapshotJSON
import Testing

@Suite struct MalformedJSONTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let json: String
        /// The error is at the first occurrence of this text (at the end of the body when empty).
        let marker: String
        let message: String
        var testDescription: String { json }
    }

    static let cases: [Case] = [
        Case(json: #"{"old": tru}"#, marker: "tru", message: "invalid literal; expected true, false or null"),
        Case(json: #"{"old": nul}"#, marker: "nul", message: "invalid literal; expected true, false or null"),
        Case(json: #"{"old": [truex]}"#, marker: "truex", message: "invalid literal; expected true, false or null"),
        Case(json: #"{"old" 1}"#, marker: "1", message: "expected a member name, ':', ',' or '}' in object"),
        Case(json: #"{"old":{"a":1,}}"#, marker: "}}", message: "expected a member name, ':', ',' or '}' in object"),
        Case(json: #"{"old":{"a":1 "b":2}}"#, marker: #""b""#, message: "expected a member name, ':', ',' or '}' in object"),
        Case(json: #"{"old":{7:2}}"#, marker: "7", message: "expected a member name, ':', ',' or '}' in object"),
        Case(json: #"{"old":[1,]}"#, marker: "]", message: "expected a JSON value"),
        Case(json: #"{"old":[1 2]}"#, marker: "2", message: "expected a value, ',' or ']' in array"),
        Case(json: #"{"old":[true false]}"#, marker: "false", message: "expected a value, ',' or ']' in array"),
        Case(json: #"{"old":01}"#, marker: "1}", message: "invalid number"),
        Case(json: #"{"old":1.}"#, marker: "}", message: "invalid number"),
        Case(json: #"{"old":-}"#, marker: "}", message: "invalid number"),
        Case(json: #"{"old":1e}"#, marker: "}", message: "invalid number"),
        Case(json: #"{"old":1e+}"#, marker: "}", message: "invalid number"),
        Case(json: #"{"old":-a}"#, marker: "a}", message: "invalid number"),
        Case(json: #"{"old":12a}"#, marker: "a}", message: "invalid number"),
        Case(json: #"{"old":"a\x"}"#, marker: #"\x"#, message: "invalid escape sequence"),
        Case(json: #"{"old":"\ud800"}"#, marker: #"\ud800"#, message: "unpaired UTF-16 surrogate escape"),
        Case(json: #"{"old":"\ud800\u0041"}"#, marker: #"\ud800"#, message: "unpaired UTF-16 surrogate escape"),
        Case(json: #"{"old":"ok\udc00x"}"#, marker: #"\udc00"#, message: "unpaired UTF-16 surrogate escape"),
        Case(json: #"{"old":"\u12G4"}"#, marker: #"\u12"#, message: #"invalid \u escape: expected four hexadecimal digits"#),
        Case(json: #"{"o\qld":1}"#, marker: #"\q"#, message: "invalid escape sequence"),
        Case(json: #"{"old":"abc"#, marker: #""abc"#, message: "unterminated string"),
        Case(json: "{\"old\":\"a\tb\"}", marker: "\t", message: "unescaped control character U+0009 in string"),
        Case(json: "{\"old\":\"a\u{1}b\"}", marker: "\u{1}", message: "unescaped control character U+0001 in string"),
        Case(json: #"{"old":{"items":[]},"new":{"items":[]}} x"#, marker: "x", message: "unexpected content after the JSON document"),
        Case(json: #"{"old":1}]"#, marker: "]", message: "unexpected content after the JSON document"),
        Case(json: #"{"old":1} ["#, marker: "[", message: "unexpected content after the JSON document"),
        Case(json: #"{"old":[1,2"#, marker: "", message: "unexpected end of input"),
        Case(json: #"{"old":{"a":"#, marker: "", message: "unexpected end of input"),
        Case(json: #"{"old":"#, marker: "", message: "unexpected end of input"),
        Case(json: #"{"old":{"a":[1,2}}"#, marker: "}}", message: "expected a value, ',' or ']' in array"),
        Case(json: #"[1,2]}"#, marker: "}", message: "unexpected content after the JSON document"),
        Case(json: #""abc" 1"#, marker: "1", message: "unexpected content after the JSON document"),
        Case(json: #"nulx"#, marker: "nulx", message: "invalid literal; expected true, false or null"),
        Case(json: "nulll\n", marker: "nulll", message: "invalid literal; expected true, false or null"),
        Case(json: "null x", marker: "x", message: "unexpected content after the JSON document"),
        Case(json: #"{"old":.5}"#, marker: ".5", message: "expected a JSON value"),
    ]

    @Test(arguments: cases)
    func reportsPosition(_ testCase: Case) {
        // An empty marker stands for the end of the body.
        let offset = testCase.marker.isEmpty ? testCase.json.utf8.count : Fixtures.offset(of: testCase.marker, in: testCase.json)
        guard case .malformedJSON(let message, let byteOffset, let line, let column) = Fixtures.error(of: testCase.json) else {
            Issue.record("expected malformedJSON, got \(String(describing: Fixtures.error(of: testCase.json)))")
            return
        }
        #expect(message == testCase.message)
        #expect(byteOffset == offset)
        #expect(line == 1)
        #expect(column == offset + 1)
    }

    @Test func reportsTruncatedUTF8AtTheEndAsAnUnterminatedString() {
        #expect(Fixtures.error(of: Array(#"{"old":"a"#.utf8) + [0xE2, 0x82]) == .malformedJSON(
            message: "unterminated string", byteOffset: 7, line: 1, column: 8))
    }

    @Test func countsLinesAndColumnsInScalars() {
        #expect(Fixtures.error(of: "{\n  \"old\": [1,\n   ,2]\n}") == .malformedJSON(
            message: "expected a JSON value", byteOffset: 18, line: 3, column: 4))
        #expect(Fixtures.error(of: #"{"é😀":tru}"#) == .malformedJSON(
            message: "invalid literal; expected true, false or null", byteOffset: 10, line: 1, column: 7))
    }

    /// A root scalar followed by whitespace is valid JSON, and only the schema refuses it (simdjson 3.0.1
    /// refused `null\n` as an invalid literal).
    @Test(arguments: ["null", "null\n", " null \r\n\t", "true\n", "1\n", "\"x\"\n"])
    func rootScalarsFollowedByWhitespaceAreValidJSON(_ json: String) {
        guard case .invalid(let violations, _) = Fixtures.error(of: json) else {
            Issue.record("\(json.debugDescription): \(String(describing: Fixtures.error(of: json)))")
            return
        }
        #expect(violations.map(\.path) == [""])  // the root
    }

    @Test(arguments: ["", " ", "   \n\t\r\n "])
    func rejectsEmptyBody(_ json: String) {
        #expect(Fixtures.error(of: json) == .emptyBody)
    }

    @Test(arguments: [
        (prefix: #"{"old":"a"#, bad: [0xFF] as [UInt8], suffix: #"b"}"#),
        (prefix: #"{"old":"a"#, bad: [0xC0, 0x80], suffix: #""}"#),           // overlong NUL
        (prefix: #"{"old":"a"#, bad: [0xED, 0xA0, 0x80], suffix: #""}"#),     // encoded surrogate
        (prefix: #"{"old":"a"#, bad: [0xF4, 0x90, 0x80, 0x80], suffix: #""}"#), // above U+10FFFF
        (prefix: #"{"old":"a"#, bad: [0xE2, 0x82], suffix: #""}"#),           // truncated sequence
        (prefix: #"{"old":1"#, bad: [0xC3], suffix: "}"),                      // outside strings
        (prefix: #"{"ol"#, bad: [0x80], suffix: #"d":1}"#),                    // in a member name
    ])
    func locatesInvalidUTF8(prefix: String, bad: [UInt8], suffix: String) {
        let body = Array(prefix.utf8) + bad + Array(suffix.utf8)
        #expect(Fixtures.error(of: body) == .invalidUTF8(byteOffset: prefix.utf8.count))
    }

    @Test func rejectsNestingBeyondTheLimit() {
        // The item is level 6 and its first member's value level 7: 122 arrays reach level 128.
        func body(arrays: Int) -> String {
            let nested = String(repeating: "[", count: arrays) + String(repeating: "]", count: arrays)
            return #"{"old":{"sections":[{"id":1,"items":[{"id":1,"x":\#(nested)}]}]},"new":{"items":[]}}"#
        }
        #expect(Fixtures.error(of: body(arrays: 122)) == nil)
        let tooDeep = body(arrays: 123)
        #expect(Fixtures.error(of: tooDeep) == .tooDeep(limit: 128, byteOffset: Fixtures.offset(of: "[[", in: tooDeep) + 122))
        #expect(DiffRequest.maximumNestingDepth == 128)
    }

    @Test func rejectsDeepNestingWithoutRecursingFurther() {
        let body = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(Fixtures.error(of: body) == .tooDeep(limit: 128, byteOffset: 128))
        let objects = String(repeating: #"{"a":"#, count: 50_000)
        #expect(Fixtures.error(of: objects) == .tooDeep(limit: 128, byteOffset: 128 * 5))
    }

    @Test func syntaxErrorsWinOverViolations() {
        #expect(Fixtures.error(of: #"{"bogus":1,"old":[01]}"#) == .malformedJSON(
            message: "invalid number", byteOffset: 19, line: 1, column: 20))
    }
}
