import Testing

@testable import MicroHTTP

/// The compute pool's queue: jobs of a higher precedence are taken first, equals in the order they came.
@Suite struct ComputePoolTests {
    @Test func higherPrecedenceIsTakenFirstAndEqualsInOrder() {
        let pool = ComputePool(threads: 1, queueLimit: 8)
        defer { pool.close() }
        let gate = Gate()
        let timeline = Timeline()
        #expect(pool.submit(ComputePool.Job(run: { gate.pass() }, cancel: {})))
        #expect(eventually { gate.arrived == 1 })  // the one thread is busy: the next jobs queue
        for (name, precedence) in [("a", 1), ("b", 5), ("c", 3), ("d", 5), ("e", 0)] {
            let job = ComputePool.Job(run: { timeline.record(name) }, cancel: {}, precedence: precedence)
            #expect(pool.submit(job))
        }
        gate.open()
        #expect(eventually { timeline.all.count == 5 })
        #expect(timeline.all == ["b", "d", "c", "a", "e"])
    }
}
