import Gzip
import Testing
import TestSupport

@testable import MicroHTTP

/// Content codings in the HTTP layer, over real sockets: how gzip bodies and gzipped answers are counted in the
/// memory budget, and the headers the layer adds.
@Suite struct ContentCodingTests {
    static let zeros = [UInt8](repeating: 0, count: 4 << 20)

    /// A configuration with gzip answers and a budget of `capacity` bytes, none of it kept for light requests.
    static func configuration(budget capacity: Int, maxBodyBytes: Int = 8 << 20) -> HTTPServer.Configuration {
        var configuration = HTTPServer.Configuration(maxBodyBytes: maxBodyBytes)
        configuration.compressionLevel = 1
        configuration.memoryBudget = MemoryBudget(capacity: capacity, lightReserve: 0)
        configuration.admissionTimeout = .zero
        return configuration
    }

    @Test func gzipBodyReachesTheHandlerDecoded() throws {
        try withServer(Self.configuration(budget: 64 << 20)) { server, port in
            let sent = try GzipCodec.compress(Self.zeros, level: 9)
            let response = try TestClient(port: port).request(
                "POST", "/echo", headers: [("Content-Encoding", "gzip")], body: sent)
            #expect(response.status == 200)
            #expect(response.header("X-Length") == "\(Self.zeros.count)")
            #expect(response.body == Self.zeros)
            #expect(eventually { server.configuration.memoryBudget.reservedBytes == 0 })
        }
    }

    /// A gzip body reserves what its decoding can hold (its decoded limit and the decoder) before it is read; a
    /// budget that can never hold that refuses it at once with a 503 and `Retry-After`, and is whole afterwards.
    @Test func gzipBodyTheBudgetCanNeverDecodeIs503() throws {
        try withServer(Self.configuration(budget: 2 << 20)) { server, port in
            let sent = try GzipCodec.compress(Self.zeros, level: 9)
            #expect(sent.count < 64 * 1024)
            let response = try TestClient(port: port).request(
                "POST", "/echo", headers: [("Content-Encoding", "gzip")], body: sent)
            #expect(response.status == 503)
            #expect(response.header("Retry-After") == "1")
            let budget = server.configuration.memoryBudget
            #expect(budget.peakReservedBytes <= 2 << 20)
            #expect(eventually { budget.reservedBytes == 0 })
        }
    }

    /// A gzip bomb (a small body that decodes past the limit) is a 413, never a 503, and holds no more of the
    /// budget than itself, its decoded limit and its decoder, even where the route's estimate of the body's work
    /// (ten times the body here, as the service's) would not fit the budget.
    @Test(arguments: [64 << 20, 4 << 20])
    func gzipBombIs413AndHoldsNoMoreThanItsDecodedLimit(capacity: Int) throws {
        var configuration = Self.configuration(budget: capacity, maxBodyBytes: 1 << 20)
        configuration.memoryEstimate = { _, _, bytes in 10 * bytes + 64 * 1024 }
        try withServer(configuration) { server, port in
            let bomb = try GzipCodec.compress(Self.zeros, level: 9)
            #expect(bomb.count < 8 * 1024)
            let response = try TestClient(port: port).request(
                "POST", "/echo", headers: [("Content-Encoding", "gzip")], body: bomb)
            #expect(response.status == 413)
            #expect(response.header("Connection") == "close")
            let budget = server.configuration.memoryBudget
            #expect(budget.peakReservedBytes <= bomb.count + (1 << 20) + ContentCoding.decoderBytes)
            #expect(eventually { budget.reservedBytes == 0 })
        }
    }

