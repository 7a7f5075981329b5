import MicroHTTP

/// The memory a request needs at its peak, bounded from what is known before its body is read: its route and
/// its body size. The HTTP layer reserves this much of the memory budget before it reads the body.
///
/// The bounds are measured, not guessed: `Benchmarks/memory/shapes.py` sends the worst shapes of each route at
/// the body limit (tiny items, deep content, many sections, the largest answers, layouts in 64 columns) and
/// BENCHMARKS.md records peak RSS above the idle process ÷ body for each. A route's factor is the largest of
/// its shapes, rounded up, and covers the body itself, the parse, the engine's tables, the answer being
/// written and the answer waiting to be sent.
public enum RequestMemory {
    /// Peak bytes per body byte of a `POST /diff` of more than ``smallBodyBytes``, at most. An answer larger than
    /// twice the body is written while it is sent (``diffStreamingThreshold(bodyBytes:)``): every shape measured
    /// peaks at 7.6× or less from 4.5 MiB to 16 MiB (a section whose content has millions of members; every other
    /// shape 6.7×, 5.9× at 16 MiB; BENCHMARKS.md).
    public static let diffBytesPerBodyByte = 10
    /// Peak bytes per body byte of a `POST /diff` whose body is at most ``smallBodyBytes``: the parse keeps its
    /// buffers for the next request at those sizes and its fixed part weighs more (every shape measured peaks at
    /// 10.5× or less at 1 MiB; set at 14× when value trees made a body of zeros peak at 13.2×). A body a little
    /// over ``smallBodyBytes`` is reserved at least what the largest small one is, so that the estimate grows
    /// with the body.
    public static let diffBytesPerSmallBodyByte = 14
    /// The bodies that ``diffBytesPerSmallBodyByte`` covers: those whose parse keeps its buffers (4 MiB).
    public static let smallBodyBytes = 4 << 20
    /// Peak bytes per body byte of a `POST /layout`, at most: the worst measured shape, tiny items in one column,
    /// `pretty`, peaks at 5.8× its body at 16 MiB, 6.4× at 4.5 MiB and 8.8× at 1 MiB.
    public static let layoutBytesPerBodyByte = 10
    /// The bytes above which a `/diff` answer is written while it is sent (``DiffEndpoint``), for a body of
    /// `bodyBytes` bytes: twice the body, and at least 1 MiB. A larger answer would hold more than what it is
    /// written from (the difference, the ids, the layouts: at most a few times the body) while a client reads
    /// it; a smaller one is written whole and holds only itself.
    public static func diffStreamingThreshold(bodyBytes: Int) -> Int {
        max(1 << 20, 2 * min(max(0, bodyBytes), Int.max / 4))
    }

    /// Any request's fixed part: its state, headers, a small answer and libmicrohttpd's buffers.
    public static let fixedBytes = 64 * 1024

    /// The bytes a request to `path` with a body of `bodyBytes` bytes needs at its peak: the route's own costs
    /// (``ServiceRouter/routes``), or the body and ``fixedBytes`` for a path no route has.
    /// - Complexity: O(*m*) in the length of the path (one hash lookup).
    public static func estimate(method: String, path: String, bodyBytes: Int) -> Int {
        // Capped so that no factor overflows (a body limit is at most 1 TiB; a budget being sized may ask more).
        let body = min(max(0, bodyBytes), Int.max / 64)
        guard let position = ServiceRouter.position(of: path) else { return fixedBytes + body }
        let route = ServiceRouter.routes[position]
        // Another method is answered without reading the body (OPTIONS, 405); a HEAD computes its GET's answer.
        guard method == route.method || (method == "HEAD" && route.method == "GET") else { return fixedBytes + body }
        let perBody = max(route.memoryPerBodyByte * body, route.memoryPerSmallBodyByte * min(body, smallBodyBytes))
        return fixedBytes + route.extraMemory + perBody
    }

    /// The most any request within a body limit can need: what the budget must hold for the largest body to
    /// be served at all. A gzip body (its limit counts decoded bytes) adds its decoder's state
    /// (``ContentCoding/decoderBytes``), which the HTTP layer reserves beside the route's estimate.
    public static func largest(maxBodyBytes: Int) -> Int {
        ServiceRouter.routes.map { estimate(method: $0.method, path: $0.path, bodyBytes: maxBodyBytes) }.max()!
            + ContentCoding.decoderBytes
    }
}
