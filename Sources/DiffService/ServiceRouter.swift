import Logging
import MicroHTTP

/// The snapdiff HTTP API: routes each request through ``routes`` to `POST /diff`, `POST /layout` or an
/// operational endpoint, turns every error into RFC 9457 problem+json, and logs and counts every answer,
/// the HTTP layer's own included. One value serves every worker thread.
public struct ServiceRouter: Sendable {
    let readiness: Readiness
    private let logger: Logger
    /// The logger's handler when it writes the request lines preformatted (a ``JSONLogHandler``, the server's):
    /// ``record(_:route:level:)`` then writes each line itself, in one pre-sized buffer and one `write(2)`.
    private let lineHandler: JSONLogHandler?
    let cursors: CursorCodec
    let metrics: ServiceMetrics
    let budget: MemoryBudget?
    let cors: CORSPolicy?
    /// Whether this router answers the probe listener (``ServiceConfiguration/probePort``): only the probe routes
    /// (``Route/isProbe``), every other path a 404.
    private(set) var servesProbesOnly = false

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - readiness: The shared readiness state (`/readyz`).
    ///   - logger: Where one line per request goes.
    ///   - cursors: Seals and opens layout cursors (the key shared by every replica).
    ///   - metrics: The metrics `GET /metrics` serves.
    ///   - budget: The HTTP layer's memory budget, reported in `GET /metrics`.
    ///   - cors: Which other origins' pages may read the answers; `nil` sends no CORS header.
    public init(
        readiness: Readiness = Readiness(), logger: Logger = Logger(label: "snapdiff"), cursors: CursorCodec = CursorCodec(),
        metrics: ServiceMetrics = ServiceMetrics(), budget: MemoryBudget? = nil, cors: CORSPolicy? = nil
    ) {
        self.readiness = readiness
        self.logger = logger
        self.lineHandler = logger.metadataProvider == nil ? logger.handler as? JSONLogHandler : nil
        self.cursors = cursors
        self.metrics = metrics
        self.budget = budget
        self.cors = cors
    }

    /// The same service (its readiness, metrics, log and answers) for the probe listener: it serves `GET /healthz`
    /// and `GET /readyz` (and their `HEAD` and `OPTIONS`) only, and answers every other path 404.
    public func probesOnly() -> ServiceRouter {
        var router = self
        router.servesProbesOnly = true
        return router
    }

    /// The 503 for a request the HTTP layer could not take (memory budget, compute queue, shutdown): problem+json
    /// with `Retry-After`, logged and counted like every answer.
    ///
    /// - Parameters:
    ///   - reason: Why the request was not taken.
    ///   - method: The request's method.
    ///   - path: The request's path.
    ///   - headers: The request's headers (its `Origin` decides the CORS headers).
    public func overloaded(
        _ reason: HTTPServer.Overload, method: String, path: String, headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPResponse {
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
        case .noThreadForAnswer:
            problem = Problem(
                .overloaded,
                detail: "The server could not start a thread to write the answer while it is sent; retry after "
                    + "Retry-After seconds.")
        case .shuttingDown:
            problem = Problem(.shuttingDown, detail: "The service is shutting down and took no new work; retry on another replica.")
        }
        problem.retryAfterSeconds = 1
        return answeredByServer(problem, method: method, path: path, headers: headers, level: .notice, reason: "\(reason)")
    }

    /// The answer to a request the HTTP layer refused itself (bad framing, a body too large or sent chunked, a
    /// request too slow): problem+json, logged and counted like every answer.
    ///
    /// - Parameters:
    ///   - refusal: Why the request was refused.
    ///   - method: The request's method (empty when its head had not arrived).
    ///   - path: The request's path (empty when its request line had not arrived).
    ///   - headers: The request's headers (empty when its head had not arrived; its `Origin` decides the CORS
    ///     headers).
    public func refused(
        _ refusal: HTTPServer.Refusal, method: String, path: String, headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPResponse {
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
        case .unsupportedContentCoding(let coding):
            problem = Problem(
                .unsupportedContentCoding,
                detail: "The body's Content-Encoding \"\(coding)\" is not supported; send it as is or with "
                    + "Content-Encoding: gzip (Accept-Encoding lists what is accepted).")
        case .undecodableContent(let reason):
            problem = Problem(.undecodableContent, detail: "The body is declared Content-Encoding: gzip, but \(reason).")
        }
        return answeredByServer(problem, method: method, path: path, headers: headers, level: .info, reason: "\(refusal)")
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
        record(
            AnsweredRequest(
                method: "", path: "", status: status, answerBytes: body?.utf8.count ?? 0, reason: message,
                answeredBy: "libmicrohttpd"),
            route: nil, level: .info)
    }

