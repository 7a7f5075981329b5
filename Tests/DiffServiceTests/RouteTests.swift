@testable import DiffService
import Foundation
import Testing

/// Every route of the real server, over real sockets.
@Suite struct RouteTests {
    @Test func indexNamesTheServiceAndLinksEveryRoute() throws {
        try withService { service in
            let client = try service.connect()
            let response = try client.request("GET", "/")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            let index = try JSON(parsing: response.body)
            #expect(index["name"] == .string("snapdiff"))
            #expect(index["version"] == .string(ServiceInfo.version))
            #expect(
                index["links"]
                    == .object([
                        "diff": .string("/diff"), "layout": .string("/layout"), "openapi": .string("/openapi.yaml"),
                        "playground": .string("/playground"), "health": .string("/healthz"), "ready": .string("/readyz"),
                        "metrics": .string("/metrics"),
                    ]))
            for link in ["/openapi.yaml", "/playground", "/healthz", "/readyz", "/metrics"] {
                #expect(try client.request("GET", link).status == 200, "\(link)")
            }
        }
    }

    @Test func healthzIsOK() throws {
        try withService { service in
            let response = try service.connect().request("GET", "/healthz")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            #expect(try JSON(parsing: response.body) == .object(["status": .string("ok")]))
        }
    }

    @Test func readyzTurnsToShuttingDownProblemWhenShutdownBegins() throws {
        try withService { service in
            let client = try service.connect()
            let ready = try client.request("GET", "/readyz")
            #expect(ready.status == 200)
            #expect(try JSON(parsing: ready.body) == .object(["status": .string("ready")]))

            service.readiness.beginShutdown()
            let draining = try client.request("GET", "/readyz")
            let problem = try expectProblem(draining, .shuttingDown)
            #expect(problem["instance"] == .string("/readyz"))
            #expect(draining.header("Retry-After") == "1")
            // Liveness is unaffected.
            #expect(try client.request("GET", "/healthz").status == 200)
        }
    }

    @Test func openAPIIsTheRepositoryFileByteForByte() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = try Data(contentsOf: root.appendingPathComponent("openapi.yaml"))
        try withService { service in
            let response = try service.connect().request("GET", "/openapi.yaml")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/yaml")
            #expect(response.body.count == file.count)
            #expect(response.body == Array(file), "GET /openapi.yaml differs from openapi.yaml; rebuild")
            #expect(response.text.hasPrefix("openapi: 3.1"))
        }
    }

    /// The route table and `openapi.yaml`'s `paths` name the same operations (each route's own method, HEAD
    /// beside GET, OPTIONS everywhere: ``Route/allowedMethods``).
    @Test func openAPIDescribesExactlyTheRouteTable() throws {
        let document = String(decoding: OpenAPIDocument.bytes, as: UTF8.self)
        var operations: Set<String> = []
        var inPaths = false
        var path: Substring?
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty { inPaths = line == "paths:" }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = line.dropFirst(2).dropLast()
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.dropFirst(4).dropLast()
                if ["get", "post", "put", "delete", "patch", "head", "options"].contains(method) {
                    operations.insert("\(method.uppercased()) \(path)")
                }
            }
        }
        let routes = Set(ServiceRouter.routes.flatMap { route in route.allowedMethods.map { "\($0) \(route.path)" } })
        #expect(operations == routes)
        #expect(Set(ServiceRouter.routes.map(\.path)).count == ServiceRouter.routes.count, "one route per path")
    }

    @Test func queryStringDoesNotChangeTheRoute() throws {
        try withService { service in
            let response = try service.connect().request("GET", "/healthz?verbose=1")
            #expect(response.status == 200)
        }
    }

    /// RFC 9112 §3.2.2: a server accepts a request target in absolute form; the route is its path.
    @Test(arguments: ["http://snapdiff.example/healthz", "HTTP://snapdiff.example:8080/healthz?verbose=1"])
    func absoluteFormTargetReachesItsRoute(target: String) throws {
        try withService { service in
            let response = try service.connect().request("GET", target)
            #expect(response.status == 200, "\(response.text)")
            #expect(response.text == #"{"status":"ok"}"#)
        }
    }
}
