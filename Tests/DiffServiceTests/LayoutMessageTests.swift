@testable import DiffService
import Testing
import SnapshotJSON
import Waterfall

/// The English the service writes for each typed layout violation and continuation defect of the engine:
/// the messages the wire has always carried (see ``LayoutMessageWireTests``).
@Suite struct LayoutMessageTests {
    @Test(arguments: [
        (WaterfallViolation.Allowed.number(in: WaterfallGeometry.scaleRange), "must be a number from 0.25 to 8"),
        (.number(in: 0...WaterfallGeometry.maximumLength), "must be a number from 0 to 100000"),
        (.number(in: WaterfallGeometry.aspectRatioRange), "must be a number from 0.01 to 100"),
        (.positiveNumber(atMost: WaterfallGeometry.maximumLength), "must be a number above 0 and at most 100000"),
        (.positiveNumber(atMost: WaterfallGeometry.maximumModelLength), "must be a number above 0 and at most 1e9"),
        (.widthToHeightRatio(in: WaterfallGeometry.aspectRatioRange), "width ÷ height must be from 0.01 to 100"),
        (.integer(in: 1...WaterfallGeometry.maximumColumnCount), "must be an integer from 1 to 64"),
        (.integerAtLeast(1), "must be an integer of at least 1"),
        (
            .positiveColumnWidth(columnCount: 4, remainingPixels: -20),
            "4 columns leave no positive width: -20 pixels remain after spacing and insets"
        ),
        (
            .positiveColumnWidth(columnCount: 1, remainingPixels: 0),
            "1 column leave no positive width: 0 pixels remain after spacing and insets"
        ),
        // Bounds the engine does not use today, written as a client would write them.
        (.number(in: -1.5...0.005), "must be a number from -1.5 to 0.005"),
        (.positiveNumber(atMost: 12_000_000), "must be a number above 0 and at most 12e6"),
        (.positiveNumber(atMost: 1_200_000), "must be a number above 0 and at most 1200000"),
    ])
    func violationsReadAsTheyAlwaysHave(allowed: WaterfallViolation.Allowed, message: String) {
        #expect(ViolationRule.notAllowed(allowed).message == message)
    }

    @Test(arguments: [
        (ContinuationDefect.unknownVersion, "malformed (unknown version)"),
        (.truncated, "malformed (truncated)"),
        (.integerTooLong, "malformed (integer too long)"),
        (.integerOutOfRange, "malformed (integer out of range)"),
        (.columnCountOutOfRange, "malformed (column count out of range)"),
        (.trailingBytes, "malformed (trailing bytes)"),
    ])
    func malformedContinuationsReadAsTheyAlwaysHave(defect: ContinuationDefect, message: String) {
        let problem = WaterfallError.malformedContinuation(defect)
            .problem(paths: WaterfallSettingPaths(settings: "settings", pageSize: "pageSize"), item: { "items[\($0)]" }, cursor: "cursor")
        #expect(problem.errors.map(\.message) == [message])
        #expect(problem.detail == "cursor is \(message); send the nextCursor of the previous page unchanged.")
    }
}
