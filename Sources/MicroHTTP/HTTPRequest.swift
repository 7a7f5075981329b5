/// An HTTP request whose head and body have been fully received and copied out of libmicrohttpd.
///
/// A plain value: it owns all its storage and may be kept or sent anywhere.
public struct HTTPRequest: Sendable {
    /// The request method as sent, e.g. `"GET"`.
    public var method: String
    /// The path of the request target, without the query, exactly as sent (not percent-decoded).
    public var path: String
    /// The query of the request target after `?`, exactly as sent, or `nil` when there is no `?`.
    public var query: String?
    /// The request headers; names are lowercased.
    public var headers: HTTPHeaders
    /// The request body (empty when there is none).
    public var body: [UInt8]

    /// Creates a request.
    /// - Parameters:
    ///   - method: The method, e.g. `"POST"`.
    ///   - path: The target path without the query.
    ///   - query: The raw query string, or `nil`.
    ///   - headers: The headers.
    ///   - body: The body bytes.
    public init(
        method: String,
        path: String,
        query: String? = nil,
        headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The value of the first header called `name` (any case), or `nil`.
    /// - Parameter name: A header name.
    /// - Complexity: O(*n*) in the number of headers.
    public func header(_ name: String) -> String? {
        headers[name]
    }
}
