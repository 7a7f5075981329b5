import Synchronization

/// Whether the service takes new work: `GET /readyz` answers 503 once shutdown has begun, so that a load
/// balancer stops sending requests while the in-flight ones finish.
public final class Readiness: Sendable {
    private let draining = Atomic<Bool>(false)

    /// Creates a ready state.
    public init() {}

    /// Whether the service is ready (not shutting down).
    public var isReady: Bool { !draining.load(ordering: .acquiring) }

    /// Marks the service as shutting down; irreversible.
    public func beginShutdown() { draining.store(true, ordering: .releasing) }
}
