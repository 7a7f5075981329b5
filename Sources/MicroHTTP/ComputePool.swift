import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixed set of threads that compute answers, apart from libmicrohttpd's connection threads, with a bounded
/// queue in front of them.
///
/// A connection whose request is heavy is suspended, its request computed here, and the connection resumed with
/// the answer; the connection threads meanwhile keep serving probes and small requests. The threads run at a
/// lower scheduling priority than the connection threads (`nice` +``computeNiceness``), so that when both want
/// the cores a probe is answered first.
final class ComputePool: Sendable {
    /// Work for a compute thread: `run` computes and hands the answer over; `cancel` is called instead when the
    /// pool closes before a thread took the job.
    struct Job: Sendable {
        let run: @Sendable () -> Void
        let cancel: @Sendable () -> Void
        /// Jobs of a higher precedence are taken first; among equals, the first queued. Default 0.
        var precedence = 0
    }

    private struct State {
        var queue: [Job] = []
        var busy = 0
        var closed = false
    }

    /// How much lower the compute threads' priority is than the connection threads'.
    static let computeNiceness: Int32 = 5

    /// How much lower the gzip decoding threads' priority is than the connection threads' (below the compute
    /// threads'): decoding a gzip bomb to the body limit costs tens of milliseconds for a few kilobytes sent, so a
    /// flood of them must take the cores only when the requests' own work leaves them free.
    static let decodeNiceness: Int32 = 15

    /// This pool's threads' niceness.
    let niceness: Int32

    /// Jobs that may wait for a thread when every thread is busy.
    let queueLimit: Int
    let threadCount: Int
    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let threads = Mutex<[pthread_t]>([])

    /// Starts `threads` compute threads.
    /// - Parameters:
    ///   - threads: The number of threads (at least 1).
    ///   - queueLimit: Jobs that may wait when every thread is busy; more are refused by ``submit(_:)``.
    ///   - niceness: How much lower the threads' priority is than the connection threads'. Default
    ///     ``computeNiceness``.
    init(threads: Int, queueLimit: Int, niceness: Int32 = ComputePool.computeNiceness) {
        self.niceness = niceness
        self.threadCount = max(1, threads)
        self.queueLimit = max(0, queueLimit)
        var started: [pthread_t] = []
        for _ in 0..<threadCount {
            if let thread = Self.startThread(body: { [self] in work() }) {
                started.append(thread)
            }
        }
        self.threads.withLock { $0 = started }
    }

    /// Jobs waiting for a thread now.
    var queuedCount: Int { state.withLock { $0.queue.count } }

    /// Whether at least one thread started (the system may refuse threads).
    var isRunning: Bool { threads.withLock { !$0.isEmpty } }

    /// Whether ``close()`` has begun.
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Threads computing now.
    var busyCount: Int { state.withLock { $0.busy } }

    /// Queues a job.
    /// - Returns: `false` when the queue is full or the pool has closed (the job was not taken).
    func submit(_ job: Job) -> Bool {
        let accepted = state.withLock { state in
            guard !state.closed, state.queue.count < queueLimit + max(0, threadCount - state.busy) else { return false }
            // After every job of the same or a higher precedence (the queue is short: at most the limit).
            let place = state.queue.firstIndex { $0.precedence < job.precedence } ?? state.queue.endIndex
            state.queue.insert(job, at: place)
            return true
        }
        if accepted { available.signal() }
        return accepted
    }

    /// Refuses new jobs, cancels the queued ones, waits for the running ones to finish and stops the threads.
    /// A second call returns at once.
    func close() {
        let cancelled: [Job]? = state.withLock { state in
            guard !state.closed else { return nil }
            state.closed = true
            defer { state.queue = [] }
            return state.queue
        }
        guard let cancelled else { return }
        for job in cancelled { job.cancel() }
        let started = threads.withLock { threads in
            defer { threads = [] }
            return threads
        }
        for _ in started { available.signal() }
        for thread in started { pthread_join(thread, nil) }
    }

    /// Lowers the calling thread's priority to the compute threads' (``computeNiceness``).
    static func lowerPriority() {
        // On Linux the nice value is per thread, and `who` 0 is the calling thread.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, computeNiceness)
    }

    private func work() {
        // On Linux the nice value is per thread, and `who` 0 is the calling thread.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        while true {
            available.wait()
            let job: Job? = state.withLock { state in
                guard !state.queue.isEmpty else { return nil }
                state.busy += 1
                return state.queue.removeFirst()
            }
            guard let job else {
                if state.withLock({ $0.closed }) { return }
                continue
            }
            job.run()
            state.withLock { $0.busy -= 1 }
        }
    }

    /// What a new thread runs, passed through `pthread_create`'s argument.
    private final class ThreadStart {
        let body: @Sendable () -> Void
        init(body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts a joinable thread that runs `body`; `nil` if the system refused.
    static func startThread(body: @escaping @Sendable () -> Void) -> pthread_t? {
        let argument = Unmanaged.passRetained(ThreadStart(body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<ThreadStart>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, argument)
        guard result == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(argument).release()
            return nil
        }
        return thread
    }
}
