import FoundationEssentials
import Logging
import ProcessRuntime

/// A swift-log handler that writes one JSON object per line to standard error — what log pipelines
/// (Kubernetes, Loki, CloudWatch) parse without configuration:
///
/// ```json
/// {"time":"2026-11-21T09:38:33.120Z","level":"info","message":"request","request_id":"abc-123","method":"POST","path":"/diff","status":"200","bytes_in":"55","bytes_out":"503","duration_ms":"1.443"}
/// ```
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
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("time", Date.now.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        writer.member("level", event.level.rawValue)
        writer.member("label", label)
        writer.member("message", event.message.description)
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for key in merged.keys.sorted() {
            writer.member(key, merged[key]!.description)
        }
        if event.level >= .error {
            writer.member("source", "\(event.file):\(event.line)")
        }
        writer.endObject()
        StandardError.writeLine(writer.bytes)
    }
}
