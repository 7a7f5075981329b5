@testable import DiffService
import SnapshotJSON
import Testing

/// The answers that changed when every layer came to share one vocabulary and one collector, pinned on the wire.
@Suite struct ViolationVocabularyWireTests {
    private static func answer(_ path: String, _ body: String) -> String {
        let response = path == "/layout"
            ? LayoutEndpoint.respond(to: Array(body.utf8), cursors: CursorCodec(secret: "test"))
            : DiffEndpoint.respond(to: Array(body.utf8))
        return String(decoding: response.body, as: UTF8.self)
    }

    private static func problem(_ path: String, _ body: String) throws -> JSON {
        try JSON(parsing: Array(answer(path, body).utf8))
    }

    /// `/layout` lists its first 100 invalid values, as `/diff` always did (it listed 1,000), and counts them all.
    @Test func layoutListsTheFirstHundredInvalidValues() throws {
        let items = (0 ..< 1500).map { #"{"id":\#($0)}"# }.joined(separator: ",")
        let problem = try Self.problem("/layout", #"{"settings":{"containerWidth":375},"items":[\#(items)]}"#)
        #expect(problem["errorCount"] == .integer(1500))
        let errors = try #require(problem["errors"]?.array)
        #expect(errors.count == 100)
        #expect(errors.first?["path"] == .string("items[0]") && errors.last?["path"] == .string("items[99]"))
        #expect(errors.first?["message"] == .string("missing size: give aspectRatio, width and height, or fixedHeight"))
        #expect(problem["detail"] == .string("1500 values are invalid; see errors (the first 100 are listed)."))
    }

    /// `options.layouts` lists its first 100 invalid values (it listed 1,000).
    @Test func diffLayoutsListTheFirstHundredInvalidValues() throws {
        // Each entry misses its containerWidth.
        let entries = (0 ..< 600).map { _ in #"{"settings":{}}"# }.joined(separator: ",")
        let problem = try Self.problem(
            "/diff", #"{"old":{"items":[]},"new":{"items":[]},"options":{"layouts":[\#(entries)]}}"#)
        #expect(problem["errorCount"] == .integer(600))
        #expect(problem["errors"]?.array?.count == 100)
        #expect(problem["detail"] == .string("600 values are invalid; see errors (the first 100 are listed)."))
    }

    /// The values out of range that the layout engine finds share the cap too.
    @Test func layoutListsTheFirstHundredValuesOutOfRange() throws {
        let items = (0 ..< 300).map { #"{"id":\#($0),"aspectRatio":0}"# }.joined(separator: ",")
        let problem = try Self.problem("/layout", #"{"settings":{"containerWidth":375},"items":[\#(items)]}"#)
        #expect(problem["errorCount"] == .integer(300))
        #expect(problem["errors"]?.array?.count == 100)
        #expect(problem["errors"]?[0]?["message"] == .string("must be a number from 0.01 to 100"))
    }

    /// A layout's section is read as snapshots read ids: `1.5` is named for what it is (it was "a number with a
    /// fraction, an exponent or out of range").
    @Test func aLayoutsSectionNamesWhatItFound() {
        let body = #"{"old":{"sections":[]},"new":{"sections":[]},"options":{"layouts":[{"section":1.5,"settings":{"containerWidth":375}}]}}"#
        #expect(Self.answer("/diff", body) == #"{"type":"urn:snapdiff:problem:invalid-request","title":"Invalid request","status":422,"detail":"options.layouts[0].section: expected string or integer, found number with a fraction or an exponent","instance":"/diff","errorCount":1,"errors":[{"path":"options.layouts[0].section","message":"expected string or integer, found number with a fraction or an exponent"}]}"#)
    }

    /// A section whose id is a 19-digit integer can be laid out (it was refused as "out of range"), and `1.0`
    /// no longer stands for the section `1` (no snapshot can have the id `1.0`).
    @Test func aLayoutsSectionIsAnIdAsSnapshotsWriteThem() throws {
        let diff = { (section: String) in
            #"{"old":{"sections":[]},"new":{"sections":[{"id":9223372036854775807,"items":[{"id":"a","aspectRatio":1}]},{"id":1,"items":[]}]},"options":{"layouts":[{"section":\#(section),"settings":{"containerWidth":375}}]}}"#
        }
        let laidOut = try JSON(parsing: Array(Self.answer("/diff", diff("9223372036854775807")).utf8))
        #expect(laidOut["layouts"]?[0]?["section"] == .integer(9_223_372_036_854_775_807), "\(laidOut)")
        #expect(laidOut["layouts"]?[0]?["items"]?.array?.count == 1)
        let refused = try JSON(parsing: Array(Self.answer("/diff", diff("1.0")).utf8))
        #expect(refused["errors"]?[0]?["message"] == .string("expected string or integer, found number with a fraction or an exponent"))
    }

    /// A layout setting that names a choice says the names and what it found, as options do.
    @Test func choicesNameWhatTheyTake() {
        #expect(Self.answer("/layout", #"{"settings":{"containerWidth":375,"direction":"up","strategy":true},"items":[]}"#)
            == #"{"type":"urn:snapdiff:problem:invalid-request","title":"Invalid request","status":422,"detail":"2 values are invalid; see errors.","instance":"/layout","errorCount":2,"errors":[{"path":"settings.direction","message":"expected \"leftToRight\" or \"rightToLeft\", found \"up\""},{"path":"settings.strategy","message":"expected \"shortestColumn\", \"roundRobin\", \"sequentialSplit\" or \"balanced\", found boolean"}]}"#)
    }
}
