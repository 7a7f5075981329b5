@testable import SnapshotJSON
import Testing
import TestSupport

/// A reader of the cursor's walk reads strings and member names with and without escapes, at every place of
/// documents small and large (over 4 MiB, whose structural index the walk frees as it ends), back exactly, each
/// value at its byte offset.
@Suite struct ReaderStringsPropertyTests {
    /// A value as generated.
    indirect enum Value: Equatable {
        case null, boolean(Bool), string(String), integer(Int)
        case array([Value])
        case object([Member])

        static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.null, .null): true
            case let (.boolean(a), .boolean(b)): a == b
            case let (.string(a), .string(b)): Array(a.utf8) == Array(b.utf8)
            case let (.integer(a), .integer(b)): a == b
            case let (.array(a), .array(b)): a == b
            case let (.object(a), .object(b)):
                a.count == b.count && zip(a, b).allSatisfy { Array($0.name.utf8) == Array($1.name.utf8) && $0.value == $1.value }
            default: false
            }
        }
    }

    struct Member {
        var name: String
        var value: Value
    }

    /// What the writer made: the text, and the byte offset of every value (not names) in document order.
    struct Written {
        var bytes: [UInt8] = []
        var offsets: [Int] = []
        /// Strings and names written with at least one backslash.
        var escapedCount = 0
    }

    @Test(arguments: 0 ..< 300)
    func stringsAndNamesWithAndWithoutEscapesReadBack(seed: UInt64) throws {
        var random = SplitMix(seed: seed &* 0x2545_F491 &+ 3)
        // How often a string that needs no escape is written with some anyway: never, rarely, half, always.
        let escapeRate = [0.0, 0.05, 0.5, 1.0][Int(seed % 4)]
        // Every tenth document is large.
        let width = seed % 10 == 9 ? 6_000 : Int.random(in: 1 ... 12, using: &random)
        let root = Value.object([Member(name: "items", value: .array((0 ..< width).map { _ in Self.item(&random) }))]
                                + (0 ..< Int.random(in: 0 ... 3, using: &random)).map { index in
                                    Member(name: "x\(index)" + Self.text(&random), value: Self.item(&random))
                                })
        var written = Written()
        Self.write(root, into: &written, escapeRate: escapeRate, &random)
        var offsets: [Int] = []
        let reading = try RequestReader.read(written.bytes) { Self.read($0, offsets: &offsets) }
        #expect(reading.rules.violations.isEmpty, "seed \(seed)")
        #expect(reading.value == root, "seed \(seed)")
        #expect(offsets == written.offsets, "seed \(seed)")
    }

    /// Strings far longer than a node's other numbers, with escapes or without, next to empty ones.
    @Test(arguments: [0, 1, 2, 200, 70_000])
    func longAndEmptyStrings(length: Int) throws {
        let plain = String(repeating: "ab", count: length / 2)
        let body = #"{"items":[],"p\#(plain)":"\#(plain)","":"","e\n":"\#(plain)\t","\#(plain)\"":["\#(plain)\\",""]}"#
        var offsets: [Int] = []
        let value = try RequestReader.read(Array(body.utf8)) { Self.read($0, offsets: &offsets) }.value
        #expect(value == .object([
            Member(name: "items", value: .array([])), Member(name: "p" + plain, value: .string(plain)),
            Member(name: "", value: .string("")), Member(name: "e\n", value: .string(plain + "\t")),
            Member(name: plain + "\"", value: .array([.string(plain + "\\"), .string("")])),
        ]))
    }

    /// A document that is one scalar is validated to its end at once: a reader sees its kind (what a request
    /// reports of it) and nothing more.
    @Test func scalarRoots() throws {
        func kind(_ text: String) throws -> JSONReader.Kind {
            try RequestReader.read(Array(text.utf8)) { $0.kind }.value
        }
        #expect(try kind(#""plain""#) == .string)
        #expect(try kind(#"  "a\nb\u00e9" "#) == .string)
        #expect(try kind(#""""#) == .string)
        #expect(try kind("-12 ") == .number)
        #expect(try kind("0") == .number)
        #expect(try kind(" true") == .boolean)
        #expect(try kind("false") == .boolean)
        #expect(try kind(" null") == .null)
        // simdjson 3.0.1 refuses a root null followed by whitespace; the walk reads its token instead.
        #expect(try kind("null\n") == .null)
        #expect(try kind("null \r\n\t") == .null)
        #expect(throws: RequestError.self) { try kind(#""a\x""#) }
        #expect(throws: RequestError.self) { try kind("0 1") }
    }

    // MARK: Generating

    private static func item(_ random: inout SplitMix) -> Value {
        switch Int.random(in: 0 ..< 10, using: &random) {
        case 0: .string(text(&random))
        case 1: .integer(Int.random(in: -1000 ... 1000, using: &random))
        case 2: .null
        case 3: .boolean(Bool.random(using: &random))
        case 4: .array((0 ..< Int.random(in: 0 ... 3, using: &random)).map { _ in .string(text(&random)) })
        default:
            .object(distinct((0 ..< Int.random(in: 0 ... 4, using: &random)).map { _ in
                let value: Value = switch Int.random(in: 0 ..< 5, using: &random) {
                case 0: .integer(Int.random(in: 0 ... 99, using: &random))
                case 1: .array([.string(text(&random)), .null])
                case 2: .object(distinct([Member(name: text(&random), value: .string(text(&random)))]))
                default: .string(text(&random))
                }
                return Member(name: text(&random), value: value)
            }))
        }
    }

    /// The members whose names (as bytes) were not met before: a repeated name is a violation.
    private static func distinct(_ members: [Member]) -> [Member] {
        var seen: Set<[UInt8]> = []
        return members.filter { seen.insert(Array($0.name.utf8)).inserted }
    }

    /// A short text: mostly plain letters, sometimes characters that must be escaped.
    private static func text(_ random: inout SplitMix) -> String {
        let plain: [Character] = ["a", "b", "z", "0", " ", "/", "é", "€", "😀"]
        let escaped: [Character] = ["\"", "\\", "\n", "\t", "\u{01}"]
        let mustEscape = Int.random(in: 0 ..< 6, using: &random) == 0
        return String((0 ..< Int.random(in: 0 ... 8, using: &random)).map { index in
            mustEscape && index == 0 ? escaped.randomElement(using: &random)! : plain.randomElement(using: &random)!
        })
    }

    // MARK: Writing

    private static func write(_ value: Value, into written: inout Written, escapeRate: Double, _ random: inout SplitMix) {
        func space() { written.bytes += Array(["", "", " ", "\n "].randomElement(using: &random)!.utf8) }
        written.offsets.append(written.bytes.count)
        switch value {
        case .null: written.bytes += Array("null".utf8)
        case .boolean(let flag): written.bytes += Array((flag ? "true" : "false").utf8)
        case .integer(let integer): written.bytes += Array(String(integer).utf8)
        case .string(let string): writeString(string, into: &written, escapeRate: escapeRate, &random)
        case .array(let elements):
            written.bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { written.bytes.append(UInt8(ascii: ",")) }
                space()
                write(element, into: &written, escapeRate: escapeRate, &random)
                space()
            }
            written.bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            written.bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { written.bytes.append(UInt8(ascii: ",")) }
                space()
                writeString(member.name, into: &written, escapeRate: escapeRate, &random)
                space()
                written.bytes.append(UInt8(ascii: ":"))
                space()
                write(member.value, into: &written, escapeRate: escapeRate, &random)
                space()
            }
            written.bytes.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ string: String, into written: inout Written, escapeRate: Double,
                                    _ random: inout SplitMix) {
        var text = "\""
        for scalar in string.unicodeScalars {
            let anyway = Double.random(in: 0 ..< 1, using: &random) < escapeRate
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "/" where anyway: text += "\\/"
            case _ where scalar.value < 0x20 || anyway:
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
        if text.contains("\\") { written.escapedCount += 1 }
        written.bytes += Array(text.utf8)
    }

    // MARK: Reading back

    private static func read(_ reader: JSONReader, offsets: inout [Int]) -> Value {
        var reader = reader
        offsets.append(reader.byteOffset)
        switch reader.kind {
        case .null:
            reader.skip()
            return .null
        case .boolean: return .boolean(reader.boolean()!)
        case .string: return .string(reader.string()!)
        case .number: return .integer(reader.integer()!)
        case .array:
            var elements: [Value] = []
            reader.elements { element, _ in elements.append(read(element, offsets: &offsets)) }
            return .array(elements)
        case .object:
            var members: [Member] = []
            reader.members { member, name in members.append(Member(name: name, value: read(member, offsets: &offsets))) }
            return .object(members)
        }
    }
}
