/// An HTTP response to hand back to the client.
///
/// MicroHTTP adds `Date` and `Content-Length` itself; a `Content-Length` given here is ignored.
/// A `Connection: close` header makes the server close the connection after sending.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code, e.g. `200`.
    public var status: Int
    /// The response headers.
    public var headers: HTTPHeaders
    /// The response body (empty when ``stream`` writes it).
    public var body: [UInt8]
    /// A body written while it is sent, in place of ``body``: the server sends it without `Content-Length`
    /// (chunked to HTTP/1.1 clients). `nil` for a body given whole.
    public var stream: BodyStream?

    /// Creates a response.
    /// - Parameters:
    ///   - status: The status code (100–999).
    ///   - headers: The headers to send.
    ///   - body: The body bytes.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Creates a response whose body is written while it is sent.
    /// - Parameters:
    ///   - status: The status code (100–999).
    ///   - headers: The headers to send.
    ///   - stream: Writes the body.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), stream: BodyStream) {
        self.init(status: status, headers: headers)
        self.stream = stream
    }
}
