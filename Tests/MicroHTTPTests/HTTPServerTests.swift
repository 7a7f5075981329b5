import Testing
@testable import MicroHTTP
import Glibc
import TestSupport

@Suite struct HTTPServerTests {
    @Test func answersGetWithParsedTargetAndHeaders() throws {
        try withServer { _, port in
            let client = try TestClient(port: port)
            let response = try client.request("GET", "/a/b%20c?x=1&y=%20", headers: ["X-Test": "Value"])
            #expect(response.status == 200)
            #expect(response.header("X-Method") == "GET")
            #expect(response.header("X-Path") == "/a/b%20c")
            #expect(response.header("X-Query") == "x=1&y=%20")
            #expect(response.header("X-Test") == "Value")
            #expect(response.body.isEmpty)
        }
    }

    @Test func echoesPostBody() throws {
        try withServer { _, port in
            let client = try TestClient(port: port)
            let body = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }  // several MHD chunks
            let response = try client.request("POST", "/echo", body: body)
            #expect(response.status == 200)
            #expect(response.header("X-Query") == "<none>")
            #expect(response.body == body)
        }
    }

    /// A handler answers HEAD as GET; libmicrohttpd sends the head with the body's Content-Length and no body,
    /// for a copied answer and a streamed one (64 KiB or more) alike, and the connection goes on.
    @Test(arguments: [15, 200_000])
    func answersHeadWithoutTheBody(bodyBytes: Int) throws {
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: bodyBytes)
        try withServer(handler: { _ in HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: body) }) { _, port in
            let client = try TestClient(port: port)
            try client.send(TestClient.requestBytes("HEAD", "/") + TestClient.requestBytes("GET", "/"))
            let head = try client.readResponse(toHead: true)
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == String(bodyBytes))
            #expect(head.header("Content-Type") == "text/plain")
            let get = try client.readResponse()  // would read the HEAD's body as a status line had it been sent
            #expect(get.body == body)
        }
    }

    @Test func servesTwoRequestsOnOneKeepAliveConnection() throws {
        let calls = Counter()
        try withServer(handler: { calls.increment(); return echo($0) }) { _, port in
            let client = try TestClient(port: port)
            let first = try client.request("POST", "/one", body: Array("first".utf8))
            let second = try client.request("GET", "/two")
            #expect(first.text == "first")
            #expect(first.header("Connection") == nil)
            #expect(second.header("X-Path") == "/two")
            #expect(calls.value == 2)
        }
    }

    @Test func serves64ConcurrentClients() throws {
        let clients = 64
        try withServer { _, port in
            let connections = try (0..<clients).map { _ in try TestClient(port: port) }
            // Every request is on the wire before any response is read: 64 open requests at once.
            for (index, connection) in connections.enumerated() {
                let body = Array("client-\(index)".utf8)
                try connection.send("POST /c HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.count)\r\n\r\n")
                try connection.send(body)
            }
            for (index, connection) in connections.enumerated() {
                let response = try connection.readResponse()
                #expect(response.status == 200)
                #expect(response.text == "client-\(index)")
            }
        }
    }

    @Test func reportsPortInUse() throws {
        try withServer { _, port in
            let second = HTTPServer(configuration: .init(port: port), handler: echo)
            #expect(throws: HTTPServerError.startFailed(port: port, errno: EADDRINUSE)) { try second.start() }
        }
    }

    @Test(arguments: [
        (HTTPServer.Configuration(host: "not a host"), HTTPServerError.invalidHost("not a host")),
        (HTTPServer.Configuration(threads: 0), HTTPServerError.invalidConfiguration(.threads, allowed: 1...Int(UInt32.max))),
        (HTTPServer.Configuration(port: 70000), HTTPServerError.invalidConfiguration(.port, allowed: 0...65535)),
        (HTTPServer.Configuration(connectionTimeout: .zero), HTTPServerError.invalidConfiguration(.connectionTimeout, allowed: 1...Int(UInt32.max))),
    ])
    func rejectsInvalidConfiguration(configuration: HTTPServer.Configuration, expected: HTTPServerError) {
        let server = HTTPServer(configuration: configuration, handler: echo)
        #expect(throws: expected) { try server.start() }
    }

    @Test func refusesSecondStart() throws {
        try withServer { server, _ in
            #expect(throws: HTTPServerError.alreadyStarted) { try server.start() }
        }
    }
}
