import Dispatch
import Glibc
import Synchronization
import Testing
import TestSupport

@testable import MicroHTTP

/// A gate a handler waits at until the test opens it.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let arrivals = Atomic<Int>(0)

    /// Called by a handler: counts the arrival, then blocks until ``open(for:)``.
    func pass() {
        arrivals.add(1, ordering: .sequentiallyConsistent)
        semaphore.wait()
    }

    /// Lets `count` waiting (or future) handlers through.
    func open(for count: Int = 1) {
        for _ in 0..<count { semaphore.signal() }
    }

    /// Handlers that have reached the gate.
    var arrived: Int { arrivals.load(ordering: .sequentiallyConsistent) }
}

/// Events in the order they happened, from any thread.
final class Timeline: Sendable {
    private let events = Mutex<[String]>([])
    func record(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
}

/// A heavy request: its body reaches the inline limit the tests set, so it is computed on a compute thread.
private let heavyBody = [UInt8](repeating: UInt8(ascii: "x"), count: 2048)

@Suite struct AdmissionTests {
    @Test func smallRequestCompletesWhileLargeOneComputes() throws {
        let gate = Gate()
        let timeline = Timeline()
        try withServer(oneThreadEach(), handler: { request in
            if request.path == "/large" {
                gate.pass()
                timeline.record("large computed")
            }
            return echo(request)
        }) { _, port in
            let large = try TestClient(port: port)
            try large.send(TestClient.requestBytes("POST", "/large", body: heavyBody))
            #expect(eventually { gate.arrived == 1 })
            // The only connection thread is free: a probe and a small request on other connections are answered
            // while the large request is still being computed.
            let small = try TestClient(port: port)
            #expect(try small.request("GET", "/healthz").status == 200)
            #expect(try small.request("POST", "/small", body: Array("tiny".utf8)).text == "tiny")
            timeline.record("small answered")
            gate.open()
            let answer = try large.readResponse()
            #expect(answer.status == 200)
            #expect(answer.body == heavyBody)
            #expect(timeline.all == ["small answered", "large computed"])
        }
    }

    /// Runs `body` against a server whose budget of 10,000 bytes a request to `/hold` holds (6,000, its handler
    /// waiting), so that any other request (5,000) does not fit beside it and waits at most 200 ms for room.
    /// `release` lets the held request finish and checks it was answered and its memory given back; the held
    /// request is let go also when `body` throws, so that the server can stop.
    private func withBudgetHeld(
        _ configure: (inout HTTPServer.Configuration) -> Void = { _ in },
        _ body: (_ server: HTTPServer, _ port: Int, _ release: () throws -> Void) throws -> Void
    ) throws {
        let gate = Gate()
        var configuration = oneThreadEach()
        configuration.memoryBudget = MemoryBudget(capacity: 10_000)
        configuration.memoryEstimate = { _, path, _ in path == "/hold" ? 6_000 : 5_000 }
        configuration.admissionTimeout = .milliseconds(200)
        configure(&configuration)
        try withServer(configuration, handler: { request in
            if request.path == "/hold" { gate.pass() }
            return echo(request)
        }) { server, port in
            let holder = try TestClient(port: port)
            try holder.send(TestClient.requestBytes("POST", "/hold", body: heavyBody))
            #expect(eventually { gate.arrived == 1 })
            var held = true
            defer { if held { gate.open() } }
            let release: () throws -> Void = {
                gate.open()
                held = false
                let answer = try holder.readResponse()
                #expect(answer.status == 200)
                #expect(eventually { server.configuration.memoryBudget.reservedBytes == 0 })
            }
            try body(server, port, release)
        }
    }

    @Test func refusedRequestGets503WithRetryAfterAndNextIsServedOnceMemoryFrees() throws {
        try withBudgetHeld { server, port, release in
            let refused = try TestClient(port: port).request("POST", "/other", body: Array("x".utf8))
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "1")
            #expect(refused.header("Content-Type") == "application/problem+json")
            #expect(refused.header("Connection") == "close")
            #expect(server.configuration.memoryBudget.refusedCount == 1)

            try release()
            let served = try TestClient(port: port).request("POST", "/other", body: Array("x".utf8))
            #expect(served.status == 200)
            #expect(served.text == "x")
        }
    }

    /// A refused request's body is read and thrown away before its 503; when that body stops arriving, the
    /// request timeout still holds: 408 and a clean close, not a connection held open until the idle timeout
    /// (its deadline stops while it waits for memory and starts again for its body, admitted or refused).
    @Test func refusedRequestWhoseBodyStallsIsAnsweredRequestTimeout() throws {
        try withBudgetHeld({ configuration in
            configuration.requestTimeout = .seconds(1)
            configuration.connectionTimeout = .seconds(120)  // (the idle timeout: far beyond the client's wait)
        }) { server, port, release in
            let stalled = try TestClient(port: port, timeout: 30)
            try stalled.send("POST /other HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nx")
            let response = try stalled.readResponse()
            #expect(response.status == 408)
            #expect(response.header("Connection") == "close")
            #expect(try stalled.waitForCleanClose())
            #expect(server.configuration.memoryBudget.refusedCount == 1)
            try release()
        }
    }

