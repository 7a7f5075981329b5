import CSimdJSON
import Testing

/// A probe's hash of its member (equal scalars hash equally, whatever their spelling and wherever they lie) and
/// the repeated member names of an object (each reported once, at its place, in document order), at the edges of
/// the walk's shortcuts: short strings hashed as one word read into the padding, and names compared only within
/// their bucket (length, first and last byte).
@Suite struct ProbeHashAndNameTests {
    struct Outcome {
        var status: Int
        var probes: [CSimdJSON_Probe]
        var duplicates: [Int64]
    }

    /// Walks `text` (padding filled with `fill`) with `steps`, and returns the status, probes and duplicate offsets.
    static func walk(_ text: String, fill: UInt8 = 0, _ steps: (OpaquePointer) -> Void) -> Outcome {
        var bytes = Array(text.utf8)
        let length = bytes.count
        bytes += [UInt8](repeating: fill, count: Int(CSimdJSON_PADDING))
        let parser = CSimdJSON_ParserCreate()!
        defer { CSimdJSON_ParserDestroy(parser) }
        return bytes.withUnsafeBufferPointer { buffer in
            if CSimdJSON_CursorBegin(parser, buffer.baseAddress, length, buffer.count, 1 << 16, 1 << 16, 0) != 0 { steps(parser) }
            let result = CSimdJSON_CursorFinish(parser).pointee
            let probes = (0 ..< result.probeCount).map { result.probes[$0] }
            let duplicates = (0 ..< result.violationCount).map { result.violations[$0] }
                .filter { Int($0.kind) == CSimdJSON_ViolationDuplicateMember }.map(\.byteOffset)
            return Outcome(status: Int(result.status), probes: probes, duplicates: duplicates)
        }
    }

    static func probe(_ text: String, fill: UInt8 = 0, seed: UInt64 = 0x1234_5678_9abc_def0) -> Outcome {
        walk(text, fill: fill) { parser in
            _ = CSimdJSON_CursorRoot(parser, nil)
            _ = "id".withCString { CSimdJSON_CursorProbeEach(parser, $0, 2, 3, UInt8(CSimdJSON_ViolationCallerFirst), seed) }
        }
    }

