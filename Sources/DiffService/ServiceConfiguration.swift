import MicroHTTP

/// How the service binds and what it allows. Defaults suit a laptop (127.0.0.1:8080); in a container set
/// `host` to `0.0.0.0`.
public struct ServiceConfiguration: Sendable {
    /// Address to bind. Default `127.0.0.1`; `0.0.0.0` (or `::`) in a container.
    public var host = "127.0.0.1"
    /// Port to bind; 0 picks a free one. Default 8080.
    public var port = 8080
    /// Worker threads. Default: the online processor count.
    public var threads = HTTPServer.Configuration.onlineProcessorCount
    /// The largest request body in bytes. Default 64 MiB (a 100,000-item snapshot pair is ~25–30 MB).
    public var maxBodyBytes = 64 << 20
    /// Concurrent connections. Default 1,000.
    public var connectionLimit = 1000
    /// Idle connection timeout. Default 30 s: an idle or stalled client is disconnected after it.
    public var connectionTimeout: Duration = .seconds(30)
    /// How long shutdown waits for in-flight requests. Default 10 s.
    public var shutdownGracePeriod: Duration = .seconds(10)

    /// The secret layout cursors are sealed with; the same on every replica. Default: a built-in secret
    /// (cursors then detect corruption but can be forged; set `SNAPDIFF_CURSOR_KEY`).
    public var cursorSecret = CursorCodec.defaultSecret

    /// Creates the default configuration.
    public init() {}

    /// The HTTP layer's configuration; the 413 answer is the service's problem+json.
    var http: HTTPServer.Configuration {
        var configuration = HTTPServer.Configuration(
            host: host, port: port, threads: threads, connectionLimit: connectionLimit,
            connectionTimeout: connectionTimeout, maxBodyBytes: maxBodyBytes, shutdownGracePeriod: shutdownGracePeriod)
        var problem = Problem(.contentTooLarge, detail: "The body is larger than the limit of \(maxBodyBytes) bytes.")
        problem.limit = maxBodyBytes
        configuration.payloadTooLargeResponse = problem.response(instance: nil)
        configuration.bodyCapacityPadding = 64
        return configuration
    }
}
