import Logging
import MicroHTTP

/// The snapdiff HTTP API: routes requests to `POST /diff` and the operational endpoints, and turns every
/// error into RFC 9457 problem+json. One value serves every worker thread.
public struct DiffService: Sendable {
    private let readiness: Readiness
    private let logger: Logger
    private let cursors: CursorCodec
    private let metrics: ServiceMetrics
    private let budget: MemoryBudget?

    /// A route: its path, its one method, and what answers it.
    private struct Route: Sendable {
        var method: String
        var answer: @Sendable (DiffService, HTTPRequest) -> HTTPResponse
    }

    private static let routes: [String: Route] = [
        "/": Route(method: "GET") { service, _ in service.index() },
        "/diff": Route(method: "POST") { service, request in
            service.json(request) {
                var statistics = DiffStatistics()
                defer { service.metrics.record(statistics) }
                return DiffEndpoint.respond(to: request.body, cursors: service.cursors, statistics: &statistics)
            }
        },
        "/layout": Route(method: "POST") { service, request in
            service.json(request) { LayoutEndpoint.respond(to: request.body, cursors: service.cursors) }
        },
        "/healthz": Route(method: "GET") { _, _ in DiffService.json(#"{"status":"ok"}"#) },
        "/readyz": Route(method: "GET") { service, _ in service.ready() },
        "/openapi.yaml": Route(method: "GET") { _, _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "application/yaml"], body: OpenAPIDocument.bytes)
        },
        "/metrics": Route(method: "GET") { service, _ in
            HTTPResponse(
                status: 200, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
                body: service.metrics.exposition(budget: service.budget))
        },
    ]

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - readiness: The shared readiness state (`/readyz`).
    ///   - logger: Where one line per request goes.
    ///   - cursors: Seals and opens layout cursors (the key shared by every replica).
    ///   - metrics: The metrics `GET /metrics` serves.
    ///   - budget: The HTTP layer's memory budget, reported in `GET /metrics`.
    public init(
        readiness: Readiness = Readiness(), logger: Logger = Logger(label: "snapdiff"), cursors: CursorCodec = CursorCodec(),
        metrics: ServiceMetrics = ServiceMetrics(), budget: MemoryBudget? = nil
    ) {
        self.readiness = readiness
        self.logger = logger
        self.cursors = cursors
        self.metrics = metrics
        self.budget = budget
    }

    /// The 503 for a request the HTTP layer could not take (memory budget, compute queue, shutdown): problem+json
    /// with `Retry-After`, logged and counted like every answer.
    ///
    /// - Parameters:
    ///   - reason: Why the request was not taken.
    ///   - method: The request's method.
    ///   - path: The request's path.
    public func overloaded(_ reason: HTTPServer.Overload, method: String, path: String) -> HTTPResponse {
        var problem: Problem
        switch reason {
        case .memoryBudgetExhausted(let needed, let capacity):
            problem = Problem(
                .overloaded,
                detail: "The request needs \(needed) bytes of the memory budget of \(capacity) bytes, and other requests "
                    + "hold the rest; retry after Retry-After seconds.")
            problem.limit = capacity
        case .computeQueueFull(let limit):
            problem = Problem(
                .overloaded,
                detail: "Every compute thread is busy and \(limit) requests already wait; retry after Retry-After seconds.")
        case .shuttingDown:
            problem = Problem(.shuttingDown, detail: "The service is shutting down and took no new work; retry on another replica.")
        }
        problem.retryAfterSeconds = 1
        return answeredByServer(problem, method: method, path: path, level: .notice, reason: "\(reason)")
    }

    /// The answer to a request the HTTP layer refused itself (bad framing, a body too large or sent chunked, a
    /// request too slow): problem+json, logged and counted like every answer.
    ///
    /// - Parameters:
    ///   - refusal: Why the request was refused.
    ///   - method: The request's method (empty when its head had not arrived).
    ///   - path: The request's path (empty when its request line had not arrived).
    public func refused(_ refusal: HTTPServer.Refusal, method: String, path: String) -> HTTPResponse {
        var problem: Problem
        switch refusal {
        case .malformed(let what):
            problem = Problem(.malformedRequest, detail: "The request's head breaks HTTP/1.1 framing: \(what).")
        case .contentTooLarge(let limit):
            problem = Problem(.contentTooLarge, detail: "The body is larger than the limit of \(limit) bytes.")
            problem.limit = limit
        case .lengthRequired:
            problem = Problem(
                .lengthRequired,
                detail: "The body was sent with Transfer-Encoding: chunked; send it with Content-Length instead.")
        case .transferCodingNotImplemented(let coding):
            problem = Problem(
                .notImplemented,
                detail: "The transfer coding \"\(coding)\" is not supported; send the body with Content-Length.")
        case .requestTimeout(let seconds):
            problem = Problem(
                .requestTimeout, detail: "The request did not arrive completely within \(seconds) seconds.")
        }
        return answeredByServer(problem, method: method, path: path, level: .info, reason: nil)
    }

    /// Logs a message of libmicrohttpd's; one that reports an answer libmicrohttpd sent on its own is logged as
    /// that request's line and counted.
    ///
    /// - Parameters:
    ///   - message: libmicrohttpd's message.
    ///   - answeredStatus: The status of the answer it sent, if the message reports one.
    public func libraryMessage(_ message: String, answeredStatus: Int?) {
        guard let status = answeredStatus else {
            logger.debug("libmicrohttpd", metadata: ["detail": "\(message)"])
            return
        }
        // The message quotes the answer's body: "… code is 400 ('<html>…</html>')). Closing connection."
        let body = message.firstRange(of: "('").flatMap { start in
            message.range(of: "'))", options: .backwards).map { message[start.upperBound..<$0.lowerBound] }
        }
        metrics.begin()
        metrics.end(path: "", method: "", status: status, bodyBytes: 0, duration: .zero)
        logger.info(
            "request",
            metadata: [
                "method": "", "path": "", "status": "\(status)", "bytes_in": "0", "bytes_out": "\(body?.utf8.count ?? 0)",
                "duration_ms": "0", "answered_by": "libmicrohttpd", "reason": "\(message)",
            ])
    }

