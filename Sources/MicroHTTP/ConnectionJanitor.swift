import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread that enforces the request deadline and closes connections gracefully.
///
/// - **Deadline.** Every ``tick`` it cuts each connection whose request deadline has passed: it asks
///   ``timeoutResponse`` for the 408 answer, writes it on the socket and closes the sending side (a FIN);
///   ``closeGrace`` later it shuts the receiving side too, so that libmicrohttpd closes a connection whose client
///   keeps trickling bytes.
/// - **Lingering close.** libmicrohttpd closes a socket right after its last answer, and a socket closed with
///   unread bytes in its receive queue sends a reset, which can destroy the answer before the client reads it
///   (a 413 sent before the body was read, a request that arrived while the server stopped). So at each close
///   notice the janitor keeps a duplicate of the socket, shuts its sending side, and reads and discards what
///   the client still sends until the client closes too, or for at most ``lingerTimeout``; only then is the
///   socket really closed.
final class ConnectionJanitor: Sendable {
    /// How often deadlines are checked and lingering sockets polled.
    static let tick: Int32 = 50  // milliseconds
    /// How long a cut connection may go on sending before its receiving side is shut too.
    static let closeGrace = Duration.seconds(2)
    /// The longest a closed connection's socket is drained before it is closed anyway.
    static let lingerTimeout = Duration.seconds(2)

    private struct Lingering {
        var socket: Int32
        var until: ContinuousClock.Instant
    }

    private struct State {
        var connections: [ObjectIdentifier: ConnectionState] = [:]
        /// Connections registered since the janitor was made.
        var registered = 0
        var lingering: [Lingering] = []
        var running = true
        var thread: pthread_t?
    }

    private let state = Mutex(State())
    /// The most sockets kept lingering at once; past it a closed socket is closed at once.
    private let lingerLimit: Int
    /// The 408 answer for a request (method, path and headers, empty when not yet known) cut at its deadline.
    private let timeoutResponse: @Sendable (_ method: String, _ path: String, _ headers: HTTPHeaders) -> HTTPResponse

    init(lingerLimit: Int, timeoutResponse: @escaping @Sendable (String, String, HTTPHeaders) -> HTTPResponse) {
        self.lingerLimit = lingerLimit
        self.timeoutResponse = timeoutResponse
    }

    /// Starts the thread (again, after a ``stop()``). - Returns: `false` if it could not be created.
    func start() -> Bool {
        state.withLock { $0.running = true }
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { argument in
            let janitor = Unmanaged<ConnectionJanitor>.fromOpaque(argument!).takeRetainedValue()
            janitor.run()
            return nil
        }, box.toOpaque())
        guard created == 0 else {
            box.release()
            return false
        }
        state.withLock { $0.thread = thread }
        return true
    }

    /// Lets every lingering socket finish (at most ``lingerTimeout``), then stops the thread and waits for it.
    func stop() {
        let thread: pthread_t? = state.withLock { state in
            state.running = false
            defer { state.thread = nil }
            return state.thread
        }
        if let thread { pthread_join(thread, nil) }
    }

    /// Starts watching a connection's deadline.
    func register(_ connection: ConnectionState) {
        state.withLock { state in
            state.connections[ObjectIdentifier(connection)] = connection
            state.registered += 1
        }
    }

    /// How many connections have been registered so far (shutdown waits for the ones it handed over).
    var registeredCount: Int { state.withLock { $0.registered } }

    /// libmicrohttpd is about to close the connection's socket: stop touching it, and keep a duplicate to close
    /// it gracefully.
    func closing(_ connection: ConnectionState) {
        connection.guarded.withLock { $0.closed = true }
        let copy = dup(connection.socket)
        let kept: Bool = state.withLock { state in
            state.connections[ObjectIdentifier(connection)] = nil
            guard copy >= 0, state.running, state.lingering.count < lingerLimit else { return false }
            state.lingering.append(Lingering(socket: copy, until: ContinuousClock.now.advanced(by: Self.lingerTimeout)))
            return true
        }
        if copy < 0 { return }
        if !kept {
            close(copy)
            return
        }
        _ = fcntl(copy, F_SETFL, fcntl(copy, F_GETFL) | O_NONBLOCK)
        shutdown(copy, Int32(SHUT_WR))
    }

    /// The connections owned by the calling thread (for identifying the one libmicrohttpd is answering).
    func connectionsOfCurrentThread() -> [ConnectionState] {
        state.withLock { state in state.connections.values.filter(\.isOwnedByCurrentThread) }
    }

    /// Every open connection (shutdown picks those between requests).
    func openConnections() -> [ConnectionState] {
        state.withLock { Array($0.connections.values) }
    }

    private func run() {
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        var ticks = 0
        while true {
            let (running, sockets) = state.withLock { ($0.running, $0.lingering.map(\.socket)) }
            if !running && sockets.isEmpty { return }
            var polled = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&polled, nfds_t(polled.count), Self.tick)
            let now = ContinuousClock.now
            var finished: Set<Int32> = []
            for entry in polled where entry.revents != 0 {
                if drain(entry.fd, into: &scratch) { finished.insert(entry.fd) }
            }
            let expired: [Int32] = state.withLock { state in
                let done = state.lingering.filter { finished.contains($0.socket) || $0.until <= now }
                state.lingering.removeAll { finished.contains($0.socket) || $0.until <= now }
                return done.map(\.socket)
            }
            for socket in expired { close(socket) }
            if running {
                ticks += 1
                enforceDeadlines(now: now, lookingForEOF: ticks % Self.eofCheckTicks == 0)
            }
        }
    }

    /// Reads and discards what is waiting, at most 1 MiB per tick (a client sending faster than that cannot hold
    /// the thread); `true` once the client has closed (or the socket failed).
    private func drain(_ socket: Int32, into scratch: inout [UInt8]) -> Bool {
        for _ in 0..<16 {
            let count = scratch.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 { continue }
            if count == 0 { return true }
            return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR
        }
        return false
    }

    /// Every how many ticks the connections waiting for (the rest of) a request are checked for a client that
    /// closed its sending side.
    static let eofCheckTicks = 20

    private func enforceDeadlines(now: ContinuousClock.Instant, lookingForEOF: Bool) {
        let connections = state.withLock { Array($0.connections.values) }
        for connection in connections {
            connection.guarded.withLock { guarded in
                guard !guarded.closed else { return }
                // A client that closed its sending side while the server waits for (the rest of) a request will
                // send nothing more: the request can never complete. libmicrohttpd (edge-triggered epoll) misses
                // that end when it arrived with the last bytes it read, and would keep the connection until the
                // idle timeout; shutting the receiving side wakes it, and it closes the connection.
                if lookingForEOF, guarded.deadline != nil, !guarded.cut {
                    var byte: UInt8 = 0
                    if recv(connection.socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0 {
                        guarded.deadline = nil
                        shutdown(connection.socket, Int32(SHUT_RD))
                        return
                    }
                }
                if let deadline = guarded.deadline, deadline <= now, !guarded.cut {
                    guarded.cut = true
                    guarded.deadline = nil
                    guarded.closeAt = now.advanced(by: Self.closeGrace)
                    // The answer to a HEAD has no body (a HEAD is recognised from its request line on).
                    let response = timeoutResponse(guarded.method, guarded.path, guarded.headers)
                    ConnectionState.writeFinalAnswer(
                        response, on: connection.socket, withoutBody: guarded.method == "HEAD")
                } else if let closeAt = guarded.closeAt, closeAt <= now {
                    guarded.closeAt = nil
                    shutdown(connection.socket, Int32(SHUT_RD))
                }
            }
        }
    }
}
