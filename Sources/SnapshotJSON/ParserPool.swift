internal import CSimdJSON

/// Reusable CSimdJSON parsers: a parse borrows one and gives it back, so that a server parsing small bodies does
/// not allocate simdjson's buffers per request. The idle parsers are kept per thread (in CSimdJSON), so a worker
/// thread gets back the parser whose buffers are warm in its own core's cache, without a lock; parsers grown by
/// large bodies are not kept.
struct ParserPool: Sendable {
    /// The process-wide pool.
    static let shared = ParserPool()

    /// Parsers kept at most per thread: one serves a thread's parses one after another, a second the item
    /// comparisons the reader makes while its parse is borrowed (a borrow that nests gets another parser; the
    /// pool is last in, first out, so a parse gets back the parser it used last).
    private let maximumIdle = 2
    /// Parsers holding more than this after a parse are freed rather than kept: what stays allocated between
    /// requests is at most this per worker thread (a parser that read a ~600 KB body holds about this much).
    private let maximumRetainedBytes = 4 << 20

    /// A parser from this thread's idle ones, or a new one.
    func borrow() -> ParserHandle {
        guard let pointer = CSimdJSON_ParserBorrow() else { fatalError("out of memory") }
        return ParserHandle(pointer: pointer)
    }

    /// Gives `handle` back; it must not be used afterwards.
    func recycle(_ handle: ParserHandle) {
        CSimdJSON_ParserReturn(handle.pointer, maximumIdle, maximumRetainedBytes)
    }
}
