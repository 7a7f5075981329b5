import Testing
@testable import MicroHTTP
import Glibc
import TestSupport

@Suite struct LifecycleTests {
    @Test func shutdownAnswersInFlightRequestsThenRefusesConnections() throws {
        let entered = Counter()
        let box = ServerBox()
        // Each request stays in the handler until shutdown has begun, so every response below is
        // produced during shutdown. Both connections may land on the same worker: the second
        // request is then parsed only after the first is answered, which shutdown must wait for.
        let slow: @Sendable (HTTPRequest) -> HTTPResponse = { request in
            entered.increment()
            _ = eventually { box.server?.isShuttingDown == true }
            return echo(request)
        }
        let server = HTTPServer(configuration: .init(port: 0, threads: 2), handler: slow)
        box.server = server
        try server.start()
        let port = server.port!
        let clients = try (0..<2).map { _ in try TestClient(port: port) }
        for client in clients { try client.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n") }
        let idle = try TestClient(port: port)  // keep-alive client with nothing in flight
        #expect(eventually { entered.value >= 1 })

        // The grace is far longer than the work: shutdown must return once the two requests are answered,
        // without waiting the grace out for the idle connection. (Compared with the grace itself, not with a
        // wall-clock bound, so a busy machine cannot fail it.)
        let grace = Duration.seconds(120)
        let elapsed = ContinuousClock().measure { server.shutdown(grace: grace) }

        #expect(server.isShuttingDown)
        #expect(elapsed < grace, "an idle connection held shutdown for the whole grace (\(elapsed))")
        #expect(try idle.waitForClose(), "the idle connection is closed by the shutdown")
        for client in clients {
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.header("Connection") == "close")
        }
        #expect(throws: TestClient.Failure.connect(errno: ECONNREFUSED)) { try TestClient(port: port) }
        #expect(entered.value == 2)
        #expect(server.port == nil)
        box.server = nil
    }

    @Test func connectionQueuedAtShutdownIsAnsweredNotReset() throws {
        // One connection thread, held in the handler: a second client's connection completes in the kernel's
        // accept queue and its request waits there. Closing the listening socket would reset it (the client
        // sent a request and gets a reset, not an answer); shutdown hands it to the server first.
        let gate = Gate()
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threads: 1)) { request in
            if request.path == "/hold" { gate.pass() }
            return echo(request)
        }
        try server.start()
        let port = server.port!
        let holding = try TestClient(port: port, timeout: 60)
        try holding.send("GET /hold HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(eventually(within: 60) { gate.arrived == 1 })
        let queued = try TestClient(port: port, timeout: 60)
        try queued.send("GET /queued HTTP/1.1\r\nHost: t\r\n\r\n")

        let stopped = inBackground { server.shutdown(grace: .seconds(60)) }
        // Once shutdown has begun the listening socket is closed (answers carry `Connection: close` only from
        // then on, so no client reconnects into a queue about to be reset).
        #expect(eventually(within: 60) { server.isShuttingDown })
        #expect(throws: TestClient.Failure.connect(errno: ECONNREFUSED)) { try TestClient(port: port) }
        gate.open()

        let held = try holding.readResponse()
        #expect(held.status == 200)
        #expect(held.header("Connection") == "close")
        let answer = try queued.readResponse()
        #expect(answer.status == 200)
        #expect(answer.header("X-Path") == "/queued")
        #expect(answer.header("Connection") == "close")
        try stopped()
    }

    @Test func shutdownGivesUpAfterGracePeriod() throws {
        let server = HTTPServer(configuration: .init(port: 0)) { request in
            usleep(2_000_000)
            return echo(request)
        }
        try server.start()
        let client = try TestClient(port: server.port!, timeout: 60)
        try client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(eventually { server.inFlightRequestCount == 1 })
        // The grace ends while the handler still sleeps: shutdown stops waiting and closes the connection, so
        // the answer the handler makes afterwards never reaches the client. (MHD_stop_daemon still joins the
        // worker inside the handler, so shutdown returns only after it.)
        server.shutdown(grace: .milliseconds(200))
        #expect(server.inFlightRequestCount == 0)
        #expect(throws: (any Error).self, "no answer after the grace") { try client.readResponse() }
    }

    @Test func closesIdleConnectionAfterTimeout() throws {
        try withServer(.init(connectionTimeout: .seconds(1))) { _, port in
            let client = try TestClient(port: port, timeout: 60)
            let clock = ContinuousClock()
            var closed = false
            let elapsed = try clock.measure { closed = try client.waitForClose() }
            #expect(closed)
            // Not before the timeout (a busy machine can only make it later, so no upper bound is asserted).
            #expect(elapsed >= .milliseconds(900), "closed after \(elapsed)")
        }
    }

    @Test func shutdownOfUnstartedServerDoesNothing() {
        let server = HTTPServer(handler: echo)
        server.shutdown()
        #expect(server.port == nil)
        #expect(throws: HTTPServerError.alreadyStarted) { try server.start() }
    }
}