    /// A valid gzip body whose work does not fit the budget now waits for room, as a body sent as it is waits at
    /// its head, and is answered once the room comes, not refused 503 while the budget is only busy.
    @Test func validGzipBodyWaitsForRoomAsAnIdentityBodyDoes() throws {
        let gate = Gate()
        var configuration = oneThreadEach()
        configuration.computeThreads = 2  // one held by /hold, one to decode the gzip body
        configuration.maxBodyBytes = 1 << 20
        configuration.memoryBudget = MemoryBudget(capacity: 8 << 20, lightReserve: 0)
        configuration.memoryEstimate = { _, path, bytes in path == "/hold" ? 7 << 20 : 10 * bytes + 64 * 1024 }
        configuration.admissionTimeout = .seconds(30)
        let decoded = [UInt8](repeating: UInt8(ascii: "7"), count: 256 << 10)
        try withServer(configuration, handler: { request in
            if request.path == "/hold" { gate.pass() }
            return echo(request)
        }) { server, port in
            let budget = server.configuration.memoryBudget
            let holder = try TestClient(port: port)
            try holder.send(TestClient.requestBytes("POST", "/hold", body: [UInt8](repeating: 1, count: 2048)))
            #expect(eventually { gate.arrived == 1 })
            var held = true
            defer { if held { gate.open() } }
            // Its work (2.6 MiB) does not fit beside /hold's 7 MiB: it must wait, not be refused.
            let client = try TestClient(port: port, timeout: 30)
            let sent = try GzipCodec.compress(decoded, level: 9)
            try client.send(TestClient.requestBytes("POST", "/echo", headers: [("Content-Encoding", "gzip")], body: sent))
            #expect(eventually { budget.waitingCount == 1 })
            gate.open()
            held = false
            #expect(try holder.readResponse().status == 200)
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.header("X-Length") == "\(decoded.count)")
            let whole = response.body == decoded  // (not in #expect, which would print 256 KiB twice)
            #expect(whole)
            #expect(budget.refusedCount == 0)
            #expect(budget.peakReservedBytes <= 8 << 20)
            #expect(eventually { budget.reservedBytes == 0 })
        }
    }

    /// A compression needs room for zlib's state and the compressed copy; without it the answer goes as it is.
    @Test(arguments: [(512 << 10, nil), (64 << 20, "gzip")] as [(Int, String?)])
    func compressionNeedsRoomInTheBudget(capacity: Int, coding: String?) throws {
        let answer = [UInt8](repeating: UInt8(ascii: "a"), count: 300_000)
        try withServer(Self.configuration(budget: capacity), handler: { _ in HTTPResponse(status: 200, body: answer) }) {
            server, port in
            let response = try TestClient(port: port).request("GET", "/", headers: [("Accept-Encoding", "gzip")])
            #expect(response.status == 200)
            #expect(response.header("Content-Encoding") == coding)
            #expect(response.header("Vary") == "Accept-Encoding")
            #expect((coding == nil ? response.body : try GzipCodec.decompress(response.body)) == answer)
            #expect(server.configuration.memoryBudget.peakReservedBytes <= capacity)
        }
    }

    /// The handler's own Vary is kept; Accept-Encoding joins it once.
    @Test(arguments: [("Origin", "Origin, Accept-Encoding"), ("accept-encoding", "accept-encoding")])
    func varyIsMerged(handlerVary: String, sent: String) throws {
        try withServer(Self.configuration(budget: 64 << 20), handler: { _ in HTTPResponse(status: 200, headers: ["Vary": handlerVary]) }) {
            _, port in
            let response = try TestClient(port: port).request("GET", "/")
            #expect(response.header("Vary") == sent)
        }
    }

    /// Another coding is refused on any method: at once for POST (libmicrohttpd skips the body), after the body
    /// is read and thrown away for the others; either way 415 with `Accept-Encoding: gzip`, and closed. A coding
    /// without a body is no coding.
    @Test(arguments: ["POST", "GET", "DELETE"])
    func otherCodingIs415OnAnyMethod(method: String) throws {
        let handled = Counter()
        try withServer(Self.configuration(budget: 64 << 20), handler: { request in
            handled.increment()
            return echo(request)
        }) { _, port in
            let client = try TestClient(port: port)
            let response = try client.request(method, "/x", headers: [("Content-Encoding", "br")], body: Array("{}".utf8))
            #expect(response.status == 415)
            #expect(response.header("Accept-Encoding") == "gzip")
            #expect(response.header("Connection") == "close")
            #expect(handled.value == 0)
            let empty = try TestClient(port: port).request("GET", "/x", headers: [("Content-Encoding", "br")])
            #expect(empty.status == 200)
        }
    }

    /// Without a level, no Vary and no coding.
    @Test func noLevelNoCoding() throws {
        var configuration = Self.configuration(budget: 64 << 20)
        configuration.compressionLevel = 0
        try withServer(configuration, handler: { _ in HTTPResponse(status: 200, body: Self.zeros) }) { _, port in
            let response = try TestClient(port: port).request("GET", "/", headers: [("Accept-Encoding", "gzip")])
            #expect(response.header("Content-Encoding") == nil)
            #expect(response.header("Vary") == nil)
            #expect(response.body == Self.zeros)
        }
    }
}
