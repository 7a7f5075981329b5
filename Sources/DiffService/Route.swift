import MicroHTTP

/// One route of the service: its path, its method (and those every route answers, ``allowedMethods``), its label
/// in the metrics, its name among the index's links, the memory a request needs, and what answers it.
/// ``ServiceRouter/routes`` lists them all; routing, the metrics' route labels, the links of `GET /` and the test
/// against `openapi.yaml` all read that one table.
struct Route: Sendable {
    /// The exact path, e.g. `"/diff"` (the query is not part of it).
    var path: String
    /// The one method the path accepts.
    var method: String
    /// The `route` label of the path's metrics.
    var metricsLabel: String
    /// The route's name among the links of `GET /`, or `nil` when the index does not link it (the index itself, and
    /// the playground's script and style sheet, which the page links).
    var link: String?
    /// Peak bytes a request here needs per byte of its body, at most (``RequestMemory``).
    var memoryPerBodyByte: Int
    /// Peak bytes per body byte of a body of at most ``RequestMemory/smallBodyBytes``, when higher than
    /// ``memoryPerBodyByte`` (``RequestMemory``).
    var memoryPerSmallBodyByte: Int
    /// Bytes a request here needs beyond ``RequestMemory/fixedBytes`` and its body's share (e.g. a large answer).
    var extraMemory: Int
    /// Whether the probe listener serves it too (``ServiceConfiguration/probePort``): `/healthz` and `/readyz`.
    var isProbe: Bool
    /// Answers a request routed here.
    var answer: @Sendable (ServiceRouter, HTTPRequest) -> HTTPResponse

    /// Every method the path answers: its own, `HEAD` beside `GET` (the GET's answer without its body, RFC 9110
    /// §9.3.2), and `OPTIONS` (its `Allow`, and CORS preflights). What `Allow` lists, on a 405 too.
    var allowedMethods: [String] {
        [method] + (method == "GET" ? ["HEAD"] : []) + ["OPTIONS"]
    }

    /// Creates a route whose metrics label is its path.
    init(
        _ method: String, _ path: String, link: String?, memoryPerBodyByte: Int = 1, memoryPerSmallBodyByte: Int? = nil,
        extraMemory: Int = 0, isProbe: Bool = false,
        answer: @escaping @Sendable (ServiceRouter, HTTPRequest) -> HTTPResponse
    ) {
        self.path = path
        self.method = method
        self.metricsLabel = path
        self.link = link
        self.memoryPerBodyByte = memoryPerBodyByte
        self.memoryPerSmallBodyByte = memoryPerSmallBodyByte ?? memoryPerBodyByte
        self.extraMemory = extraMemory
        self.isProbe = isProbe
        self.answer = answer
    }
}
