import PropertyBased
import SnapshotJSON
import Testing
import TestSupport

/// A random valid `/diff` body: items with numbers, literals, nested arrays and strings with escapes and
/// multi-byte UTF-8, and whitespace between tokens.
private func validBody(seed: UInt64) -> [UInt8] {
    var random = SplitMix(seed: seed)
    func space() -> String { ["", "", " ", "\n", "\t", "\r\n  "].randomElement(using: &random)! }
    func string() -> String {
        let pieces = ["a", "Zz", "é", "😀", "中", #"\n"#, #"\""#, #"\\"#, #"\/"#, #"\u00e9"#, #"\ud83d\ude00"#, " ", "x y"]
        return "\"" + (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined() + "\""
    }
    func scalar() -> String {
        [string(), "0", "-12", "3.5", "1e3", "-0.25E-2", "true", "false", "null", "[]", "[1,\(string())]", "{}"]
            .randomElement(using: &random)!
    }
    func item(_ id: Int) -> String {
        var members = [#""id"\#(space()):\#(space())\#(Bool.random(using: &random) ? String(id) : "\"i\(id)\"")"#]
        for name in ["t", "n", "é", "a"] where Bool.random(using: &random) {
            members.append("\"\(name)\"\(space()):\(space())\(scalar())")
        }
        return "{" + members.joined(separator: "," + space()) + "}"
    }
    func snapshot(_ range: Range<Int>) -> String {
        #"{"items":\#(space())[\#(range.map { space() + item($0) }.joined(separator: ","))\#(space())]}"#
    }
    let count = Int.random(in: 0...4, using: &random)
    return Array((space() + #"{"old":\#(snapshot(0..<count)),\#(space())"new":\#(snapshot(1..<count + 1))}"# + space()).utf8)
}

/// One corruption of a body; the property holds for any.
private enum Corruption: Int, CaseIterable {
    case truncate, replaceByte, insertByte, deleteByte, insertControlInString, insertEscapedControlInString,
         insertInvalidUTF8

    /// The bytes a replacement or insertion favours: those that change the structure, end or escape strings,
    /// are not allowed in strings, or are not UTF-8 on their own.
    static let telling: [UInt8] =
        Array(#"\#0"\[]{},:-0.eE+tfn/u "#.utf8) + [0x01, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xF0, 0xFF]

    static let invalidUTF8: [[UInt8]] = [
        [0xFF], [0xFE], [0x80], [0xC0, 0x80], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88],
    ]

    /// `body` corrupted at the position `fraction` (0...1 of the body) with `byte`.
    func apply(to body: [UInt8], at fraction: Double, byte: UInt8) -> [UInt8] {
        var result = body
        let position = min(body.count - 1, Int(Double(body.count) * fraction))
        // A position inside a string's contents (after an opening quote), for the string corruptions.
        var inString: Int {
            var inStrings: [Int] = []
            var inside = false
            var escaped = false
            for (index, byte) in body.enumerated() {
                if inside && !escaped { inStrings.append(index) }
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") && inside { escaped = true }
                else if byte == UInt8(ascii: "\"") { inside.toggle() }
            }
            return inStrings.isEmpty ? position : inStrings[min(inStrings.count - 1, Int(Double(inStrings.count) * fraction))]
        }
        switch self {
        case .truncate: result.removeSubrange(position...)
        case .replaceByte: result[position] = byte == body[position] ? byte ^ 0x20 : byte
        case .insertByte: result.insert(byte, at: position)
        case .deleteByte: result.remove(at: position)
        case .insertControlInString: result.insert(byte & 0x1F, at: inString)
        case .insertEscapedControlInString: result.insert(contentsOf: [UInt8(ascii: "\\"), byte & 0x1F], at: inString)
        case .insertInvalidUTF8: result.insert(contentsOf: Self.invalidUTF8[Int(byte) % Self.invalidUTF8.count], at: position)
        }
        return result
    }
}

/// Where a malformed body is reported (issue 14, item 6).
@Suite struct ErrorLocationPropertyTests {
    /// Checks that the error of `body`, if it is a syntax or UTF-8 error, lies inside the body and at or before
    /// the first byte that makes the body invalid (the end of the body when every byte could still continue).
    static func checkLocation(of body: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let firstInvalid = JSONPrefix.validLength(body)
        let offset: Int
        switch Fixtures.error(of: body) {
        case .malformedJSON(_, let byteOffset, _, _): offset = byteOffset
        case .invalidUTF8(let byteOffset): offset = byteOffset
        case let other:
            #expect(firstInvalid == body.count, "an invalid body gave \(String(describing: other))", sourceLocation: sourceLocation)
            return
        }
        #expect(offset >= 0 && offset <= body.count, "offset \(offset) outside a body of \(body.count) bytes", sourceLocation: sourceLocation)
        #expect(
            offset <= firstInvalid, "offset \(offset) after the first invalid byte \(firstInvalid) in \(Array(body.prefix(200)))",
            sourceLocation: sourceLocation)
    }

    @Test func validBodiesAreValidForTheReference() {
        for seed in 0..<200 as Range<UInt64> {
            let body = validBody(seed: seed)
            #expect(JSONPrefix.validLength(body) == body.count, "\(String(decoding: body, as: UTF8.self))")
            #expect(Fixtures.error(of: body) == nil, "\(String(decoding: body, as: UTF8.self))")
        }
    }

    /// Every kind of corruption, at a random position of a random valid body: truncation, a byte replaced,
    /// inserted or deleted (the byte drawn half of the time from ``Corruption/telling``), a control character
    /// in a string (raw or after a backslash), and invalid UTF-8.
    @Test func anyCorruptionIsReportedInsideTheBodyAtOrBeforeItsFirstInvalidByte() async {
        await propertyCheck(
            count: 5000, input: Gen.uint64(), Gen.int(in: 0...(Corruption.allCases.count - 1)), Gen.int(in: 0...1000),
            Gen.uint8(), Gen.int(in: 0...(2 * Corruption.telling.count - 1))
        ) { seed, kind, permille, random, choice in
            let byte = choice < Corruption.telling.count ? Corruption.telling[choice] : random
            let body = Corruption.allCases[kind].apply(to: validBody(seed: seed), at: Double(permille) / 1000, byte: byte)
            Self.checkLocation(of: body)
        }
    }

    /// The structure-changing corruptions at every position of a few bodies, with every telling byte.
    @Test func everyPositionOfSomeBodies() {
        for seed in 0..<12 as Range<UInt64> {
            let body = validBody(seed: seed)
            for position in body.indices {
                let fraction = (Double(position) + 0.5) / Double(body.count)
                for kind in [Corruption.truncate, .deleteByte] {
                    Self.checkLocation(of: kind.apply(to: body, at: fraction, byte: 0))
                }
                for byte in Corruption.telling {
                    Self.checkLocation(of: Corruption.replaceByte.apply(to: body, at: fraction, byte: byte))
                    Self.checkLocation(of: Corruption.insertByte.apply(to: body, at: fraction, byte: byte))
                }
            }
        }
    }

    /// The counter-example the first property test found (a byte replaced before a string): the `"` of
    /// `"old"` replaced by NUL. The first invalid byte is the NUL (5); the string scan of simdjson's error
    /// path, out of step with the quotes, pointed at the tab at 22.
    @Test func structureBrokenBeforeAString() {
        let body = Array("\r\n  {\u{0}old\":{\"items\": [\t]}, \"new\":{\"items\":\t[]}}".utf8)
        Self.checkLocation(of: body)
        #expect(Fixtures.error(of: body) == .malformedJSON(
            message: "expected a member name, ':', ',' or '}' in object", byteOffset: 5, line: 2, column: 4))
    }

    /// Every counter-example of the property found before the syntax scan followed the structure: the shortest
    /// of each corruption and byte among the 366 that replacing, inserting or deleting one byte at every
    /// position of 60 bodies gave. Each broke a string's quotes, so the quote-pairing string scan reported a
    /// later byte (the number after "was"). Now the first byte that makes the body invalid is reported, or the
    /// backslash of the escape it spoils.
    @Test(arguments: [
        (Array(#"{"old:{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 8),  // a byte deleted (was 19)
        (Array(#"{"ol"d":{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 5),  // inserted '"' (was 21)
        (Array(#"{"old":{"items":\#t[\#n{"id"\#n:\#r\#n  0,\#t"n"\#r\#n  :\#ntrue,\#t"é" :\#r\#n  true}]},"#.utf8)
            + Array(#""new":{"items":[ {"id"\#t:\#t"i1",\#t"t" :\#t"中\u00e9\/"","#.utf8)
            + Array(#"\#t"n":\#n-12,\#t"é":{},\#t"a"\#r\#n  :\#t[1,"aZz"]}\#t]}}\#n"#.utf8), 116),  // inserted '/' (was 118)
        (Array(#"{"old\":{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 10),  // inserted '\\' (was 21)
        (Array(#"{"old":{"items":\#t[\#n{"id"\#n:\#r\#n  0,\#t"n"\#r\#n  :\#ntrue,\#t"é" :\#r\#n  true}]},"#.utf8)
            + Array(#""new":{"items":[ {"id"\#t:\#t"i1",\#t"t" :\#t"中\u00e9\f"","#.utf8)
            + Array(#"\#t"n":\#n-12,\#t"é":{},\#t"a"\#r\#n  :\#t[1,"aZz"]}\#t]}}\#n"#.utf8), 116),  // inserted 'f' (was 118)
        (Array(#"{"old":{"items":\#t[\#n{"id"\#n:\#r\#n  0,\#t"n"\#r\#n  :\#ntrue,\#t"é" :\#r\#n  true}]},"#.utf8)
            + Array(#""new":{"items":[ {"id"\#t:\#t"i1",\#t"t" :\#t"中\u00e9\n"","#.utf8)
            + Array(#"\#t"n":\#n-12,\#t"é":{},\#t"a"\#r\#n  :\#t[1,"aZz"]}\#t]}}\#n"#.utf8), 116),  // inserted 'n' (was 118)
        (Array(#"{"old":{"items":\#t[\#n{"id"\#n:\#r\#n  0,\#t"n"\#r\#n  :\#ntrue,\#t"é" :\#r\#n  true}]},"#.utf8)
            + Array(#""new":{"items":[ {"id"\#t:\#t"i1",\#t"t" :\#t"中\u00e9\t"","#.utf8)
            + Array(#"\#t"n":\#n-12,\#t"é":{},\#t"a"\#r\#n  :\#t[1,"aZz"]}\#t]}}\#n"#.utf8), 116),  // inserted 't' (was 118)
        (Array(#"{"old":{"items":\#t[\#n{"id"\#n:\#r\#n  0,\#t"n"\#r\#n  :\#ntrue,\#t"é" :\#r\#n  true}]},"#.utf8)
            + Array(#""new":{"items":[ {"id"\#t:\#t"i1",\#t"t" :\#t"中\u00e9\u"","#.utf8)
            + Array(#"\#t"n":\#n-12,\#t"é":{},\#t"a"\#r\#n  :\#t[1,"aZz"]}\#t]}}\#n"#.utf8), 113),  // inserted 'u' (was 118; the escape's backslash)
        (Array(#"{\#u{0}old":{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 1),  // a byte replaced by 0x00 (was 20)
        (Array(#"{\#u{1}old":{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 1),  // a byte replaced by 0x01 (was 20)
        (Array(#"{"old":{\#titems":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by 0x09 (was 20)
        (Array(#"{"old":{\#nitems":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by 0x0A (was 20)
        (Array(#"{"old":{\#ritems":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by 0x0D (was 20)
        (Array(#"{\#u{1F}old":{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 1),  // a byte replaced by 0x1F (was 20)
        (Array(#"{"old :{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by ' ' (was 20)
        (Array(#"{"o"d":{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 4),  // a byte replaced by '"' (was 20)
        (Array(#"{"old+:{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by '+' (was 20)
        (Array(#"{"old,:{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by ',' (was 20)
        (Array(#"{"old-:{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by '-' (was 20)
        (Array(#"{"old.:{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by '.' (was 20)
        (Array(#"{"old/:{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by '/' (was 20)
        (Array(#"{"old0:{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by '0' (was 20)
        (Array(#"{"old::{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by ':' (was 20)
        (Array(#"{"oldE:{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by 'E' (was 20)
        (Array(#"{"old[:{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by '[' (was 20)
        (Array(#"{"ol\":{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by '\\' (was 20)
        (Array(#"{"old]:{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by ']' (was 20)
        (Array(#"{eold":{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 1),  // a byte replaced by 'e' (was 20)
        (Array(#"{fold":{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 1),  // a byte replaced by 'f' (was 20)
        (Array(#"{"oldn:{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by 'n' (was 20)
        (Array(#"{"oldt:{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by 't' (was 20)
        (Array(#"{"oldu:{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by 'u' (was 20)
        (Array(#"{"old{:{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by '{' (was 20)
        (Array(#"{"old}:{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by '}' (was 20)
        (Array(#"{"old\#u{7F}:{"items":[]},\#t"new":{"items":[]}}\#t"#.utf8), 9),  // a byte replaced by 0x7F (was 20)
    ] as [([UInt8], Int)])
    func counterExamples(_ body: [UInt8], offset: Int) {
        Self.checkLocation(of: body)
        switch Fixtures.error(of: body) {
        case .malformedJSON(_, let byteOffset, _, _): #expect(byteOffset == offset)
        case let other: Issue.record("expected malformedJSON, got \(String(describing: other))")
        }
    }

    /// The issue's two wrong locations, and the counter-examples of the first property test.
    @Test(arguments: [
        Array(#"{"old":{"items":[{"id":1,"t":"a\"#.utf8) + [0x09] + Array(#"b"}]},"new":{"items":[]}}"#.utf8),
        Array(#"{"old":{"items":[{"id":1,"t":"a\"#.utf8) + [0x09] + Array(#"b"}]},"new":{"items":[]}}"#.utf8)
            + Array(repeating: UInt8(ascii: " "), count: 900_000),
        [0xFF, 0xFE] + Array(#"[""#.utf8).flatMap { [$0, 0] } + Array("old".utf8).flatMap { [$0, 0] },
    ] as [[UInt8]])
    func pinnedBodies(_ body: [UInt8]) {
        Self.checkLocation(of: body)
    }

    @Test func backslashBeforeAControlCharacterIsAnInvalidEscapeAtTheBackslash() {
        let body = Array(#"{"old":{"items":[{"id":1,"t":"a\"#.utf8) + [0x09] + Array(#"b"}]},"new":{"items":[]}}"#.utf8)
        #expect(Fixtures.error(of: body) == .malformedJSON(message: "invalid escape sequence", byteOffset: 31, line: 1, column: 32))
    }

    /// simdjson checks the UTF-8 of the whole body before its structure: a syntax error before the first invalid
    /// UTF-8 is reported (was the invalid UTF-8, after the first invalid byte).
    @Test func syntaxErrorBeforeInvalidUTF8WinsOverIt() {
        #expect(Fixtures.error(of: Array(#"{x"#.utf8) + [0xFF] + Array("}".utf8)) == .malformedJSON(
            message: "expected a member name, ':', ',' or '}' in object", byteOffset: 1, line: 1, column: 2))
        #expect(Fixtures.error(of: Array(#"{"old":[1 2,""#.utf8) + [0xC3]) == .malformedJSON(
            message: "expected a value, ',' or ']' in array", byteOffset: 10, line: 1, column: 11))
    }

    /// A string error after nesting too deep is found by simdjson's first stage, before its walk meets the
    /// depth: the bracket that opens the first level too many is reported, as without the string error.
    @Test func nestingTooDeepBeforeAStringErrorIsTooDeep() {
        let body = Array((String(repeating: "[", count: 200) + "\"a\u{1}").utf8)
        #expect(Fixtures.error(of: body) == .tooDeep(limit: 128, byteOffset: 128))
    }

    @Test func utf16BodyIsInvalidUTF8AtItsFirstByte() {
        let body: [UInt8] = [0xFF, 0xFE] + Array(#"["old"]"#.utf8).flatMap { [$0, 0] }
        #expect(Fixtures.error(of: body) == .invalidUTF8(byteOffset: 0))
    }
}

