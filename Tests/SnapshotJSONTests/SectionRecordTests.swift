@testable import SnapshotJSON
import Testing

/// Sections keep where their ids and contents lie (32 bytes each, whatever their size), the parse reserves its
/// section records for the most sections a body can hold, and the sections' texts are kept for the answers that
/// copy them.
@Suite struct SectionRecordTests {
    /// Every kind of section id (escaped string, plain string, integer, implicit) and content reads back, and the
    /// section stays 32 bytes.
    @Test func idsAndContentsOfEveryKindReadBack() throws {
        let body = #"""
            {"old":{"sections":[{"id":"s\u0031","title":"\u00e9","items":[{"id":1}]},{"items":[],"id":"plain"},
            {"id":-7,"n":1.0,"items":[{"id":2}],"m":[true,null]}]},"new":{"items":[{"id":1}]}}
            """#
        let request = try parseDiffRequest(Array(body.utf8))
        #expect(request.old.sections.map(\.id) == [
            .explicit(.string("s1")), .explicit(.string("plain")), .explicit(.integer(-7)),
        ])
        #expect(request.new.sections.map(\.id) == [.implicit])
        #expect(request.old.sections.map(\.items.count) == [1, 0, 1])
        let again = try parseDiffRequest(Array(#"""
            {"old":{"sections":[{"m":[true,null],"id":0,"items":[],"n":10e-1},{"title":"é","id":0,"items":[]}]},
            "new":{"sections":[{"id":"x","items":[]}]}}
            """#.utf8))
        #expect(request.old.sections[2].content == again.old.sections[0].content)
        #expect(request.old.sections[0].content == again.old.sections[1].content)
        #expect(request.old.sections[1].content == request.new.sections[0].content)  // no members: `{}`
        #expect(request.old.sections[0].content != request.old.sections[2].content)
        let emptied = request.old.sections[0].replacingItems([])
        #expect(emptied.id == request.old.sections[0].id && emptied.content == request.old.sections[0].content)
        #expect(emptied.items.isEmpty && emptied != request.old.sections[0])
        #expect(MemoryLayout<WireSection>.stride == 32)
    }

    /// The densest valid body (sections of 19 bytes and a separator) holds no more sections than the parse
    /// reserves records for, and the reservation is no larger than a section per 20 bytes.
    @Test(arguments: [1, 1_000, 120_000])  // 120,000 a side: over 4 MiB, where the parse reserves
    func densestBodyFitsTheSectionReservation(perSide: Int) throws {
        let side = #"{"sections":["# + Array(repeating: #"{"id":0,"items":[]}"#, count: perSide).joined(separator: ",") + "]}"
        let body = Array(#"{"old":\#(side),"new":\#(side)}"#.utf8)
        let request = try parseDiffRequest(body)
        let sections = request.old.sections.count + request.new.sections.count
        #expect(sections == 2 * perSide)
        #expect(sections <= DiffRequestSchema.maximumSections(bodyLength: body.count))
        // The bound is no looser than a section per 20 bytes (and the two implicit sections).
        #expect(DiffRequestSchema.maximumSections(bodyLength: body.count) <= body.count / 20 + 2)
    }

    /// The texts of the sections are kept when the answer copies or compares them, or lays one out, and read back
    /// object by object, in both snapshots.
    @Test(arguments: [
        #"{"renderings":["jsonPatch"]}"#, #"{"changedMembers":true}"#,
        #"{"layouts":[{"section":"b","settings":{"containerWidth":300}}]}"#,
    ])
    func sectionTextsReadBackWhenTheAnswerNeedsThem(options: String) throws {
        let old = #"{"id":1,"items":[{"id":1}]}"#, old2 = #"{ "items" : [], "id" : "b" , "t":2 }"#
        let new = #"{"id":"b","t":3,"items":[]}"#
        let body = #"{"old":{"sections":[\#(old),\#(old2)]},"new":{"sections":[\#(new)]},"options":\#(options)}"#
        let request = try parseDiffRequest(Array(body.utf8))
        #expect(request.old.sectionTexts?.map { String(decoding: $0.bytes, as: UTF8.self) } == [old, old2])
        #expect(request.new.sectionTexts?.map { String(decoding: $0.bytes, as: UTF8.self) } == [new])
        #expect(request.old.text?.keepsSectionPlaces == true)
    }

    /// An answer that neither copies nor compares sections' texts does not keep where they lie (8 bytes a
    /// section).
    @Test(arguments: [nil, #"{"renderings":["staged","sequential","ranges"],"ids":true}"#])
    func sectionPlacesAreNotKeptWhenNoAnswerReadsThem(options: String?) throws {
        let member = options.map { #","options":\#($0)"# } ?? ""
        let body = #"{"old":{"sections":[{"id":1,"items":[]}]},"new":{"sections":[{"id":2,"items":[]}]}\#(member)}"#
        let request = try parseDiffRequest(Array(body.utf8))
        #expect(request.old.text?.keepsSectionPlaces == false)
        #expect(request.new.text?.keepsSectionPlaces == false)
    }

    /// `Snapshot.readItems` walks one section's items in order with their indices: a section's among its other
    /// members, and a bare list's, whose items here repeat the other snapshot's bytes (such an item refers to its
    /// counterpart's text; the walk reads the list's own).
    @Test func readItemsWalksASectionsItemsInOrder() throws {
        let layouts = #"{"layouts":[{"section":"x","settings":{"containerWidth":300}}]}"#
        let body = #"""
            {"options": \#(layouts), "new": { "items" : [ {"id":2}, {"id":1, "a":[1]} ,{"id":3}] },
             "old": {"sections": [{"t": {"items": [9]}, "items": [{"id":1, "a":[1]},{"id":2}], "id": "x"}, {"id": "y", "items": []}]}}
            """#
        let request = try parseDiffRequest(Array(body.utf8))
        func ids(_ snapshot: Snapshot, _ section: Int) -> [[Int]] {
            var read: [[Int]] = []
            snapshot.readItems(ofSection: section) { item, index in
                item.members { member, name in
                    if name == "id", let id = member.integer() { read.append([index, id]) }
                }
            }
            return read
        }
        #expect(ids(request.new, 0) == [[0, 2], [1, 1], [2, 3]])
        #expect(ids(request.old, 0) == [[0, 1], [1, 2]])
        #expect(ids(request.old, 1) == [])
    }
}
