@testable import DiffService
import Foundation
import Logging
import TestSupport
import Testing

/// The access log's line: JSON numbers for numbers, the time as Foundation writes it.
@Suite struct JSONLogHandlerTests {
    private static let event = LogEvent(
        level: .info, message: "request",
        metadata: AnsweredRequest(
            requestID: "abc-123", method: "POST", path: "/diff", status: 200, bodyBytes: 55, answerBytes: 503,
            duration: .microseconds(1443)
        ).metadata,
        source: "DiffService", file: #fileID, function: #function, line: #line)

    @Test func numbersAreJSONNumbersAndTheLineEndsInOneNewline() throws {
        let handler = JSONLogHandler(label: "snapdiff")
        let time = Date(timeIntervalSince1970: 1_795_254_313.120)
        let line = handler.line(for: Self.event, at: time)
        #expect(line.last == UInt8(ascii: "\n") && line.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") })
        #expect(
            String(decoding: line, as: UTF8.self)
                == #"{"time":"2026-11-21T09:45:13.120Z","level":"info","label":"snapdiff","message":"request","#
                + #""bytes_in":55,"bytes_out":503,"duration_ms":1.443,"method":"POST","path":"/diff","request_id":"abc-123","#
                + #""status":200}"# + "\n")
        let parsed = try JSON(parsing: Array(line.dropLast()))
        #expect(parsed["status"] == .integer(200) && parsed["bytes_in"] == .integer(55))
    }

    @Test func aStreamedAnswerSaysSoWithABoolean() throws {
        var answered = AnsweredRequest(method: "POST", path: "/diff", status: 200, bodyBytes: 10)
        answered.answerBytes = nil
        let event = LogEvent(
            level: .info, message: "request", metadata: answered.metadata, source: "", file: "", function: "", line: 0)
        let parsed = try JSON(parsing: Array(JSONLogHandler(label: "x").line(for: event, at: Date()).dropLast()))
        #expect(parsed["streamed"] == .bool(true))
        #expect(parsed["bytes_out"] == nil)
    }

    @Test func otherValuesAreStringsAndTheHandlersMetadataIsMergedUnder() throws {
        var handler = JSONLogHandler(label: "x")
        handler[metadataKey: "pod"] = "snapdiff-1"
        handler[metadataKey: "path"] = "overridden"
        let event = LogEvent(
            level: .error, message: "m", metadata: ["path": "/x", "ratio": .stringConvertible(Double.nan), "list": ["a"]],
            source: "", file: "F.swift", function: "", line: 7)
        let parsed = try JSON(parsing: Array(handler.line(for: event, at: Date()).dropLast()))
        #expect(parsed["pod"] == .string("snapdiff-1"))
        #expect(parsed["path"] == .string("/x"))
        #expect(parsed["ratio"] == .string("nan"))
        #expect(parsed["list"] == .string(#"["a"]"#))
        #expect(parsed["source"] == .string("F.swift:7"))
    }

    /// The hand-written timestamp is the exact time to the millisecond for random times from 1900 to 2100 (where a `Date`'s `Double`
    /// holds the microsecond) and at
    /// the edges of days, months, leap years and the epoch: the calendar part as Foundation's ISO 8601 style writes
    /// the whole second, the milliseconds as given. (Foundation's own fractional style is off by one millisecond
    /// now and then: `2000-02-29T23:59:59.999` as `.998`.)
    @Test func timestampsAreTheExactTimeToTheMillisecond() {
        let wholeSeconds = Date.ISO8601FormatStyle()
        var random = SplitMix(seed: 31)
        var milliseconds: [Int64] = [
            0, -1, 86_399_999, 86_400_000, 951_782_400_000, 951_868_799_999, 4_107_542_400_000, 1_709_164_800_000,
            -2_208_988_800_000, 4_102_444_799_999,
        ]
        for _ in 0..<20_000 {
            milliseconds.append(Int64.random(in: -2_208_988_800_000...4_102_444_799_999, using: &random))
        }
        for value in milliseconds {
            let (seconds, millisecond) = (value - ((value % 1000) + 1000) % 1000, ((value % 1000) + 1000) % 1000)
            let second = Date(timeIntervalSince1970: Double(seconds / 1000)).formatted(wholeSeconds)
            let fraction = String(millisecond + 1000).dropFirst()
            let expected = second.dropLast() + "." + fraction + "Z"
            #expect(UTCTimestamp(Date(timeIntervalSince1970: Double(value) / 1000)).text == expected, "\(value)")
        }
    }

    /// The request line the router writes itself (`AnsweredRequest.write(to:)`, preformatted) is byte for byte the
    /// line swift-log's path writes for the request's metadata, for random requests: every optional member present or
    /// not, names and ids with characters JSON escapes, durations from zero to minutes.
    @Test func thePreformattedRequestLineIsTheMetadataLine() {
        var random = SplitMix(seed: 33)
        let handler = JSONLogHandler(label: "snapdiff")
        let texts = ["", "/diff", "POST", "a\"b\\c", "tab\there", "\u{1}\u{1F}", "é→🙂", "x-request-id.1:_"]
        for _ in 0..<2_000 {
            var answer = AnsweredRequest(
                method: texts.randomElement(using: &random)!, path: texts.randomElement(using: &random)!,
                status: Int.random(in: 100...599, using: &random))
            if Bool.random(using: &random) { answer.requestID = texts.randomElement(using: &random)! }
            if Bool.random(using: &random) { answer.bodyBytes = Int.random(in: 0...(1 << 30), using: &random) }
            answer.answerBytes = Bool.random(using: &random) ? Int.random(in: 0...(1 << 30), using: &random) : nil
            answer.duration = .nanoseconds(Int64.random(in: 0...600_000_000_000, using: &random))
            if Bool.random(using: &random) { answer.reason = texts.randomElement(using: &random)! }
            if Bool.random(using: &random) { answer.answeredBy = "libmicrohttpd" }
            let level: Logger.Level = Bool.random(using: &random) ? .info : .notice
            let time = Date(timeIntervalSince1970: Double.random(in: 0...4_000_000_000, using: &random))
            let event = LogEvent(
                level: level, message: "request", metadata: answer.metadata, source: "", file: "", function: "", line: 0)
            let preformatted = handler.preformattedLine(
                level: level, message: ServiceRouter.requestMessage, at: time, members: answer.memberCount
            ) { answer.write(to: &$0) }
            #expect(preformatted == handler.line(for: event, at: time), "\(answer)")
            #expect(answer.memberCount == answer.metadata.count)
        }
    }

    /// The preformatted path is taken only where its line is the handler's: not below the handler's level, not at
    /// `error` and above (those lines carry `source`), not when the handler has metadata of its own.
    @Test func thePreformattedPathIsTakenOnlyWhereItsLineIsTheHandlers() {
        var handler = JSONLogHandler(label: "x")
        #expect(handler.writesPreformatted(at: .info) && handler.writesPreformatted(at: .notice))
        #expect(!handler.writesPreformatted(at: .debug) && !handler.writesPreformatted(at: .error))
        handler.logLevel = .error
        #expect(!handler.writesPreformatted(at: .info))
        handler.logLevel = .info
        handler[metadataKey: "pod"] = "snapdiff-1"
        #expect(!handler.writesPreformatted(at: .info))
    }
}
