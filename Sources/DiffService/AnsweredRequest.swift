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

extension Duration {
    /// The duration in milliseconds, to the microsecond.
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds / 1_000_000_000_000) / 1000
    }
}
