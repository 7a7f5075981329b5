internal import CSimdJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reusable CSimdJSON parser handles: a parse borrows one and gives it back, so that a server parsing small
/// bodies does not allocate simdjson's buffers per request. Handles grown by large bodies are not kept.
///
/// `@unchecked Sendable`: `idle` is only read or written while `lock` is held.
final class ParserPool: @unchecked Sendable {
    /// The process-wide pool.
    static let shared = ParserPool()

    /// Handles kept at most.
    private let maximumIdle = 8
    /// Handles holding more than this after a parse are freed rather than kept.
    private let maximumRetainedBytes = 16 << 20
    private let lock = PthreadMutex()
    private var idle: [ParserHandle] = []

    /// An idle handle, or a new one.
    func borrow() -> ParserHandle {
        lock.withLock { idle.popLast() } ?? ParserHandle()
    }

    /// Returns a handle that no one uses any more.
    func recycle(_ handle: ParserHandle) {
        guard handle.retainedBytes <= maximumRetainedBytes else { return }
        lock.withLock {
            if idle.count < maximumIdle { idle.append(handle) }
        }
    }
}

/// A pthread mutex. Unlike `Synchronization.Mutex`, which on Linux locks with a futex that ThreadSanitizer
/// does not see, it lets the sanitizer check what it protects.
///
/// `@unchecked Sendable`: the mutex is the synchronisation; its storage is allocated and initialised once,
/// before any use, and destroyed when no one can use it any more.
final class PthreadMutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    func withLock<Value>(_ body: () throws -> Value) rethrows -> Value {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
