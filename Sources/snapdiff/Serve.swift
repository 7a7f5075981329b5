import ArgumentParser
import DiffService
import Foundation
import Logging

/// `snapdiff serve`: the HTTP service. Every flag has an environment variable (the flag wins).
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the HTTP service (POST /diff, POST /layout, GET /playground, /healthz, /readyz, /metrics, /openapi.yaml).",
        discussion: """
            Every option can also be set by an environment variable (SNAPDIFF_HOST, SNAPDIFF_PORT, \
            SNAPDIFF_PROBE_PORT, SNAPDIFF_THREADS, SNAPDIFF_MAX_BODY_BYTES, SNAPDIFF_CONNECTION_LIMIT, \
            SNAPDIFF_CONNECTION_TIMEOUT, \
            SNAPDIFF_SHUTDOWN_GRACE, SNAPDIFF_LOG_LEVEL, SNAPDIFF_MEMORY_BUDGET, SNAPDIFF_COMPUTE_THREADS, \
            SNAPDIFF_COMPUTE_QUEUE_LIMIT, SNAPDIFF_ADMISSION_TIMEOUT, SNAPDIFF_SEND_TIMEOUT, SNAPDIFF_REQUEST_TIMEOUT, \
            SNAPDIFF_COMPRESSION_LEVEL, SNAPDIFF_CORS_ALLOW_ORIGIN); a flag overrides its variable. SNAPDIFF_CURSOR_KEY \
            (environment only) keys the layout cursors: one secret of at least 16 characters, or a comma-separated \
            list of them to rotate keys (new,old: the first seals, all open), the same on every replica; without it \
            a random key of this process seals them, and a cursor continues only on the process that made it. In a \
            container bind 0.0.0.0. SIGTERM or SIGINT stop the service gracefully. Logs are JSON lines on \
            standard error.
            """
    )

    @Option(help: "Address to bind (env SNAPDIFF_HOST). Default 127.0.0.1; 0.0.0.0 in a container.")
    var host: String?

    @Option(help: "Port to bind, 0 for any free port (env SNAPDIFF_PORT). Default 8080.")
    var port: Int?

    @Option(
        help: """
            Port of a listener serving only GET /healthz and GET /readyz, with its own thread and connection limit, \
            for liveness and readiness probes that clients holding every connection of --port cannot starve; 0 for \
            any free port (env SNAPDIFF_PROBE_PORT). Default: none (the probes are served on --port, as always).
            """)
    var probePort: Int?

    @Option(help: "Worker threads (env SNAPDIFF_THREADS). Default: the number of cores.")
    var threads: Int?

    @Option(
        help: """
            Largest request body in bytes (env SNAPDIFF_MAX_BODY_BYTES). Default 67108864 (64 MiB), or less when the \
            memory budget cannot hold a request that large.
            """)
    var maxBodyBytes: Int?

    @Option(help: "Most concurrent connections (env SNAPDIFF_CONNECTION_LIMIT). Default 1000.")
    var connectionLimit: Int?

    @Option(help: "Seconds an idle connection is kept (env SNAPDIFF_CONNECTION_TIMEOUT). Default 30.")
    var connectionTimeout: Int?

    @Option(help: "Seconds shutdown waits for in-flight requests (env SNAPDIFF_SHUTDOWN_GRACE). Default 10.")
    var shutdownGrace: Int?

    @Option(
        help: """
            Memory every request in flight may hold together, in bytes or with Ki, Mi or Gi \
            (env SNAPDIFF_MEMORY_BUDGET). Default: the cgroup memory limit (else physical memory) less 64 MiB and \
            64 KiB per connection.
            """)
    var memoryBudget: String?

    @Option(help: "Threads computing large requests (env SNAPDIFF_COMPUTE_THREADS). Default: the number of cores.")
    var computeThreads: Int?

    @Option(help: "Large requests that may wait for a compute thread; more get 503 (env SNAPDIFF_COMPUTE_QUEUE_LIMIT). Default 64.")
    var computeQueueLimit: Int?

    @Option(help: "Seconds a request may wait for room in the memory budget before a 503 (env SNAPDIFF_ADMISSION_TIMEOUT). Default 5.")
    var admissionTimeout: Int?

    @Option(help: "Seconds a client may read nothing of a large answer before it is cut (env SNAPDIFF_SEND_TIMEOUT). Default 10.")
    var sendTimeout: Int?

    @Option(help: "Seconds a request may take to arrive completely, counted from when the server waits for it; slower ones get 408 (env SNAPDIFF_REQUEST_TIMEOUT). Default 60.")
    var requestTimeout: Int?

    @Option(
        help: """
            Origins whose web pages may call the service from a browser (CORS), comma-separated \
            (https://app.example.com,http://localhost:5173), or * for any (env SNAPDIFF_CORS_ALLOW_ORIGIN). \
            Default: none, no CORS headers.
            """)
    var corsAllowOrigin: String?

    @Option(
        help: """
            gzip level of answers of 1 KiB or more to clients whose Accept-Encoding prefers gzip: 1 (fastest) to 9 \
            (smallest), 0 for none (env SNAPDIFF_COMPRESSION_LEVEL). Default 1.
            """)
    var compressionLevel: Int?

    @Option(help: "trace, debug, info, notice, warning, error or critical, any case (env SNAPDIFF_LOG_LEVEL). Default info.")
    var logLevel: String?

    /// Every flag and variable checked here, so that a bad one prints this subcommand's usage.
    func validate() throws {
        _ = try resolved()
    }

    func run() throws {
        let (configuration, level) = try resolved()
        LoggingSystem.bootstrap(JSONLogHandler.init)
        var logger = Logger(label: "snapdiff")
        logger.logLevel = level
        do {
            try ServiceRunner.run(configuration, logger: logger)
        } catch {
            logger.critical("cannot start", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
    }

    /// The configuration and log level from the flags, else the environment, else the defaults.
    private func resolved() throws -> (ServiceConfiguration, Logger.Level) {
        var configuration = ServiceConfiguration()
        let environment = ProcessInfo.processInfo.environment
        func value(_ flag: Int?, _ setting: ServiceConfiguration.Setting) throws -> Int? {
            if let flag { return flag }
            guard let variable = Self.names[setting]?.variable, let text = environment[variable] else { return nil }
            guard let number = Int(text) else { throw ValidationError("\(variable)=\(text) is not an integer") }
            return number
        }
        configuration.host = host ?? environment["SNAPDIFF_HOST"] ?? configuration.host
        configuration.port = try value(port, .port) ?? configuration.port
        if let probe = probePort {
            configuration.probePort = probe
        } else if let text = environment["SNAPDIFF_PROBE_PORT"] {
            guard let number = Int(text) else { throw ValidationError("SNAPDIFF_PROBE_PORT=\(text) is not an integer") }
            configuration.probePort = number
        }
        configuration.threads = try value(threads, .threads) ?? configuration.threads
        let bodyLimit = try value(maxBodyBytes, .maxBodyBytes)
        configuration.connectionLimit = try value(connectionLimit, .connectionLimit) ?? configuration.connectionLimit
        if let seconds = try value(connectionTimeout, .connectionTimeout) {
            configuration.connectionTimeout = .seconds(seconds)
        }
        if let seconds = try value(shutdownGrace, .shutdownGracePeriod) {
            configuration.shutdownGracePeriod = .seconds(seconds)
        }
        if let list = environment["SNAPDIFF_CURSOR_KEY"] {
            do {
                configuration.cursorSecrets = try ServiceConfiguration.cursorSecrets(parsing: list)
            } catch {
                throw ValidationError(Self.message(for: error))
            }
        }
        configuration.computeThreads = try value(computeThreads, .computeThreads) ?? configuration.computeThreads
        configuration.computeQueueLimit =
            try value(computeQueueLimit, .computeQueueLimit) ?? configuration.computeQueueLimit
        if let seconds = try value(admissionTimeout, .admissionTimeout) {
            configuration.admissionTimeout = .seconds(seconds)
        }
        if let seconds = try value(sendTimeout, .sendTimeout) {
            configuration.sendTimeout = .seconds(seconds)
        }
        if let seconds = try value(requestTimeout, .requestTimeout) {
            configuration.requestTimeout = .seconds(seconds)
        }
        configuration.compressionLevel = try value(compressionLevel, .compressionLevel) ?? configuration.compressionLevel
        if let list = corsAllowOrigin ?? environment["SNAPDIFF_CORS_ALLOW_ORIGIN"] {
            do {
                configuration.cors = try CORSPolicy(parsing: list)
            } catch {
                throw ValidationError(Self.message(for: error))
            }
        }
        if let text = memoryBudget ?? environment["SNAPDIFF_MEMORY_BUDGET"] {
            guard let bytes = Self.bytes(text) else {
                throw ValidationError("memory budget \(text) is not a number of bytes (e.g. 402653184 or 384Mi)")
            }
            configuration.memoryBudget = bytes
        }
        // Without a body limit of its own, the largest body the memory budget can hold, up to 64 MiB (so that a
        // container with a small memory limit starts, with a smaller limit, rather than refusing to).
        configuration.maxBodyBytes =
            bodyLimit
            ?? max(1, min(configuration.maxBodyBytes, ServiceConfiguration.largestBody(budget: configuration.effectiveMemoryBudget)))
        do {
            try configuration.validate()
        } catch {
            throw ValidationError(Self.message(for: error))
        }
        let levelName = logLevel ?? environment["SNAPDIFF_LOG_LEVEL"] ?? "info"
        guard let level = Logger.Level(rawValue: levelName.lowercased()) else {
            throw ValidationError("log level \(levelName) is not one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return (configuration, level)
    }

    /// The flag and the environment variable of each setting `serve` takes, and the unit of its value.
    private static let names: [ServiceConfiguration.Setting: (flag: String, variable: String, unit: String)] = [
        .port: ("--port", "SNAPDIFF_PORT", ""),
        .threads: ("--threads", "SNAPDIFF_THREADS", ""),
        .maxBodyBytes: ("--max-body-bytes", "SNAPDIFF_MAX_BODY_BYTES", " bytes"),
        .connectionLimit: ("--connection-limit", "SNAPDIFF_CONNECTION_LIMIT", ""),
        .connectionTimeout: ("--connection-timeout", "SNAPDIFF_CONNECTION_TIMEOUT", " seconds"),
        .shutdownGracePeriod: ("--shutdown-grace", "SNAPDIFF_SHUTDOWN_GRACE", " seconds"),
        .memoryBudget: ("--memory-budget", "SNAPDIFF_MEMORY_BUDGET", " bytes"),
        .computeThreads: ("--compute-threads", "SNAPDIFF_COMPUTE_THREADS", ""),
        .computeQueueLimit: ("--compute-queue-limit", "SNAPDIFF_COMPUTE_QUEUE_LIMIT", ""),
        .admissionTimeout: ("--admission-timeout", "SNAPDIFF_ADMISSION_TIMEOUT", " seconds"),
        .sendTimeout: ("--send-timeout", "SNAPDIFF_SEND_TIMEOUT", " seconds"),
        .requestTimeout: ("--request-timeout", "SNAPDIFF_REQUEST_TIMEOUT", " seconds"),
        .compressionLevel: ("--compression-level", "SNAPDIFF_COMPRESSION_LEVEL", ""),
    ]

    /// The configuration's error under the flags' and variables' names.
    private static func message(for error: ServiceConfiguration.Invalid) -> String {
        switch error {
        case .outOfRange(let setting, let value, let allowed):
            guard let name = names[setting] else { return error.description }  // a setting serve does not take
            let upper = allowed.upperBound == .max ? "" : "\(allowed.upperBound)"
            return "\(name.flag) \(value) (env \(name.variable)) is not in \(allowed.lowerBound)…\(upper)\(name.unit)"
        case .cursorSecretTooShort(let position, let count, let length):
            return "cursor key \(position) of \(count) has \(length) characters; each key in SNAPDIFF_CURSOR_KEY needs at "
                + "least \(ServiceConfiguration.minimumCursorSecretLength) (they key the layout cursors' HMAC)"
        case .invalidCORSOrigin(let origin, let defect):
            return "--cors-allow-origin (env SNAPDIFF_CORS_ALLOW_ORIGIN): \"\(origin)\" \(defect)"
        case .invalidProbePort(let probePort, let port):
            return probePort == port
                ? "--probe-port \(probePort) (env SNAPDIFF_PROBE_PORT) is the service's --port; the probes need a port "
                    + "of their own"
                : "--probe-port \(probePort) (env SNAPDIFF_PROBE_PORT) is not in 0…65535"
        case .budgetTooSmall(let budget, let maxBodyBytes, let largestRequest, let largestBody):
            return "a memory budget (--memory-budget, SNAPDIFF_MEMORY_BUDGET) of \(budget) bytes cannot hold the largest "
                + "request the body limit (--max-body-bytes, SNAPDIFF_MAX_BODY_BYTES) of \(maxBodyBytes) bytes allows "
                + "(\(largestRequest) bytes at its peak); raise the budget to at least \(largestRequest) or lower the body "
                + "limit to at most \(largestBody) bytes"
        }
    }

    /// A byte count written as digits, optionally followed by `Ki`, `Mi` or `Gi` (powers of 1024, as in
    /// Kubernetes quantities).
    static func bytes(_ text: String) -> Int? {
        let units: [(String, Int)] = [("Ki", 1 << 10), ("Mi", 1 << 20), ("Gi", 1 << 30)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            guard let number = Int(text.dropLast(suffix.count)) else { return nil }
            let (product, overflow) = number.multipliedReportingOverflow(by: scale)
            return overflow ? nil : product
        }
        return Int(text)
    }
}
