#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an ``HTTPServer`` could not start.
public enum HTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A setting is out of its allowed range (durations in whole seconds, rounded up).
    case invalidConfiguration(HTTPServer.Configuration.Setting, allowed: ClosedRange<Int>)
    /// The host could not be resolved to an IPv4 or IPv6 address.
    case invalidHost(String)
    /// ``HTTPServer/start()`` was called on a server that was already started.
    case alreadyStarted
    /// libmicrohttpd refused to start, typically because the port is in use (`errno` `EADDRINUSE`).
    case startFailed(port: Int, errno: Int32)

    /// A one-line explanation including the system error text.
    public var description: String {
        switch self {
        case .invalidConfiguration(let setting, let allowed):
            return "invalid HTTP server configuration: \(setting) is not in \(allowed.lowerBound)…\(allowed.upperBound)"
        case .invalidHost(let host):
            return "cannot resolve host '\(host)'"
        case .alreadyStarted:
            return "HTTP server already started"
        case .startFailed(let port, let code):
            return "cannot start HTTP server on port \(port): \(String(cString: strerror(code))) (errno \(code))"
        }
    }

    /// The one place a failed libmicrohttpd start becomes a Swift error: reads `errno` now.
    /// - Parameter port: The port that was asked for.
    /// - Returns: ``startFailed(port:errno:)`` with the current `errno` (`EINVAL` if none was set).
    static func startFailure(port: Int) -> HTTPServerError {
        let code = errno
        return .startFailed(port: port, errno: code == 0 ? EINVAL : code)
    }
}
