@testable import DiffService
import Glibc
@testable import MicroHTTP
import Testing
import TestSupport

/// Graceful shutdown of the real service: in-flight requests finish, new connections are refused.
@Suite struct ShutdownTests {
    /// Large enough that a diff takes a noticeable time (tens of milliseconds in a debug build), small enough
    /// that four of them finish well inside the grace period under a sanitizer on a loaded machine (one
    /// 50,000-item diff took 2.1 s under ThreadSanitizer there, and four of them outlasted a 10 s grace).
    static let itemCount = 20_000
    static let clients = 4
    static let updatedItem = itemCount * 3 / 5

    /// A big request, distinct per client (each takes a noticeable time, with small answers): client c deletes
    /// the first c + 1 items, moves one item far down, and updates item ``updatedItem``.
    static func bigBody(client: Int) -> [UInt8] {
        let old = Array(0..<itemCount)
        var new = Array(old.dropFirst(client + 1))
        new.insert(new.remove(at: 10), at: itemCount * 4 / 5)
        return Array(diffBody(old: items(old) { $0 % 7 }, new: items(new) { $0 == updatedItem ? -1 : $0 % 7 }).utf8)
    }

    @Test func inFlightRequestsFinishAndNewConnectionsAreRefused() throws {
        var configuration = ServiceConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.threads = 2
        let readiness = Readiness()
        let server = ServiceRunner.makeServer(configuration, readiness: readiness, logger: quietLogger)
        try server.start()
        defer { server.shutdown(grace: .zero) }  // a no-op once shut down
        let port = try #require(server.port)

        let bodies = (0..<Self.clients).map(Self.bigBody(client:))
        let connections = try (0..<Self.clients).map { _ in try TestClient(port: port, timeout: 30) }
        let answers = Locked<[Int: TestClient.Response]>([:])
        let headsSent = Locked(0)
        let answeredBeforeShutdown = Locked(-1)
        let shutdownFinished = Locked(false)
        let refusedDuringShutdown = Locked(false)

        let failures = onThreads(Self.clients + 2) { role in
            switch role {
            case ..<Self.clients:
                let connection = connections[role]
                let request = TestClient.requestBytes(
                    "POST", "/diff", headers: [("Content-Type", "application/json")], body: bodies[role])
                // The head goes first, so that the request has begun before shutdown does.
                try connection.send(Array(request.prefix(200)))
                headsSent.withLock { $0 += 1 }
                try connection.send(Array(request.dropFirst(200)))
                let response = try connection.readResponse()
                answers.withLock { $0[role] = response }
            case Self.clients:
                // Shut down once every client has begun its request and the server is working on one. (A worker
                // busy diffing reads its other connections' requests only afterwards: they are in flight for
                // the client, not yet for the server, and must be answered all the same.)
                let clock = ContinuousClock()
                let deadline = clock.now.advanced(by: .seconds(10))
                while headsSent.value < Self.clients || server.inFlightRequestCount == 0 {
                    guard clock.now < deadline else { throw Mismatch("the requests did not start") }
                    usleep(1_000)
                }
                answeredBeforeShutdown.value = answers.value.count
                readiness.beginShutdown()
                server.shutdown(grace: .seconds(30))
                shutdownFinished.value = true
            default:
                // While shutdown waits for the diffs, a new client is refused.
                let clock = ContinuousClock()
                let deadline = clock.now.advanced(by: .seconds(15))
                while !server.isShuttingDown {
                    guard clock.now < deadline else { throw Mismatch("shutdown never began") }
                    usleep(500)
                }
                while clock.now < deadline {
                    do {
                        _ = try TestClient(port: port, timeout: 1)
                    } catch TestClient.Failure.connect(errno: ECONNREFUSED) {
                        refusedDuringShutdown.value = !shutdownFinished.value
                        return
                    }
                    usleep(1_000)
                }
                throw Mismatch("new connections were still accepted long into shutdown")
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(shutdownFinished.value)
        #expect((0..<Self.clients).contains(answeredBeforeShutdown.value), "no request was in flight at shutdown")
        #expect(refusedDuringShutdown.value, "refused only after shutdown had finished")

        let responses = answers.value
        #expect(responses.count == Self.clients)
        for (client, response) in responses.sorted(by: { $0.key < $1.key }) {
            #expect(response.status == 200, "client \(client): \(response.text.prefix(300))")
            #expect(response.header("Connection") == "close")
            let answer = try JSON(parsing: response.body)
            #expect(answer["counts"]?["elementDeleted"] == .integer(client + 1))
            #expect(answer["counts"]?["elementMoved"] == .integer(1))
            #expect(answer["counts"]?["elementUpdated"] == .integer(1))
            let stages = answer["staged"]?.array ?? []
            #expect(stages.count == 3, "client \(client): \(answer)")
            #expect(stages.first?["elementUpdated"] == .array([.array([.integer(0), .integer(Self.updatedItem)])]))
            #expect(stages.dropFirst().first?["elementDeleted"] == .array((0...client).map { .array([.integer(0), .integer($0)]) }))
            #expect(stages.last?["elementMoved"]?.array?.count == 1)
        }
        #expect(throws: TestClient.Failure.connect(errno: ECONNREFUSED)) { try TestClient(port: port) }
        #expect(server.port == nil)
    }
}
