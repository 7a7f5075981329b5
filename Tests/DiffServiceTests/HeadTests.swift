@testable import DiffService
import Testing
import TestSupport

/// HEAD on every GET route of the route table (RFC 9110 §9.3.2): the GET's status and headers, no body, and the
/// connection goes on.
@Suite struct HeadTests {
    private static let getRoutes = ServiceRouter.routes.filter { $0.method == "GET" }.map(\.path)

    @Test(arguments: getRoutes)
    func headIsTheGetsHeadWithoutItsBody(path: String) throws {
        try withService { service in
            let client = try service.connect()
            let get = try client.request("GET", path)
            let head = try client.request("HEAD", path)
            #expect(head.status == get.status)
            #expect(head.body.isEmpty)
            // Every header the GET has, with the same value, except the per-answer ones; /metrics' body grows
            // with every request, so only its Content-Length differs.
            let varying = Set(["date", "x-request-id"] + (path == "/metrics" ? ["content-length"] : []))
            func fields(_ response: TestClient.Response) -> [String] {
                response.headers.filter { !varying.contains($0.name.lowercased()) }.map { "\($0.name): \($0.value)" }
            }
            #expect(fields(head) == fields(get))
            #expect(head.header("Content-Length").flatMap { Int($0) } ?? 0 > 0)
            #expect(head.header("X-Request-ID")?.count == 32)
            // No body came after the head: the next answer on the connection starts right after it.
            #expect(client.unreadBytes == 0)
            #expect(try client.request("GET", "/healthz").text == #"{"status":"ok"}"#)
        }
    }

    /// The raw bytes: the answer to a HEAD of the 36 KB OpenAPI document ends with its header block, and a GET
    /// sent behind it on the same connection (pipelined) is answered next.
    @Test func theAnswerEndsAfterItsHeaderBlock() throws {
        try withService { service in
            let client = try service.connect()
            try client.send(TestClient.requestBytes("HEAD", "/openapi.yaml") + TestClient.requestBytes("GET", "/readyz"))
            let head = try client.readResponse(toHead: true)
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == String(OpenAPIDocument.bytes.count))
            #expect(head.header("Content-Type") == "application/yaml")
            let next = try client.readResponse()  // would fail on YAML where a status line belongs
            #expect(next.status == 200)
            #expect(next.text == #"{"status":"ready"}"#)
        }
    }

    /// A HEAD of a route without GET is a 405 like any other method, its problem's headers without its body.
    @Test func headOfAPostRouteIsNotAllowed() throws {
        try withService { service in
            let client = try service.connect()
            let response = try client.request("HEAD", "/diff")
            #expect(response.status == 405)
            #expect(response.header("Allow") == "POST, OPTIONS")
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.body.isEmpty)
            #expect(try client.request("GET", "/healthz").status == 200)
        }
    }

    /// A HEAD is counted under its own method.
    @Test func metricsCountHeadUnderItsMethod() throws {
        try withService { service in
            let client = try service.connect()
            _ = try client.request("HEAD", "/healthz")
            _ = try client.request("HEAD", "/diff")
            let text = try client.request("GET", "/metrics").text
            #expect(text.contains(#"snapdiff_http_requests_total{route="/healthz",method="HEAD",status="200"} 1"#), "\(text)")
            #expect(text.contains(#"snapdiff_http_requests_total{route="/diff",method="HEAD",status="405"} 1"#))
        }
    }
}