    /// (JSON spelling, value key): equal keys are equal ids.
    static let ids: [(String, String)] = [
        (#""""#, "s:"), (#""a""#, "s:a"), (#""\u0061""#, "s:a"), (#""a\u0000""#, "s:a\0"), (#""\u0000""#, "s:\0"),
        (#""\u0000\u0000""#, "s:\0\0"), (#""1""#, "s:1"), (#""\u0031""#, "s:1"), ("1", "i:1"), ("1152921504606847025", "i:big"), ("2305843009213719137", "i:c2"), (#""ab""#, "s:ab"),
        (#""abcdefg""#, "s:abcdefg"), (#""abcdef\u0067""#, "s:abcdefg"), (#""abcdefgh""#, "s:abcdefgh"),
        (#""\u0061bcdefgh""#, "s:abcdefgh"), (#""abcdefg\u0000""#, "s:abcdefg\0"), (#""abcdefghi""#, "s:abcdefghi"),
        (#""abcdefgh\u0069""#, "s:abcdefghi"), (#""é""#, "s:é"), (#""\u00e9""#, "s:é"), (#""\u00E9""#, "s:é"),
        (#""éééé""#, "s:éééé"), (#""\u00e9é\u00e9é""#, "s:éééé"), (#""\/""#, "s:/"), (#""/""#, "s:/"),
        (#""12345678""#, "s:12345678"), (#""1234567""#, "s:1234567"), (#""\ud83d\ude00""#, "s:😀"), (#""😀""#, "s:😀"),
    ]

    /// Equal ids have equal hashes, whether written with escapes or not, wherever they lie (the last id's bytes
    /// are read into the padding) and whatever follows them.
    @Test(arguments: [UInt8(0), 0xFF, 0x22])
    func equalIdsHashEqually(fill: UInt8) {
        var g: UInt64 = 7
        func next() -> Int { g = g &* 6364136223846793005 &+ 1442695040888963407; return Int(g >> 33) }
        for _ in 0 ..< 400 {
            let chosen = (0 ..< 1 + next() % 8).map { _ in Self.ids[next() % Self.ids.count] }
            let spaces = ["", " ", "\n  "]
            let text = "[" + chosen.map { #"{"id":\#($0.0)\#(spaces[next() % 3])}"# }.joined(separator: ",") + "]"
            let outcome = Self.probe(text, fill: fill)
            #expect(outcome.status == CSimdJSON_StatusOK, "\(text)")
            #expect(outcome.probes.count == chosen.count, "\(text)")
            guard outcome.probes.count == chosen.count else { continue }
            for i in chosen.indices {
                for j in chosen.indices where chosen[i].1 == chosen[j].1 {
                    #expect(outcome.probes[i].memberHash == outcome.probes[j].memberHash, "\(chosen[i].0) vs \(chosen[j].0) in \(text)")
                }
            }
        }
        // An id alone at the end of the text, its word read into the padding.
        for (spelling, _) in Self.ids {
            let a = Self.probe(#"[{"id":\#(spelling)}]"#, fill: fill), b = Self.probe(#"[{"id":\#(spelling)}]"#, fill: ~fill)
            #expect(a.probes.first?.memberHash == b.probes.first?.memberHash, "\(spelling)")
        }
    }

    // MARK: Repeated names

    static let names: [(String, String)] = [
        (#""""#, ""), (#""a""#, "a"), (#""\u0061""#, "a"), (#""b""#, "b"), (#""aa""#, "aa"), (#""ab""#, "ab"),
        (#""ba""#, "ba"), (#""aba""#, "aba"), (#""aca""#, "aca"), (#""a\u0062a""#, "aba"), (#""abca""#, "abca"),
        (#""acba""#, "acba"), (#""\u0000""#, "\0"), (#""a\u0000a""#, "a\0a"), (#""abcdefghij""#, "abcdefghij"),
        (#""abcdXfghij""#, "abcdXfghij"), (#""x""#, "x"), (#""é""#, "é"), (#""\u00e9""#, "é"),
    ]

    /// Every repeated name of an object of 2 to 20 members is reported once, at its own place, in document order,
    /// through each of the three ways an object's names are checked.
    @Test(arguments: [0, 1, 2])
    func everyRepeatedNameIsReportedInOrder(way: Int) {
        var g: UInt64 = UInt64(way) + 11
        func next() -> Int { g = g &* 6364136223846793005 &+ 1442695040888963407; return Int(g >> 33) }
        var total = 0
        for _ in 0 ..< 3000 {
            let count = 2 + next() % 19
            let pool = 1 + next() % Self.names.count
            let members = (0 ..< count).map { _ in Self.names[next() % pool] }
            var text = way == 2 ? #"[{"id":1,"# : way == 1 ? "{" : #"{"v":{"#
            var expected: [Int64] = []
            var seen: Set<String> = []
            for (index, member) in members.enumerated() {
                if index > 0 { text += "," }
                if !seen.insert(member.1).inserted { expected.append(Int64(text.utf8.count)) }
                text += member.0 + ":" + String(index)
            }
            text += way == 2 ? "}]" : way == 1 ? "}" : "}}"
            let outcome: Outcome
            switch way {
            case 0:  // validated by the walk (check)
                outcome = Self.walk(text) { parser in _ = CSimdJSON_CursorRoot(parser, nil); CSimdJSON_CursorSkip(parser) }
            case 1:  // entered by the cursor, names checked
                outcome = Self.walk(text) { parser in
                    _ = CSimdJSON_CursorRoot(parser, nil)
                    _ = CSimdJSON_CursorEnter(parser, 1)
                    var name: UnsafePointer<UInt8>?
                    var length = 0
                    var offset: Int64 = 0
                    while CSimdJSON_CursorNextMember(parser, &name, &length, &offset, nil) != 0 { CSimdJSON_CursorSkip(parser) }
                    CSimdJSON_CursorRequireEnd(parser)
                }
            default:  // a probed object's other members
                outcome = Self.probe(text)
            }
            #expect(outcome.status == CSimdJSON_StatusOK, "\(text)")
            #expect(outcome.duplicates == expected, "\(text)")
            total += expected.count
        }
        #expect(total > 1000)  // (the objects do repeat names)
    }
}
