internal import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPResponse {
    /// The response as one HTTP/1.1 message with `Date`, `Content-Length` and `Connection: close`, for the
    /// rare answers MicroHTTP writes on a socket itself.
    func serialized() -> [UInt8] {
        let reason = MHD_get_reason_phrase_for(UInt32(clamping: status)).map { String(cString: $0) } ?? ""
        var head = "HTTP/1.1 \(status) \(reason)\r\nDate: \(Self.httpDate())\r\n"
        for field in headers where !field.hasName("content-length") && !field.hasName("connection")
            && !field.hasName("date")
        {
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// The current time as an IMF-fixdate (RFC 9110 §5.6.7), e.g. `Tue, 24 Nov 2026 01:10:40 GMT`.
    static func httpDate() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + parts.tm_year) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
