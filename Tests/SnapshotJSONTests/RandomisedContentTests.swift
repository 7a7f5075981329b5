import SnapshotJSON
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
        func string(_ s: String) -> String {
            guard variant else { return WireID.string(s).description }
            return "\"" + s.utf16.map { "\\u" + String(repeating: "0", count: 4 - String($0, radix: 16).count) + String($0, radix: 16) }.joined() + "\""
        }
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return variant ? "\(i)0e-1" : "\(i)"
        case .decimal(let mantissa, let scale):  // mantissa × 10^-scale
            return variant ? "\(mantissa)000E-\(scale + 3)" : "\(mantissa)e-\(scale)"
        case .string(let s): return string(s)
        case .array(let elements): return "[" + elements.map { json($0, variant: variant) }.joined(separator: ",") + "]"
        case .object(let members):
            let ordered = variant ? members.reversed() : members
            return "{" + ordered.map { string($0.0) + ":" + json($0.1, variant: variant) }.joined(separator: ",") + "}"
        }
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
}
