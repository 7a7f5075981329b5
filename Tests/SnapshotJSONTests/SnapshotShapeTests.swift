import SnapshotJSON
import Testing

@Suite struct SnapshotShapeTests {
    @Test func readsBareItemListAsOneImplicitSection() throws {
        let request = try Fixtures.request(oldItems: #"{"id":"a"},{"id":2,"t":1}"#, newItems: "")
        #expect(request.old.isBareItemList)
        #expect(request.old.sections.count == 1)
        #expect(request.old.sections[0].id == .implicit)
        #expect(request.old.sections[0].items.map(\.id) == [.string("a"), .integer(2)])
        #expect(request.new.sections[0].items.isEmpty)
    }

    @Test func readsSectionsInOrder() throws {
        let request = try parseDiffRequest(Fixtures.body(#"""
            {"new":{"items":[{"id":1}]},
             "old":{"sections":[{"id":"b","items":[{"id":1},{"id":2}]},{"id":7,"items":[]},{"id":"a","items":[{"id":3}]}]}}
            """#))
        #expect(request.old.sections.map(\.id) == [.explicit(.string("b")), .explicit(.integer(7)), .explicit(.string("a"))])
        #expect(request.old.sections.map(\.items.count) == [2, 0, 1])
        #expect(request.old.itemCount == 3)
        #expect(!request.old.isBareItemList)
        #expect(request.new.isBareItemList)
        // A section without members of its own has the same content as the implicit section.
        #expect(request.old.sections[1].content == request.new.sections[0].content)
    }

    @Test func acceptsEmptySnapshots() throws {
        let request = try parseDiffRequest(Fixtures.body(#" {"old":{"sections":[]},"new":{"items":[]}} "#))
        #expect(request.old.sections.isEmpty)
        #expect(request.new.sections.count == 1)
    }

    @Test func ignoresWhatLiesInSpareCapacity() throws {
        let json = #"{"old":{"items":[{"id":1,"x":"abc"}]},"new":{"items":[{"id":1,"x":"abc"}]}}"#
        var padded = Fixtures.body(json)
        padded.reserveCapacity(padded.count + 100)
        let count = padded.count
        padded.append(contentsOf: Array(#"\"[{,1e99999999999 "\u"#.utf8) + [0xFF, 0, 0x22])
        padded.removeSubrange(count...)
        #expect(padded.capacity - padded.count >= DiffRequest.requiredPadding)
        let inPlace = try parseDiffRequest(padded)
        let copied = try parseDiffRequest(Fixtures.body(json))
        #expect(inPlace.old.sections[0].items[0].content == copied.new.sections[0].items[0].content)
        #expect(inPlace == copied)
    }

    @Test func truncatedBodiesNeverReadPastTheirEnd() {
        let json = #"{"old":{"items":[{"id":"x","t":[1,2.5,"s\u00e9",{"k":null}]}]},"new":{"items":[]}}"#
        let bytes = Fixtures.body(json)
        for length in 1 ..< bytes.count {
            #expect(Fixtures.error(of: Array(bytes[0 ..< length])) != nil, "prefix of \(length) bytes")
        }
    }

    @Test func parsesConcurrently() async throws {
        let items = (0 ..< 2000).map { #"{"id":"i\#($0)","v":[\#($0),{"w":\#($0 % 7)}]}"# }.joined(separator: ",")
        let body = Fixtures.body(#"{"old":{"items":[\#(items)]},"new":{"items":[\#(items)]}}"#)
        let expected = try parseDiffRequest(body)
        try await withThrowingTaskGroup(of: DiffRequest.self) { group in
            for _ in 0 ..< 16 { group.addTask { try parseDiffRequest(body) } }
            for try await request in group {
                #expect(request == expected)
                #expect(request.old.sections[0].items == request.new.sections[0].items)
            }
        }
    }
}
