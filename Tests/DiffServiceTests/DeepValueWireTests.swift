@testable import DiffService
import Testing

/// Values nested deeper than a route reads (an item's own arrays, a settings member's object, an unknown
/// member's contents) are validated but not listed: the answers, violations and their order included, are byte
/// for byte what they were when everything was listed (pinned from that build).
@Suite struct DeepValueWireTests {
    @Test(arguments: [
        (
            #"{"settings":{"containerWidth":375,"insets":{"top":{"a":1,"a":2}},"x":[{"b":1,"b":2}]},"items":[{"id":1,"aspectRatio":[1e2000000000],"tags":{"c":1,"c":[1,{"d":1,"d":2}]}},{"id":2,"width":{"e":1,"e":2},"height":1}],"pad":{"f":1,"f":2}}"#,
            "/layout",
            #"{"type":"urn:snapdiff:problem:invalid-request","title":"Invalid request","status":422,"detail":"7 values are invalid; see errors.","instance":"/layout","errorCount":7,"errors":[{"path":"settings.insets.top.a","message":"duplicate member name"},{"path":"settings.x[0].b","message":"duplicate member name"},{"path":"items[0].aspectRatio[0]","message":"number exponent out of range (limit ±1000000000)"},{"path":"items[0].tags.c[1].d","message":"duplicate member name"},{"path":"items[0].tags.c","message":"duplicate member name"},{"path":"items[1].width.e","message":"duplicate member name"},{"path":"pad.f","message":"duplicate member name"}]}"#
        ),
        (
            #"{"old":{"items":[{"id":1,"aspectRatio":1,"tags":{"c":1,"c":2}}]},"new":{"items":[]},"options":{"layouts":[{"section":null,"settings":{"containerWidth":375,"insets":{"top":[{"a":1,"a":2}]}},"pageSize":{"p":1,"p":2}}],"pad":{"f":1,"f":[1e2000000000]}}}"#,
            "/diff",
            #"{"type":"urn:snapdiff:problem:invalid-request","title":"Invalid request","status":422,"detail":"6 values are invalid; see errors.","instance":"/diff","errorCount":6,"errors":[{"path":"old.items[0].tags.c","message":"duplicate member name"},{"path":"options.layouts[0].settings.insets.top[0].a","message":"duplicate member name"},{"path":"options.layouts[0].pageSize.p","message":"duplicate member name"},{"path":"options.pad.f[0]","message":"number exponent out of range (limit ±1000000000)"},{"path":"options.pad.f","message":"duplicate member name"},{"path":"options.pad","message":"unknown option; expected \"renderings\", \"duplicates\", \"pretty\", \"ids\", \"changedMembers\" or \"layouts\""}]}"#
        ),
        (
            #"{"settings":{"containerWidth":375,"insets":{"top":[1]},"columns":{"count":{"q":[]}}},"items":[{"id":1,"aspectRatio":{"r":[]},"tags":[[[]]]}],"pad":[[[0]]]}"#,
            "/layout",
            #"{"type":"urn:snapdiff:problem:invalid-request","title":"Invalid request","status":422,"detail":"5 values are invalid; see errors.","instance":"/layout","errorCount":5,"errors":[{"path":"settings.insets.top","message":"expected number, found array"},{"path":"settings.columns.count","message":"expected integer, found object"},{"path":"settings.columns","message":"expected count or minimumWidth"},{"path":"pad","message":"unknown member; expected settings, items, pageSize, cursor or pretty"},{"path":"items[0].aspectRatio","message":"expected number, found object"}]}"#
        ),
        (
            #"{"old":{"items":[{"id":1,"aspectRatio":1}]},"new":{"items":[{"id":1,"width":{"s":[[1]]},"height":[1],"tags":[[{}]]}]},"options":{"layouts":[{"section":null,"settings":{"containerWidth":375}}]}}"#,
            "/diff",
            #"{"type":"urn:snapdiff:problem:invalid-request","title":"Invalid request","status":422,"detail":"2 values are invalid; see errors.","instance":"/diff","errorCount":2,"errors":[{"path":"new.items[0].width","message":"expected number, found object"},{"path":"new.items[0].height","message":"expected number, found array"}]}"#
        )
    ])
    func deepValuesAreValidatedAndAnsweredAsBefore(body: String, path: String, expected: String) {
        let response = path == "/layout"
            ? LayoutEndpoint.respond(to: Array(body.utf8), cursors: CursorCodec(secret: "test"))
            : DiffEndpoint.respond(to: Array(body.utf8))
        #expect(String(decoding: response.body, as: UTF8.self) == expected)
    }
}