    /// An answer the HTTP layer sends without the handler: with a new request id, logged and counted.
    private func answeredByServer(
        _ problem: Problem, method: String, path: String, level: Logger.Level, reason: String?
    ) -> HTTPResponse {
        var response = problem.response(instance: path.isEmpty ? nil : path)
        let requestID = RequestID.generate()
        response.headers.replaceOrAdd(name: "X-Request-ID", value: requestID)
        metrics.begin()
        metrics.end(path: path, method: method, status: response.status, bodyBytes: 0, duration: .zero)
        var metadata: Logger.Metadata = [
            "request_id": "\(requestID)", "method": "\(method)", "path": "\(path)", "status": "\(response.status)",
            "bytes_in": "0", "bytes_out": "\(response.body.count)", "duration_ms": "0",
        ]
        if let reason { metadata["reason"] = "\(reason)" }
        logger.log(level: level, "request", metadata: metadata)
        return response
    }

    /// Answers one request; never throws, never traps on any input.
    ///
    /// Every response carries `X-Request-ID`: the client's (1 to 128 characters among letters, digits and
    /// `-_.:`) or a new random one; the request's log line carries the same id.
    ///
    /// - Parameter request: The complete request.
    /// - Returns: The response, problem+json for every error.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let clock = ContinuousClock()
        let start = clock.now
        let requestID = RequestID.accept(request.header("x-request-id")) ?? RequestID.generate()
        metrics.begin()
        var response = route(request)
        response.headers.replaceOrAdd(name: "X-Request-ID", value: requestID)
        let elapsed = start.duration(to: clock.now)
        metrics.end(
            path: request.path, method: request.method, status: response.status, bodyBytes: request.body.count,
            duration: elapsed)
        // A 503 is the service declining work (draining, overloaded), not a fault.
        logger.log(
            level: response.status == 503 ? .notice : response.status >= 500 ? .error : .info,
            "request",
            metadata: [
                "request_id": "\(requestID)", "method": "\(request.method)", "path": "\(request.path)",
                "status": "\(response.status)", "bytes_in": "\(request.body.count)",
                "bytes_out": "\(response.body.count)", "duration_ms": "\(elapsed.milliseconds)",
            ])
        return response
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        guard let route = Self.routes[request.path] else {
            return Problem(.notFound, detail: "No resource at \(request.path); see GET / for the routes.")
                .response(instance: request.path)
        }
        guard route.method == request.method else {
            var problem = Problem(
                .methodNotAllowed, detail: "\(request.path) accepts \(route.method), not \(request.method).")
            problem.allowedMethods = [route.method]
            return problem.response(instance: request.path)
        }
        return route.answer(self, request)
    }

    /// Answers a JSON POST, or 415 when the body is not declared as JSON.
    private func json(_ request: HTTPRequest, _ answer: () -> HTTPResponse) -> HTTPResponse {
        guard Self.isJSON(request.header("content-type")) else {
            let given = request.header("content-type").map { "Content-Type \($0)" } ?? "no Content-Type"
            return Problem(
                .unsupportedMediaType,
                detail: "\(given); send application/json (or any +json type), e.g. curl --json @request.json.")
                .response(instance: request.path)
        }
        return answer()
    }

    private func index() -> HTTPResponse {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("name", ServiceInfo.name)
        writer.member("version", ServiceInfo.version)
        writer.key("links")
        writer.beginObject()
        writer.member("diff", "/diff")
        writer.member("layout", "/layout")
        writer.member("openapi", "/openapi.yaml")
        writer.member("health", "/healthz")
        writer.member("ready", "/readyz")
        writer.member("metrics", "/metrics")
        writer.endObject()
        writer.endObject()
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: writer.bytes)
    }

    private func ready() -> HTTPResponse {
        guard readiness.isReady else {
            var problem = Problem(.shuttingDown, detail: "The service is shutting down and takes no new work.")
            problem.retryAfterSeconds = 1
            return problem.response(instance: "/readyz")
        }
        return Self.json(#"{"status":"ready"}"#)
    }

    private static func json(_ text: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(text.utf8))
    }

    /// Whether a Content-Type is `application/json` or any `+json` type, parameters ignored.
    ///
    /// Works on the header's bytes (ASCII case-insensitive): it runs for every POST.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let utf8 = contentType.utf8
        let bytes = utf8.span
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var end = bytes.count
        for index in bytes.indices where bytes[index] == UInt8(ascii: ";") {
            end = index
            break
        }
        var start = 0
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        func endsWith(_ suffix: String) -> Bool {
            let suffixUTF8 = suffix.utf8
            let expected = suffixUTF8.span
            guard end - start >= expected.count else { return false }
            var matched = true
            for index in expected.indices {
                let byte = bytes[end - expected.count + index]
                // ASCII lowercase: only letters change (suffixes here are lowercase).
                let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                matched = matched && lower == expected[index]
            }
            return matched
        }
        if end - start == 16 && endsWith("application/json") { return true }
        guard endsWith("+json") else { return false }
        for index in start ..< end - 5 where bytes[index] == UInt8(ascii: "/") { return true }
        return false
    }
}

extension Duration {
    /// The duration in milliseconds, to the microsecond.
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds / 1_000_000_000_000) / 1000
    }
}
