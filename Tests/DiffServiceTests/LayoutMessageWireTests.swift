@testable import DiffService
import Testing

/// The messages `/layout` answers out-of-range values and malformed cursors with, byte for byte: the engine
/// reports typed violations and the service writes this English.
@Suite struct LayoutMessageWireTests {
    /// Each error of a `/layout` answer as "path: message".
    private func errors(_ body: String) throws -> [String] {
        let response = LayoutEndpoint.respond(to: Array(body.utf8), cursors: CursorCodec(secret: "test"))
        return (try JSON(parsing: response.body)["errors"]?.array ?? []).map {
            "\($0["path"]?.string ?? "?"): \($0["message"]?.string ?? "?")"
        }
    }

    @Test(arguments: [
        (
            #"{"settings":{"containerWidth":0,"scale":0,"columns":65,"columnSpacing":-1,"itemSpacing":1e6,"insets":{"top":-1,"leading":100001,"bottom":-0.5,"trailing":-2}},"pageSize":0,"items":[{"id":"a","aspectRatio":0},{"id":"b","width":0,"height":2e9,"extraHeight":-1},{"id":"c","width":1000,"height":1},{"id":"d","fixedHeight":0,"extraHeight":100000.5}]}"#,
            [
                "settings.scale: must be a number from 0.25 to 8",
                "settings.containerWidth: must be a number above 0 and at most 100000",
                "settings.columnSpacing: must be a number from 0 to 100000",
                "settings.itemSpacing: must be a number from 0 to 100000",
                "settings.insets.top: must be a number from 0 to 100000",
                "settings.insets.leading: must be a number from 0 to 100000",
                "settings.insets.bottom: must be a number from 0 to 100000",
                "settings.insets.trailing: must be a number from 0 to 100000",
                "settings.columns: must be an integer from 1 to 64",
                "pageSize: must be an integer of at least 1",
                "items[0].aspectRatio: must be a number from 0.01 to 100",
                "items[1].width: must be a number above 0 and at most 1e9",
                "items[1].height: must be a number above 0 and at most 1e9",
                "items[1].extraHeight: must be a number from 0 to 100000",
                "items[2].width: width ÷ height must be from 0.01 to 100",
                "items[3].fixedHeight: must be a number above 0 and at most 100000",
                "items[3].extraHeight: must be a number from 0 to 100000",
            ]
        ),
        (
            #"{"settings":{"containerWidth":300,"columns":{"minimumWidth":-1,"maximumCount":65}},"items":[]}"#,
            [
                "settings.columns.minimumWidth: must be a number above 0 and at most 100000",
                "settings.columns.maximumCount: must be an integer from 1 to 64",
            ]
        ),
        (
            #"{"settings":{"containerWidth":300,"columns":{"count":0}},"items":[]}"#,
            ["settings.columns.count: must be an integer from 1 to 64"]
        ),
        (
            #"{"settings":{"containerWidth":100,"columns":4,"columnSpacing":40},"items":[]}"#,
            ["settings.columns: 4 columns leave no positive width: -20 pixels remain after spacing and insets"]
        ),
        (
            #"{"settings":{"containerWidth":10,"columns":1,"insets":{"leading":6,"trailing":4}},"items":[]}"#,
            ["settings.columns: 1 column leave no positive width: 0 pixels remain after spacing and insets"]
        ),
    ])
    func outOfRangeValuesAreAnsweredInTheirEnglish(body: String, expected: [String]) throws {
        #expect(try errors(body) == expected)
    }
}
