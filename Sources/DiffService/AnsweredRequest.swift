import Logging

/// One answered request as the service logs and counts it: a request the handler answered, or one the HTTP
/// layer (or libmicrohttpd) answered on its own, which has a ``reason`` and no body size.
struct AnsweredRequest {
    /// The `X-Request-ID` the answer carries, or `nil` when the service did not send the answer.
    var requestID: String?
    /// The request's method (empty when its head had not arrived).
    var method: String
    /// The request's path (empty when its request line had not arrived).
    var path: String
    /// The answer's status.
    var status: Int
    /// The body's size, or `nil` when the request was answered before its body was read.
    var bodyBytes: Int?
    /// The answer body's size, or `nil` for an answer written while it is sent (logged as `"streamed"`).
    var answerBytes: Int?
    /// The time from the head to the answer.
    var duration: Duration = .zero
    /// Why the server answered on its own, if it did.
    var reason: String?
    /// Who answered when it was not the service (`libmicrohttpd`).
    var answeredBy: String?

    /// The request's log line's metadata: `status`, `bytes_in`, `bytes_out` and `duration_ms` as numbers and
    /// `streamed` as a boolean (``JSONLogHandler`` writes them as JSON numbers and booleans).
    var metadata: Logger.Metadata {
        var metadata: Logger.Metadata = [
            "method": .string(method), "path": .string(path), "status": .stringConvertible(status),
            "duration_ms": .stringConvertible(duration.milliseconds),
        ]
        if let answerBytes {
            metadata["bytes_out"] = .stringConvertible(answerBytes)
        } else {
            metadata["streamed"] = .stringConvertible(true)
        }
        if let requestID { metadata["request_id"] = .string(requestID) }
        if let bodyBytes { metadata["bytes_in"] = .stringConvertible(bodyBytes) }
        if let reason { metadata["reason"] = .string(reason) }
        if let answeredBy { metadata["answered_by"] = .string(answeredBy) }
        return metadata
    }
}

extension AnsweredRequest {
    /// How many members ``write(to:)`` writes: method, path, status, duration and the answer's size (or that it was
    /// streamed), and each optional one present.
    var memberCount: Int {
        5 + (requestID == nil ? 0 : 1) + (bodyBytes == nil ? 0 : 1) + (reason == nil ? 0 : 1) + (answeredBy == nil ? 0 : 1)
    }

    /// Writes ``metadata``'s members as ``JSONLogHandler`` writes them, in name order, without the dictionary.
    func write(to writer: inout JSONWriter) {
        if let answeredBy { writer.member(Self.answeredBy, answeredBy) }
        if let bodyBytes { writer.member(Self.bytesIn, bodyBytes) }
        if let answerBytes { writer.member(Self.bytesOut, answerBytes) }
        writer.member(Self.durationMilliseconds, duration.milliseconds)
        writer.member(Self.method, method)
        writer.member(Self.path, path)
        if let reason { writer.member(Self.reason, reason) }
        if let requestID { writer.member(Self.requestIDName, requestID) }
        writer.member(Self.status, status)
        if answerBytes == nil {
            writer.key(Self.streamed)
            writer.value(true)
        }
    }

    private static let answeredBy = JSONWriter.Name("answered_by")
    private static let bytesIn = JSONWriter.Name("bytes_in")
    private static let bytesOut = JSONWriter.Name("bytes_out")
    private static let durationMilliseconds = JSONWriter.Name("duration_ms")
    private static let method = JSONWriter.Name("method")
    private static let path = JSONWriter.Name("path")
    private static let reason = JSONWriter.Name("reason")
    private static let requestIDName = JSONWriter.Name("request_id")
    private static let status = JSONWriter.Name("status")
    private static let streamed = JSONWriter.Name("streamed")
}

extension Duration {
    /// The duration in milliseconds, to the microsecond.
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds / 1_000_000_000_000) / 1000
    }
}
