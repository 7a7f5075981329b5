import FoundationEssentials
import Logging
import ProcessRuntime

/// A swift-log handler that writes one JSON object per line to standard error — what log pipelines
/// (Kubernetes, Loki, CloudWatch) parse without configuration:
///
/// ```json
/// {"time":"2026-11-21T09:38:33.120Z","level":"info","label":"snapdiff","message":"request","bytes_in":55,"bytes_out":503,"duration_ms":1.443,"method":"POST","path":"/diff","request_id":"abc-123","status":200}
/// ```
///
/// A metadata value given as a number or a boolean (`.stringConvertible(200)`, `.stringConvertible(true)`) is
/// written as a JSON number or boolean, so that pipelines can sum and chart it; any other value as a string.
/// The line is written into one buffer sized for it and handed to the kernel in one `write(2)`.
public struct JSONLogHandler: LogHandler {
    /// The handler's own metadata, merged under each message's.
    public var metadata: Logger.Metadata = [:]
    /// The lowest level written.
    public var logLevel: Logger.Level = .info
    private let label: String

    /// Creates a handler (the signature `LoggingSystem.bootstrap` expects).
    public init(label: String) {
        self.label = label
    }

    /// Reads or writes one metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line.
    public func log(event: LogEvent) {
        StandardError.writeLines(line(for: event, at: Date.now))
    }

    /// The line `log(event:)` writes for an event at `time`, its newline included.
    func line(for event: LogEvent, at time: Date) -> [UInt8] {
        let merged = metadata.isEmpty ? event.metadata ?? [:] : metadata.merging(event.metadata ?? [:]) { _, new in new }
        var writer = beginLine(at: time, level: event.level, message: event.message.description, members: merged.count)
        // Members in name order, so that every line of a kind has one shape.
        for key in merged.keys.sorted() {
            writer.key(key)
            Self.write(merged[key]!, to: &writer)
        }
        if event.level >= .error {
            writer.member(Self.source, "\(event.file):\(event.line)")
        }
        writer.endObject()
        writer.appendNewline()
        return writer.bytes
    }

    /// Whether ``log(level:message:at:members:_:)`` writes the line `log(event:)` would for a message at `level`: the
    /// handler writes that level, has no metadata of its own, and adds no `source` at it.
    func writesPreformatted(at level: Logger.Level) -> Bool {
        level >= logLevel && level < .error && metadata.isEmpty
    }

    /// Writes one line whose members `members` writes itself, in name order, in one `write(2)`: the line
    /// `log(event:)` writes for the same members given as metadata, without building swift-log's metadata
    /// dictionary, sorting its names or boxing its numbers. The access log's path, a line per request.
    ///
    /// - Precondition: ``writesPreformatted(at:)`` for `level` (else the line would differ from `log(event:)`'s).
    /// - Parameters:
    ///   - level: The line's level.
    ///   - message: The line's message.
    ///   - time: The line's time.
    ///   - count: How many members `members` writes (the buffer is sized for them).
    ///   - members: Writes the members, in name order.
    func log(
        level: Logger.Level, message: String, at time: Date, members count: Int, _ members: (inout JSONWriter) -> Void
    ) {
        StandardError.writeLines(preformattedLine(level: level, message: message, at: time, members: count, members))
    }

    /// The line ``log(level:message:at:members:_:)`` writes, its newline included.
    func preformattedLine(
        level: Logger.Level, message: String, at time: Date, members count: Int, _ members: (inout JSONWriter) -> Void
    ) -> [UInt8] {
        var writer = beginLine(at: time, level: level, message: message, members: count)
        members(&writer)
        writer.endObject()
        writer.appendNewline()
        return writer.bytes
    }

    /// A writer holding a line's opening and its first members (time, level, label, message), sized for `count`
    /// more.
    private func beginLine(at time: Date, level: Logger.Level, message: String, members count: Int) -> JSONWriter {
        var writer = JSONWriter(capacity: 192 + 48 * count)
        writer.beginObject()
        writer.key(Self.time)
        writer.value(UTCTimestamp(time).text)
        writer.member(Self.level, level.rawValue)
        writer.member(Self.label, label)
        writer.member(Self.message, message)
        return writer
    }

    /// A metadata value: integers, finite doubles and booleans as JSON numbers and booleans, the rest as text.
    private static func write(_ value: Logger.Metadata.Value, to writer: inout JSONWriter) {
        switch value {
        case .string(let text):
            writer.value(text)
        case .stringConvertible(let convertible):
            // The type is compared first: a cast that fails costs a search of the conformances.
            let type = type(of: convertible)
            if type == Int.self, let number = convertible as? Int {
                writer.value(number)
            } else if type == Double.self, let number = convertible as? Double, number.isFinite {
                writer.value(number)
            } else if type == Bool.self, let flag = convertible as? Bool {
                writer.value(flag)
            } else {
                writer.value(convertible.description)
            }
        default:
            writer.value(value.description)
        }
    }

    private static let time = JSONWriter.Name("time")
    private static let level = JSONWriter.Name("level")
    private static let label = JSONWriter.Name("label")
    private static let message = JSONWriter.Name("message")
    private static let source = JSONWriter.Name("source")
}
