#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A client's IP address, copied out of libmicrohttpd as bytes and formatted only when someone reads it
/// (formatting with `inet_ntop` on every request cost more than the rest of reading the head).
struct ClientAddress: Sendable {
    private enum Storage: Sendable {
        case ipv4(in_addr_t)
        case ipv6(UInt64, UInt64)
        case text(String)
    }

    private let storage: Storage

    /// The address of a C socket address, or `nil` for families other than IPv4 and IPv6.
    init?(copying address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            storage = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { .ipv4($0.pointee.sin_addr.s_addr) }
        case AF_INET6:
            storage = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                withUnsafeBytes(of: v6.pointee.sin6_addr) { bytes in
                    .ipv6(bytes.loadUnaligned(as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                }
            }
        default:
            return nil
        }
    }

    /// An address given as text.
    init(text: String) {
        storage = .text(text)
    }

    /// The textual form (`"127.0.0.1"`, `"::1"`).
    var text: String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written: UnsafePointer<CChar>?
        switch storage {
        case .text(let text):
            return text
        case .ipv4(let raw):
            var address = in_addr(s_addr: raw)
            written = inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
        case .ipv6(let high, let low):
            var words = (high, low)
            written = withUnsafeBytes(of: &words) { inet_ntop(AF_INET6, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        }
        guard written != nil else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
