#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 socket address to bind, resolved from a host and port.
struct SocketAddress {
    private var storage = sockaddr_storage()
    /// Whether the address is IPv6 (libmicrohttpd then needs `MHD_USE_IPv6`).
    let isIPv6: Bool

    /// Resolves `host` (numeric or a name) with `getaddrinfo`, taking the first IPv4/IPv6 result.
    /// - Throws: ``HTTPServerError/invalidHost(_:)`` when nothing usable comes back.
    init(host: String, port: Int) throws(HTTPServerError) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let list else {
            throw .invalidHost(host)
        }
        defer { freeaddrinfo(list) }
        var cursor: UnsafeMutablePointer<addrinfo>? = list
        while let entry = cursor {
            let family = entry.pointee.ai_family
            if (family == AF_INET || family == AF_INET6), let address = entry.pointee.ai_addr {
                let length = Int(entry.pointee.ai_addrlen)
                withUnsafeMutableBytes(of: &storage) { target in
                    target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: length))
                }
                isIPv6 = family == AF_INET6
                return
            }
            cursor = entry.pointee.ai_next
        }
        throw .invalidHost(host)
    }

    /// Calls `body` with a pointer to the `sockaddr`, valid only during the call.
    func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self))
        }
    }
}
