import ArgumentParser
import DiffService
import Foundation
import Logging

/// `snapdiff serve`: the HTTP service. Every flag has an environment variable (the flag wins).
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the HTTP service (POST /diff, POST /layout, GET /healthz, /readyz, /metrics, /openapi.yaml).",
        discussion: """
            Every option can also be set by an environment variable (SNAPDIFF_HOST, SNAPDIFF_PORT, \
            SNAPDIFF_THREADS, SNAPDIFF_MAX_BODY_BYTES, SNAPDIFF_CONNECTION_LIMIT, SNAPDIFF_CONNECTION_TIMEOUT, \
            SNAPDIFF_SHUTDOWN_GRACE, SNAPDIFF_LOG_LEVEL); a flag overrides its variable. SNAPDIFF_CURSOR_KEY \
            (environment only, at least 16 characters, the same on every replica) keys the layout cursors. In a \
            container bind 0.0.0.0. SIGTERM or SIGINT stop the service gracefully. Logs are JSON lines on \
            standard error.
            """
    )

    @Option(help: "Address to bind (env SNAPDIFF_HOST). Default 127.0.0.1; 0.0.0.0 in a container.")
    var host: String?

    @Option(help: "Port to bind, 0 for any free port (env SNAPDIFF_PORT). Default 8080.")
    var port: Int?

    @Option(help: "Worker threads (env SNAPDIFF_THREADS). Default: the number of cores.")
    var threads: Int?

    @Option(help: "Largest request body in bytes (env SNAPDIFF_MAX_BODY_BYTES). Default 67108864 (64 MiB).")
    var maxBodyBytes: Int?

    @Option(help: "Most concurrent connections (env SNAPDIFF_CONNECTION_LIMIT). Default 1000.")
    var connectionLimit: Int?

    @Option(help: "Seconds an idle connection is kept (env SNAPDIFF_CONNECTION_TIMEOUT). Default 30.")
    var connectionTimeout: Int?

    @Option(help: "Seconds shutdown waits for in-flight requests (env SNAPDIFF_SHUTDOWN_GRACE). Default 10.")
    var shutdownGrace: Int?

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
        func value(_ flag: Int?, _ variable: String) throws -> Int? {
            if let flag { return flag }
            guard let text = environment[variable] else { return nil }
            guard let number = Int(text) else { throw ValidationError("\(variable)=\(text) is not an integer") }
            return number
        }
        configuration.host = host ?? environment["SNAPDIFF_HOST"] ?? configuration.host
        configuration.port = try value(port, "SNAPDIFF_PORT") ?? configuration.port
        configuration.threads = try value(threads, "SNAPDIFF_THREADS") ?? configuration.threads
        configuration.maxBodyBytes = try value(maxBodyBytes, "SNAPDIFF_MAX_BODY_BYTES") ?? configuration.maxBodyBytes
        configuration.connectionLimit = try value(connectionLimit, "SNAPDIFF_CONNECTION_LIMIT") ?? configuration.connectionLimit
        if let seconds = try value(connectionTimeout, "SNAPDIFF_CONNECTION_TIMEOUT") {
            guard seconds >= 1 else { throw ValidationError("the connection timeout must be at least 1 second") }
            configuration.connectionTimeout = .seconds(seconds)
        }
        if let seconds = try value(shutdownGrace, "SNAPDIFF_SHUTDOWN_GRACE") {
            guard seconds >= 0 else { throw ValidationError("the shutdown grace period cannot be negative") }
            configuration.shutdownGracePeriod = .seconds(seconds)
        }
        if let secret = environment["SNAPDIFF_CURSOR_KEY"] {
            guard secret.utf8.count >= 16 else {
                throw ValidationError("SNAPDIFF_CURSOR_KEY must have at least 16 characters (it keys the layout cursors' HMAC)")
            }
            configuration.cursorSecret = secret
        }
        guard (0...65535).contains(configuration.port) else { throw ValidationError("port \(configuration.port) is not 0…65535") }
        guard configuration.threads >= 1 else { throw ValidationError("threads must be at least 1") }
        guard configuration.maxBodyBytes >= 1 else { throw ValidationError("the body limit must be at least 1 byte") }
        guard configuration.connectionLimit >= 1 else { throw ValidationError("the connection limit must be at least 1") }
        let levelName = logLevel ?? environment["SNAPDIFF_LOG_LEVEL"] ?? "info"
        guard let level = Logger.Level(rawValue: levelName.lowercased()) else {
            throw ValidationError("log level \(levelName) is not one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return (configuration, level)
    }
}
