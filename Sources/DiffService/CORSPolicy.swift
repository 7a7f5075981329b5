import MicroHTTP

/// Which web pages of other origins may call the service from a browser (CORS, as the Fetch standard defines
/// it), and the headers that tell the browser so. Off unless configured (``ServiceConfiguration/cors``).
///
/// - An answer to a request whose `Origin` is allowed carries `Access-Control-Allow-Origin` with that origin
///   (or `*` when every origin is allowed) and `Access-Control-Expose-Headers: X-Request-ID, Retry-After`; this
///   holds for every answer, errors and the HTTP layer's own answers (413, 408, 503 …) included, since a page
///   cannot read an answer without it. A list of origins also adds `Vary: Origin` to every answer, since the
///   answer then depends on `Origin`.
/// - A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) from an allowed origin is
///   answered 204 with `Access-Control-Allow-Methods` (the route's methods), `Access-Control-Allow-Headers`
///   (``allowedRequestHeaders``) and `Access-Control-Max-Age` (``maxAgeSeconds``).
/// - An origin that is not allowed gets the same answers without any CORS header (a preflight still gets its
///   204 with `Allow`), so the browser withholds the answer from the page; the request itself is served as
///   usual (CORS protects the page's reader, not the server).
/// - No credentials: `Access-Control-Allow-Credentials` is never sent (the service uses no cookies or HTTP
///   authentication), so browsers send cross-origin requests without them.
public struct CORSPolicy: Sendable, Hashable {
    /// The origins whose pages may read the answers.
    public enum AllowedOrigins: Sendable, Hashable {
        /// Any origin (`Access-Control-Allow-Origin: *`).
        case any
        /// These origins exactly (ASCII case ignored), each written as browsers send `Origin`:
        /// `scheme://host` or `scheme://host:port`.
        case only([String])
    }

    /// Why an entry of an origin list is not an origin a browser sends.
    public enum OriginDefect: Sendable, Hashable, CustomStringConvertible {
        /// An empty entry (`a,,b`, or nothing at all).
        case empty
        /// `*` among other entries: it stands alone.
        case wildcardAmongOrigins
        /// Not `scheme://host[:port]`.
        case notAnOrigin
        /// A path, a trailing slash, a query or a fragment after the host and port.
        case hasPath
        /// The scheme's default port, which browsers leave out of `Origin`.
        case defaultPort(Int)
        /// `null`, the origin of sandboxed and `file:` documents, which any page can take on.
        case opaque

        /// What is wrong, in a clause.
        public var description: String {
            switch self {
            case .empty: "is empty"
            case .wildcardAmongOrigins: "is *, which must stand alone (any origin)"
            case .notAnOrigin: "is not an origin (scheme://host or scheme://host:port)"
            case .hasPath: "has a path or a trailing slash (an origin is scheme://host[:port] only)"
            case .defaultPort(let port): "names the default port \(port), which browsers leave out of Origin"
            case .opaque: "is null, the origin any sandboxed page or local file can claim"
            }
        }
    }

    /// The allowed origins, lowercased.
    public let allowedOrigins: AllowedOrigins

    /// How long a browser may reuse a preflight's answer, in seconds (`Access-Control-Max-Age`; Chromium caps it
    /// at 7,200, Firefox at 86,400).
    public static let maxAgeSeconds = 600
    /// The request headers a page may send beyond the CORS-safelisted ones: `Content-Type` (JSON is not
    /// safelisted), `X-Request-ID` (to correlate with the log) and `Content-Encoding` (a compressed body).
    public static let allowedRequestHeaders = ["Content-Type", "X-Request-ID", "Content-Encoding"]
    /// The answer headers a page may read beyond the CORS-safelisted ones.
    public static let exposedHeaders = ["X-Request-ID", "Retry-After"]

    /// Creates a policy.
    /// - Parameter allowedOrigins: The origins allowed; their case is ignored. ``validate()`` checks them.
    public init(allowedOrigins: AllowedOrigins) {
        switch allowedOrigins {
        case .any: self.allowedOrigins = .any
        case .only(let origins): self.allowedOrigins = .only(origins.map { $0.lowercased() })
        }
    }

