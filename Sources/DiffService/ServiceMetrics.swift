import Foundation
import MicroHTTP
import Prometheus
import Synchronization

/// The service's Prometheus metrics, served at `GET /metrics` in the text exposition format.
///
/// - `snapdiff_http_requests_total{route,method,status}`: requests answered.
/// - `snapdiff_http_request_duration_seconds{route}`: time to answer (histogram).
/// - `snapdiff_http_requests_in_flight`: requests being answered now.
/// - `snapdiff_http_request_body_bytes{route}`: request body sizes (histogram).
/// - `snapdiff_diff_changes`: changes per successful diff (histogram).
/// - `snapdiff_diff_parse_duration_seconds`, `snapdiff_diff_compute_duration_seconds`,
///   `snapdiff_diff_write_duration_seconds`: where a `/diff` spends its time (histograms).
/// - `snapdiff_memory_budget_bytes`, `snapdiff_memory_reserved_bytes`, `snapdiff_memory_reserved_peak_bytes`:
///   the memory budget, what requests in flight hold of it now, and the most they held at once.
/// - `snapdiff_memory_admission_waiting`: requests waiting for room in the budget now;
///   `snapdiff_memory_admission_waited_total` and `snapdiff_memory_admission_refused_total`: requests that waited
///   and were admitted, and requests refused with 503, since the start.
///
/// Route labels are the routes' (``ServiceRouter/routes``), or `other`, so that a client cannot grow the label set.
public final class ServiceMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let inFlight: Gauge
    private let budgetGauges: [Gauge]
    private let admissionCounters: [Counter]
    /// The budget's running counts as last added to ``admissionCounters``.
    private let admissionCounted = Mutex<[Int]>([0, 0])
    private let changes: ValueHistogram
    private let parseDuration: DurationHistogram
    private let computeDuration: DurationHistogram
    private let writeDuration: DurationHistogram
    /// Per-route series, made once (the registry's lookup by name and labels costs more than the recording),
    /// indexed like ``labels`` (the last one is `other`).
    private let routeSeries: [RouteSeries]
    /// Request counters by route, method and status, made on first use (a small, bounded set).
    private let counters = CounterCache()

    private struct RouteSeries: Sendable {
        let duration: DurationHistogram
        let bodyBytes: ValueHistogram
    }

    private static let methods = ["GET", "POST", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"]
    /// The route labels: the routes' (``ServiceRouter/routes``), then `other`.
    private static let labels = ServiceRouter.routes.map(\.metricsLabel) + ["other"]

    private static let durationBuckets: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
        .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5),
    ]
    private static let byteBuckets: [Double] = [256, 1024, 4096, 16384, 65536, 262_144, 1_048_576, 4_194_304, 16_777_216, 67_108_864]
    private static let changeBuckets: [Double] = [0, 1, 10, 100, 1000, 10000, 100_000, 1_000_000]

    private static var requests: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "snapdiff", subsystem: "http", metricName: "requests", unitName: "total",
            helpText: "Requests answered, by route, method and status.")
    }
    private static var requestDuration: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "snapdiff", subsystem: "http", metricName: "request_duration", unitName: "seconds",
            helpText: "Time to answer a request, by route.")
    }
    private static var requestBody: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "snapdiff", subsystem: "http", metricName: "request_body", unitName: "bytes",
            helpText: "Request body sizes, by route.")
    }

    /// Creates the metrics, all zero.
    public init() {
        inFlight = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "snapdiff", subsystem: "http", metricName: "requests_in_flight", unitName: "",
                helpText: "Requests being answered now."))
        changes = registry.makeValueHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "snapdiff", subsystem: "diff", metricName: "changes", unitName: "",
                helpText: "Changes per successful diff."),
            buckets: Self.changeBuckets)
        func phase(_ name: String, _ help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(
                namespace: "snapdiff", subsystem: "diff", metricName: "\(name)_duration", unitName: "seconds", helpText: help)
        }
        parseDuration = registry.makeDurationHistogram(
            descriptor: phase("parse", "Time to read a /diff body (JSON and validation)."), buckets: Self.durationBuckets)
        computeDuration = registry.makeDurationHistogram(
            descriptor: phase("compute", "Time to diff the snapshots of a /diff request."), buckets: Self.durationBuckets)
        writeDuration = registry.makeDurationHistogram(
            descriptor: phase("write", "Time to write a /diff response (renderings and layouts)."),
            buckets: Self.durationBuckets)
        budgetGauges = [
            ("budget", "bytes", "The memory budget of requests in flight."),
            ("reserved", "bytes", "Bytes of the memory budget that requests in flight hold now."),
            ("reserved_peak", "bytes", "The most bytes of the memory budget held at once since the start."),
            ("admission_waiting", "", "Requests waiting for room in the memory budget now."),
        ].map { [registry] name, unit, help in
            registry.makeGauge(
                descriptor: MetricNameDescriptor(
                    namespace: "snapdiff", subsystem: "memory", metricName: name, unitName: unit, helpText: help))
        }
        admissionCounters = [
            ("admission_waited", "Requests that waited for room in the memory budget and were admitted."),
            ("admission_refused", "Requests refused (503) because the memory budget had no room in time."),
        ].map { [registry] name, help in
            registry.makeCounter(
                descriptor: MetricNameDescriptor(
                    namespace: "snapdiff", subsystem: "memory", metricName: name, unitName: "total", helpText: help))
        }
        routeSeries = Self.labels.map { [registry] route in
            RouteSeries(
                duration: registry.makeDurationHistogram(
                    descriptor: Self.requestDuration, labels: [("route", route)], buckets: Self.durationBuckets),
                bodyBytes: registry.makeValueHistogram(
                    descriptor: Self.requestBody, labels: [("route", route)], buckets: Self.byteBuckets))
        }
    }

    /// Counts a request as started.
    func begin() { inFlight.increment() }

    /// Records an answered request.
    ///
    /// - Parameter position: The position in ``ServiceRouter/routes`` of the request's route (its label), or
    ///   `nil` for `other`.
    func end(route position: Int?, method: String, status: Int, bodyBytes: Int, duration: Duration) {
        inFlight.decrement()
        let route = position ?? ServiceRouter.routes.count
        let methodIndex = Self.methods.firstIndex(of: method) ?? Self.methods.count
        // One integer key: hashing it costs less than hashing the labels' strings.
        let key = (route << 48) | (methodIndex << 32) | Int(UInt32(truncatingIfNeeded: status))
        counters.counter(key: key) {
            let knownMethod = methodIndex < Self.methods.count ? method : "other"
            return registry.makeCounter(
                descriptor: Self.requests,
                labels: [("route", Self.labels[route]), ("method", knownMethod), ("status", String(status))])
        }.increment()
        routeSeries[route].duration.record(duration)
        routeSeries[route].bodyBytes.record(Double(bodyBytes))
    }

    /// Records where a `/diff` spent its time, and its change count when it succeeded.
    func record(_ statistics: DiffStatistics) {
        if let parse = statistics.parse { parseDuration.record(parse) }
        if let compute = statistics.compute { computeDuration.record(compute) }
        if let write = statistics.write { writeDuration.record(write) }
        if let count = statistics.changes { changes.record(Double(count)) }
    }

    /// The metrics in the Prometheus text exposition format, with the memory budget's figures as of now.
    func exposition(budget: MemoryBudget?) -> [UInt8] {
        if let budget {
            let values = [budget.capacity, budget.reservedBytes, budget.peakReservedBytes, budget.waitingCount]
            for (gauge, value) in zip(budgetGauges, values) { gauge.set(Double(value)) }
            let counts = [budget.admittedAfterWaitingCount, budget.refusedCount]
            let increments = admissionCounted.withLock { counted in
                defer { counted = counts }
                return zip(counts, counted).map { $0 - $1 }
            }
            for (counter, increment) in zip(admissionCounters, increments) where increment > 0 {
                counter.increment(by: Int64(increment))
            }
        }
        return registry.emitToBuffer()
    }
}

/// The request counters already made, so that a request costs one dictionary lookup rather than the
/// registry's validation of the metric name, labels and help text.
///
/// `@unchecked Sendable`: `counters` is only read or written while `lock` (a pthread mutex, which
/// ThreadSanitizer understands) is held.
private final class CounterCache: @unchecked Sendable {
    private let lock = NSLock()
    private var counters: [Int: Counter] = [:]

    /// The counter for `key` (the labels' indices and the status, packed), made by `make` the first time.
    func counter(key: Int, make: () -> Counter) -> Counter {
        lock.lock()
        defer { lock.unlock() }
        if let counter = counters[key] { return counter }
        let counter = make()
        counters[key] = counter
        return counter
    }
}
