import Testing
import TestSupport

@testable import MicroHTTP

/// The request target's forms (RFC 9112 §3.2): the origin form, and the absolute form a server must accept too.
@Suite struct RequestTargetTests {
    @Test(arguments: [
        ("/healthz", "/healthz"),
        ("/diff?x=1", "/diff?x=1"),
        ("*", "*"),
        ("http://example.com/healthz", "/healthz"),
        ("HTTP://Example.COM:8080/a/b?c=d&e", "/a/b?c=d&e"),
        ("https://example.com", "/"),
        ("http://example.com?q=1", "/?q=1"),
        ("http://user@example.com:80/p", "/p"),
        ("ftp://example.com/healthz", "ftp://example.com/healthz"),
        ("http:/healthz", "http:/healthz"),
    ])
    func originFormOfTheTarget(target: String, origin: String) {
        #expect(RequestState.originForm(of: target) == origin)
    }

    /// An absolute-form target reaches the handler as its path and query, over a real socket.
    @Test func absoluteFormTargetIsServedByItsPath() throws {
        try withServer { _, port in
            let client = try TestClient(port: port)
            try client.send(
                "GET http://snapdiff.example:8080/healthz?verbose=1 HTTP/1.1\r\nHost: snapdiff.example:8080\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.header("X-Path") == "/healthz")
            #expect(response.header("X-Query") == "verbose=1")
            // The connection stays usable for an origin-form request after it.
            let next = try client.request("GET", "/next")
            #expect(next.header("X-Path") == "/next")
        }
    }
}
