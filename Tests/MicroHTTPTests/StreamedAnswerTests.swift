import Dispatch
import Glibc
import Gzip
import Synchronization
import Testing
import TestSupport

@testable import MicroHTTP

/// Answers written while they are sent (``BodyStream``): framing, back-pressure, the client gone, shutdown.
@Suite struct StreamedAnswerTests {
    /// A response whose body is `pieces`, handed over one by one, after `pause` (if any) before each.
    private static func streamed(_ pieces: [[UInt8]], pause: (@Sendable (Int) -> Void)? = nil) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: ["Content-Type": "application/octet-stream"],
            stream: BodyStream { sink in
                for (index, piece) in pieces.enumerated() {
                    pause?(index)
                    var bytes = piece
                    sink.send(&bytes)
                }
            })
    }

    /// A body of `count` pieces of `size` bytes each, every byte set from its position (so that a lost, repeated
    /// or reordered piece shows). The writer stops once the body is no longer wanted (as a real writer may), so
    /// that a test of a client gone or of shutdown waits for the pipe, not for 64 MiB built byte by byte (which
    /// took 28 s of the tests' 30 under ThreadSanitizer alone, and failed them when run beside the others).
    private static func counted(pieces count: Int, size: Int) -> BodyStream {
        BodyStream { sink in
            for index in 0..<count {
                guard sink.isOpen else { return }
                var bytes = (0..<size).map { UInt8(truncatingIfNeeded: ($0 &* 31) ^ index) }
                sink.send(&bytes)
            }
        }
    }

    private static func countedBody(pieces count: Int, size: Int) -> [UInt8] {
        (0..<count).flatMap { index in (0..<size).map { UInt8(truncatingIfNeeded: ($0 &* 31) ^ index) } }
    }

    /// Property: whatever the pieces (none, empty ones, tiny and large ones, with pauses that make the reader wait
    /// for the writer), computed inline or on the pool, gzipped or not, the client receives one chunked message
    /// whose body is the pieces in order, and the connection serves the next request.
    @Test func everyStreamArrivesWholeAsOneChunkedMessage() throws {
        var random = SplitMix(seed: 0x5EED_0001)
        for seed in 0..<40 {
            let pieceCount = Int.random(in: 0...12, using: &random)
            let pieces = (0..<pieceCount).map { _ -> [UInt8] in
                let size = [0, 1, 7, 4_000, 65_536, 70_001, 200_000].randomElement(using: &random)!
                return (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
            }
            let pausing = Bool.random(using: &random)
            let heavy = Bool.random(using: &random)
            let gzip = seed % 3 == 0
            var configuration = oneThreadEach()
            if gzip { configuration.compressionLevel = 6 }
            let expected = pieces.flatMap { $0 }
            var pause: (@Sendable (Int) -> Void)?
            if pausing { pause = { _ in _ = usleep(2_000) } }
            let pauses = pause
            let handler: @Sendable (HTTPRequest) -> HTTPResponse = { request in
                request.path == "/stream" ? Self.streamed(pieces, pause: pauses) : echo(request)
            }
            try withServer(configuration, handler: handler) { server, port in
                let client = try TestClient(port: port)
                let headers = gzip ? [("Accept-Encoding", "gzip")] : []
                let answer = try client.request(
                    "POST", "/stream", headers: headers, body: heavy ? [UInt8](repeating: 1, count: 2048) : [])
                #expect(answer.status == 200, "seed \(seed)")
                #expect(answer.header("Transfer-Encoding") == "chunked", "seed \(seed)")
                #expect(answer.header("Content-Length") == nil, "seed \(seed)")
                if gzip {
                    #expect(answer.header("Content-Encoding") == "gzip", "seed \(seed)")
                    #expect(try GzipCodec.decompress(answer.body) == expected, "seed \(seed)")
                } else {
                    #expect(answer.body == expected, "seed \(seed)")
                }
                // Keep-alive: the same connection answers the next request.
                #expect(try client.request("POST", "/echo", body: Array("next".utf8)).text == "next", "seed \(seed)")
                #expect(eventually { server.configuration.memoryBudget.reservedBytes == 0 }, "seed \(seed)")
                #expect(eventually { server.context.answerPipes.count == 0 }, "seed \(seed)")
            }
        }
    }

    /// An HTTP/1.0 client gets the body without a length, ended by the connection's close (RFC 9112 §6.3).
    @Test func http10ClientGetsABodyEndedByClose() throws {
        let pieces = [[UInt8](repeating: 7, count: 100_000), Array("end".utf8)]
        try withServer(oneThreadEach(), handler: { _ in Self.streamed(pieces) }) { _, port in
            let client = try TestClient(port: port)
            try client.send("POST /stream HTTP/1.0\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
            let bytes = try client.readUntilClose()
            let separator: [UInt8] = Array("\r\n\r\n".utf8)
            let end = try #require(
                (0...(bytes.count - separator.count)).first { bytes[$0..<$0 + separator.count].elementsEqual(separator) })
            let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
            #expect(head.hasPrefix("http/1.1 200"))
            #expect(!head.contains("content-length"))
            #expect(!head.contains("transfer-encoding"))
            #expect(head.contains("connection: close"))
            #expect(Array(bytes[(end + separator.count)...]) == pieces.flatMap { $0 })
        }
    }

    /// A client that reads nothing holds the writer back: it stops far short of the body (socket buffers and the
    /// pipe's few pieces take the rest), and finishes once the client reads. Its reservation stays until then.
    @Test func writerWaitsForASlowReader() throws {
        let produced = Atomic<Int>(0)
        let total = 256, size = 256 * 1024  // 64 MiB
        var configuration = oneThreadEach()
        configuration.memoryEstimate = { _, _, _ in 1_000_000 }
        configuration.sendTimeout = .seconds(300)  // however slow the machine, the stall is seen before a cut
        try withServer(configuration, handler: { _ in
            HTTPResponse(
                status: 200,
                stream: BodyStream { sink in
                    for index in 0..<total {
                        var bytes = (0..<size).map { UInt8(truncatingIfNeeded: ($0 &* 31) ^ index) }
                        sink.send(&bytes)
                        produced.add(1, ordering: .relaxed)
                    }
                })
        }) { server, port in
            let client = try TestClient(port: port, timeout: 60)
            try client.send(TestClient.requestBytes("POST", "/stream"))
            // Wait until the writer stops making progress (it waits for room).
            var last = -1
            #expect(eventually(within: 30) {
                let now = produced.load(ordering: .relaxed)
                defer { last = now }
                usleep(100_000)
                return now == last && now > 0
            })
            #expect(produced.load(ordering: .relaxed) * size < 32 << 20)
            #expect(server.configuration.memoryBudget.reservedBytes >= 1_000_000)
            let answer = try client.readResponse()
            #expect(answer.body == Self.countedBody(pieces: total, size: size))
            #expect(eventually { server.configuration.memoryBudget.reservedBytes == 0 })
        }
    }

    /// A client that leaves mid-answer: the writer's pieces drop, it returns, and the reservation comes back.
    @Test func clientGoneEndsTheWriterAndFreesItsMemory() throws {
        let finished = Atomic<Bool>(false)
        var configuration = oneThreadEach()
        configuration.memoryEstimate = { _, _, _ in 1_000_000 }
        let stream = Self.counted(pieces: 256, size: 256 * 1024)
        try withServer(configuration, handler: { _ in
            HTTPResponse(
                status: 200,
                stream: BodyStream { sink in
                    stream.write(into: sink)
                    finished.store(!sink.isOpen, ordering: .relaxed)  // it ended because the client left
                })
        }) { server, port in
            do {
                let client = try TestClient(port: port)
                try client.send(TestClient.requestBytes("POST", "/stream"))
                _ = try client.readResponse(toHead: true)
            }  // closed here, having read a few bytes of 64 MiB
            #expect(eventually(within: 30) { finished.load(ordering: .relaxed) })
            #expect(eventually { server.configuration.memoryBudget.reservedBytes == 0 })
            #expect(eventually { server.context.answerPipes.count == 0 })
        }
    }

    /// While a writer is slow to produce, its connection is suspended: the one connection thread answers a probe
    /// on another connection meanwhile.
    @Test func probeIsAnsweredWhileAStreamWaitsForItsWriter() throws {
        let gate = Gate()
        let timeline = Timeline()
        try withServer(oneThreadEach(), handler: { request in
            guard request.path == "/stream" else { return echo(request) }
            return Self.streamed([Array("first".utf8), Array("second".utf8)]) { index in
                if index == 1 {
                    gate.pass()
                    timeline.record("second piece written")
                }
            }
        }) { _, port in
            let streaming = try TestClient(port: port)
            try streaming.send(TestClient.requestBytes("POST", "/stream"))
            #expect(eventually { gate.arrived == 1 })
            #expect(try TestClient(port: port).request("GET", "/healthz").status == 200)
            timeline.record("probe answered")
            gate.open()
            #expect(try streaming.readResponse().text == "firstsecond")
            #expect(timeline.all == ["probe answered", "second piece written"])
        }
    }

    /// Shutdown with an answer half sent to a client that reads nothing: the daemon stops (no connection is left
    /// suspended, no writer touches it afterwards), the writer returns, and the budget is whole again.
    @Test func shutdownEndsAnAnswerTheClientDoesNotRead() throws {
        let finished = Atomic<Bool>(false)
        var configuration = oneThreadEach()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.memoryEstimate = { _, _, _ in 1_000_000 }
        let stream = Self.counted(pieces: 256, size: 256 * 1024)
        let server = HTTPServer(configuration: configuration) { _ in
            HTTPResponse(
                status: 200,
                stream: BodyStream { sink in
                    stream.write(into: sink)
                    finished.store(true, ordering: .relaxed)
                })
        }
        try server.start()
        let port = try #require(server.port)
        let client = try TestClient(port: port)
        try client.send(TestClient.requestBytes("POST", "/stream"))
        #expect(eventually { server.context.answerPipes.count == 1 })
        server.shutdown(grace: .zero)
        #expect(eventually(within: 30) { finished.load(ordering: .relaxed) })
        #expect(eventually { configuration.memoryBudget.reservedBytes == 0 })
        _ = client
    }

    /// ``BodyStream/collect()`` gives the body whole, as the server would send it.
    @Test func collectGivesTheWholeBody() {
        #expect(Self.counted(pieces: 5, size: 70_000).collect() == Self.countedBody(pieces: 5, size: 70_000))
    }
}
