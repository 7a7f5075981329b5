import MicroHTTP

extension ServiceRouter {
    /// Every route of the service, the one table of them: ``route(_:at:)`` dispatches through it,
    /// ``ServiceMetrics`` labels by it, ``RequestMemory`` reserves by it, and `GET /` links it.
    static let routes: [Route] = [
        Route("GET", "/", link: nil) { router, _ in router.index() },
        Route(
            "POST", "/diff", link: "diff", memoryPerBodyByte: RequestMemory.diffBytesPerBodyByte,
            memoryPerSmallBodyByte: RequestMemory.diffBytesPerSmallBodyByte
        ) { router, request in
            router.json(request) {
                var statistics = DiffStatistics()
                defer { router.metrics.record(statistics) }
                return DiffEndpoint.respond(
                    to: request.body, cursors: router.cursors, statistics: &statistics,
                    streamingAbove: RequestMemory.diffStreamingThreshold(bodyBytes: request.body.count))
            }
        },
        Route("POST", "/layout", link: "layout", memoryPerBodyByte: RequestMemory.layoutBytesPerBodyByte) { router, request in
            router.json(request) { LayoutEndpoint.respond(to: request.body, cursors: router.cursors) }
        },
        Route("GET", "/openapi.yaml", link: "openapi", extraMemory: OpenAPIDocument.bytes.count) { _, _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "application/yaml"], body: OpenAPIDocument.bytes)
        },
        playground(PlaygroundPage.html, link: "playground"),
        playground(PlaygroundPage.script, link: nil),
        playground(PlaygroundPage.styleSheet, link: nil),
        Route("GET", "/healthz", link: "health", isProbe: true) { _, _ in json(#"{"status":"ok"}"#) },
        Route("GET", "/readyz", link: "ready", isProbe: true) { router, _ in router.ready() },
        Route("GET", "/metrics", link: "metrics") { router, _ in
            HTTPResponse(
                status: 200, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
                body: router.metrics.exposition(budget: router.budget))
        },
    ]

    /// The route that serves one of the playground's assets.
    private static func playground(_ asset: PlaygroundPage.Asset, link: String?) -> Route {
        Route("GET", asset.path, link: link, extraMemory: asset.bytes.count) { _, _ in asset.response }
    }

    /// The position in ``routes`` of each path.
    private static let positions = Dictionary(uniqueKeysWithValues: routes.indices.map { (routes[$0].path, $0) })

    /// The position in ``routes`` of the route at `path`, or `nil` when no route has that path.
    /// - Complexity: O(*m*) in the length of the path (one hash lookup).
    static func position(of path: String) -> Int? {
        positions[path]
    }

    /// The position in ``routes`` of the route at `path` that this router serves: on the probe listener
    /// (``servesProbesOnly``) only a probe route's.
    func servedPosition(of path: String) -> Int? {
        guard let position = Self.position(of: path) else { return nil }
        return !servesProbesOnly || Self.routes[position].isProbe ? position : nil
    }

    /// The answer of the route for a request's path and method (a `HEAD` is answered as a `GET`, an `OPTIONS`
    /// with 204 and `Allow`, `OPTIONS *` with every method of the service), or the problem (404, 405) when there
    /// is none.
    ///
    /// - Parameter position: ``position(of:)`` of the request's path.
    func route(_ request: HTTPRequest, at position: Int?) -> HTTPResponse {
        if request.path == "*" && request.method == "OPTIONS" {
            // The server as a whole (RFC 9110 §9.3.7): every method some route accepts.
            let methods = Self.routes.filter { !servesProbesOnly || $0.isProbe }.flatMap(\.allowedMethods)
            let allowed = ["GET", "HEAD", "POST", "OPTIONS"].filter(methods.contains)
            return HTTPResponse(status: 204, headers: ["Allow": allowed.joined(separator: ", ")])
        }
        guard let position else {
            let detail = servesProbesOnly
                ? "No resource at \(request.path) on the probe port, which serves only GET /healthz and GET /readyz."
                : "No resource at \(request.path); see GET / for the routes."
            return Problem(.notFound, detail: detail).response(instance: request.path)
        }
        let route = Self.routes[position]
        switch request.method {
        case route.method:
            return route.answer(self, request)
        case "HEAD" where route.method == "GET":
            // The GET's status and headers; libmicrohttpd sends no body to a HEAD (and the GET's Content-Length).
            return route.answer(self, request)
        case "OPTIONS":
            // RFC 9110 §9.3.7; a CORS preflight gets its headers in respond(to:).
            return HTTPResponse(status: 204, headers: ["Allow": route.allowedMethods.joined(separator: ", ")])
        default:
            let methods = route.allowedMethods
            let accepted = methods.joined(separator: ", ")
            var problem = Problem(.methodNotAllowed, detail: "\(request.path) accepts \(accepted), not \(request.method).")
            problem.allowedMethods = methods
            return problem.response(instance: request.path)
        }
    }

    /// `GET /`: the service's name and version, and a link to every route but itself.
    private func index() -> HTTPResponse {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("name", ServiceInfo.name)
        writer.member("version", ServiceInfo.version)
        writer.key("links")
        writer.beginObject()
        for route in Self.routes {
            if let link = route.link { writer.member(link, route.path) }
        }
        writer.endObject()
        writer.endObject()
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: writer.bytes)
    }

    /// `GET /readyz`: ready, or 503 once shutdown has begun.
    private func ready() -> HTTPResponse {
        guard readiness.isReady else {
            var problem = Problem(.shuttingDown, detail: "The service is shutting down and takes no new work.")
            problem.retryAfterSeconds = 1
            return problem.response(instance: "/readyz")
        }
        return Self.json(#"{"status":"ready"}"#)
    }

    /// A 200 with a fixed JSON body.
    private static func json(_ text: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(text.utf8))
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
}
