import Glibc

/// A blocking HTTP/1.1 client over one TCP connection to 127.0.0.1, for the tests of MicroHTTP and of the service.
///
/// `@unchecked Sendable` so that a test can hand a connection to a worker thread: one thread at a time uses it.
public final class TestClient: @unchecked Sendable {
    /// A parsed response.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [Header]
        public var body: [UInt8]

        public struct Header: Sendable {
            public var name: String
            public var value: String
        }

        /// The first header called `name` (any case).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The body decoded as UTF-8.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public enum Failure: Error, Equatable {
        case connect(errno: Int32)
        case send(errno: Int32)
        case closedByPeer
        case timeout
        case malformed(String)
    }

    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; reads time out after `timeout` seconds.
    public init(port: Int, timeout: Int = 10) throws {
        // The socket is `self.fd` only once it is connected: a throwing init of a fully initialised object
        // still runs `deinit`, which closed the descriptor a second time, and by then its number could belong
        // to a file or socket another test had just opened.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var noDelay: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            let code = errno
            Glibc.close(fd)
            throw Failure.connect(errno: code)
        }
        self.fd = fd
    }

    deinit { Glibc.close(fd) }

    /// Sends all of `bytes` (no SIGPIPE).
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 { throw Failure.send(errno: errno) }
            offset += written
        }
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// The bytes of a request with a Content-Length body (always sent for POST).
    public static func requestBytes(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: test\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// Sends a complete request and reads its response (the head alone for `HEAD`).
    public func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws -> Response {
        try send(Self.requestBytes(method, target, headers: headers, body: body))
        return try readResponse(toHead: method == "HEAD")
    }

    /// `POST /diff` with `Content-Type: application/json`.
    /// Sends a request with headers given as a dictionary and reads the response.
    public func request(_ method: String, _ target: String, headers: [String: String], body: [UInt8] = []) throws -> Response {
        try request(method, target, headers: headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, body: body)
    }

    /// Posts a JSON body to `/diff` and reads the response.
    public func postDiff(_ body: String) throws -> Response {
        try request("POST", "/diff", headers: [("Content-Type", "application/json")], body: Array(body.utf8))
    }

    /// Reads one response: a body of `Content-Length` bytes, or a chunked one (RFC 9112 §7.1, parsed strictly:
    /// a malformed one throws).
    ///
    /// - Parameter toHead: The response answers a `HEAD`: its head alone, whatever its `Content-Length` says.
    ///   A 204 or 304 has no body either (RFC 9110 §6.4.1).
    public func readResponse(toHead: Bool = false) throws -> Response {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var searched = 0
        while headEnd == nil {
            headEnd = find(separator, in: buffer, from: max(0, searched - separator.count))
            searched = buffer.count
            if headEnd == nil { try fill() }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + separator.count)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else {
            throw Failure.malformed(head)
        }
        var response = Response(status: status, headers: [], body: [])
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw Failure.malformed(head) }
            let value = line[line.index(after: colon)...].trimmingPrefix(" ")
            response.headers.append(.init(name: String(line[..<colon]), value: String(value)))
        }
        if status == 100 { return try readResponse(toHead: toHead) }
        if toHead || status == 204 || status == 304 { return response }
        if let coding = response.header("Transfer-Encoding") {
            guard coding == "chunked", response.header("Content-Length") == nil else { throw Failure.malformed(head) }
            response.body = try readChunkedBody()
            return response
        }
        guard let length = response.header("Content-Length").flatMap({ Int($0) }) else { throw Failure.malformed(head) }
        while buffer.count < length { try fill() }
        response.body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return response
    }

    /// A chunked message body: each chunk's size in hex (no extension is expected from MicroHTTP), its data and
    /// CRLF, then the last chunk `0`, no trailer field, and CRLF.
    private func readChunkedBody() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let line = try readLine()
            guard !line.isEmpty, line.count <= 16, let size = Int(line, radix: 16), size >= 0 else {
                throw Failure.malformed("chunk size line \(line.debugDescription)")
            }
            if size == 0 {
                let trailer = try readLine()
                guard trailer.isEmpty else { throw Failure.malformed("trailer \(trailer.debugDescription)") }
                return body
            }
            while buffer.count < size + 2 { try fill() }
            guard buffer[size] == UInt8(ascii: "\r"), buffer[size + 1] == UInt8(ascii: "\n") else {
                throw Failure.malformed("a chunk of \(size) bytes not followed by CRLF")
            }
            body.append(contentsOf: buffer[..<size])
            buffer.removeFirst(size + 2)
        }
    }

    /// The next line, without its CRLF.
    private func readLine() throws -> String {
        let end: [UInt8] = Array("\r\n".utf8)
        var found = find(end, in: buffer, from: 0)
        while found == nil {
            try fill()
            found = find(end, in: buffer, from: 0)
        }
        defer { buffer.removeFirst(found! + 2) }
        return String(decoding: buffer[..<found!], as: UTF8.self)
    }

    /// Bytes received and not yet read as part of a response.
    public var unreadBytes: Int { buffer.count }

    /// True when the peer closes (EOF or reset) within the receive timeout and sends nothing else.
    public func waitForClose() throws -> Bool {
        guard buffer.isEmpty else { return false }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        if count == 0 { return true }
        if count < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK { throw Failure.timeout }
            return errno == ECONNRESET
        }
        return false
    }

    /// Every byte until the peer closes cleanly; throws on a reset or a timeout.
    public func readUntilClose() throws -> [UInt8] {
        while true {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            if count < 0 { throw errno == EAGAIN || errno == EWOULDBLOCK ? Failure.timeout : Failure.closedByPeer }
            buffer.append(contentsOf: chunk[..<count])
        }
        defer { buffer = [] }
        return buffer
    }

    /// True when the peer closes cleanly (a FIN, not a reset) within the receive timeout and sends nothing else.
    public func waitForCleanClose() throws -> Bool {
        guard buffer.isEmpty else { return false }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { throw Failure.timeout }
        return count == 0
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 { throw Failure.closedByPeer }
        if count < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK { throw Failure.timeout }
            throw Failure.closedByPeer
        }
        buffer.append(contentsOf: chunk[..<count])
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count)
        where haystack[index..<index + needle.count].elementsEqual(needle) {
            return index
        }
        return nil
    }
}
