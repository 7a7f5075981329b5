import Testing
@testable import MicroHTTP
import Glibc
import TestSupport

@Suite struct BodyLimitTests {
    static let limit = 1000
    var configuration: HTTPServer.Configuration { .init(maxBodyBytes: Self.limit) }

    @Test func acceptsBodyExactlyAtLimit() throws {
        try withServer(configuration) { _, port in
            let response = try TestClient(port: port)
                .request("POST", "/", body: [UInt8](repeating: 7, count: Self.limit))
            #expect(response.status == 200)
            #expect(response.body.count == Self.limit)
        }
    }

    /// Every method, not only those with a body in their semantics: the 413 comes from the head alone, through
    /// the refusal hook (where the service logs and counts it), and the handler never runs.
    @Test(arguments: ["POST", "PUT", "GET", "DELETE", "HEAD", "PATCH", "OPTIONS"])
    func answers413FromContentLengthWithoutReadingBody(method: String) throws {
        let calls = Counter()
        let refusals = Timeline()
        var configuration = self.configuration
        configuration.refusalResponse = { refusal, method, path, headers in
            refusals.record("\(refusal.status) \(method) \(path)")
            return HTTPServer.Configuration.defaultRefusalResponse(
                refusal, method: method, path: path, headers: headers)
        }
        try withServer(configuration, handler: { calls.increment(); return echo($0) }) { _, port in
            let client = try TestClient(port: port)
            // Only the head is sent: the answer must come without the body.
            try client.send("\(method) /x HTTP/1.1\r\nHost: t\r\nContent-Length: \(Self.limit + 1)\r\n\r\n")
            let response = try client.readResponse(toHead: method == "HEAD")
            #expect(response.status == 413)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.header("Connection") == "close")
            #expect(try client.waitForClose())
            #expect(calls.value == 0)
            #expect(refusals.all == ["413 \(method) /x"])
        }
    }

    /// A client that sends a body far over the limit with another method reads the early 413 whole, then the
    /// connection closes cleanly (the rest is drained, never read as a body or a next request).
    @Test(arguments: ["GET", "DELETE"])
    func answers413BeforeAFarLargerBodyOfOtherMethods(method: String) throws {
        let calls = Counter()
        try withServer(configuration, handler: { calls.increment(); return echo($0) }) { _, port in
            let client = try TestClient(port: port)
            let size = 300 * Self.limit
            try client.send("\(method) / HTTP/1.1\r\nHost: t\r\nContent-Length: \(size)\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 413)
            // The client goes on sending what it announced; the server drains it and closes without a reset.
            try client.send([UInt8](repeating: UInt8(ascii: "G"), count: size))
            #expect(try client.waitForCleanClose())
            #expect(calls.value == 0)
        }
    }

    @Test func answers413WithoutContinueWhenClientExpectsIt() throws {
        try withServer(configuration) { _, port in
            let client = try TestClient(port: port)
            try client.send("POST / HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n")
            let response = try client.readResponse()  // would skip a 100, but none must come
            #expect(response.status == 413)
        }
    }

    /// A chunked body is refused before any of it is read (libmicrohttpd 0.9.75's chunked decoder is lenient).
    @Test func refusesChunkedBodyWith411BeforeReadingIt() throws {
        let calls = Counter()
        try withServer(configuration, handler: { calls.increment(); return echo($0) }) { _, port in
            let client = try TestClient(port: port)
            try client.send("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 411)
            #expect(response.header("Connection") == "close")
            #expect(try client.waitForClose())
            #expect(calls.value == 0)
        }
    }

    /// A client that sends its whole chunked body at once still reads the 411: the server drains what it sent
    /// and closes cleanly rather than resetting the connection.
    @Test func refusesChunkedBodySentWholeAndClosesCleanly() throws {
        let calls = Counter()
        try withServer(configuration, handler: { calls.increment(); return echo($0) }) { _, port in
            let client = try TestClient(port: port)
            var request = "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
            for _ in 0..<3 { request += "258\r\n" + String(repeating: "x", count: 600) + "\r\n" }
            try client.send(request + "0\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 411)
            #expect(response.header("Connection") == "close")
            #expect(try client.waitForClose())
            #expect(calls.value == 0)
        }
    }

    /// A client that goes on sending after the refusal loses the connection once the drain ends.
    @Test func cutsClientThatKeepsSendingAfterARefusal() throws {
        try withServer(configuration) { server, port in
            let client = try TestClient(port: port)
            try client.send("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = Array(("10000\r\n" + String(repeating: "z", count: 65536) + "\r\n").utf8)
            var sent = 0
            var cut = false
            while sent < 1 << 34 {  // the server drains for at most two seconds
                do { try client.send(chunk) } catch { cut = true; break }
                sent += chunk.count
            }
            #expect(cut, "server still reading after \(sent) bytes")
            #expect(eventually { server.inFlightRequestCount == 0 })
        }
    }

    @Test func answers413ToOversizedBodyOfOtherMethods() throws {
        try withServer(configuration) { _, port in
            let client = try TestClient(port: port)
            let response = try client.request("PATCH", "/", body: [UInt8](repeating: 1, count: 3000))
            #expect(response.status == 413)
        }
    }

    @Test func survivesClientLeavingMidBody() throws {
        var configuration = self.configuration
        configuration.maxBodyBytes = 1 << 20
        configuration.connectionTimeout = .seconds(2)
        try withServer(configuration) { server, port in
            do {
                let client = try TestClient(port: port)
                try client.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n")
                try client.send([UInt8](repeating: 1, count: 20_000))
            }  // closed here, 80 000 bytes short
            #expect(eventually { server.inFlightRequestCount == 0 }, "request state leaked")
            let response = try TestClient(port: port).request("GET", "/after")
            #expect(response.status == 200)
        }
    }

    /// Bodies whose room is mapped ahead a window at a time (`RequestState.reserveBody`) arrive byte for byte, with
    /// the trailing capacity zeroed: random bytes whose room is a byte under the threshold and at it, a byte past a
    /// window's edge, and not a whole number of pages, sent in pieces of random sizes (so that chunks straddle the
    /// windows).
    /// (The room is the body and the 64 trailing bytes: the first size's room is one byte under the threshold.)
    @Test(arguments: [
        RequestState.mappedAheadBodyBytes - 65, RequestState.mappedAheadBodyBytes - 64,
        RequestState.mappedAheadBodyBytes + RequestState.mappingWindow + 1, 6 * RequestState.mappingWindow + 4093,
    ])
    func aBodyWhoseRoomIsMappedAheadArrivesWhole(size: Int) throws {
        var configuration = HTTPServer.Configuration(maxBodyBytes: 8 << 20)
        configuration.reservedTrailingCapacity = 64
        var random = SplitMix(seed: UInt64(size))
        let body = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
        let trailingZeroed = Counter()
        try withServer(configuration, handler: { request in
            // The reader may read the reserved trailing bytes: they must be zeros, not what the mapping held.
            let zeroed = request.body.capacity >= request.body.count + 64 && request.body.withUnsafeBufferPointer { buffer in
                (0..<64).allSatisfy { buffer.baseAddress![buffer.count + $0] == 0 }
            }
            if zeroed { trailingZeroed.increment() }
            return echo(request)
        }) { _, port in
            let client = try TestClient(port: port)
            try client.send("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: \(size)\r\n\r\n")
            var sent = 0
            while sent < size {
                let piece = min(size - sent, Int.random(in: 1...300_000, using: &random))
                try client.send(Array(body[sent..<(sent + piece)]))
                sent += piece
            }
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.body == body)
            #expect(trailingZeroed.value == 1)
        }
    }
}
