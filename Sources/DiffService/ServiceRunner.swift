import Logging
import MicroHTTP
import ProcessRuntime

/// Runs the service until SIGTERM or SIGINT, then shuts down gracefully: `/readyz` turns 503, the listening
/// socket closes, in-flight requests finish (bounded by the grace period), and the process exits 0.
public enum ServiceRunner {
    /// Serves until a termination signal.
    ///
    /// Call it before any other thread exists: it blocks SIGTERM and SIGINT first, so that every thread
    /// the HTTP layer starts inherits the mask and the signal is taken by `sigwait` alone.
    ///
    /// - Parameters:
    ///   - configuration: Binding and limits.
    ///   - logger: Where the service logs.
    ///   - onStart: Called with the bound port once the server accepts connections.
    /// - Throws: ``Failure`` when the configuration cannot work or the server cannot start (port in use, bad
    ///   host …).
    public static func run(
        _ configuration: ServiceConfiguration, logger: Logger, onStart: (Int) -> Void = { _ in }
    ) throws(Failure) {
        TerminationSignals.block()
        do {
            try configuration.validate()
        } catch {
            throw .invalidConfiguration(error)
        }
        ProcessMemory.useOwnMappingsForLargeBlocks()
        let readiness = Readiness()
        let listeners = makeListeners(configuration, readiness: readiness, logger: logger)
        do {
            try listeners.start()
        } catch {
            throw .cannotStart(error)
        }
        let port = listeners.service.port ?? configuration.port
        logger.info(
            "listening",
            metadata: [
                "host": "\(configuration.host)", "port": .stringConvertible(port),
                "probe_port": listeners.probes.map { $0.port.map { .stringConvertible($0) } ?? "?" } ?? "none",
                "threads": .stringConvertible(configuration.threads),
                "max_body_bytes": .stringConvertible(configuration.maxBodyBytes),
                "memory_budget": .stringConvertible(configuration.effectiveMemoryBudget),
                "memory_limit": MemoryLimit.cgroupLimit().map { .stringConvertible($0) } ?? "none",
                "compute_threads": .stringConvertible(configuration.computeThreads), "version": "\(ServiceInfo.version)",
            ])
        if configuration.cursorSecrets.isEmpty {
            logger.warning(
                """
                SNAPDIFF_CURSOR_KEY is not set: layout cursors are sealed with a random key of this process, so a cursor \
                continues only on this process (not on another replica, nor after a restart)
                """)
        }
        let published = configuration.publishedCursorSecretPositions
        if !published.isEmpty {
            logger.warning(
                """
                SNAPDIFF_CURSOR_KEY holds the README's example key (key \
                \(published.map(String.init).joined(separator: ", ")) of \(configuration.cursorSecrets.count)), which \
                anyone can read, so anyone can forge this service's layout cursors; use a random secret \
                (head -c 32 /dev/urandom | base64), the same on every replica
                """,
                metadata: ["published_keys": "\(published)"])
        }
        onStart(port)
        let signal = TerminationSignals.wait()
        logger.info("shutting down", metadata: ["signal": "\(signal)"])
        readiness.beginShutdown()
        listeners.shutdown(grace: configuration.shutdownGracePeriod)
        logger.info("stopped")
    }

    /// Why the service did not run.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The configuration cannot work.
        case invalidConfiguration(ServiceConfiguration.Invalid)
        /// The HTTP server did not start.
        case cannotStart(HTTPServerError)

        /// The underlying error's sentence.
        public var description: String {
            switch self {
            case .invalidConfiguration(let error): error.description
            case .cannotStart(let error): error.description
            }
        }
    }

    /// Creates (without starting) the HTTP server that answers with a ``ServiceRouter``; for tests and
    /// embedders that manage signals themselves.
    ///
    /// - Parameters:
    ///   - configuration: Binding and limits.
    ///   - readiness: The readiness state `/readyz` reports; call ``Readiness/beginShutdown()`` before
    ///     `shutdown(grace:)`.
    ///   - logger: Where the service logs.
    public static func makeServer(
        _ configuration: ServiceConfiguration, readiness: Readiness, logger: Logger
    ) -> HTTPServer {
        makeListeners(configuration, readiness: readiness, logger: logger).service
    }

    /// Creates (without starting) the service's listeners: the HTTP server that answers with a ``ServiceRouter``
    /// on ``ServiceConfiguration/port``, and the probe listener on ``ServiceConfiguration/probePort`` when there is
    /// one. They share the router's readiness, metrics and log.
    ///
    /// - Parameters:
    ///   - configuration: Binding and limits.
    ///   - readiness: The readiness state `/readyz` reports on both; call ``Readiness/beginShutdown()`` before
    ///     ``Listeners/shutdown(grace:)``.
    ///   - logger: Where the service logs.
    public static func makeListeners(
        _ configuration: ServiceConfiguration, readiness: Readiness, logger: Logger
    ) -> Listeners {
        let budget = MemoryBudget(capacity: configuration.effectiveMemoryBudget)
        let service = ServiceRouter(
            readiness: readiness, logger: logger, cursors: configuration.makeCursorCodec(), budget: budget,
            cors: configuration.cors)
        let http = configuration.http(budget: budget, service: service)
        let server = HTTPServer(configuration: http) { request in
            let response = service.respond(to: request)
            // The request's parse and difference are freed now: return the heap's free memory to the system.
            if request.body.count >= ProcessMemory.largeRequestBytes { ProcessMemory.releaseFreeMemory() }
            return response
        }
        let probeRouter = service.probesOnly()
        let probes = configuration.probeHTTP(service: probeRouter).map { probeHTTP in
            HTTPServer(configuration: probeHTTP) { request in probeRouter.respond(to: request) }
        }
        return Listeners(service: server, probes: probes)
    }

    /// The service's HTTP listeners: the service's port and, when configured, the probe port.
    public struct Listeners: Sendable {
        /// The server on ``ServiceConfiguration/port``: every route.
        public let service: HTTPServer
        /// The server on ``ServiceConfiguration/probePort``, if any: `/healthz` and `/readyz` only.
        public let probes: HTTPServer?

        /// Starts the service's server, then the probe listener (a probe must not report ready before the service
        /// listens); when the probe listener cannot start, stops the service's server again.
        /// - Throws: The first server's ``HTTPServerError``.
        public func start() throws(HTTPServerError) {
            try service.start()
            do {
                try probes?.start()
            } catch {
                service.shutdown(grace: .zero)
                throw error
            }
        }

        /// Shuts the service's server down gracefully (``HTTPServer/shutdown(grace:)``), then the probe listener,
        /// which answers liveness and readiness (503) probes until the service's last request has finished.
        /// - Parameter grace: The service's grace period.
        public func shutdown(grace: Duration) {
            service.shutdown(grace: grace)
            probes?.shutdown(grace: .zero)
        }
    }
}