    @Test func waitingRequestIsAdmittedWhenMemoryFrees() throws {
        let gate = Gate()
        let timeline = Timeline()
        var configuration = oneThreadEach()
        configuration.memoryBudget = MemoryBudget(capacity: 10_000)
        // The held request needs 6,000 bytes, the waiting one 5,000: they do not fit together; a probe needs 100.
        configuration.memoryEstimate = { _, path, _ in path == "/hold" ? 6_000 : path == "/wait" ? 5_000 : 100 }
        configuration.admissionTimeout = .seconds(60)
        try withServer(configuration, handler: { request in
            if request.path == "/hold" {
                gate.pass()
                timeline.record("hold answered")
            } else if request.path == "/wait" {
                timeline.record("waiter answered")
            }
            return echo(request)
        }) { server, port in
            let holder = try TestClient(port: port)
            try holder.send(TestClient.requestBytes("POST", "/hold", body: heavyBody))
            #expect(eventually { gate.arrived == 1 })
            let waiter = try TestClient(port: port)
            try waiter.send(TestClient.requestBytes("POST", "/wait", body: Array("w".utf8)))
            #expect(eventually { server.configuration.memoryBudget.waitingCount == 1 })
            // The waiting request's connection is suspended: the connection thread still answers others, and a
            // request that fits goes ahead of the one that does not.
            #expect(try TestClient(port: port).request("GET", "/probe").status == 200)
            gate.open()
            #expect(try holder.readResponse().status == 200)
            let admitted = try waiter.readResponse()
            #expect(admitted.status == 200)
            #expect(admitted.text == "w")
            #expect(timeline.all == ["hold answered", "waiter answered"])
            #expect(server.configuration.memoryBudget.admittedAfterWaitingCount == 1)
        }
    }

    @Test func fullComputeQueueAnswers503() throws {
        let gate = Gate()
        var configuration = oneThreadEach()
        configuration.computeQueueLimit = 1
        try withServer(configuration, handler: { request in
            gate.pass()
            return echo(request)
        }) { _, port in
            let running = try TestClient(port: port)
            try running.send(TestClient.requestBytes("POST", "/a", body: heavyBody))
            #expect(eventually { gate.arrived == 1 })
            let queued = try TestClient(port: port)
            try queued.send(TestClient.requestBytes("POST", "/b", body: heavyBody))
            let refused = try TestClient(port: port).request("POST", "/c", body: heavyBody)
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") == "1")
            gate.open(for: 2)
            #expect(try running.readResponse().status == 200)
            #expect(try queued.readResponse().status == 200)
        }
    }

    @Test func shutdownResumesEverySuspendedConnection() throws {
        let gate = Gate()
        var configuration = oneThreadEach()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.memoryBudget = MemoryBudget(capacity: 10_000)
        configuration.memoryEstimate = { _, path, _ in path == "/admit" ? 9_000 : 1_000 }
        configuration.admissionTimeout = .seconds(60)
        let server = HTTPServer(configuration: configuration) { request in
            if request.path == "/run" { gate.pass() }
            return echo(request)
        }
        try server.start()
        let port = try #require(server.port)
        // One computing (held at the gate), one queued behind it, one waiting for memory.
        let computing = try TestClient(port: port)
        try computing.send(TestClient.requestBytes("POST", "/run", body: heavyBody))
        #expect(eventually { gate.arrived == 1 })
        let queued = try TestClient(port: port)
        try queued.send(TestClient.requestBytes("POST", "/queued", body: heavyBody))
        #expect(eventually { server.context.pool.queuedCount == 1 })
        let waiting = try TestClient(port: port)
        try waiting.send(TestClient.requestBytes("POST", "/admit", body: Array("w".utf8)))
        #expect(eventually { configuration.memoryBudget.waitingCount == 1 })

        let stopped = inBackground { server.shutdown(grace: .zero) }
        // Shutdown refuses the waiting request, cancels the queued one and waits for the running computation,
        // which is let go only then; then it stops the daemon (which aborts the process if any connection is
        // still suspended).
        #expect(eventually { server.context.pool.isClosed })
        gate.open()
        try stopped()
        let answers = try [computing, queued, waiting].map { try $0.readResponse() }
        #expect(answers.map(\.status) == [200, 503, 503])
        #expect(answers.allSatisfy { $0.header("Connection") == "close" })
        #expect(answers[1].header("Retry-After") == "1")
        #expect(configuration.memoryBudget.reservedBytes == 0)
    }
}
