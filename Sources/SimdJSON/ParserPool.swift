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

    /// The thread-specific key whose value is the thread's idle parsers: ``maximumIdle`` slots, the parsers in
    /// the first ones, the last given back last (`nil` beyond). Destroyed, with the parsers, when the thread exits.
    ///
    /// Raw slots rather than an array in a class: the pool is read twice a request, and a class's array costs a
    /// retain, a release and two exclusivity checks at each (a thread's slots are only its own).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let created = pthread_key_create(&key) { value in
            guard let value else { return }
            let slots = value.assumingMemoryBound(to: OpaquePointer?.self)
            for index in 0 ..< ParserPool.maximumIdle {
                if let parser = slots[index] { CSimdJSON_ParserDestroy(parser) }
            }
            slots.deallocate()
        }
        precondition(created == 0, "no thread-specific key for the parser pool")
        return key
    }()

    /// The calling thread's idle parser slots.
    private static var idle: UnsafeMutablePointer<OpaquePointer?> {
        if let value = pthread_getspecific(key) { return value.assumingMemoryBound(to: OpaquePointer?.self) }
        let slots = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: maximumIdle)
        slots.initialize(repeating: nil, count: maximumIdle)
        pthread_setspecific(key, slots)
        return slots
    }

    /// A parser from the calling thread's idle ones (the last given back), or a new one.
    static func borrow() -> OpaquePointer {
        let idle = idle
        for index in (0 ..< maximumIdle).reversed() {
            if let parser = idle[index] {
                idle[index] = nil
                return parser
            }
        }
        guard let parser = CSimdJSON_ParserCreate() else { fatalError("out of memory for a JSON parser") }
        return parser
    }

    /// Keeps `parser` among the calling thread's idle ones (at most ``maximumIdle``, holding at most
    /// ``maximumRetainedBytes`` together and ``maximumRetainedBytesEach`` each), or destroys it.
    static func recycle(_ parser: OpaquePointer) {
        let idle = idle
        let own = CSimdJSON_ParserRetainedBytes(parser)
        var retained = own, count = 0
        while count < maximumIdle, let kept = idle[count] {
            retained += CSimdJSON_ParserRetainedBytes(kept)
            count += 1
        }
        if count < maximumIdle && own <= maximumRetainedBytesEach && retained <= maximumRetainedBytes {
            idle[count] = parser
        } else {
            CSimdJSON_ParserDestroy(parser)
        }
    }
}
