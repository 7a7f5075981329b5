@testable import DiffService
import MicroHTTP
import Testing
import TestSupport

/// CORS over real sockets: actual answers (the handler's, its errors, and the HTTP layer's own), preflights from
/// allowed and disallowed origins, `*`, and CORS off.
@Suite struct CORSTests {
    private static let app = "https://app.example.com"
    private static let listed = CORSPolicy(allowedOrigins: .only([app, "http://localhost:5173"]))
    private static let exposed = "X-Request-ID, Retry-After"

    /// The names of the CORS headers an answer carries.
    private static func corsHeaders(_ response: TestClient.Response) -> [String] {
        response.headers.map(\.name).filter { $0.lowercased().hasPrefix("access-control-") }
    }

    @Test func anAllowedOriginIsEchoedWithVaryAndTheExposedHeaders() throws {
        try withService(cors: Self.listed) { service in
            let response = try service.connect().request("GET", "/healthz", headers: [("Origin", Self.app)])
            #expect(response.status == 200)
            #expect(response.header("Access-Control-Allow-Origin") == Self.app)
            #expect(response.header("Access-Control-Expose-Headers") == Self.exposed)
            #expect(response.header("Vary") == "Origin, Accept-Encoding")
            #expect(response.header("Access-Control-Allow-Credentials") == nil)
            #expect(response.text == #"{"status":"ok"}"#)
        }
    }

    /// The answer is the same, without any CORS header: the browser keeps it from the page.
    @Test(arguments: ["https://evil.example", "https://app.example.com.evil.example", "http://app.example.com", "null"])
    func aDisallowedOriginIsServedWithoutCORSHeaders(origin: String) throws {
        try withService(cors: Self.listed) { service in
            let response = try service.connect().request("GET", "/healthz", headers: [("Origin", origin)])
            #expect(response.status == 200)
            #expect(Self.corsHeaders(response) == [])
            #expect(response.header("Vary") == "Origin, Accept-Encoding", "a cache must not give this answer to an allowed origin")
            #expect(response.text == #"{"status":"ok"}"#)
        }
    }

    @Test func aRequestWithoutOriginVariesByOrigin() throws {
        try withService(cors: Self.listed) { service in
            let response = try service.connect().request("GET", "/healthz")
            #expect(Self.corsHeaders(response) == [])
            #expect(response.header("Vary") == "Origin, Accept-Encoding")
        }
    }

    /// Every route's preflight, from the route table: 204, its methods (HEAD beside GET), the headers a page may
    /// send, the max-age; no body.
    @Test(arguments: ServiceRouter.routes.map(\.path))
    func aPreflightFromAnAllowedOriginIsAnsweredWithTheRoutesMethods(path: String) throws {
        let route = try #require(ServiceRouter.routes.first { $0.path == path })
        try withService(cors: Self.listed) { service in
            let client = try service.connect()
            let response = try client.request(
                "OPTIONS", path,
                headers: [
                    ("Origin", "http://localhost:5173"), ("Access-Control-Request-Method", route.method),
                    ("Access-Control-Request-Headers", "content-type,x-request-id"),
                ])
            #expect(response.status == 204)
            #expect(response.header("Access-Control-Allow-Origin") == "http://localhost:5173")
            let methods = route.method == "GET" ? "GET, HEAD" : route.method
            #expect(response.header("Access-Control-Allow-Methods") == methods)
            #expect(response.header("Access-Control-Allow-Headers") == "Content-Type, X-Request-ID, Content-Encoding")
            #expect(response.header("Access-Control-Max-Age") == "600")
            #expect(response.header("Allow") == route.allowedMethods.joined(separator: ", "))
            #expect(response.header("Vary") == "Origin, Accept-Encoding")
            #expect(response.header("Content-Length") == nil && response.body.isEmpty)
            // The connection goes on.
            #expect(try client.request("GET", "/healthz").status == 200)
        }
    }

