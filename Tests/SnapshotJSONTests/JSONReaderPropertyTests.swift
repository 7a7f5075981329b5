import SnapshotJSON
import Testing
import TestSupport

/// A walk of CSimdJSON's cursor, read through ``JSONReader``, gives back every value of a random document
/// exactly: members in the order written, strings unescaped, numbers as their exact digits and exponent, whatever
/// the escapes, the number spellings and the whitespace; and what a reader leaves unread is validated all the same.
@Suite struct JSONReaderPropertyTests {
    /// A JSON value as generated: what the reader must give back.
    indirect enum Value: Equatable {
        case null, boolean(Bool), string(String)
        /// ±digits × 10^exponent, digits without leading or trailing zeros (empty for zero).
        case number(negative: Bool, digits: String, exponent: Int)
        case array([Value])
        case object([(String, Value)])
        /// A container the reader did not enter: its kind only.
        case unlisted(array: Bool)

        static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.null, .null): true
            case let (.boolean(a), .boolean(b)): a == b
            case let (.string(a), .string(b)): Array(a.utf8) == Array(b.utf8)
            case let (.number(an, ad, ae), .number(bn, bd, be)): ad.isEmpty ? bd.isEmpty : (an, ad, ae) == (bn, bd, be)
            case let (.array(a), .array(b)): a == b
            case let (.unlisted(a), .unlisted(b)): a == b
            case let (.object(a), .object(b)):
                a.count == b.count && zip(a, b).allSatisfy { Array($0.0.utf8) == Array($1.0.utf8) && $0.1 == $1.1 }
            default: false
            }
        }
    }

    @Test(arguments: 0 ..< 400)
    func readsBackWhatWasWritten(seed: UInt64) throws {
        var random = SplitMix(seed: seed &* 0x9E37_79B9 &+ 17)
        let (value, text) = Self.document(&random)
        #expect(try Self.readRoot(text) == value, "seed \(seed): \(text)")
    }

    /// A reader that enters a random depth only gives back every value within it exactly, and the containers
    /// below as such (it leaves them unread).
    @Test(arguments: 0 ..< 300)
    func readsBackWhatItEntersAndLeavesTheRest(seed: UInt64) throws {
        var random = SplitMix(seed: seed &* 0x2545_F491 &+ 5)
        let (value, text) = Self.document(&random)
        let depth = Int.random(in: 0 ... 4, using: &random)
        #expect(try Self.readRoot(text, entering: depth) == Self.truncated(value, below: depth),
                "seed \(seed), depth \(depth): \(text)")
    }

    /// The root object of `text`, read by a reader that enters `depth` levels (the root is level 0).
    private static func readRoot(_ text: String, entering depth: Int = .max) throws(RequestError) -> Value {
        var members: [(String, Value)] = []
        _ = try JSONDocument.read(Array(text.utf8)) { name, reader in
            members.append((name, read(reader, entering: depth, level: 1)))
        }
        return .object(members)
    }

    /// What a walk finds wrong (repeated member names, exponents out of range) it reports in the same order and
    /// places whether its reader reads everything or leaves what lies deeper than a random depth unread.
    @Test(arguments: 0 ..< 300)
    func violationsDoNotDependOnWhatIsRead(seed: UInt64) throws {
        var random = SplitMix(seed: seed &* 0x9E37_79B9 &+ 3)
        func value(_ level: Int) -> String {
            let pick = Int.random(in: 0 ..< (level > 4 ? 3 : 6), using: &random)
            switch pick {
            case 0: return ["0", "1e2000000000", "-1E-1000000001", "\"a\"", "true", "null"].randomElement(using: &random)!
            case 1, 2: return String(Int.random(in: 0 ... 9, using: &random))
            case 3: return "[" + (0 ..< Int.random(in: 0 ... 3, using: &random)).map { _ in value(level + 1) }.joined(separator: ",") + "]"
            default:
                return "{" + (0 ..< Int.random(in: 0 ... 3, using: &random)).map { _ in
                    "\"\(["a", "b", "id"].randomElement(using: &random)!)\":\(value(level + 1))"
                }.joined(separator: ",") + "}"
            }
        }
        let text = Array(("{\"x\":" + value(1) + ",\"y\":" + value(1) + ",\"x\":" + value(1) + "}").utf8)
        let depth = Int.random(in: 0 ... 3, using: &random)
        #expect(Self.outcome(text, depth: depth) == Self.outcome(text, depth: .max), "seed \(seed), depth \(depth)")
    }

    /// The violations a walk of `text` reports when its reader enters `depth` levels.
    private static func outcome(_ text: [UInt8], depth: Int) -> RequestError? {
        do throws(RequestError) {
            _ = try JSONDocument.read(text) { _, reader in _ = read(reader, entering: depth, level: 1) }
            return nil
        } catch {
            return error
        }
    }

    /// Integers at the edges of Int64 and UInt64 are ids or violations, never an overflow (18446744073709551616
    /// once trapped: its last digit overflowed the addition, not the multiplication).
    @Test func idsAtTheIntegerLimitsAreIDsOrViolations() throws {
        let valid = ["9223372036854775807", "-9223372036854775808", "0", "-0"]
        let items = valid.map { #"{"id":\#($0)}"# }.joined(separator: ",")
        let document = try JSONDocument.read(Array(#"{"items":[\#(items)]}"#.utf8)) { _, reader in reader.skip() }
        #expect(document.items?.ids == [.integer(.max), .integer(.min), .integer(0), .integer(0)])
        for id in ["9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
                   "18446744073709551619", "184467440737095516160", "99999999999999999999999"] {
            guard case .invalid(let violations, _) = Fixtures.layoutError(#"{"items":[{"id":\#(id)}]}"#) else {
                Issue.record("\(id) was accepted")
                continue
            }
            #expect(violations.map(\.message) == ["expected string or integer, found integer outside the 64-bit range"], "\(id)")
        }
    }

    /// A body of many bad values costs a counter: the first 100 violations are listed, the rest counted.
    @Test func manyBadItemsAreCountedNotListed() {
        let items = Array(repeating: "0", count: 50_000).joined(separator: ",")
        guard case .invalid(let violations, let omitted) = Fixtures.layoutError(#"{"items":[\#(items)],"x":{"a":1,"a":2}}"#) else {
            Issue.record("accepted")
            return
        }
        #expect(violations.count == DiffRequest.maximumViolationCount && violations.count + omitted == 50_001)
        #expect(violations.first?.path == "items[0]" && violations.last?.path == "items[99]")
    }

    // MARK: Generating

    /// A random document: its value, and its text with random spellings.
    private static func document(_ random: inout SplitMix) -> (value: Value, text: String) {
        let value = object(depth: 0, &random)
        var text = ""
        write(value, into: &text, &random)
        return (value, text)
    }

    private static func object(depth: Int, _ random: inout SplitMix) -> Value {
        var names: Set<[UInt8]> = [Array("items".utf8)]  // (the root's "items" must be a list of objects with ids)
        var members: [(String, Value)] = []
        for _ in 0 ..< Int.random(in: 0 ... 5, using: &random) {
            let name = string(&random)
            guard names.insert(Array(name.utf8)).inserted else { continue }
            members.append((name, value(depth: depth + 1, &random)))
        }
        return .object(members)
    }

    private static func value(depth: Int, _ random: inout SplitMix) -> Value {
        switch Int.random(in: 0 ..< (depth > 4 ? 4 : 6), using: &random) {
        case 0: return .null
        case 1: return .boolean(Bool.random(using: &random))
        case 2: return .string(string(&random))
        case 3:
            let digits = Int.random(in: 0 ... 3, using: &random) == 0 ? ""
                : String(Int.random(in: 1 ... 9, using: &random)) + (0 ..< Int.random(in: 0 ... 25, using: &random)).map { _ in
                    String(Int.random(in: 0 ... 9, using: &random))
                }.joined()
            var trimmed = digits
            while trimmed.hasSuffix("0") { trimmed.removeLast() }
            let exponent = Int.random(in: -40 ... 40, using: &random) + (digits.count - trimmed.count)
            return .number(negative: Bool.random(using: &random), digits: trimmed, exponent: exponent)
        case 4: return .array((0 ..< Int.random(in: 0 ... 4, using: &random)).map { _ in value(depth: depth + 1, &random) })
        default: return object(depth: depth, &random)
        }
    }

    private static func string(_ random: inout SplitMix) -> String {
        let pool: [Character] = ["a", "b", "z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{01}", "é", "e\u{301}", "€", "😀", "\u{7f}"]
        return String((0 ..< Int.random(in: 0 ... 6, using: &random)).map { _ in pool.randomElement(using: &random)! })
    }

    // MARK: Writing, with random spellings

    private static func write(_ value: Value, into text: inout String, _ random: inout SplitMix) {
        func space() { text += ["", "", " ", "\n  ", "\t"].randomElement(using: &random)! }
        switch value {
        case .null: text += "null"
        case .boolean(let flag): text += flag ? "true" : "false"
        case .string(let string): writeString(string, into: &text, &random)
        case let .number(negative, digits, exponent): writeNumber(negative, digits, exponent, into: &text, &random)
        case .unlisted(let array): text += array ? "[]" : "{}"  // (never generated: only what a reader sees)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                space()
                write(element, into: &text, &random)
                space()
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, (name, member)) in members.enumerated() {
                if index > 0 { text += "," }
                space()
                writeString(name, into: &text, &random)
                space()
                text += ":"
                space()
                write(member, into: &text, &random)
            }
            space()
            text += "}"
        }
    }

    private static func writeString(_ string: String, into text: inout String, _ random: inout SplitMix) {
        text += "\""
        for scalar in string.unicodeScalars {
            let escapeAnyway = Int.random(in: 0 ..< 4, using: &random) == 0
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += escapeAnyway ? "\\u000a" : "\\n"
            case "\t": text += "\\t"
            case "/" where escapeAnyway: text += "\\/"
            case _ where scalar.value < 0x20 || (escapeAnyway && scalar.value >= 0x80):
                for unit in String(scalar).utf16 { text += "\\u" + String(format4: unit) }
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    private static func writeNumber(_ negative: Bool, _ digits: String, _ exponent: Int, into text: inout String,
                                    _ random: inout SplitMix) {
        if negative { text += "-" }
        guard !digits.isEmpty else {
            text += ["0", "0.0", "0e5", "0.000E-3"].randomElement(using: &random)!
            return
        }
        let zeros = Int.random(in: 0 ... 2, using: &random)
        switch Int.random(in: 0 ..< 3, using: &random) {
        case 0:  // d.ddd e±x, with trailing zeros
            let mantissa = digits.prefix(1) + (digits.count > 1 || zeros > 0 ? "." + digits.dropFirst() + String(repeating: "0", count: zeros) : "")
            text += "\(mantissa)\(Bool.random(using: &random) ? "e" : "E")\(exponent + digits.count - 1)"
        case 1 where exponent >= 0 && exponent < 30:  // an integer
            text += digits + String(repeating: "0", count: exponent)
        default:  // 0.000ddd e x, or dddd e x
            text += "\(digits)\(String(repeating: "0", count: zeros))e\(exponent - zeros)"
        }
    }

    // MARK: Reading back

    /// `value` as a reader that enters `depth` levels sees it (`level` is the value's own).
    private static func truncated(_ value: Value, below depth: Int, level: Int = 0) -> Value {
        switch value {
        case .array(let elements):
            level > depth ? .unlisted(array: true) : .array(elements.map { truncated($0, below: depth, level: level + 1) })
        case .object(let members):
            level > depth ? .unlisted(array: false)
                : .object(members.map { ($0.0, truncated($0.1, below: depth, level: level + 1)) })
        default: value
        }
    }

    /// The value a reader stands on, entering containers down to `depth` only (deeper ones are left unread).
    private static func read(_ reader: JSONReader, entering depth: Int = .max, level: Int = 0) -> Value {
        var reader = reader
        if (reader.kind == .array || reader.kind == .object) && level > depth {
            return .unlisted(array: reader.kind == .array)  // (left unread: the walk validates it when it moves on)
        }
        switch reader.kind {
        case .null:
            reader.skip()
            return .null
        case .boolean: return .boolean(reader.boolean()!)
        case .string: return .string(reader.string()!)
        case .number:
            let (negative, digits, exponent) = reader.decimal()!
            return .number(negative: negative, digits: String(decoding: digits, as: UTF8.self), exponent: exponent)
        case .array:
            var elements: [Value] = []
            reader.elements { element, _ in elements.append(read(element, entering: depth, level: level + 1)) }
            return .array(elements)
        case .object:
            var members: [(String, Value)] = []
            reader.members { member, name in members.append((name, read(member, entering: depth, level: level + 1))) }
            return .object(members)
        }
    }
}

private extension String {
    /// Four lowercase hexadecimal digits.
    init(format4 unit: UInt16) {
        let hex = String(unit, radix: 16)
        self = String(repeating: "0", count: 4 - hex.count) + hex
    }
}
