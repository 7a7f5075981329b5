import Dispatch
import Synchronization

/// The bytes that requests in flight may hold at once, and the requests waiting for room.
///
/// A request reserves what it will need at its peak (its body, its computation and its answer) before the
/// server commits to it; it gives the reservation back as its memory is freed, the answer's part once the
/// answer has been sent. A request that does not fit waits in first-fit order (any waiter that fits is
/// admitted, so a small request is not held behind a large one) for a bounded time and is then refused.
///
/// The last ``lightReserve`` bytes are kept for light requests (probes, metrics, small diffs: see
/// ``tryReserve(_:light:)``), so that a budget filled by large requests still answers a liveness probe at once.
///
/// The sum of reservations never exceeds ``capacity``, except through ``forceReserve(_:)``, which records
/// memory already in use (an answer larger than its estimate) rather than asking for more.
public final class MemoryBudget: Sendable {
    /// The most bytes that reservations may hold together.
    public let capacity: Int
    /// The bytes only light requests may reserve.
    public let lightReserve: Int

    private struct Waiter {
        let id: Int
        let bytes: Int
        let limit: Int
        let decide: @Sendable (Bool) -> Void
    }

    private struct State {
        var reserved = 0
        var peak = 0
        var waiters: [Waiter] = []
        var nextWaiterID = 0
        var closed = false
        var admittedAfterWaiting = 0
        var refused = 0
    }

    private let state = Mutex(State())

    /// Creates a budget.
    /// - Parameters:
    ///   - capacity: The most bytes that reservations may hold together (at least 1).
    ///   - lightReserve: The bytes kept for light requests. Default: 16 MiB, at most a quarter of `capacity`.
    public init(capacity: Int, lightReserve: Int? = nil) {
        self.capacity = max(1, capacity)
        self.lightReserve = min(max(0, lightReserve ?? 16 << 20), self.capacity / 4)
    }

    private func limit(light: Bool) -> Int { light ? capacity : capacity - lightReserve }

    /// Bytes reserved now.
    public var reservedBytes: Int { state.withLock { $0.reserved } }

    /// The most bytes reserved at once since the budget was created.
    public var peakReservedBytes: Int { state.withLock { $0.peak } }

    /// Requests waiting for room now.
    public var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// Requests that waited and were then admitted, since the budget was created.
    public var admittedAfterWaitingCount: Int { state.withLock { $0.admittedAfterWaiting } }

    /// Requests refused (their wait ran out, or the budget closed), since the budget was created.
    public var refusedCount: Int { state.withLock { $0.refused } }

    /// Reserves `bytes` if they fit now.
    /// - Parameters:
    ///   - bytes: The bytes to reserve (at least 0).
    ///   - light: Whether the request is light and may use ``lightReserve``.
    /// - Returns: Whether they were reserved.
    /// - Complexity: O(1).
    public func tryReserve(_ bytes: Int, light: Bool = false) -> Bool {
        let limit = limit(light: light)
        return state.withLock { state in
            guard bytes <= limit - state.reserved else { return false }
            state.reserved += bytes
            state.peak = max(state.peak, state.reserved)
            return true
        }
    }

    /// Records `bytes` that are already in use, whether or not they fit.
    /// - Parameter bytes: The bytes to add to the reservations.
    public func forceReserve(_ bytes: Int) {
        state.withLock { state in
            state.reserved += bytes
            state.peak = max(state.peak, state.reserved)
        }
    }

    /// Reserves `bytes` as soon as they fit, waiting at most `timeout`, and then calls `decide` exactly once:
    /// with `true` once reserved, with `false` when the wait ran out, the budget closed, or `bytes` can never
    /// fit. `decide` may run before this returns, on the calling thread, or later on another thread.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to reserve.
    ///   - light: Whether the request is light and may use ``lightReserve``.
    ///   - timeout: The longest wait.
    ///   - decide: Told the outcome; must be quick (it runs while other waiters are admitted).
    public func reserve(
        _ bytes: Int, light: Bool = false, waitingAtMost timeout: Duration, decide: @escaping @Sendable (Bool) -> Void
    ) {
        enum Outcome { case admitted, refused, waiting(Int) }
        let limit = limit(light: light)
        let outcome: Outcome = state.withLock { state in
            if bytes <= limit - state.reserved {
                state.reserved += bytes
                state.peak = max(state.peak, state.reserved)
                return .admitted
            }
            guard !state.closed, bytes <= limit else {
                state.refused += 1
                return .refused
            }
            let id = state.nextWaiterID
            state.nextWaiterID += 1
            state.waiters.append(Waiter(id: id, bytes: bytes, limit: limit, decide: decide))
            return .waiting(id)
        }
        switch outcome {
        case .admitted: decide(true)
        case .refused: decide(false)
        case .waiting(let id):
            let (seconds, attoseconds) = timeout.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
                expire(id)
            }
        }
    }

    /// Gives back `bytes` of a reservation and admits the waiters that now fit.
    /// - Parameter bytes: The bytes to release (at most what the caller holds).
    public func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        let admitted: [Waiter] = state.withLock { state in
            state.reserved -= bytes
            guard !state.waiters.isEmpty else { return [] }
            var admitted: [Waiter] = []
            state.waiters.removeAll { waiter in
                guard waiter.bytes <= waiter.limit - state.reserved else { return false }
                state.reserved += waiter.bytes
                admitted.append(waiter)
                return true
            }
            state.peak = max(state.peak, state.reserved)
            state.admittedAfterWaiting += admitted.count
            return admitted
        }
        for waiter in admitted { waiter.decide(true) }
    }

    /// Refuses every waiter now and every later ``reserve(_:waitingAtMost:decide:)`` that does not fit at
    /// once (``tryReserve(_:)`` keeps working). Called when the server stops.
    public func close() {
        let refused: [Waiter] = state.withLock { state in
            state.closed = true
            defer { state.waiters = [] }
            state.refused += state.waiters.count
            return state.waiters
        }
        for waiter in refused { waiter.decide(false) }
    }

    private func expire(_ id: Int) {
        let expired: Waiter? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            state.refused += 1
            return state.waiters.remove(at: index)
        }
        expired?.decide(false)
    }
}