    /// The policy of a `--cors-allow-origin` value: `*`, or origins separated by commas (spaces around them
    /// dropped), e.g. `https://app.example.com,http://localhost:5173`.
    /// - Throws: ``ServiceConfiguration/Invalid/invalidCORSOrigin(_:_:)`` naming the first entry that is not an
    ///   origin.
    public init(parsing list: String) throws(ServiceConfiguration.Invalid) {
        let entries = ServiceConfiguration.entries(of: list)
        self.init(allowedOrigins: entries == ["*"] ? .any : .only(entries))
        try validate()
    }

    /// Checks that every origin is one a browser can send.
    /// - Throws: ``ServiceConfiguration/Invalid/invalidCORSOrigin(_:_:)`` naming the first one that is not.
    public func validate() throws(ServiceConfiguration.Invalid) {
        guard case .only(let origins) = allowedOrigins else { return }
        if origins.isEmpty { throw .invalidCORSOrigin("", .empty) }
        for origin in origins {
            if let defect = Self.defect(of: origin) { throw .invalidCORSOrigin(origin, defect) }
        }
    }

    /// What keeps `origin` from being a serialized tuple origin (`scheme://host[:port]`), if anything.
    static func defect(of origin: String) -> OriginDefect? {
        if origin.isEmpty { return .empty }
        if origin == "*" { return .wildcardAmongOrigins }
        if origin == "null" { return .opaque }
        guard let separator = origin.firstRange(of: "://") else { return .notAnOrigin }
        let scheme = origin[..<separator.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return .notAnOrigin }
        var authority = origin[separator.upperBound...]
        if let end = authority.firstIndex(where: { "/?#".contains($0) }) {
            return authority[..<end].isEmpty ? .notAnOrigin : .hasPath
        }
        // The host: a bracketed IPv6 address, or a name of letters, digits, dots, hyphens and underscores (which
        // URL host parsing keeps, and browsers send).
        var host: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return .notAnOrigin }
            host = authority[...close]
            authority = authority[authority.index(after: close)...]
            let address = host.dropFirst().dropLast()
            guard address.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }) else {
                return .notAnOrigin
            }
        } else {
            let end = authority.firstIndex(of: ":") ?? authority.endIndex
            host = authority[..<end]
            authority = authority[end...]
            guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else {
                return .notAnOrigin
            }
        }
        guard host.count > (host.hasPrefix("[") ? 2 : 0) else { return .notAnOrigin }
        guard !authority.isEmpty else { return nil }
        let digits = authority.dropFirst()
        guard authority.first == ":", !digits.isEmpty, digits.count <= 5, digits.allSatisfy(\.isASCII),
            let port = Int(digits), (1...65535).contains(port)
        else { return .notAnOrigin }
        if (scheme == "http" && port == 80) || (scheme == "https" && port == 443) { return .defaultPort(port) }
        return nil
    }

    /// The `Access-Control-Allow-Origin` value for a request from `origin`, or `nil` when that origin may not
    /// read the answer (or the request named none and the policy is a list).
    /// - Complexity: O(*n*) in the size of the list.
    public func allowOrigin(for origin: String?) -> String? {
        switch allowedOrigins {
        case .any: return "*"
        case .only(let origins):
            // Browsers send origins in ASCII (hosts in punycode); Unicode lowercasing would take the Kelvin sign
            // for a "k".
            guard let origin, origin.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
            let lowered = origin.lowercased()
            return origins.contains(lowered) ? origin : nil
        }
    }

    /// Adds the CORS headers to an answer.
    ///
    /// - Parameters:
    ///   - response: The answer to a request.
    ///   - origin: The request's `Origin`, if any.
    ///   - preflightMethods: For the 204 answer to a preflight, the methods its route accepts; `nil` otherwise.
    public func apply(to response: inout HTTPResponse, origin: String?, preflightMethods: [String]? = nil) {
        if case .only = allowedOrigins { response.headers.addListMember("Origin", to: "Vary") }
        guard let allowed = allowOrigin(for: origin) else { return }
        response.headers.replaceOrAdd(name: "Access-Control-Allow-Origin", value: allowed)
        if let preflightMethods {
            response.headers.replaceOrAdd(
                name: "Access-Control-Allow-Methods", value: preflightMethods.joined(separator: ", "))
            response.headers.replaceOrAdd(
                name: "Access-Control-Allow-Headers", value: Self.allowedRequestHeaders.joined(separator: ", "))
            response.headers.replaceOrAdd(name: "Access-Control-Max-Age", value: String(Self.maxAgeSeconds))
        } else {
            for header in Self.exposedHeaders {
                response.headers.addListMember(header, to: "Access-Control-Expose-Headers")
            }
        }
    }
}
