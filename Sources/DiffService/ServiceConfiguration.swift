import MicroHTTP
import SnapshotJSON

/// How the service binds and what it allows. Defaults suit a laptop (127.0.0.1:8080); in a container set
/// `host` to `0.0.0.0`.
public struct ServiceConfiguration: Sendable {
    /// Address to bind. Default `127.0.0.1`; `0.0.0.0` (or `::`) in a container.
    public var host = "127.0.0.1"
    /// Port to bind; 0 picks a free one. Default 8080.
    public var port = 8080
    /// The port of the probe listener, or `nil` for none (the default); 0 picks a free one. It serves `GET /healthz`
    /// and `GET /readyz` only (every other path is a 404), on the same host, with its own thread, connection limit
    /// (``probeConnectionLimit``) and memory budget, so that clients holding every connection of ``port`` (slow
    /// ones, a flood) cannot starve a liveness or readiness probe. Both routes stay on ``port`` too.
    public var probePort: Int?
    /// Worker threads. Default: the online processor count.
    public var threads = HTTPServer.Configuration.onlineProcessorCount
    /// The largest request body in bytes. Default 64 MiB (a 100,000-item snapshot pair is ~25–30 MB).
    public var maxBodyBytes = 64 << 20
    /// Concurrent connections. Default 1,000.
    public var connectionLimit = 1000
    /// Idle connection timeout. Default 30 s: an idle or stalled client is disconnected after it.
    public var connectionTimeout: Duration = .seconds(30)
    /// How long shutdown waits for in-flight requests. Default 10 s.
    public var shutdownGracePeriod: Duration = .seconds(10)

    /// The memory budget in bytes: what every request in flight may hold together (bodies, parses, diffs,
    /// layouts and answers not yet sent). `nil` derives it from the memory limit (``defaultMemoryBudget(limit:connectionLimit:)``).
    public var memoryBudget: Int?
    /// Threads that compute heavy requests (bodies of 64 KiB or more). Default: the online processor count.
    public var computeThreads = HTTPServer.Configuration.onlineProcessorCount
    /// Heavy requests that may wait for a compute thread; more are answered 503. Default 64.
    public var computeQueueLimit = 64
    /// The longest a request waits for room in the memory budget before a 503. Default 5 s.
    public var admissionTimeout: Duration = .seconds(5)
    /// How long a client may read nothing of a large answer before it loses the connection. Default 10 s.
    public var sendTimeout: Duration = .seconds(10)
    /// How long a request may take to arrive completely, from the moment the server waits for it (the
    /// connection's start, or the end of the answer before it); slower ones get 408. Default 60 s.
    public var requestTimeout: Duration = .seconds(60)

    /// The gzip level of answers: 1 (fastest) to 9 (smallest), or 0 for none. Answers of at least
    /// ``compressionThreshold`` bytes are gzipped when the request's `Accept-Encoding` prefers gzip; every answer
    /// of a route says `Vary: Accept-Encoding`. Default 1: on the 1.55 MB changeset of BENCHMARKS.md it saves 85 %
    /// of the bytes (level 6: 87 %) for 29 % of level 6's CPU.
    public var compressionLevel = 1
    /// The fewest bytes of an answer worth gzipping. Default 1,024: below it the saving is a few hundred bytes.
    public var compressionThreshold = 1024

    /// The secrets layout cursors are keyed with, each of at least ``minimumCursorSecretLength`` characters and the
    /// same list on every replica: the first seals, all of them open (rotation: `new,old`). Default: none, which
    /// means a random key per process, so that a cursor continues only on the process that made it.
    public var cursorSecrets: [String] = []

    /// Which other origins' web pages may call the service from a browser (CORS). Default `nil`: none, and no
    /// answer carries a CORS header.
    public var cors: CORSPolicy?

    /// A numeric setting, named as the HTTP layer names it (which states every range once).
    public typealias Setting = HTTPServer.Configuration.Setting

    /// The fewest characters of a cursor secret.
    public static let minimumCursorSecretLength = 16

    /// Cursor secrets printed in this project's documents (the README's example key, which lets a reader get the
    /// README's cursors): anyone can read them, so anyone can forge a cursor sealed with one. A service keyed with
    /// one still starts (the README's examples need it) but logs a warning (``publishedCursorSecretPositions``).
    public static let publishedExampleSecrets: Set<String> = ["readme-example-key-not-a-secret"]

    /// The positions (from 1) of ``cursorSecrets`` that are published (``publishedExampleSecrets``).
    public var publishedCursorSecretPositions: [Int] {
        cursorSecrets.indices.filter { Self.publishedExampleSecrets.contains(cursorSecrets[$0]) }.map { $0 + 1 }
    }

