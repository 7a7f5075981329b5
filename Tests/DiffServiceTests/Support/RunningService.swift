@testable import DiffService
import Glibc
import Logging
import MicroHTTP
import Synchronization
import Testing
import TestSupport

/// The real service (``ServiceRunner/makeListeners(_:readiness:logger:)``) listening on 127.0.0.1 and a free port,
/// and on a probe port when the configuration asks for one.
struct RunningService {
    let server: HTTPServer
    let readiness: Readiness
    let port: Int
    /// The probe listener's port, when ``ServiceConfiguration/probePort`` is set.
    let probePort: Int?

    /// A new connection to the service.
    func connect(timeout: Int = 10) throws -> TestClient { try TestClient(port: port, timeout: timeout) }
}

/// A logger that drops everything: the service logs one line per request.
let quietLogger = Logger(label: "snapdiff-tests") { _ in SwiftLogNoOpLogHandler() }

/// Starts the service, runs `body` with it, and always shuts it down.
@discardableResult
func withService<Result>(
    maxBodyBytes: Int = 1 << 20, threads: Int = 2, cursorSecrets: [String] = [], cors: CORSPolicy? = nil,
    compressionLevel: Int = ServiceConfiguration().compressionLevel,
    configure: (inout ServiceConfiguration) -> Void = { _ in }, _ body: (RunningService) throws -> Result
) throws -> Result {
    var configuration = ServiceConfiguration()
    configuration.cursorSecrets = cursorSecrets
    configuration.cors = cors
    configuration.compressionLevel = compressionLevel
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.threads = threads
    configuration.maxBodyBytes = maxBodyBytes
    configure(&configuration)
    let readiness = Readiness()
    let listeners = ServiceRunner.makeListeners(configuration, readiness: readiness, logger: quietLogger)
    try listeners.start()
    defer {
        readiness.beginShutdown()
        listeners.shutdown(grace: .zero)
    }
    return try body(
        RunningService(
            server: listeners.service, readiness: readiness, port: try #require(listeners.service.port),
            probePort: listeners.probes?.port))
}

/// Checks what every problem response must be, and that it is the problem `type`; returns the document.
@discardableResult
func expectProblem(
    _ response: TestClient.Response, _ type: ProblemType, sourceLocation: SourceLocation = #_sourceLocation
) throws -> JSON {
    #expect(response.status == type.status, "\(response.text)", sourceLocation: sourceLocation)
    #expect(response.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
    let problem = try JSON(parsing: response.body)
    let uri = try #require(problem["type"]?.string, "no type in \(problem)", sourceLocation: sourceLocation)
    #expect(uri.hasPrefix("urn:snapdiff:problem:"), sourceLocation: sourceLocation)
    #expect(uri == type.uri, sourceLocation: sourceLocation)
    #expect(problem["status"]?.int == response.status, "status member differs from the HTTP status", sourceLocation: sourceLocation)
    #expect(problem["title"]?.string?.isEmpty == false, sourceLocation: sourceLocation)
    #expect(problem["detail"]?.string?.isEmpty == false, sourceLocation: sourceLocation)
    return problem
}

/// A `/diff` body from two snapshots written as JSON text, and optionally the options object.
func diffBody(old: String, new: String, options: String? = nil) -> String {
    #"{"old":\#(old),"new":\#(new)"# + (options.map { #","options":\#($0)"# } ?? "") + "}"
}

/// A bare item list snapshot of integer ids, each item carrying `content` (`"v":…`) when given.
func items(_ ids: [Int], content: (Int) -> Int? = { _ in nil }) -> String {
    #"{"items":["# + ids.map { id in content(id).map { #"{"id":\#(id),"v":\#($0)}"# } ?? #"{"id":\#(id)}"# }
        .joined(separator: ",") + "]}"
}

/// Runs `work(index)` on `count` threads at once (blocking sockets need real threads, not the cooperative
/// pool), and returns what each failed with, if anything.
func onThreads(_ count: Int, _ work: @escaping @Sendable (Int) throws -> Void) -> [String] {
    let failures = FailureList()
    var threads: [pthread_t] = []
    final class Job: @unchecked Sendable {  // immutable after init; handed to one thread
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
    for index in 0..<count {
        let job = Job {
            do { try work(index) } catch { failures.append("thread \(index): \(error)") }
        }
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { raw in
            Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, Unmanaged.passRetained(job).toOpaque())
        precondition(created == 0, "pthread_create failed: \(created)")
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
    return failures.all
}

/// Failures collected from several threads.
final class FailureList: Sendable {
    private let list = Locked<[String]>([])
    func append(_ failure: String) { list.withLock { $0.append(failure) } }
    var all: [String] { list.value }
}

/// A value shared between threads (a `Mutex` a closure can capture).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
    var value: Value {
        get { mutex.withLock { $0 } }
        set { mutex.withLock { $0 = newValue } }
    }
}

/// A failure a worker thread reports (`#expect` belongs on the test's own task).
struct Mismatch: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
