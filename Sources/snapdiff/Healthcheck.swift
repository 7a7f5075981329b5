import ArgumentParser
import Foundation
import ProcessRuntime

/// `snapdiff healthcheck`: asks a running service for `GET /healthz` and exits 0 on a 200.
///
/// Meant for a container's `HEALTHCHECK` (the image holds no curl and no shell): it speaks HTTP/1.1 over a
/// plain TCP socket and needs nothing but the binary.
struct Healthcheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Probe a running service (GET /healthz); exit 0 on a 200 answer, 1 otherwise.",
        discussion: """
            For container health checks: HEALTHCHECK CMD ["snapdiff", "healthcheck"]. The port defaults to \
            SNAPDIFF_PROBE_PORT (the service's probe listener), else SNAPDIFF_PORT, else 8080, so the probe follows \
            the service's own configuration.
            """
    )

    @Option(help: "Address of the service.")
    var host = "127.0.0.1"

    @Option(help: "Port of the service (default: env SNAPDIFF_PROBE_PORT, else SNAPDIFF_PORT, else 8080).")
    var port: Int?

    @Option(help: "The path to probe.")
    var path = "/healthz"

    @Option(help: "Seconds to wait for the answer, fractions allowed.")
    var timeout = 2.0

    func validate() throws {
        if let port, !(1...65535).contains(port) { throw ValidationError("port \(port) is not 1…65535") }
        guard path.hasPrefix("/"), !path.contains(where: \.isWhitespace) else {
            throw ValidationError("the path must start with / and contain no spaces")
        }
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("the timeout must be above 0 and at most 3600 seconds") }
    }

    func run() throws {
        let port = try resolvedPort()
        let target = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)\(path)"
        do {
            let status = try HealthProbe.get(host: host, port: port, path: path, timeout: .milliseconds(Int(timeout * 1000)))
            guard status == 200 else {
                report("\(target) answered \(status)")
                throw ExitCode(1)
            }
            print("healthy: \(target) answered 200")
        } catch let failure as HealthProbe.Failure {
            report("\(target): \(failure)")
            throw ExitCode(1)
        }
    }

    /// `--port`, else `SNAPDIFF_PROBE_PORT` (the probe listener's), else `SNAPDIFF_PORT`, else 8080.
    private func resolvedPort() throws -> Int {
        if let port { return port }
        let environment = ProcessInfo.processInfo.environment
        for variable in ["SNAPDIFF_PROBE_PORT", "SNAPDIFF_PORT"] {
            guard let text = environment[variable] else { continue }
            guard let number = Int(text), (1...65535).contains(number) else {
                throw ValidationError("\(variable)=\(text) is not a port 1…65535")
            }
            return number
        }
        return 8080
    }

    /// Writes one line to standard error.
    private func report(_ message: String) {
        FileHandle.standardError.write(Data("snapdiff healthcheck: unhealthy: \(message)\n".utf8))
    }
}
