#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPServer {
    /// How an ``HTTPServer`` binds, how many resources it may use, and how it answers on its own.
    public struct Configuration: Sendable {
        /// The numeric address or host name to bind, e.g. `"127.0.0.1"`, `"0.0.0.0"`, `"::"`.
        public var host: String
        /// The TCP port; `0` picks a free one, readable from ``HTTPServer/port`` after start.
        public var port: Int
        /// Worker threads; each owns its connections for life. Defaults to the online processor count.
        public var threads: Int
        /// The most connections served at once; further clients wait in the kernel's listen backlog until one
        /// closes.
        public var connectionLimit: Int
        /// Bytes each connection may use for the request head, buffering and response headers.
        ///
        /// The largest request head a client may send is a little under this; body chunks are
        /// handed over in pieces of at most about half of it.
        public var perConnectionMemoryLimit: Int
        /// How long a connection may stay idle (no bytes either way) before the server closes it.
        ///
        /// Rounded up to whole seconds, at least one (libmicrohttpd's epoll loop only notices some dead peers
        /// at this timeout).
        public var connectionTimeout: Duration
        /// The largest request body accepted; larger ones are refused with ``Refusal/contentTooLarge(limit:)``.
        public var maxBodyBytes: Int
        /// Spare capacity reserved, and zeroed, after a body of known length: the handler's reader may read
        /// that many bytes past the end of ``HTTPRequest/body`` (up to its capacity) without a copy. Default 0.
        public var reservedTrailingCapacity: Int = 0
        /// How long ``HTTPServer/shutdown(grace:)`` waits for in-flight requests by default.
        public var shutdownGracePeriod: Duration
        /// How long a request may take to arrive completely, head and body, counted from the moment the server
        /// begins to wait for it (the connection's start, or the end of the answer before it); a request still
        /// incomplete then is answered ``Refusal/requestTimeout(seconds:)`` and its connection closed. Rounded
        /// up to whole seconds. Default 60 s.
        public var requestTimeout: Duration = .seconds(60)
        /// The answer when the server refuses a request itself (bad framing, too large, too slow), from the
        /// reason and the request's method, path and headers (each may be empty when not yet received). The status
        /// comes from the refusal and `Connection: close` is added. Called on any thread; the place to log and
        /// count such answers, which the handler never sees. Default: a minimal RFC 9457 problem.
        public var refusalResponse:
            @Sendable (_ refusal: Refusal, _ method: String, _ path: String, _ headers: HTTPHeaders) -> HTTPResponse =
            Configuration.defaultRefusalResponse
        /// Told every message libmicrohttpd logs, with the status of the answer when the message says that
        /// libmicrohttpd answered a request on its own (a request line or head over the per-connection memory,
        /// a header line without a colon …): the place to log and count those answers. Default: ignores them.
        public var libraryMessage: @Sendable (_ message: String, _ answeredStatus: Int?) -> Void = { _, _ in }

        /// Threads that compute the answers to heavy requests, apart from the connection threads; as many more
        /// decode gzip request bodies, at a lower priority still. Default: the online processor count.
        public var computeThreads: Int = Configuration.onlineProcessorCount
        /// Heavy requests that may wait for a compute thread when all are busy; further ones are answered by
        /// ``overloadResponse`` with ``Overload/computeQueueFull(limit:)``. Default 64.
        public var computeQueueLimit: Int = 64
        /// Requests whose body has at least this many bytes are heavy: computed on a compute thread while their
        /// connection is suspended. Smaller ones are answered on the connection thread (their work is bounded
        /// by this size: well under a millisecond). Default 64 KiB.
        public var inlineBodyLimit: Int = 64 * 1024
        /// The memory every request in flight may hold together, from its head to the end of its answer.
        /// Default: unlimited.
        public var memoryBudget = MemoryBudget(capacity: .max)
        /// The bytes a request will need at its peak, from its method, its path and its body size: the body
        /// itself, the work on it and the answer. Reserved from ``memoryBudget`` before the body is read (for
        /// a chunked body, as it grows). Default: the body's bytes plus 64 KiB.
        public var memoryEstimate: @Sendable (_ method: String, _ path: String, _ bodyBytes: Int) -> Int = { _, _, bytes in
            bytes + 64 * 1024
        }
        /// The longest a request waits for room in ``memoryBudget`` before it is answered by
        /// ``overloadResponse`` with ``Overload/memoryBudgetExhausted(needed:capacity:)``. Default 5 s.
        public var admissionTimeout: Duration = .seconds(5)
        /// How long a client may read nothing of a large answer before its connection is closed and the
        /// answer's memory freed (rounded up to whole seconds). Default 10 s.
        public var sendTimeout: Duration = .seconds(10)
        /// The gzip level of answers (RFC 9110 §8.4.1.3), 1 (fastest) to 9 (smallest), or 0 for none. With a
        /// level, every answer of the handler carries `Vary: Accept-Encoding` and is gzipped when the request's
        /// `Accept-Encoding` prefers gzip (``AcceptEncoding/preferred``) and the body has at least
        /// ``compressionThreshold`` bytes (or identity is refused), if the memory budget has room for the
        /// compression at once and the result is smaller. Answers the server gives itself (refusals, 503s) are
        /// never gzipped. Default 0.
        public var compressionLevel = 0
        /// The fewest bytes of an answer worth gzipping (smaller ones gain too little for the CPU). Default 1,024.
        public var compressionThreshold = 1024
        /// The answer when the server cannot take a request now, from the reason and the request's method, path
        /// and headers (status 503 is enforced). Called on any thread; the place to log and count such answers, which
        /// the handler never sees. Default: a minimal RFC 9457 problem with `Retry-After: 1`.
        public var overloadResponse:
            @Sendable (_ reason: Overload, _ method: String, _ path: String, _ headers: HTTPHeaders) -> HTTPResponse =
            Configuration.defaultOverloadResponse

        /// Creates a configuration; every parameter has a production default.
        /// - Parameters:
        ///   - host: Address to bind. Default `"127.0.0.1"`.
        ///   - port: Port to bind, `0` for any. Default `8080`.
        ///   - threads: Worker threads. Default: online processors.
        ///   - connectionLimit: Concurrent connections. Default `1020`.
        ///   - perConnectionMemoryLimit: Bytes per connection. Default 64 KiB.
        ///   - connectionTimeout: Idle timeout. Default 30 s.
        ///   - maxBodyBytes: Largest accepted body. Default 1 MiB.
        ///   - shutdownGracePeriod: Default grace for shutdown. Default 10 s.
        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            threads: Int = Configuration.onlineProcessorCount,
            connectionLimit: Int = 1020,
            perConnectionMemoryLimit: Int = 64 * 1024,
            connectionTimeout: Duration = .seconds(30),
            maxBodyBytes: Int = 1 << 20,
            shutdownGracePeriod: Duration = .seconds(10)
        ) {
            self.host = host
            self.port = port
            self.threads = threads
            self.connectionLimit = connectionLimit
            self.perConnectionMemoryLimit = perConnectionMemoryLimit
            self.connectionTimeout = connectionTimeout
            self.maxBodyBytes = maxBodyBytes
            self.shutdownGracePeriod = shutdownGracePeriod
        }

        /// The number of processors currently online (at least 1).
        public static var onlineProcessorCount: Int {
            max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        }

        /// A minimal RFC 9457 problem with the refusal's status.
        @Sendable
        public static func defaultRefusalResponse(
            _ refusal: Refusal, method: String, path: String, headers: HTTPHeaders
        ) -> HTTPResponse {
            HTTPResponse(
                status: refusal.status,
                headers: ["Content-Type": "application/problem+json"],
                body: Array(#"{"type":"about:blank","status":\#(refusal.status)}"#.utf8)
            )
        }

        /// A 503 with a minimal RFC 9457 problem body and `Retry-After: 1`.
        @Sendable
        public static func defaultOverloadResponse(
            _ reason: Overload, method: String, path: String, headers: HTTPHeaders
        ) -> HTTPResponse {
            HTTPResponse(
                status: 503,
                headers: ["Content-Type": "application/problem+json", "Retry-After": "1"],
                body: Array(#"{"type":"about:blank","title":"Service Unavailable","status":503}"#.utf8)
            )
        }

        /// ``connectionTimeout`` in whole seconds, rounded up.
        var connectionTimeoutSeconds: Int { Self.wholeSeconds(connectionTimeout) }

        /// ``sendTimeout`` in whole seconds, rounded up.
        var sendTimeoutSeconds: Int { Self.wholeSeconds(sendTimeout) }

        /// ``requestTimeout`` in whole seconds, rounded up.
        var requestTimeoutSeconds: Int { Self.wholeSeconds(requestTimeout) }

        static func wholeSeconds(_ duration: Duration) -> Int {
            let (seconds, attoseconds) = duration.components
            // Away from zero: a fraction of a second counts as a whole one, and -0.5 s is below 0, not 0.
            return Int(seconds) + (attoseconds > 0 ? 1 : attoseconds < 0 ? -1 : 0)
        }
    }
}
