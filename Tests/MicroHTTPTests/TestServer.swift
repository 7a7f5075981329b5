@testable import MicroHTTP
import Synchronization
import Dispatch
import Glibc

/// A thread-safe counter a handler can bump.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)
    func increment() { storage.add(1, ordering: .relaxed) }
    var value: Int { storage.load(ordering: .relaxed) }
}

/// A late-bound reference to a server, for handlers that need to observe it.
final class ServerBox: Sendable {
    private let storage = Mutex<HTTPServer?>(nil)
    var server: HTTPServer? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

/// Starts a server on 127.0.0.1 port 0, runs `body` with it, and always shuts it down.
@discardableResult
func withServer<Result>(
    _ configuration: HTTPServer.Configuration = HTTPServer.Configuration(),
    handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse = echo,
    _ body: (HTTPServer, Int) throws -> Result
) throws -> Result {
    var configuration = configuration
    configuration.host = "127.0.0.1"
    configuration.port = 0
    let server = HTTPServer(configuration: configuration, handler: handler)
    try server.start()
    defer { server.shutdown(grace: .zero) }
    return try body(server, server.port!)
}

/// One connection thread, one compute thread; bodies of 1 KiB or more are computed on the pool.
func oneThreadEach() -> HTTPServer.Configuration {
    var configuration = HTTPServer.Configuration(threads: 1)
    configuration.computeThreads = 1
    configuration.inlineBodyLimit = 1024
    return configuration
}

/// Echoes the body and reports what the server parsed in `x-` headers.
@Sendable
func echo(_ request: HTTPRequest) -> HTTPResponse {
    HTTPResponse(
        status: 200,
        headers: [
            "X-Method": request.method,
            "X-Path": request.path,
            "X-Query": request.query ?? "<none>",
            "X-Test": request.header("X-TEST") ?? "<none>",
            "X-Length": String(request.body.count),
        ],
        body: request.body
    )
}

/// Polls `condition` every 10 ms for up to `seconds`.
func eventually(within seconds: Double = 3, _ condition: () -> Bool) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
    while clock.now < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// Runs `body` on its own thread and returns a way to wait for its result.
func inBackground<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) -> @Sendable () throws -> Value {
    let result = Mutex<Result<Value, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    DetachedThread.start {
        let outcome = Result { try body() }
        result.withLock { $0 = outcome }
        done.signal()
    }
    return {
        done.wait()
        return try result.withLock { $0! }.get()
    }
}

/// A minimal detached thread for tests (Foundation's Thread is not imported here).
enum DetachedThread {
    final class Start {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    static func start(_ body: @escaping @Sendable () -> Void) {
        var thread = pthread_t()
        let argument = Unmanaged.passRetained(Start(body)).toOpaque()
        let result = pthread_create(&thread, nil, { raw in
            Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, argument)
        precondition(result == 0, "pthread_create failed")
        pthread_detach(thread)
    }
}