    /// Fetch: a preflight's answer must have an ok status and pass the CORS check. A disallowed origin gets the
    /// 204 any OPTIONS gets, with no CORS header, so the browser refuses the request and the page learns nothing.
    @Test func aPreflightFromADisallowedOriginGetsNoCORSHeaders() throws {
        try withService(cors: Self.listed) { service in
            let response = try service.connect().request(
                "OPTIONS", "/diff", headers: [("Origin", "https://evil.example"), ("Access-Control-Request-Method", "POST")])
            #expect(response.status == 204)
            #expect(response.header("Allow") == "POST, OPTIONS")
            #expect(Self.corsHeaders(response) == [])
        }
    }

    /// An OPTIONS that is no preflight (no Access-Control-Request-Method) is the plain answer with Allow (RFC 9110
    /// §9.3.7) and the actual answer's CORS headers; an unknown path is 404 either way.
    @Test func optionsWithoutAPreflightIsAllowAndAnUnknownPathIsNotFound() throws {
        try withService(cors: Self.listed) { service in
            let client = try service.connect()
            let plain = try client.request("OPTIONS", "/healthz", headers: [("Origin", Self.app)])
            #expect(plain.status == 204)
            #expect(plain.header("Allow") == "GET, HEAD, OPTIONS")
            #expect(plain.header("Access-Control-Allow-Methods") == nil)
            #expect(plain.header("Access-Control-Allow-Origin") == Self.app)
            let unknown = try client.request(
                "OPTIONS", "/nope", headers: [("Origin", Self.app), ("Access-Control-Request-Method", "GET")])
            try expectProblem(unknown, .notFound)
            #expect(unknown.header("Access-Control-Allow-Origin") == Self.app)
            #expect(unknown.header("Access-Control-Allow-Methods") == nil)
        }
    }

    /// `Origin` is a singleton field: sent twice, it names no origin, whichever comes first.
    @Test func twoOriginFieldsAreNoOrigin() throws {
        try withService(cors: Self.listed) { service in
            let client = try service.connect()
            for origins in [[Self.app, "https://evil.example"], ["https://evil.example", Self.app]] {
                let response = try client.request(
                    "OPTIONS", "/diff", headers: origins.map { ("Origin", $0) } + [("Access-Control-Request-Method", "POST")])
                #expect(response.status == 204)
                #expect(Self.corsHeaders(response) == [], "\(origins)")
            }
        }
    }

    /// `OPTIONS *` asks about the server as a whole (RFC 9110 §9.3.7).
    @Test func optionsStarListsEveryMethod() throws {
        try withService(cors: Self.listed) { service in
            let response = try service.connect().request("OPTIONS", "*")
            #expect(response.status == 204)
            #expect(response.header("Allow") == "GET, HEAD, POST, OPTIONS")
        }
    }

    @Test func aNonASCIIOriginIsNotLowercasedIntoAnAllowedOne() {
        // U+212A KELVIN SIGN lowercases to "k" in Unicode.
        #expect(Self.listed.allowOrigin(for: "https://app.example.com") == "https://app.example.com")
        #expect(CORSPolicy(allowedOrigins: .only(["https://k.example"])).allowOrigin(for: "https://\u{212A}.example") == nil)
    }

    @Test func anOriginMayHaveAnUnderscoreInItsHost() {
        #expect(CORSPolicy.defect(of: "https://a_b.example.com") == nil)
    }

    /// Errors carry CORS headers, or the page could not read why its request failed.
    @Test func errorAnswersCarryCORSHeaders() throws {
        try withService(cors: Self.listed) { service in
            let client = try service.connect()
            let malformed = try client.request(
                "POST", "/diff", headers: [("Origin", Self.app), ("Content-Type", "application/json")], body: Array("{".utf8))
            try expectProblem(malformed, .malformedJSON)
            let notAllowed = try client.request("DELETE", "/diff", headers: [("Origin", Self.app)])
            try expectProblem(notAllowed, .methodNotAllowed)
            for response in [malformed, notAllowed] {
                #expect(response.header("Access-Control-Allow-Origin") == Self.app)
                #expect(response.header("Access-Control-Expose-Headers") == Self.exposed)
                #expect(response.header("Vary") == "Origin, Accept-Encoding")
            }
        }
    }