    /// The most connections the probe listener serves at once: a kubelet sends one liveness and one readiness
    /// probe per period, and a container runtime's health check one more.
    public static let probeConnectionLimit = 16
    /// The bytes of libmicrohttpd's buffers per probe connection (a probe's head is a few hundred bytes); with
    /// ``probeConnectionLimit`` 256 KiB in all, which the baseline's slack holds (``baselineBytes``).
    public static let probeConnectionMemory = 16 * 1024
    /// The largest body the probe listener reads (a probe has none).
    static let probeMaxBodyBytes = 4096

    /// The secrets in a comma-separated list (`SNAPDIFF_CURSOR_KEY`), the one that seals first; spaces around a
    /// secret are dropped.
    ///
    /// - Parameter list: For example `"new-secret-of-32-characters,old-secret-of-32-characters"`.
    /// - Throws: ``Invalid`` when a secret is shorter than ``minimumCursorSecretLength`` (an empty one included).
    public static func cursorSecrets(parsing list: String) throws(Invalid) -> [String] {
        let secrets = entries(of: list)
        try validate(cursorSecrets: secrets)
        return secrets
    }

    /// The entries of a comma-separated list, spaces around each dropped (empty entries kept, for validation
    /// to name).
    static func entries(of list: String) -> [String] {
        list.split(separator: ",", omittingEmptySubsequences: false).map { entry in
            let start = entry.firstIndex { !$0.isWhitespace } ?? entry.endIndex
            let end = entry.lastIndex { !$0.isWhitespace }.map(entry.index(after:)) ?? start
            return String(entry[start..<end])
        }
    }

    /// The codec for ``cursorSecrets``: keyed by them, or by the process's random key when there are none.
    public func makeCursorCodec() -> CursorCodec {
        cursorSecrets.isEmpty ? CursorCodec() : CursorCodec(secrets: cursorSecrets)
    }

    private static func validate(cursorSecrets secrets: [String]) throws(Invalid) {
        for (position, secret) in secrets.enumerated() where secret.utf8.count < minimumCursorSecretLength {
            throw .cursorSecretTooShort(position: position + 1, count: secrets.count, length: secret.utf8.count)
        }
    }

    /// Creates the default configuration.
    public init() {}

    /// What the process holds outside requests: the idle process (~20 MiB), thread stacks, idle parsers holding
    /// at most 8 MiB together per thread, and the allocator's slack.
    public static let baselineBytes = 64 << 20

    /// The default budget under a memory limit: the limit less ``baselineBytes`` and libmicrohttpd's 64 KiB per
    /// connection (e.g. 512 MiB with 512 connections: 416 MiB), and never less than a quarter of the limit.
    public static func defaultMemoryBudget(limit: Int, connectionLimit: Int) -> Int {
        // The connection limit is clamped to its range here, so that a value validation will reject cannot
        // overflow the product first.
        let allowed = HTTPServer.Configuration.Setting.connectionLimit.allowed
        let connections = min(max(connectionLimit, allowed.lowerBound), allowed.upperBound)
        return max(limit / 4, limit - baselineBytes - connections * HTTPServer.Configuration().perConnectionMemoryLimit)
    }

    /// The budget in force: ``memoryBudget``, or the default under the cgroup's memory limit (else physical memory).
    public var effectiveMemoryBudget: Int {
        memoryBudget ?? Self.defaultMemoryBudget(limit: MemoryLimit.current, connectionLimit: connectionLimit)
    }

    /// Checks the values together: every setting against its range (the HTTP layer's
    /// ``HTTPServer/Configuration/Setting/allowed``, the one statement of them), the cursor secrets, the CORS
    /// origins, and that the memory budget holds the largest request the body limit allows. The command line and
    /// ``ServiceRunner`` both call it.
    /// - Throws: ``Invalid`` naming the first setting out of range, a secret too short, a CORS origin that is not
    ///   one, or a budget too small.
    public func validate() throws(Invalid) {
        // A budget below 1 byte would be raised to 1 by MemoryBudget: checked as given.
        if let memoryBudget, !Setting.memoryBudget.allowed.contains(memoryBudget) {
            throw .outOfRange(.memoryBudget, value: memoryBudget, allowed: Setting.memoryBudget.allowed)
        }
        // Every range first (the budget, checked above, stands in as 1 byte), so that nothing is computed from a
        // value out of range.
        let ranges = http(budget: MemoryBudget(capacity: 1))
        do {
            try ranges.validate()
        } catch {
            switch error {
            case .invalidConfiguration(let setting, let allowed):
                throw .outOfRange(setting, value: ranges.value(of: setting), allowed: allowed)
            case .invalidHost, .alreadyStarted, .startFailed: break  // not thrown by validate()
            }
        }
        if let probePort, !Setting.port.allowed.contains(probePort) || (probePort == port && port != 0) {
            throw .invalidProbePort(probePort, port: port)
        }
        let budget = effectiveMemoryBudget
        try Self.validate(cursorSecrets: cursorSecrets)
        try cors?.validate()
        let largest = RequestMemory.largest(maxBodyBytes: maxBodyBytes)
        guard largest <= budget else {
            throw .budgetTooSmall(
                budget: budget, maxBodyBytes: maxBodyBytes, largestRequest: largest, largestBody: Self.largestBody(budget: budget))
        }
    }

