#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal HTTP/1.1 client for health checks: one `GET` over a plain TCP socket, read up to the
/// status line. It needs no curl, no shell and no Foundation networking, so a container's
/// `HEALTHCHECK` can run the service's own binary in an image that holds nothing else.
///
/// ```swift
/// let status = try HealthProbe.get(host: "127.0.0.1", port: 8080, path: "/healthz", timeout: .seconds(2))
/// // status == 200 when the service is healthy
/// ```
public enum HealthProbe {
    /// Why a probe got no status code.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The host did not resolve to an IPv4 or IPv6 address.
        case unresolvableHost(String)
        /// Every address of the host refused or failed the connection; the payload is the last `errno`.
        case connectFailed(errno: Int32)
        /// Sending the request or reading the answer failed with this `errno`.
        case ioFailed(errno: Int32)
        /// The deadline passed before a status line arrived.
        case timedOut
        /// The peer closed or answered without an `HTTP/1.x NNN` status line.
        case malformedResponse

        /// A one-line explanation including the system error text.
        public var description: String {
            switch self {
            case .unresolvableHost(let host): return "cannot resolve host '\(host)'"
            case .connectFailed(let code): return "cannot connect: \(String(cString: strerror(code))) (errno \(code))"
            case .ioFailed(let code): return "connection failed: \(String(cString: strerror(code))) (errno \(code))"
            case .timedOut: return "no answer before the timeout"
            case .malformedResponse: return "the answer has no HTTP status line"
            }
        }
    }

    /// Sends `GET path HTTP/1.1` with `Connection: close` and returns the status code of the answer.
    ///
    /// Tries each address `host` resolves to in turn; the whole exchange (resolution excepted) shares
    /// one deadline.
    /// - Parameters:
    ///   - host: A numeric address or a host name, e.g. `"127.0.0.1"`.
    ///   - port: The TCP port.
    ///   - path: The request target, starting with `/`.
    ///   - timeout: The longest the connection, request and status line may take together.
    /// - Returns: The status code, e.g. `200`.
    /// - Throws: ``Failure`` when no status line could be had.
    public static func get(host: String, port: Int, path: String, timeout: Duration) throws(Failure) -> Int {
        let deadline = ContinuousClock.now + timeout
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let list else { throw .unresolvableHost(host) }
        defer { freeaddrinfo(list) }

        var lastFailure = Failure.unresolvableHost(host)
        var cursor: UnsafeMutablePointer<addrinfo>? = list
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            let family = entry.pointee.ai_family
            // `ai_addr` already points at a C sockaddr of `ai_addrlen` bytes: it goes to connect() as is.
            guard family == AF_INET || family == AF_INET6, let address = entry.pointee.ai_addr else { continue }
            let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else {
                lastFailure = .connectFailed(errno: errno)
                continue
            }
            defer { close(descriptor) }
            do {
                try connectSocket(descriptor, to: address, length: entry.pointee.ai_addrlen, before: deadline)
            } catch .connectFailed(let code) {
                lastFailure = .connectFailed(errno: code)
                continue
            }
            let request = "GET \(path) HTTP/1.1\r\nHost: \(hostHeader(host, port))\r\nUser-Agent: snapdiff-healthcheck\r\n"
                + "Accept: */*\r\nConnection: close\r\n\r\n"
            try sendAll(Array(request.utf8), on: descriptor, before: deadline)
            return try readStatus(from: descriptor, before: deadline)
        }
        throw lastFailure
    }

    /// A non-blocking connect that waits for writability until `deadline`.
    private static func connectSocket(
        _ socket: Int32, to address: UnsafePointer<sockaddr>, length: socklen_t, before deadline: ContinuousClock.Instant
    ) throws(Failure) {
        if connect(socket, address, length) == 0 { return }
        guard errno == EINPROGRESS else { throw .connectFailed(errno: errno) }
        try wait(for: Int16(POLLOUT), on: socket, before: deadline)
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &size) == 0 else { throw .connectFailed(errno: errno) }
        guard error == 0 else { throw .connectFailed(errno: error) }
    }

    /// Writes all of `bytes`, waiting for room until `deadline`; never raises SIGPIPE.
    private static func sendAll(_ bytes: [UInt8], on socket: Int32, before deadline: ContinuousClock.Instant) throws(Failure) {
        var sent = 0
        while sent < bytes.count {
            let result = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if result >= 0 {
                sent += result
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try wait(for: Int16(POLLOUT), on: socket, before: deadline)
            } else {
                throw .ioFailed(errno: errno)
            }
        }
    }

    /// Reads until the end of the status line and parses `HTTP/1.x NNN`.
    private static func readStatus(from socket: Int32, before deadline: ContinuousClock.Instant) throws(Failure) -> Int {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while !received.contains(UInt8(ascii: "\n")) && received.count < 8192 {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += chunk[..<count]
            } else if count == 0 {
                break
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try wait(for: Int16(POLLIN), on: socket, before: deadline)
            } else {
                throw .ioFailed(errno: errno)
            }
        }
        let line = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let fields = line.split(separator: " ", maxSplits: 2)
        guard fields.count >= 2, fields[0].hasPrefix("HTTP/1."), fields[1].count == 3, let status = Int(fields[1]) else {
            throw .malformedResponse
        }
        return status
    }

    /// Polls `socket` for `events` until `deadline`.
    private static func wait(for events: Int16, on socket: Int32, before deadline: ContinuousClock.Instant) throws(Failure) {
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw .timedOut }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw .ioFailed(errno: errno) }
        }
    }

    /// `host:port`, with brackets around an IPv6 literal.
    private static func hostHeader(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
