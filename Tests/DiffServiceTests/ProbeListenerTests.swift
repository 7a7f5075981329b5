@testable import DiffService
import Glibc
@testable import MicroHTTP
import Testing
import TestSupport

/// The probe listener (`--probe-port`): `/healthz` and `/readyz` on a port of their own, which clients holding
/// every connection of the service's port cannot starve.
@Suite struct ProbeListenerTests {
    /// Twice the connection limit of clients each trickling the head of a valid `/diff`: the service's port
    /// answers no one else, and the probe port answers both probes.
    @Test func probesAreAnsweredWhileTricklingClientsHoldEveryConnection() throws {
        let limit = 4
        try withService(configure: { $0.connectionLimit = limit; $0.probePort = 0 }) { service in
            let probePort = try #require(service.probePort)
            var tricklers: [TestClient] = []
            for _ in 0..<(2 * limit) {
                let client = try service.connect()
                tricklers.append(client)
                try client.send("POST /diff HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Le")
            }
            // The service holds its limit's worth, each a request begun; the others wait in the listen backlog.
            #expect(within(seconds: 5) { service.server.inFlightRequestCount == limit })
            let starved = try TestClient(port: service.port, timeout: 1)
            try starved.send(TestClient.requestBytes("GET", "/healthz"))
            #expect(throws: TestClient.Failure.self) { try starved.readResponse() }

            for path in ["/healthz", "/readyz"] {
                let response = try TestClient(port: probePort).request("GET", path)
                #expect(response.status == 200, "\(path): \(response.text)")
                #expect(response.header("Content-Type") == "application/json")
                #expect(response.header("X-Request-ID") != nil)
            }
            // The tricklers' requests are still theirs to finish: one byte more each, and nothing was refused.
            for client in tricklers { try client.send("n") }
        }
    }

    /// The probe port serves the probes only (every other route stays on the service's port), and its `/readyz`
    /// turns 503 with the service's once shutdown begins.
    @Test func probePortServesOnlyTheProbesAndFollowsReadiness() throws {
        try withService(configure: { $0.probePort = 0 }) { service in
            let probePort = try #require(service.probePort)
            let diff = try TestClient(port: probePort).postDiff(diffBody(old: items([1]), new: items([2])))
            let problem = try expectProblem(diff, .notFound)
            #expect(problem["detail"]?.string?.contains("probe port") == true)
            try expectProblem(try TestClient(port: probePort).request("GET", "/metrics"), .notFound)
            let head = try TestClient(port: probePort)
            try head.send(TestClient.requestBytes("HEAD", "/healthz"))
            #expect(try head.readResponse(toHead: true).status == 200)
            // Both routes are still on the service's port.
            #expect(try service.connect().request("GET", "/healthz").status == 200)
            #expect(try service.connect().postDiff(diffBody(old: items([1]), new: items([2]))).status == 200)

            service.readiness.beginShutdown()
            try expectProblem(try TestClient(port: probePort).request("GET", "/readyz"), .shuttingDown)
            #expect(try TestClient(port: probePort).request("GET", "/healthz").status == 200)
        }
    }

    /// A probe port that is the service's own is refused when the configuration is checked.
    @Test func probePortMustDifferFromThePort() {
        var configuration = ServiceConfiguration()
        configuration.port = 8080
        configuration.probePort = 8080
        typealias Invalid = ServiceConfiguration.Invalid
        #expect(throws: Invalid.invalidProbePort(8080, port: 8080)) { try configuration.validate() }
        configuration.probePort = 70000
        #expect(throws: Invalid.invalidProbePort(70000, port: 8080)) { try configuration.validate() }
        configuration.probePort = 8081
        #expect(throws: Never.self) { try configuration.validate() }
    }
}

/// Polls `condition` every 10 ms for up to `seconds`; whether it came true.
private func within(seconds: Int, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}