    /// An answer the HTTP layer sends without the handler: with the client's `X-Request-ID` (or a new one),
    /// logged and counted.
    private func answeredByServer(
        _ problem: Problem, method: String, path: String, headers: HTTPHeaders, level: Logger.Level, reason: String?
    ) -> HTTPResponse {
        var response = problem.response(instance: path.isEmpty ? nil : path)
        // The client's id when its head arrived with a valid one, as on every other answer.
        let requestID = RequestID.accept(headers.onlyValue(of: "x-request-id")) ?? RequestID.generate()
        response.headers.replaceOrAdd(name: "X-Request-ID", value: requestID)
        cors?.apply(to: &response, origin: headers.onlyValue(of: "origin"))
        metrics.begin()
        record(
            AnsweredRequest(
                requestID: requestID, method: method, path: path, status: response.status,
                answerBytes: response.body.count, reason: reason),
            route: Self.position(of: path), level: level)
        return response
    }

    /// Counts an answered request and writes its log line.
    ///
    /// - Parameter route: The position of the request's route in ``routes``, if its path has one.
    private func record(_ answer: AnsweredRequest, route: Int?, level: Logger.Level) {
        metrics.end(
            route: route, method: answer.method, status: answer.status, bodyBytes: answer.bodyBytes ?? 0,
            duration: answer.duration)
        if let lineHandler, lineHandler.writesPreformatted(at: level) {
            lineHandler.log(level: level, message: Self.requestMessage, at: .now, members: answer.memberCount) {
                answer.write(to: &$0)
            }
        } else {
            logger.log(level: level, "\(Self.requestMessage)", metadata: answer.metadata)
        }
    }

    /// The message of every request's log line.
    static let requestMessage = "request"

    /// Answers one request; never throws, never traps on any input.
    ///
    /// Every response carries `X-Request-ID`: the client's (1 to 128 characters among letters, digits and
    /// `-_.:`) or a new random one; the request's log line carries the same id. With a ``CORSPolicy``, every
    /// response carries its CORS headers, and a preflight's 204 the preflight's.
    ///
    /// - Parameter request: The complete request.
    /// - Returns: The response, problem+json for every error.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let clock = ContinuousClock()
        let start = clock.now
        let requestID = RequestID.accept(request.header("x-request-id")) ?? RequestID.generate()
        metrics.begin()
        let position = servedPosition(of: request.path)  // found once, for the answer and the metrics
        var response = route(request, at: position)
        response.headers.replaceOrAdd(name: "X-Request-ID", value: requestID)
        if let cors {
            let origin = request.headers.onlyValue(of: "origin")  // none when sent twice
            // A preflight: OPTIONS naming the method the page wants to send (Fetch standard, CORS protocol).
            let preflight = request.method == "OPTIONS" && response.status == 204 && origin != nil
                && request.header("access-control-request-method") != nil
            let methods = position.map { Self.routes[$0].allowedMethods.filter { $0 != "OPTIONS" } }
            cors.apply(to: &response, origin: origin, preflightMethods: preflight ? methods : nil)
        }
        // A 503 is the service declining work (draining, overloaded), not a fault.
        record(
            AnsweredRequest(
                requestID: requestID, method: request.method, path: request.path, status: response.status,
                bodyBytes: request.body.count,
                answerBytes: request.method == "HEAD" ? 0 : response.stream == nil ? response.body.count : nil,
                duration: start.duration(to: clock.now)),
            route: position,
            level: response.status == 503 ? .notice : response.status >= 500 ? .error : .info)
        return response
    }

    /// Whether a Content-Type is `application/json` or any `+json` type, in any case, parameters ignored.
    static func isJSON(_ contentType: String?) -> Bool {
        HTTPHeaders.contentType(contentType, is: "application/json", orSuffix: "+json")
    }
}
