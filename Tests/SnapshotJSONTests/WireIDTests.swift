@testable import SnapshotJSON
import Testing

@Suite struct WireIDTests {
    static func id(_ json: String) throws(RequestError) -> WireID {
        try Fixtures.request(oldItems: #"{"id":\#(json)}"#, newItems: "").old.sections[0].items[0].id
    }

    @Test(arguments: [
        (#"1"#, WireID.integer(1)),
        (#""1""#, .string("1")),
        (#"-0"#, .integer(0)),
        (#"9223372036854775807"#, .integer(.max)),
        (#"-9223372036854775808"#, .integer(.min)),
        (#""a\"b\\c""#, .string("a\"b\\c")),
        (#""\u00e9""#, .string("\u{e9}")),
        (#""😀""#, .string("😀")),
        (#""""#, .string("")),
    ])
    func readsIDs(_ json: String, _ expected: WireID) throws {
        #expect(try Self.id(json) == expected)
    }

    @Test(arguments: [
        (#"1.0"#, "number with a fraction or an exponent"),
        (#"1e3"#, "number with a fraction or an exponent"),
        (#"1.5"#, "number with a fraction or an exponent"),
        (#"9223372036854775808"#, "integer outside the 64-bit range"),
        (#"-9223372036854775809"#, "integer outside the 64-bit range"),
        (#"1180591620717411303424"#, "integer outside the 64-bit range"),
        (#"null"#, "null"),
        (#"true"#, "boolean"),
        (#"{"a":1}"#, "object"),
        (#"[1]"#, "array"),
    ])
    func rejectsNonIDs(_ json: String, _ found: String) {
        let body = #"{"old":{"items":[{"id":\#(json)}]},"new":{"items":[]}}"#
        #expect(Fixtures.error(of: body) == .invalid([
            Violation(path: "old.items[0].id", message: "expected string or integer, found \(found)", byteOffset: 23),
        ]))
    }

    /// Items keep where their ids lie (the body, or the unescaped ids one after another): every kind, mixed, in
    /// several sections whose own ids are escaped too, reads back, and the item stays 32 bytes.
    @Test func idsOfEveryKindReadBackFromWhereTheyLie() throws {
        let body = #"""
            {"old":{"sections":[{"id":"s\u0031","items":[{"id":"a\"b"},{"id":7},{"id":"plain"},{"id":"\u00e9t\u00e9"}]},
            {"id":2,"items":[{"id":"x\/y","n":1},{"id":-3},{"id":"z"}]}]},"new":{"items":[{"id":"\u00e9t\u00e9"},{"id":"a\"b"}]}}
            """#
        let request = try parseDiffRequest(Array(body.utf8))
        #expect(request.old.sections.map(\.id) == [.explicit(.string("s1")), .explicit(.integer(2))])
        #expect(request.old.sections.flatMap(\.items).map(\.id) == [
            .string("a\"b"), .integer(7), .string("plain"), .string("été"), .string("x/y"), .integer(-3), .string("z"),
        ])
        #expect(request.new.sections[0].items.map(\.id) == [.string("été"), .string("a\"b")])
        #expect(request.old.sections[1].items[0].json.bytes.elementsEqual(#"{"id":"x\/y","n":1}"#.utf8))
        #expect(MemoryLayout<WireItem>.stride == 32)
        // The ids kept without the items read back the same, by position.
        for snapshot in [request.old, request.new] {
            let ids = SnapshotIDs(snapshot)
            for (s, section) in snapshot.sections.enumerated() {
                #expect(ids.section(s) == section.id)
                for (e, item) in section.items.enumerated() { #expect(ids.item(section: s, element: e) == item.id) }
            }
        }
    }

    /// An item keeps its id's kind and its identity number in one word (2 bits and 30): every kind reads back
    /// with every number up to the largest a body can need (fewer than 2^29 items), and -1 (not numbered).
    @Test(arguments: [-1, 0, 1, 1 << 29, (1 << 30) - 2])
    func identityNumbersKeepTheirIdKind(identity: Int) throws {
        let request = try parseDiffRequest(Array(#"{"old":{"items":[{"id":"ab"},{"id":-7},{"id":"\u0061\""}]},"new":{"items":[]}}"#.utf8))
        let text = try #require(request.old.text)
        for item in request.old.sections[0].items {
            let (kind, payload) = item.storedID
            let copy = WireItem(
                text: text, textRange: 0 ..< 1, idKind: kind, idPayload: payload, identityNumber: identity, contentNumber: 5)
            #expect(copy.identityNumber == identity)
            #expect(copy.contentNumber == 5)
            #expect(copy.storedID == item.storedID)
            #expect(copy.id == item.id)
        }
    }

    @Test func integerAndStringDiffer() {
        #expect(WireID.integer(1) != .string("1"))
        #expect(Set<WireID>([.integer(1), .string("1")]).count == 2)
    }

    @Test func stringsAreNotNormalised() throws {
        let precomposed = try Self.id(#""\u00e9""#)
        let decomposed = try Self.id(#""e\u0301""#)
        #expect(precomposed != decomposed)
        #expect(Set([precomposed, decomposed]).count == 2)
        #expect(precomposed == .string("é"))
        // Swift's String == would call these equal; WireID does not.
        #expect("\u{e9}" == "e\u{301}")
        #expect(WireID.string("\u{e9}") != .string("e\u{301}"))
    }

    @Test func describesAsJSON() {
        #expect(WireID.integer(-5).description == "-5")
        #expect(WireID.string("a\"b\n\u{1}").description == #""a\"b\n\u0001""#)
    }
}