    /// The HTTP layer's own answers (here a 413 before the body and a 408 at the request deadline) carry them
    /// too, from the request's head.
    @Test func theHTTPLayersOwnAnswersCarryCORSHeaders() throws {
        try withService(maxBodyBytes: 1000, cors: Self.listed, configure: { $0.requestTimeout = .seconds(1) }) { service in
            let large = try service.connect()
            let head = "POST /diff HTTP/1.1\r\nHost: test\r\nOrigin: \(Self.app)\r\nContent-Type: application/json\r\n"
            try large.send(head + "Content-Length: 5000\r\n\r\n")
            let tooLarge = try large.readResponse()
            try expectProblem(tooLarge, .contentTooLarge)
            // A head whose body never comes: answered 408 at the deadline (the server's clock, not the test's).
            let slow = try service.connect()
            try slow.send(head + "Content-Length: 10\r\n\r\n{")
            let timedOut = try slow.readResponse()
            try expectProblem(timedOut, .requestTimeout)
            for response in [tooLarge, timedOut] {
                #expect(response.header("Access-Control-Allow-Origin") == Self.app)
                #expect(response.header("Access-Control-Expose-Headers") == Self.exposed)
                #expect(response.header("Vary") == "Origin")
                #expect(response.header("X-Request-ID")?.count == 32)
            }
        }
    }

    @Test(arguments: [
        HTTPServer.Overload.memoryBudgetExhausted(needed: 100, capacity: 50), .computeQueueFull(limit: 4), .shuttingDown,
    ])
    func overloadAnswersCarryCORSHeaders(reason: HTTPServer.Overload) {
        let router = ServiceRouter(logger: quietLogger, cors: Self.listed)
        let response = router.overloaded(reason, method: "POST", path: "/diff", headers: ["origin": Self.app])
        #expect(response.status == 503)
        #expect(response.headers["Access-Control-Allow-Origin"] == Self.app)
        #expect(response.headers["Access-Control-Expose-Headers"] == Self.exposed)
        #expect(response.headers["Retry-After"] == "1")
    }

    /// `*`: every answer says any origin may read it, with or without Origin; it does not depend on Origin.
    @Test func anyOriginIsAStarWithoutVary() throws {
        try withService(cors: CORSPolicy(allowedOrigins: .any)) { service in
            let client = try service.connect()
            for headers in [[("Origin", "https://anywhere.example")], []] {
                let response = try client.request("GET", "/healthz", headers: headers)
                #expect(response.header("Access-Control-Allow-Origin") == "*")
                #expect(response.header("Access-Control-Expose-Headers") == Self.exposed)
                #expect(response.header("Vary") == "Accept-Encoding")  // gzip's own: nothing of CORS
            }
            let preflight = try client.request(
                "OPTIONS", "/layout", headers: [("Origin", "https://anywhere.example"), ("Access-Control-Request-Method", "POST")])
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == "*")
            #expect(preflight.header("Access-Control-Allow-Methods") == "POST")
        }
    }

    /// Off by default: no answer carries a CORS header, and OPTIONS is the plain 204 with Allow.
    @Test func offByDefault() throws {
        try withService { service in
            let client = try service.connect()
            let preflight = try client.request(
                "OPTIONS", "/diff", headers: [("Origin", Self.app), ("Access-Control-Request-Method", "POST")])
            #expect(preflight.status == 204)
            #expect(preflight.header("Allow") == "POST, OPTIONS")
            let actual = try client.request("GET", "/healthz", headers: [("Origin", Self.app)])
            for response in [preflight, actual] {
                #expect(Self.corsHeaders(response) == [])
                #expect(response.header("Vary") == "Accept-Encoding")  // gzip's own: nothing of CORS
            }
        }
    }
}