    /// The largest body limit whose largest request fits `budget`.
    /// - Parameter budget: A memory budget in bytes.
    /// - Returns: The body limit, in bytes (0 when not even an empty request fits).
    public static func largestBody(budget: Int) -> Int {
        var low = 0
        var high = min(budget, Setting.maxBodyBytes.allowed.upperBound)
        while low < high {
            let middle = (low + high + 1) / 2
            if RequestMemory.largest(maxBodyBytes: middle) <= budget { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The HTTP layer's configuration; the answers it sends itself come from `service`.
    func http(budget: MemoryBudget, service: ServiceRouter) -> HTTPServer.Configuration {
        var configuration = http(budget: budget)
        Self.answer(from: service, in: &configuration)
        return configuration
    }

    /// The probe listener's HTTP configuration (``probePort``), or `nil` without one: one connection thread and one
    /// (idle) compute thread, ``probeConnectionLimit`` connections of ``probeConnectionMemory`` bytes, short
    /// timeouts, and a budget of its own that holds a request on every connection; the answers it sends itself
    /// come from `service`.
    func probeHTTP(service: ServiceRouter) -> HTTPServer.Configuration? {
        guard let probePort else { return nil }
        var configuration = HTTPServer.Configuration(
            host: host, port: probePort, threads: 1, connectionLimit: Self.probeConnectionLimit,
            perConnectionMemoryLimit: Self.probeConnectionMemory, connectionTimeout: .seconds(10),
            maxBodyBytes: Self.probeMaxBodyBytes, shutdownGracePeriod: .seconds(1))
        configuration.requestTimeout = .seconds(10)
        configuration.computeThreads = 1
        configuration.memoryEstimate = RequestMemory.estimate
        let largest = RequestMemory.largest(maxBodyBytes: Self.probeMaxBodyBytes)
        configuration.memoryBudget = MemoryBudget(capacity: Self.probeConnectionLimit * largest, lightReserve: 0)
        configuration.admissionTimeout = .seconds(1)
        configuration.compressionLevel = compressionLevel  // (its answers are never large enough: for the same Vary)
        Self.answer(from: service, in: &configuration)
        return configuration
    }

    /// Makes the answers the HTTP layer sends itself (its refusals, its 503s, libmicrohttpd's own) come from
    /// `service`, logged and counted as every answer is.
    private static func answer(from service: ServiceRouter, in configuration: inout HTTPServer.Configuration) {
        configuration.refusalResponse = { refusal, method, path, headers in
            service.refused(refusal, method: method, path: path, headers: headers)
        }
        configuration.libraryMessage = { message, status in service.libraryMessage(message, answeredStatus: status) }
        configuration.overloadResponse = { reason, method, path, headers in
            service.overloaded(reason, method: method, path: path, headers: headers)
        }
    }

    /// The HTTP layer's settings, with its default answers.
    private func http(budget: MemoryBudget) -> HTTPServer.Configuration {
        var configuration = HTTPServer.Configuration(
            host: host, port: port, threads: threads, connectionLimit: connectionLimit,
            connectionTimeout: connectionTimeout, maxBodyBytes: maxBodyBytes, shutdownGracePeriod: shutdownGracePeriod)
        configuration.requestTimeout = requestTimeout
        configuration.reservedTrailingCapacity = DiffRequest.requiredPadding  // the JSON reader reads past the end
        configuration.computeThreads = computeThreads
        configuration.computeQueueLimit = computeQueueLimit
        configuration.memoryBudget = budget
        configuration.memoryEstimate = RequestMemory.estimate
        configuration.admissionTimeout = admissionTimeout
        configuration.sendTimeout = sendTimeout
        configuration.compressionLevel = compressionLevel
        configuration.compressionThreshold = compressionThreshold
        return configuration
    }
}
