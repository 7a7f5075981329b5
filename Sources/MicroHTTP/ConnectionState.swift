internal import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One client connection, from libmicrohttpd's start notice to its close notice (stored as the connection's
/// socket context).
///
/// It carries the request deadline: a request must be received completely within
/// ``HTTPServer/Configuration/requestTimeout`` of the moment the server began to wait for it (the connection's
/// start, or the end of the answer before it). The ``ConnectionJanitor`` thread cuts a connection whose
/// deadline has passed: it writes the 408 answer itself and closes the connection's sending side. The
/// connection's thread and the janitor decide under ``guarded``'s lock, so exactly one of them answers.
final class ConnectionState: Sendable {
    /// What the connection thread and the janitor share.
    struct Guarded {
        /// When the request being received must be complete; `nil` while no request is being received
        /// (waiting for memory, computing, answering) and once the connection is cut.
        var deadline: ContinuousClock.Instant?
        /// The answer was written on the socket by MicroHTTP itself (a 408 at the deadline, or the answer that
        /// replaces one of libmicrohttpd's malformed ones); the connection only waits to be closed.
        var cut = false
        /// When the janitor shuts the socket's receiving side too, so that libmicrohttpd closes a connection
        /// whose client keeps sending after a cut.
        var closeAt: ContinuousClock.Instant?
        /// libmicrohttpd has noticed the connection's end: the socket is no longer ours to touch.
        var closed = false
        /// A request line has arrived and its head is not complete (the access handler has not been called).
        var awaitingHead = false
        /// The connection waits for a request of which nothing has been parsed yet; false from a request line
        /// to the end of its answer.
        var betweenRequests = true
        /// The method and path of the request being received, when known (for the 408's log line); before the
        /// head is complete the method is `HEAD` or empty (``RequestHead/isHead(target:)``).
        var method = ""
        var path = ""
        /// The headers of the request being received, once its head is complete (for the 408's CORS headers).
        var headers = HTTPHeaders()
    }

    /// The `struct MHD_Connection *`.
    let connection: OpaqueConnection
    /// The connection's socket.
    let socket: Int32
    /// The libmicrohttpd thread that owns the connection.
    let owner: pthread_t
    let guarded: Mutex<Guarded>

    init(connection: OpaquePointer, socket: Int32, deadline: ContinuousClock.Instant?) {
        self.connection = OpaqueConnection(pointer: connection)
        self.socket = socket
        self.owner = pthread_self()
        self.guarded = Mutex(Guarded(deadline: deadline))
    }

    /// Whether the calling thread owns the connection.
    var isOwnedByCurrentThread: Bool { pthread_equal(owner, pthread_self()) != 0 }

    /// Writes `response` on the socket as a complete HTTP/1.1 message with `Connection: close` and closes the
    /// sending side; the caller holds the lock and has checked that libmicrohttpd is not writing an answer.
    ///
    /// The message is written only when the socket's send queue is empty, so that it goes out whole: otherwise
    /// (a client that does not read) the connection is closed without an answer.
    /// - Parameter withoutBody: The answer to a HEAD request: its header block only.
    static func writeFinalAnswer(_ response: HTTPResponse, on socket: Int32, withoutBody: Bool = false) {
        var unsent: Int32 = 0
        if ioctl(socket, UInt(TIOCOUTQ), &unsent) == 0 && unsent == 0 {
            var bytes = response.serialized()
            if withoutBody { bytes.removeLast(response.body.count) }
            _ = bytes.withUnsafeBytes { buffer in
                send(socket, buffer.baseAddress, buffer.count, Int32(Glibc.MSG_DONTWAIT | Glibc.MSG_NOSIGNAL))
            }
        }
        shutdown(socket, Int32(SHUT_WR))
    }
}

/// A `struct MHD_Connection *` kept beside its connection's state.
///
/// `@unchecked Sendable`: it is only used by the thread that owns the connection (checked with
/// ``ConnectionState/isOwnedByCurrentThread`` where another thread could reach it), and libmicrohttpd frees
/// the connection only after its close notice, which removes the state from every list first.
struct OpaqueConnection: @unchecked Sendable {
    let pointer: OpaquePointer
}
