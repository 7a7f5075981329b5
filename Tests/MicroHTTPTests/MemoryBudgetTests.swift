import Synchronization
import Testing

@testable import MicroHTTP

/// The budget's bookkeeping, without sockets.
@Suite struct MemoryBudgetTests {
    /// Records each decision a waiter is told, in order.
    final class Decisions: Sendable {
        private let storage = Mutex<[String]>([])
        func record(_ name: String, _ admitted: Bool) { storage.withLock { $0.append("\(name) \(admitted)") } }
        var all: [String] { storage.withLock { $0 } }
    }

    @Test func reservationsNeverExceedTheCapacity() {
        let budget = MemoryBudget(capacity: 1000, lightReserve: 0)
        #expect(budget.tryReserve(600))
        #expect(!budget.tryReserve(401))
        #expect(budget.tryReserve(400))
        #expect(budget.reservedBytes == 1000)
        budget.release(1000)
        #expect(budget.reservedBytes == 0)
        #expect(budget.peakReservedBytes == 1000)
    }

    @Test func lightRequestsKeepTheirReserve() {
        let budget = MemoryBudget(capacity: 1000, lightReserve: 200)
        #expect(budget.tryReserve(800))
        #expect(!budget.tryReserve(1), "heavy requests stop at capacity - lightReserve")
        #expect(budget.tryReserve(150, light: true), "a probe still fits")
        #expect(!budget.tryReserve(51, light: true))
    }

    @Test func lightReserveIsAtMostAQuarter() {
        #expect(MemoryBudget(capacity: 1000).lightReserve == 250)
        #expect(MemoryBudget(capacity: 1 << 30).lightReserve == 16 << 20)
    }

    @Test func releaseAdmitsEveryWaiterThatFitsInOrder() {
        let budget = MemoryBudget(capacity: 1000, lightReserve: 0)
        let decisions = Decisions()
        #expect(budget.tryReserve(900))
        budget.reserve(700, waitingAtMost: .seconds(60)) { decisions.record("large", $0) }
        budget.reserve(300, waitingAtMost: .seconds(60)) { decisions.record("small", $0) }
        budget.reserve(200, waitingAtMost: .seconds(60)) { decisions.record("smaller", $0) }
        #expect(budget.waitingCount == 3)
        budget.release(500)  // 400 held: "large" does not fit, "small" does (700), then "smaller" (900)
        #expect(decisions.all == ["small true", "smaller true"])
        budget.release(600)  // 300 held: "large" fits (1000)
        #expect(decisions.all == ["small true", "smaller true", "large true"])
        #expect(budget.admittedAfterWaitingCount == 3)
        #expect(budget.reservedBytes == 1000)
    }

    @Test func aWaiterIsRefusedWhenItsTimeRunsOut() {
        let budget = MemoryBudget(capacity: 1000, lightReserve: 0)
        let decisions = Decisions()
        #expect(budget.tryReserve(1000))
        budget.reserve(10, waitingAtMost: .milliseconds(20)) { decisions.record("late", $0) }
        #expect(eventually { decisions.all == ["late false"] })
        #expect(budget.waitingCount == 0)
        #expect(budget.refusedCount == 1)
        budget.release(1000)
        #expect(budget.reservedBytes == 0, "an expired waiter holds nothing")
    }

    @Test func closingRefusesWaitersAndWhatCanNeverFit() {
        let budget = MemoryBudget(capacity: 1000, lightReserve: 0)
        let decisions = Decisions()
        budget.reserve(1001, waitingAtMost: .seconds(60)) { decisions.record("too large", $0) }
        #expect(budget.tryReserve(1000))
        budget.reserve(10, waitingAtMost: .seconds(60)) { decisions.record("waiting", $0) }
        budget.close()
        budget.reserve(10, waitingAtMost: .seconds(60)) { decisions.record("after close", $0) }
        #expect(decisions.all == ["too large false", "waiting false", "after close false"])
    }
}
