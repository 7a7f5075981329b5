internal import CSimdJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The idle parser handles of each thread, and how much they may keep.
///
/// Per thread rather than one process-wide pool: a server's worker thread gets back the parser it used last,
/// whose buffers are still in its core's cache, and takes no lock. A thread's idle parsers are destroyed when it
/// exits.
enum ParserPool {
    /// Parsers kept at most per thread: one serves a thread's walks one after another, a second the comparisons
    /// and readers a walk's caller makes while its parser is borrowed (a borrow that nests gets another parser;
    /// the pool is last in, first out, so a walk gets back the parser it used last).
    static let maximumIdle = 2
    /// What a thread's idle parsers may hold together: a parser that would take them beyond it is destroyed
    /// rather than kept, so what stays allocated between requests is at most this per thread (a parser that read
    /// a ~600 KB body holds about 4 MiB; one of comparisons a few KB).
    static let maximumRetainedBytes = 8 << 20
    /// What one idle parser may hold: a parser grown by a body of about 1 MB or more (simdjson keeps about 6 bytes
    /// a byte of it) is destroyed when given back, so that what it holds is not kept through the rest of the
    /// request that borrowed it (its diff and answer), while one that read a ~600 KB body is kept.
    static let maximumRetainedBytesEach = 5 << 20

    /// A thread's idle parsers (the value of ``key``), destroyed with it.
    private final class Idle {
        var parsers: [OpaquePointer] = []
        deinit {
            for parser in parsers { CSimdJSON_ParserDestroy(parser) }
        }
    }

    /// The thread-specific key whose value is the thread's ``Idle`` (retained), released when the thread exits.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { value in
            guard let value else { return }
            Unmanaged<AnyObject>.fromOpaque(value).release()
        }
        precondition(created == 0, "no thread-specific key for the parser pool")
        return key
    }()

    /// The calling thread's idle parsers.
    private static var idle: Idle {
        if let value = pthread_getspecific(key) {
            return Unmanaged<Idle>.fromOpaque(value).takeUnretainedValue()
        }
        let idle = Idle()
        pthread_setspecific(key, Unmanaged.passRetained(idle).toOpaque())
        return idle
    }

    /// A parser from the calling thread's idle ones, or a new one.
    static func borrow() -> OpaquePointer {
        let idle = idle
        if let parser = idle.parsers.popLast() { return parser }
        guard let parser = CSimdJSON_ParserCreate() else { fatalError("out of memory for a JSON parser") }
        return parser
    }

    /// Keeps `parser` among the calling thread's idle ones (at most ``maximumIdle``, holding at most
    /// ``maximumRetainedBytes`` together and ``maximumRetainedBytesEach`` each), or destroys it.
    static func recycle(_ parser: OpaquePointer) {
        let idle = idle
        let own = CSimdJSON_ParserRetainedBytes(parser)
        let retained = idle.parsers.reduce(own) { $0 + CSimdJSON_ParserRetainedBytes($1) }
        if idle.parsers.count < maximumIdle && own <= maximumRetainedBytesEach && retained <= maximumRetainedBytes {
            idle.parsers.append(parser)
        } else {
            CSimdJSON_ParserDestroy(parser)
        }
    }
}
