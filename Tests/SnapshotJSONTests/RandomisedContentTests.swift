@testable import SnapshotJSON
import TestSupport
import Testing

/// Random values written two ways (member order, number spelling, escapes) must get equal keys; a changed
/// leaf must not.
@Suite struct RandomisedContentTests {
    /// A tiny JSON model used only to write test bodies.
    indirect enum Value {
        case null, bool(Bool), integer(Int), decimal(Int, Int), string(String), array([Value]), object([(String, Value)])
    }

    typealias Generator = SplitMix

    static func value(_ g: inout Generator, depth: Int) -> Value {
        switch Int.random(in: 0 ..< (depth > 3 ? 5 : 7), using: &g) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &g))
        case 2: return .integer(Int.random(in: -1_000_000 ... 1_000_000, using: &g))
        case 3: return .decimal(Int.random(in: -99999 ... 99999, using: &g), Int.random(in: 0 ... 4, using: &g))
        case 4: return .string(String((0 ..< Int.random(in: 0 ... 6, using: &g)).map { _ in "aé\"\\😀\n b".randomElement(using: &g)! }))
        case 5: return .array((0 ..< Int.random(in: 0 ... 4, using: &g)).map { _ in value(&g, depth: depth + 1) })
        default:
            let names = ["a", "b", "ab", "é", "k\"", "z"].shuffled(using: &g).prefix(Int.random(in: 0 ... 4, using: &g))
            return .object(names.map { ($0, value(&g, depth: depth + 1)) })
        }
    }

    /// Writes `value`; `variant` reverses member order, respells numbers and escapes every scalar.
    static func json(_ value: Value, variant: Bool) -> String {
        json(value, respell: variant, reverse: variant)
    }

    /// Writes `value`; `respell` respells numbers and escapes every scalar, `reverse` reverses member order.
    static func json(_ value: Value, respell: Bool, reverse: Bool) -> String {
        func string(_ s: String) -> String {
            guard respell else { return WireID.string(s).description }
            return "\"" + s.utf16.map { "\\u" + String(repeating: "0", count: 4 - String($0, radix: 16).count) + String($0, radix: 16) }.joined() + "\""
        }
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return respell ? "\(i)0e-1" : "\(i)"
        case .decimal(let mantissa, let scale):  // mantissa × 10^-scale
            return respell ? "\(mantissa)000E-\(scale + 3)" : "\(mantissa)e-\(scale)"
        case .string(let s): return string(s)
        case .array(let elements):
            return "[" + elements.map { json($0, respell: respell, reverse: reverse) }.joined(separator: ",") + "]"
        case .object(let members):
            let ordered = reverse ? members.reversed() : members
            return "{" + ordered.map { string($0.0) + ":" + json($0.1, respell: respell, reverse: reverse) }.joined(separator: ",") + "}"
        }
    }

    /// `value` with its first leaf (in document order) changed, or nil when it has none (empty containers only).
    static func changingFirstLeaf(_ value: Value) -> Value? {
        switch value {
        case .null: return .bool(false)
        case .bool(let b): return .bool(!b)
        case .integer(let i): return .integer(i + 1)
        case .decimal(let mantissa, let scale): return .decimal(mantissa + 1, scale)
        case .string(let s): return .string(s + "x")
        case .array(var elements):
            for index in elements.indices {
                if let changed = changingFirstLeaf(elements[index]) {
                    elements[index] = changed
                    return .array(elements)
                }
            }
            return nil
        case .object(var members):
            for index in members.indices {
                if let changed = changingFirstLeaf(members[index].1) {
                    members[index].1 = changed
                    return .object(members)
                }
            }
            return nil
        }
    }

    /// Differing item texts are compared member by member in the order written, and by their canonical
    /// encodings only when that cannot tell: the answer is always the encodings'. Respelled in the same order:
    /// equal; members reversed: equal; one leaf changed: different; unrelated values: whatever the encodings say.
    @Test(arguments: 0 ..< 20)
    func memberByMemberComparisonAgreesWithEncodings(seed: Int) throws {
        var g = Generator(seed: UInt64(seed) &+ 1000)
        for _ in 0 ..< 20 {
            let value = Self.value(&g, depth: 0), unrelated = Self.value(&g, depth: 0)
            func item(_ value: Value, respell: Bool = false, reverse: Bool = false) -> String {
                let members = [#""v":\#(Self.json(value, respell: respell, reverse: reverse))"#, respell ? #""w":1.0"# : #""w":1"#]
                return (reverse ? members.reversed() : members).joined(separator: ",")
            }
            var cases: [(String, Bool?)] = [(item(value, respell: true), true), (item(value, reverse: true), true), (item(unrelated), nil)]
            if let changed = Self.changingFirstLeaf(value) { cases.append((item(changed), false)) }
            for (text, expected) in cases {
                let (lhs, rhs) = try Fixtures.contents(item(value), text)
                let canonical = lhs.canonicalBytes == rhs.canonicalBytes
                #expect((lhs == rhs) == canonical, "\(item(value)) vs \(text)")
                if let expected { #expect(canonical == expected, "\(item(value)) vs \(text)") }
            }
        }
    }

    /// A content's canonical encoding is no longer than the JSON text it encodes (the room a body's section
    /// contents get is that bound, DiffRequestSchema): random values written as tightly as JSON allows, and the
    /// densest ones (single digits, empty strings and containers, literals).
    @Test(arguments: 0 ..< 20)
    func encodingsAreNoLongerThanTheirText(seed: Int) throws {
        var g = Generator(seed: UInt64(seed) &+ 3000)
        var texts = (0 ..< 20).map { _ in Self.json(Self.value(&g, depth: 0), respell: false, reverse: false) }
        if seed == 0 {
            texts += ["[1,2,3,4,5,6,7,8,9,0,-1,10,0.5,1e5]", #"["","",[],{},{"":""},true,false,null]"#, "[[[[1]]]]",
                      "123456789012345678901234567890", "-1e-1000000000", "0.000001"]
        }
        for text in texts {
            let members = #""v":\#(text)"#
            let (content, _) = try Fixtures.contents(members, members)
            #expect(content.canonicalBytes.count <= members.utf8.count + 2, "\(members)")  // (+ the object's braces)
        }
        // A number with 64 or more fraction digits may take one byte more than its text: within the bound.
        let number = "1." + String(repeating: "7", count: 70)
        let long = #""v":["# + Array(repeating: number, count: 50).joined(separator: ",") + "]"
        let (content, _) = try Fixtures.contents(long, long)
        #expect(content.canonicalBytes.count <= CanonicalEncoder.maximumBytes(textLength: long.utf8.count + 2))
    }

    @Test(arguments: 0 ..< 20)
    func equalValuesGetEqualKeys(seed: Int) throws {
        var g = Generator(seed: UInt64(seed))
        let values = (0 ..< 20).map { _ in Self.value(&g, depth: 0) }
        let plain = values.map { #""v":\#(Self.json($0, variant: false))"# }
        let variant = values.map { #""v":\#(Self.json($0, variant: true))"# }
        let changed = values.map { #""v":[\#(Self.json($0, variant: false))]"# }
        for index in values.indices {
            let (lhs, rhs) = try Fixtures.contents(plain[index], variant[index])
            #expect(lhs == rhs, "\(plain[index]) vs \(variant[index])")
            let (_, other) = try Fixtures.contents(plain[index], changed[index])
            #expect(lhs != other)
        }
    }

    /// Strings with and without escapes mixed in one body (ids, member names and values; the walk skips searching
    /// a string for backslashes when it lies before the next backslash it knows of): every id reads as its value
    /// and every item equals the same item written without escapes. Fails with a clean stretch that overlaps a
    /// backslash.
    @Test(arguments: 0 ..< 20)
    func escapedAndPlainStringsInOneBodyReadAsTheirValues(seed: Int) throws {
        var g = Generator(seed: UInt64(seed) &+ 2000)
        let alphabet = Array("ab é\"\\\n😀")
        var ids: [String] = [], plain: [String] = [], mixed: [String] = []
        for index in 0 ..< 30 {
            let id = "i\(index)" + String((0 ..< Int.random(in: 0 ... 4, using: &g)).map { _ in alphabet.randomElement(using: &g)! })
            let value = Self.value(&g, depth: 1), name = ["t", "é", "k\"", "long name"].randomElement(using: &g)!
            func item(_ escaped: () -> Bool) -> String {
                func string(_ s: String) -> String { Self.json(.string(s), respell: escaped(), reverse: false) }
                return "{\"id\":\(string(id)),\(string(name)):\(Self.json(value, respell: escaped(), reverse: false))}"
            }
            ids.append(id)
            plain.append(item { false })
            mixed.append(item { Bool.random(using: &g) })
        }
        let request = try Fixtures.request(oldItems: plain.joined(separator: ","), newItems: mixed.joined(separator: ","))
        let old = request.old.sections[0].items, new = request.new.sections[0].items
        #expect(old.map(\.id) == ids.map { .string($0) })
        #expect(new.map(\.id) == ids.map { .string($0) })
        for index in ids.indices {
            #expect(old[index].content == new[index].content, "\(plain[index]) vs \(mixed[index])")
        }
    }
}
