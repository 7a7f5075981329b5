internal import CSimdJSON
import Synchronization

/// Reusable CSimdJSON parser handles: a parse borrows one and gives it back, so that a server parsing small
/// bodies does not allocate simdjson's buffers per request. Handles grown by large bodies are not kept.
final class ParserPool: Sendable {
    /// The process-wide pool.
    static let shared = ParserPool()

    /// Handles kept at most.
    private let maximumIdle = 8
    /// Handles holding more than this after a parse are freed rather than kept.
    private let maximumRetainedBytes = 16 << 20
    private let idle = Mutex<[ParserHandle]>([])

    /// An idle handle, or a new one.
    func borrow() -> ParserHandle {
        idle.withLock { $0.popLast() } ?? ParserHandle()
    }

    /// Returns a handle that no one uses any more.
    func recycle(_ handle: ParserHandle) {
        guard handle.retainedBytes <= maximumRetainedBytes else { return }
        idle.withLock { handles in
            if handles.count < maximumIdle { handles.append(handle) }
        }
    }
}
