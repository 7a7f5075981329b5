internal import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server on libmicrohttpd that hands each complete request to one synchronous handler, within a
/// memory budget.
///
/// libmicrohttpd's connection threads (``Configuration/threads`` of them, epoll, each owning its connections
/// for life) read requests and write answers. A light request (body under ``Configuration/inlineBodyLimit``:
/// probes, metrics, small diffs) is answered on its connection thread; a heavy one is computed on one of
/// ``Configuration/computeThreads`` compute threads while its connection is suspended, so that no connection
/// waits for another's computation. Bodies are read fully before the handler is called. The answer to a `HEAD`
/// goes out without its body (libmicrohttpd sends the head, with the body's `Content-Length`), so a handler
/// answers `HEAD` as it answers `GET`.
///
/// The edge is strict (RFC 9112): a head with ambiguous or invalid framing is answered before any body byte is
/// read, through ``Configuration/refusalResponse``, and its connection closed (400; 411 for a chunked body, 501
/// for another transfer coding); so is a body over ``Configuration/maxBodyBytes`` (413) and a request not
/// received within ``Configuration/requestTimeout`` (408). Every connection is closed gracefully: the server
/// reads and discards what a client still sends after the last answer, so that the client receives that answer
/// whole rather than a reset.
///
/// Before reading a body the server reserves what the request will need at its peak
/// (``Configuration/memoryEstimate``) in ``Configuration/memoryBudget``; a request that does not fit waits up
/// to ``Configuration/admissionTimeout`` with its connection suspended, and is then answered
/// ``Configuration/overloadResponse`` (503). Once answered, a request holds only its answer's bytes until they
/// are sent, or until its client has read nothing for ``Configuration/sendTimeout``.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 8080)) { request in
///     HTTPResponse(status: 200, body: Array("hello\n".utf8))
/// }
/// try server.start()
/// // … until the process is told to stop (the executable owns its signals)
/// server.shutdown()
/// ```
public final class HTTPServer: Sendable {
    /// The configuration the server was created with.
    public let configuration: Configuration
    /// State shared with the C callbacks; retained by C from start until the daemon stops.
    let context: ServerContext
    private let lifecycle = Mutex<Lifecycle>(.idle)

    /// Creates a stopped server.
    /// - Parameters:
    ///   - configuration: Binding, limits and timeouts.
    ///   - handler: Turns a complete request into a response; called concurrently on worker threads.
    public init(
        configuration: Configuration = Configuration(),
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) {
        self.configuration = configuration
        self.context = ServerContext(configuration: configuration, handler: handler)
    }

    deinit {
        // Only reached if the owner never called shutdown(): stop without grace.
        if case .running(let daemon, _) = lifecycle.withLock({ $0 }) {
            resumeSuspendedConnections()
            context.answerPipes.abandonAll()
            MHD_stop_daemon(daemon.pointer)
            context.janitor.stop()
            Unmanaged.passUnretained(context).release()
        } else {
            context.decodePool.close()
            context.pool.close()
        }
    }

