import SnapshotJSON
import TestSupport
import Testing

/// The parse numbers item ids (`WireItem.identityNumber`) so that the diff can match items without hashing them: equal
/// numbers exactly for equal ids, over both snapshots.
@Suite struct IDNumberingTests {
    /// Ids drawn from a small pool, so that they repeat within and across snapshots: strings and integers with
    /// the same digits, and two spellings of the same string.
    static func id(_ g: inout SplitMix, pool: Int = 12) -> String {
        let n = Int.random(in: 0 ..< pool, using: &g)
        switch Int.random(in: 0 ..< 4, using: &g) {
        case 0: return "\(n)"
        case 1: return #""\#(n)""#
        case 2: return #""a\#(n)""#
        default: return #""\u0061\#(n)""#  // the same id as "a\(n)"
        }
    }

    /// Small bodies, and bodies of a few hundred items with as many distinct ids (the id table has twice as many
    /// slots as items, any count, and its probes wrap past its last slot).
    @Test(arguments: Array(0 ..< 60).map { ($0, 25) } + Array(60 ..< 80).map { ($0, 400) })
    func equalNumbersExactlyForEqualIds(seed: Int, most: Int) throws {
        var g = SplitMix(seed: UInt64(seed))
        func items() -> String {
            (0 ..< Int.random(in: 0 ... most, using: &g)).map { _ in #"{"id":\#(Self.id(&g, pool: most / 2)),"v":1}"# }
                .joined(separator: ",")
        }
        let body = #"{"old":{"sections":[{"id":1,"items":[\#(items())]},{"id":2,"items":[\#(items())]}]},"new":{"items":[\#(items())]}}"#
        let request = try parseDiffRequest(Array(body.utf8))
        let all = (request.old.sections + request.new.sections).flatMap(\.items)
        for a in all {
            for b in all {
                #expect((a.identityNumber == b.identityNumber) == (a.id == b.id), "\(a.id) #\(a.identityNumber), \(b.id) #\(b.identityNumber)")
            }
        }
        // Dense, from 0, in order of first appearance.
        var firstSeen: [Int] = []
        for item in all where !firstSeen.contains(item.identityNumber) { firstSeen.append(item.identityNumber) }
        #expect(firstSeen == Array(0 ..< firstSeen.count))
    }

    @Test func repeatedItemsShareTheirOriginalsNumber() throws {
        let item = #"{"id":"x","v":[1,2]}"#
        let body = #"{"old":{"items":[{"id":"w"},\#(item)]},"new":{"items":[\#(item),{"id":"y"},{"id":"w"}]}}"#
        let request = try parseDiffRequest(Array(body.utf8))
        #expect(request.old.sections[0].items.map(\.identityNumber) == [0, 1])
        #expect(request.new.sections[0].items.map(\.identityNumber) == [1, 2, 0])
    }

    @Test func manyIdsAreAllNumbered() throws {
        let items = (0 ..< 5000).map { #"{"id":"item-\#($0)"}"# }.joined(separator: ",")
        let reversed = (0 ..< 5000).reversed().map { #"{"id":"item-\#($0)"}"# }.joined(separator: ",")
        let request = try parseDiffRequest(Array(#"{"old":{"items":[\#(items)]},"new":{"items":[\#(reversed)]}}"#.utf8))
        #expect(request.old.sections[0].items.map(\.identityNumber) == Array(0 ..< 5000))
        #expect(request.new.sections[0].items.map(\.identityNumber) == Array((0 ..< 5000).reversed()))
    }

    /// Ids at the edges of the hash of short strings (one word of at most 8 bytes): the empty string, 7, 8 and 9
    /// bytes, NULs, escaped and unescaped spellings of one string, non-ASCII, and integers (among them those whose
    /// words equal a short string's: `1152921504606847025` and `"1"` share a hash whatever the seed), each with
    /// the key of its value.
    static let edgeIDs: [(json: String, key: String)] = [
        (#""""#, "s:"), (#""a""#, "s:a"), (#""\u0061""#, "s:a"), (#""a\u0000""#, "s:a\0"), (#""\u0000""#, "s:\0"),
        (#""1""#, "s:1"), (#""\u0031""#, "s:1"), ("1", "i:1"), ("1152921504606847025", "i:c1"),
        ("2305843009213719137", "i:c2"), (#""ab""#, "s:ab"),
        (#""abcdefgh""#, "s:abcdefgh"), (#""\u0061bcdefgh""#, "s:abcdefgh"), (#""abcdefg""#, "s:abcdefg"),
        (#""abcdefghi""#, "s:abcdefghi"), (#""abcdefgh\u0069""#, "s:abcdefghi"), (#""é""#, "s:é"), (#""\u00e9""#, "s:é"),
    ]

    /// Equal numbers exactly for equal ids among the edge ids, spread over both snapshots.
    @Test(arguments: 0 ..< 40)
    func equalNumbersExactlyForEqualEdgeIds(seed: Int) throws {
        var g = SplitMix(seed: UInt64(seed))
        func items() -> (json: String, keys: [String]) {
            let chosen = (0 ..< Int.random(in: 0 ... 30, using: &g)).map { _ in
                Self.edgeIDs[Int.random(in: 0 ..< Self.edgeIDs.count, using: &g)]
            }
            return (chosen.map { #"{"id":\#($0.json),"v":1}"# }.joined(separator: ","), chosen.map(\.key))
        }
        let (a, aKeys) = items(), (b, bKeys) = items(), (c, cKeys) = items()
        let body = #"{"old":{"sections":[{"id":1,"items":[\#(a)]},{"id":2,"items":[\#(b)]}]},"new":{"items":[\#(c)]}}"#
        let request = try parseDiffRequest(Array(body.utf8))
        let all = (request.old.sections + request.new.sections).flatMap(\.items)
        let keys = aKeys + bKeys + cKeys
        #expect(all.count == keys.count)
        for i in all.indices {
            for j in all.indices {
                #expect((all[i].identityNumber == all[j].identityNumber) == (keys[i] == keys[j]), "\(keys[i]) vs \(keys[j])")
            }
        }
    }
}
