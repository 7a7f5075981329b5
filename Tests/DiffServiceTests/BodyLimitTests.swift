@testable import DiffService
import Testing
import TestSupport

/// The body limit (`maxBodyBytes`), answered with the service's own 413 problem.
@Suite struct BodyLimitTests {
    static let limit = 4096

    /// A valid request padded with spaces to exactly `size` bytes.
    static func body(ofSize size: Int) -> [UInt8] {
        let core = Array(diffBody(old: items([1, 2, 3]), new: items([3, 2, 1])).utf8)
        return core + [UInt8](repeating: UInt8(ascii: " "), count: size - core.count)
    }

    private func post(_ body: [UInt8], to service: RunningService) throws -> TestClient.Response {
        try service.connect().request("POST", "/diff", headers: [("Content-Type", "application/json")], body: body)
    }

    @Test func bodyExactlyAtTheLimitIsDiffed() throws {
        try withService(maxBodyBytes: Self.limit) { service in
            let response = try post(Self.body(ofSize: Self.limit), to: service)
            #expect(response.status == 200, "\(response.text)")
            #expect(try JSON(parsing: response.body)["counts"]?["elementMoved"] == .integer(2))
        }
    }

    @Test func oneByteOverTheLimitIsContentTooLarge() throws {
        try withService(maxBodyBytes: Self.limit) { service in
            let client = try service.connect()
            // Only the head: the answer must not wait for the body.
            try client.send("POST /diff HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(Self.limit + 1)\r\n\r\n")
            let response = try client.readResponse()
            let problem = try expectProblem(response, .contentTooLarge)
            #expect(problem["limit"] == .integer(Self.limit))
            #expect(response.header("Connection") == "close")
            #expect(try client.waitForClose())
        }
    }

    /// Any method, not only POST: a `Content-Length` over the limit is a 413 problem from the head alone (no body
    /// byte is sent here), counted and logged like every refusal.
    @Test(arguments: [("GET", "/healthz"), ("PUT", "/diff"), ("DELETE", "/diff"), ("HEAD", "/"), ("GET", "/nowhere")])
    func overLimitLengthOfAnyMethodIsContentTooLargeBeforeTheBody(method: String, path: String) throws {
        try withService(maxBodyBytes: Self.limit) { service in
            let client = try service.connect()
            try client.send("\(method) \(path) HTTP/1.1\r\nHost: t\r\nContent-Length: \(Self.limit + 1)\r\n\r\n")
            let response = try client.readResponse(toHead: method == "HEAD")
            if method == "HEAD" {
                #expect(response.status == 413)
                #expect(response.header("Content-Type") == "application/problem+json")
            } else {
                #expect(try expectProblem(response, .contentTooLarge)["limit"] == .integer(Self.limit))
            }
            #expect(response.header("Connection") == "close")
            #expect(try client.waitForClose())
            let route = ServiceRouter.position(of: path) == nil ? "other" : path
            let metrics = try service.connect().request("GET", "/metrics").text
            let line = #"snapdiff_http_requests_total{route="\#(route)",method="\#(method)",status="413"} 1"#
            #expect(metrics.contains(line))
        }
    }

    @Test func declaredLengthFarAboveTheLimitIsContentTooLarge() throws {
        try withService(maxBodyBytes: Self.limit) { service in
            let client = try service.connect()
            try client.send("POST /diff HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 9000000000\r\n\r\n")
            try expectProblem(try client.readResponse(), .contentTooLarge)
        }
    }

    /// Chunked request bodies are refused with 411 before they are read, valid or not, within the limit or not.
    @Test(arguments: [Self.limit, Self.limit + 1])
    func chunkedBodyIsLengthRequired(size: Int) throws {
        try withService(maxBodyBytes: Self.limit) { service in
            let client = try service.connect()
            var request = Array("POST /diff HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            let body = Self.body(ofSize: size)
            for start in stride(from: 0, to: body.count, by: 1000) {
                let chunk = Array(body[start..<min(start + 1000, body.count)])
                request += Array((String(chunk.count, radix: 16) + "\r\n").utf8) + chunk + Array("\r\n".utf8)
            }
            try client.send(request + Array("0\r\n\r\n".utf8))
            let response = try client.readResponse()
            try expectProblem(response, .lengthRequired)
            #expect(response.header("Connection") == "close")
            #expect(try client.waitForClose())
        }
    }
}