    /// Binds the socket and starts the worker threads; returns once the server accepts connections.
    ///
    /// - Throws: ``HTTPServerError/invalidConfiguration(_:allowed:)``, ``HTTPServerError/invalidHost(_:)``,
    ///   ``HTTPServerError/alreadyStarted``, or ``HTTPServerError/startFailed(port:errno:)``
    ///   (e.g. `EADDRINUSE`).
    public func start() throws(HTTPServerError) {
        let configuration = self.configuration
        let context = self.context
        try lifecycle.withLock { (state: inout Lifecycle) throws(HTTPServerError) in
            guard case .idle = state else { throw .alreadyStarted }
            try configuration.validate()
            guard context.pool.isRunning, context.decodePool.isRunning else {
                throw .startFailed(port: configuration.port, errno: EAGAIN)
            }
            let address = try SocketAddress(host: configuration.host, port: configuration.port)
            guard context.janitor.start() else { throw .startFailed(port: configuration.port, errno: EAGAIN) }
            var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
                | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
            if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }

            let cls = Unmanaged.passRetained(context).toOpaque()  // released after MHD_stop_daemon
            errno = 0
            let started = address.withSockAddr { sockaddr in
                CMicroHTTPD_start_daemon(
                    flags,
                    microHTTPLog, cls,
                    microHTTPNotifyConnection, cls,
                    sockaddr,
                    UInt32(configuration.threads),
                    UInt32(configuration.connectionLimit),
                    configuration.perConnectionMemoryLimit,
                    UInt32(configuration.connectionTimeoutSeconds),
                    microHTTPAccessHandler, cls,
                    microHTTPRequestCompleted, cls,
                    microHTTPURILog, cls
                )
            }
            guard let daemon = started else {
                let error = HTTPServerError.startFailure(port: configuration.port)
                Unmanaged<ServerContext>.fromOpaque(cls).release()
                context.janitor.stop()
                throw error
            }
            let port = CMicroHTTPD_get_daemon_info(daemon, .DAEMON_INFO_BIND_PORT)
                .map { Int($0.pointee.port) } ?? configuration.port
            state = .running(DaemonHandle(pointer: daemon), port: port)
        }
    }

    /// The bound TCP port while the server runs or shuts down (the real one when configured with 0).
    public var port: Int? {
        switch lifecycle.withLock({ $0 }) {
        case .running(_, let port), .stopping(let port): return port
        case .idle, .stopped: return nil
        }
    }

    /// Whether ``shutdown(grace:)`` has begun: set once the server has stopped listening (a readiness probe
    /// should then fail).
    public var isShuttingDown: Bool {
        context.isShuttingDown.load(ordering: .relaxed)
    }

    /// Stops gracefully and blocks until the daemon has stopped.
    ///
    /// Stops accepting (closing the listening socket at once, so new connections are refused; those it had
    /// already queued are served, not reset), answers every response from then on with `Connection: close`,
    /// waits until no connection is left or no request has been in flight for 500 ms, for at most `grace`, then
    /// closes the sending side of every connection left (a FIN: its client sees the end before it sends more),
    /// waits up to 500 ms for the clients to close, and stops the worker threads. A handler still running when
    /// `grace` ends is waited for, and its response is lost. After each connection's last answer, what its client
    /// still sends is read and discarded until it closes, for at most two seconds, so that no answer is lost to a
    /// reset; a client that still sends after the daemon has stopped (or past those two seconds) may see one.
    ///
    /// Blocks the calling thread (call it from `main` once told to stop, not from a handler). A second call,
    /// concurrent or later, or a call on a never-started server returns at once.
    ///
    /// - Parameter grace: The longest wait for in-flight requests; `nil` uses
    ///   ``Configuration/shutdownGracePeriod``.
    public func shutdown(grace: Duration? = nil) {
        let daemon: DaemonHandle? = lifecycle.withLock { state in
            switch state {
            case .running(let daemon, let port):
                state = .stopping(port: port)
                return daemon
            case .idle:
                state = .stopped
                return nil
            case .stopping, .stopped:
                return nil
            }
        }
        guard let daemon else {
            context.isShuttingDown.store(true, ordering: .relaxed)
            context.decodePool.close()
            context.pool.close()
            return
        }

        // Only once nothing can connect do answers say `Connection: close`: a client told so earlier would
        // reconnect into the listening socket's queue just before it closes, and be reset.
        let listener = stopListening(daemon)
        context.isShuttingDown.store(true, ordering: .relaxed)

        // Done when no connection is left, or when no request has been in flight for a settle
        // period: a worker that was busy in the handler may still have unparsed requests of its
        // other connections in their socket buffers, which it parses right after it finishes.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: grace ?? configuration.shutdownGracePeriod)
        var quietSince: ContinuousClock.Instant?
        while clock.now < deadline, currentConnections(of: daemon) > 0 {
            if context.inFlightRequests.load(ordering: .relaxed) > 0 {
                quietSince = nil
            } else if let since = quietSince {
                if since.duration(to: clock.now) >= Self.shutdownSettlePeriod { break }
            } else {
                quietSince = clock.now
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&pause, nil)
        }

        // Every suspended connection is resumed before the daemon stops (libmicrohttpd requires it): requests
        // still waiting for memory or for a compute thread are answered 503, running computations finish.
        // Then the connections get a moment to send those answers.
        resumeSuspendedConnections()
        let answered = clock.now.advanced(by: Self.shutdownSettlePeriod)
        while clock.now < answered, context.inFlightRequests.load(ordering: .relaxed) > 0 {
            var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&pause, nil)
        }

        // The connections left wait for a request: close them the way a client sees coming (a FIN), and give
        // the clients a moment to close their side before the daemon cuts what is left.
        closeIdleConnections()
        let closed = clock.now.advanced(by: Self.shutdownSettlePeriod)
        while clock.now < closed, currentConnections(of: daemon) > 0 {
            var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
            nanosleep(&pause, nil)
        }
        // Answers still being written end here (their connections close): no writer resumes a connection of a
        // stopped daemon.
        context.answerPipes.abandonAll()
        MHD_stop_daemon(daemon.pointer)
        if listener >= 0 { close(listener) }
        context.janitor.stop()  // after the lingering sockets are drained
        Unmanaged.passUnretained(context).release()  // balances passRetained in start()
        lifecycle.withLock { $0 = .stopped }
    }

    /// Stops accepting, handing the connections the listening socket already queued to the daemon first, and
    /// returns the socket (closed only once the daemon has stopped: its threads may still look at it), or -1.
    ///
    /// A connection in that queue is established for its client, which may have sent a request; closing the
    /// socket would reset it. Handed over, it is served like any other (answered `Connection: close`), and this
    /// waits (at most a second) until the daemon's threads have taken them, so that shutdown's waits count them.
    /// Then the socket stops listening (`shutdown`), and new connections are refused. One that completes in the
    /// instant between the last `accept` and that is still reset by the kernel.
    private func stopListening(_ daemon: DaemonHandle) -> Int32 {
        let listener = MHD_quiesce_daemon(daemon.pointer)
        guard listener >= 0 else { return -1 }
        let flags = fcntl(listener, F_GETFL)
        if flags >= 0 { _ = fcntl(listener, F_SETFL, flags | O_NONBLOCK) }
        let registeredBefore = context.janitor.registeredCount
        var handedOver = 0
        // At most a connection limit's worth: clients that keep connecting cannot hold shutdown here.
        var attempts = configuration.connectionLimit
        while attempts > 0 {
            attempts -= 1
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &address) { storage in
                storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                break  // EAGAIN: the queue is empty (any other failure: what is left is reset, as before)
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)  // as libmicrohttpd's own accept4 does (it sets non-blocking)
            // On failure libmicrohttpd has closed the socket (at its connection limit, say).
            let added = withUnsafePointer(to: &address) { storage in
                storage.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    MHD_add_connection(daemon.pointer, client, $0, length)
                }
            }
            if added == .YES { handedOver += 1 }
        }
        _ = Glibc.shutdown(listener, Int32(SHUT_RD))
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(1))
        while handedOver > 0, context.janitor.registeredCount - registeredBefore < handedOver, clock.now < deadline {
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            nanosleep(&pause, nil)
        }
        return listener
    }

    /// Closes the sending side of every connection between requests (a FIN): its client sees the end before
    /// it sends another request, and closes; a request already on its way is not answered, and the connection
    /// closes cleanly.
    private func closeIdleConnections() {
        let now = ContinuousClock.now
        for connection in context.janitor.openConnections() {
            connection.guarded.withLock { guarded in
                guard guarded.betweenRequests, !guarded.cut, !guarded.closed else { return }
                guarded.cut = true
                guarded.deadline = nil
                guarded.closeAt = now.advanced(by: ConnectionJanitor.closeGrace)
                Glibc.shutdown(connection.socket, Int32(SHUT_WR))
            }
        }
    }

    /// Refuses the requests waiting for memory, cancels the queued decodings and computations and waits for the
    /// running ones: afterwards no connection is suspended, or will be. (The decodings first: one that finishes
    /// may still hand its work to the compute pool.)
    private func resumeSuspendedConnections() {
        context.budget.close()
        context.decodePool.close()
        context.pool.close()
    }

    /// How long no request may be in flight before shutdown closes the remaining idle connections.
    ///
    /// 500 ms: a worker that was busy diffing a large request parses the requests waiting on its other
    /// connections only afterwards, and on a loaded machine that gap exceeded 50 ms (a request the client had
    /// sent was then cut at shutdown); idle keep-alive clients cost at most this much extra shutdown time.
    static let shutdownSettlePeriod = Duration.milliseconds(500)

    /// Requests currently between their request line and their completion (for tests and metrics).
    var inFlightRequestCount: Int {
        context.inFlightRequests.load(ordering: .relaxed)
    }

    /// Connections libmicrohttpd currently holds open.
    private func currentConnections(of daemon: DaemonHandle) -> Int {
        CMicroHTTPD_get_daemon_info(daemon.pointer, .DAEMON_INFO_CURRENT_CONNECTIONS)
            .map { Int($0.pointee.num_connections) } ?? 0
    }
}
