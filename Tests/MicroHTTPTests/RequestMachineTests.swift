import Testing

@testable import MicroHTTP

/// The request state machine without sockets: every transition as a row (the events that lead to a state, the
/// event, the state it leads to and the actions asked for), every unexpected event, and whole requests driven
/// through a simulated budget, deadline and connection.
@Suite struct RequestMachineTests {
    typealias Event = RequestMachine.Event
    typealias Action = RequestMachine.Action
    typealias State = RequestMachine.State

    // MARK: Every transition

    @Test(arguments: Transition.all)
    func transition(_ row: Transition) {
        var machine = RequestMachine(after: row.given)
        let actions = machine.handle(row.event)
        #expect(actions == row.actions)
        #expect(machine.state == row.state)
    }

    /// Every state, told every event it does not expect: nothing changes and nothing is asked for.
    @Test(arguments: Setup.all)
    func unexpectedEventsChangeNothing(_ setup: Setup) {
        for (name, event) in Sample.events where !setup.expects.contains(name) {
            var machine = RequestMachine(after: setup.given)
            let before = machine.snapshot
            let actions = machine.handle(event)
            #expect(actions == [], "\(setup.name) told \(name)")
            #expect(machine.snapshot == before, "\(setup.name) told \(name)")
        }
    }

    /// The table of transitions covers every pair of state and event that the machine expects.
    @Test func theTableCoversEveryExpectedEvent() {
        let covered = Set(Transition.all.map { "\(RequestMachine(after: $0.given).state) \($0.eventName)" })
        for setup in Setup.all {
            for name in setup.expects {
                #expect(covered.contains("\(RequestMachine(after: setup.given).state) \(name)"),
                    "no row tells \(setup.name) \(name)")
            }
        }
    }

    // MARK: The refused body's deadline (eb20b6d)

    /// A request the budget refused reads its body, to throw it away, before its 503: that body must arrive within
    /// the request timeout as an admitted one must (its deadline, stopped while it waited for memory, was once
    /// started again only for an admitted request, so a stalled body held the connection until the idle timeout).
    @Test func refusedRequestHasADeadlineAgainWhileItsBodyIsDiscarded() {
        var world = World(budgetFree: 0)
        world.tell(Sample.heavy)
        #expect(world.machine.state == .awaitingAdmission(needed: 700, light: false, admitted: nil))
        #expect(!world.deadlineRunning, "the admission timeout bounds the wait, not the request deadline")
        world.decideWait(granting: false)
        world.tell(.resumed)
        #expect(world.machine.state == .discardingBody(.overBudget))
        #expect(world.deadlineRunning, "the discarded body must arrive within the request timeout")
        // A stalled body: the janitor answers 408 and the connection closes.
        world.tell(.deadlinePassed)
        #expect(world.closedWithoutAnswer)
        world.tell(.completed)
        #expect(world.budgetReserved == 0)
    }

    /// The admitted request's body has its deadline again too.
    @Test func admittedRequestHasADeadlineAgainForItsBody() {
        var world = World(budgetFree: 0)
        world.tell(Sample.heavy)
        world.budgetFree = 700
        world.decideWait(granting: true)
        world.tell(.resumed)
        #expect(world.machine.state == .readingBody)
        #expect(world.deadlineRunning)
    }

    // MARK: Whole requests

    /// Whole requests through a simulated budget and connection: the deadline runs exactly while bytes of the
    /// request are awaited, the connection is suspended exactly while another thread holds the request, the
    /// answers are the ones expected, and the budget holds nothing once the request is complete.
    @Test(arguments: Journey.all)
    func journey(_ journey: Journey) {
        var world = World(budgetFree: journey.budgetFree)
        world.streamsAnswers = journey.streams
        for step in journey.steps {
            switch step {
            case .event(let event): world.tell(event)
            case .decideWait(let granting): world.decideWait(granting: granting)
            case .freeBudget(let bytes): world.budgetFree += bytes
            case .handlerAnswers: world.tell(.answerComputed(world.handlerAnswer))
            }
            #expect(!Self.isAsking(world.machine.state), "\(journey.name): a budget question left unanswered")
            let awaitingBytes: Bool = switch world.machine.state {
            case .awaitingHead, .readingBody, .discardingBody: true
            default: false  // (suspended, computing, answering, or done)
            }
            #expect(world.deadlineRunning == awaitingBytes, "\(journey.name): deadline in \(world.machine.state)")
            #expect(world.budgetFree >= 0 || world.forced, "\(journey.name): more reserved than the budget had")
        }
        world.tell(.completed)
        #expect(world.answers == journey.answers, "\(journey.name)")
        #expect(world.budgetReserved == 0, "\(journey.name): the budget holds nothing once the request is complete")
        #expect(!world.suspended, "\(journey.name)")
        #expect(world.machine.state == .completed)
    }
}

// MARK: - Fixtures

extension RequestMachineTests {
    /// Whether the machine waits for the answer to a ``RequestMachine/Action/tryReserve(_:light:)``.
    static func isAsking(_ state: RequestMachine.State) -> Bool {
        if case .reserving = state { return true }
        return false
    }
}

extension RequestMachine {
    /// A machine with the tests' limits, told `events` in order.
    init(after events: [Event]) {
        self.init(limits: Sample.limits)
        for event in events { _ = handle(event) }
    }

    /// What the machine keeps, for comparing before and after an event.
    var snapshot: [String] {
        ["\(state)", "\(reserved)", "\(bodyBytes)", "\(discardedBytes)", "\(refusedBytes)", "\(gzipBody)"]
    }
}

extension RequestMachine.State {
    /// The state's case name, without its payload.
    static func name(of state: Self) -> String {
        String("\(state)".prefix { $0 != "(" })
    }
}

/// The tests' limits, heads and events.
enum Sample {
    /// A body limit of 1000, an inline limit of 100, 64 trailing bytes, a 2000-byte drain past the limit.
    static let limits = RequestMachine.Limits(
        maxBodyBytes: 1000, inlineBodyLimit: 100, reservedTrailingCapacity: 64, overflowDrainLimit: 2000,
        budgetCapacity: 10_000, decoderBytes: 50)

    /// A request's peak: its body and 500 bytes.
    static let estimate: @Sendable (Int) -> Int = { $0 + 500 }

    /// A light body (10 bytes: reserves 510, may use the light reserve).
    static let small = head(declared: 10)
    /// A heavy body (200 bytes: reserves 700).
    static let heavy = head(declared: 200)
    /// A body at the inline limit (computed on the pool).
    static let atInlineLimit = head(declared: 100)
    /// A body without Content-Length (reserves 500, grows).
    static let unknownLength = head(declared: nil)
    /// A gzip body of 20 bytes as sent (reserves 20 + its decoding: 1000 + 64 + 50).
    static let gzip = head(declared: 20, coding: .gzip)

    /// The head of a request whose body is declared `declared` bytes long (`nil`: no Content-Length).
    static func head(
        declared: Int?, framing: HTTPServer.Refusal? = nil, chunked: Bool = false,
        coding: RequestMachine.BodyCoding = .identity
    ) -> RequestMachine.Event {
        .headReceived(.init(
            framingRefusal: framing, declaredLength: declared, chunked: chunked, coding: coding, estimate: estimate))
    }

    /// One event of each kind, named.
    static let events: [(String, RequestMachine.Event)] = [
        ("headReceived", small), ("budgetGranted", .budgetGranted), ("budgetRefused", .budgetRefused),
        ("resumed", .resumed), ("bodyChunk", .bodyChunk(size: 10)), ("bodyComplete", .bodyComplete),
        ("deadlinePassed", .deadlinePassed), ("decoded", .decoded(.decoded(bytes: 10, capacity: 10))),
        ("answerComputed", .answerComputed(.whole(bytes: 10))), ("workRefused", .workRefused(.shuttingDown)),
        ("completed", .completed),
    ]

    /// The name of an event's kind.
    static func name(of event: RequestMachine.Event) -> String {
        switch event {
        case .headReceived: "headReceived"
        case .budgetGranted: "budgetGranted"
        case .budgetRefused: "budgetRefused"
        case .resumed: "resumed"
        case .bodyChunk: "bodyChunk"
        case .bodyComplete: "bodyComplete"
        case .deadlinePassed: "deadlinePassed"
        case .decoded: "decoded"
        case .answerComputed: "answerComputed"
        case .workRefused: "workRefused"
        case .completed: "completed"
        }
    }
}

/// The events that lead to each state, and the events it expects.
struct Setup: Sendable, CustomTestStringConvertible {
    /// The state's name in the test's output.
    let name: String
    /// The events that lead to it.
    let given: [RequestMachine.Event]
    /// The names of the events it expects (``Sample/events``); any other changes nothing.
    let expects: Set<String>

    var testDescription: String { name }

    // The events that lead to each state (a heavy body reserves 700, a small one 510, one of unknown length
    // 500, a gzip one 1134).
    static let awaitingHead: [RequestMachine.Event] = []
    static let reservingHead = [Sample.heavy]
    static let awaitingAdmission = [Sample.heavy, .budgetRefused]
    static let admitted = awaitingAdmission + [.budgetGranted]
    static let refused = awaitingAdmission + [.budgetRefused]
    static let readingSmall = [Sample.small, .budgetGranted]
    static let readingHeavy = [Sample.heavy, .budgetGranted]
    static let readingUnknown = [Sample.unknownLength, .budgetGranted]
    static let readingGzip = [Sample.gzip, .budgetGranted]
    static let growing = readingUnknown + [.bodyChunk(size: 100)]
    static let growingToFallback = growing + [.budgetRefused]
    static let discardingOverBudget = refused + [.resumed]
    static let discardingTooLarge = readingHeavy + [.bodyChunk(size: 1001)]
    static let decoding = readingGzip + [.bodyChunk(size: 20), .bodyComplete]
    static let reservingWork = decoding + [.decoded(.decoded(bytes: 800, capacity: 900))]
    static let awaitingRoomForWork = reservingWork + [.budgetRefused]
    static let computing = readingHeavy + [.bodyChunk(size: 200), .bodyComplete]
    static let computingRefusal = decoding + [.decoded(.refused(.undecodableContent("bad")))]
    static let computingInline = readingSmall + [.bodyChunk(size: 10), .bodyComplete]
    static let answerReady = computing + [.answerComputed(.whole(bytes: 100))]
    static let answerReadyStreamed = computing + [.answerComputed(.streamed(compressorBytes: 300))]
    static let answerReadyClosing = computingRefusal + [.answerComputed(.whole(bytes: 200))]
    static let answered = computingInline + [.answerComputed(.whole(bytes: 10))]
    static let answeredStreamed = answerReadyStreamed + [.resumed]
    static let refusedAtHead = [Sample.head(declared: 1001)]
    static let closed = readingHeavy + [.deadlinePassed]
    static let completed = readingHeavy + [.completed]

    /// One setup for each state (the admission wait decided either way).
    static let all: [Setup] = [
        Setup(name: "awaitingHead", given: awaitingHead, expects: ["headReceived", "deadlinePassed", "completed"]),
        Setup(name: "reserving head", given: reservingHead, expects: ["budgetGranted", "budgetRefused", "completed"]),
        Setup(name: "awaitingAdmission", given: awaitingAdmission,
            expects: ["budgetGranted", "budgetRefused", "completed"]),
        Setup(name: "admitted", given: admitted, expects: ["resumed", "deadlinePassed", "completed"]),
        Setup(name: "refused", given: refused, expects: ["resumed", "deadlinePassed", "completed"]),
        Setup(name: "readingBody", given: readingHeavy,
            expects: ["bodyChunk", "bodyComplete", "deadlinePassed", "completed"]),
        Setup(name: "reserving growth", given: growing, expects: ["budgetGranted", "budgetRefused", "completed"]),
        Setup(name: "discardingBody", given: discardingOverBudget,
            expects: ["bodyChunk", "bodyComplete", "deadlinePassed", "completed"]),
        Setup(name: "decoding", given: decoding, expects: ["decoded", "workRefused", "completed"]),
        Setup(name: "reserving work", given: reservingWork, expects: ["budgetGranted", "budgetRefused", "completed"]),
        Setup(name: "awaitingRoomForWork", given: awaitingRoomForWork,
            expects: ["budgetGranted", "budgetRefused", "completed"]),
        Setup(name: "computing", given: computing, expects: ["answerComputed", "workRefused", "completed"]),
        Setup(name: "computingInline", given: computingInline, expects: ["answerComputed", "completed"]),
        Setup(name: "answerReady", given: answerReady, expects: ["resumed", "completed"]),
        Setup(name: "answered", given: answered, expects: ["completed"]),
        Setup(name: "closed", given: closed, expects: ["completed"]),
        Setup(name: "completed", given: completed, expects: []),
    ]
}

/// One transition: the events that lead to a state, the event, and what follows.
struct Transition: Sendable, CustomTestStringConvertible {
    /// The events that lead to the state.
    let given: [RequestMachine.Event]
    /// The event told then.
    let event: RequestMachine.Event
    /// The state it leads to.
    let state: RequestMachine.State
    /// The actions it asks for, in order.
    let actions: [RequestMachine.Action]
    /// What the row shows.
    let note: String

    init(
        _ note: String, given: [RequestMachine.Event], _ event: RequestMachine.Event, _ state: RequestMachine.State,
        _ actions: [RequestMachine.Action]
    ) {
        self.note = note
        self.given = given
        self.event = event
        self.state = state
        self.actions = actions
    }

    /// The name of the event's kind.
    var eventName: String { Sample.name(of: event) }

    var testDescription: String {
        "\(RequestMachine.State.name(of: RequestMachine(after: given).state)) + \(eventName): \(note)"
    }

    /// Every row.
    static let all: [Transition] = head + admission + body + growth + discarding + decoding + answer + completion

    /// The head: refusals first (whatever the method), then the reservation asked for now.
    static let head: [Transition] = [
        Transition("a framing refusal is answered at once and closes", given: Setup.awaitingHead,
            Sample.head(declared: 5000, framing: .malformed("bad")), .answered,
            [.stopDeadline, .respond(.refusal(.malformed("bad")), closing: true)]),
        Transition("a declared body over the limit: the early 413", given: Setup.awaitingHead,
            Sample.head(declared: 1001), .answered,
            [.stopDeadline, .respond(.refusal(.contentTooLarge(limit: 1000)), closing: true)]),
        Transition("an unsupported content coding: 415 before the body", given: Setup.awaitingHead,
            Sample.head(declared: 5, coding: .unsupported("br")), .answered,
            [.stopDeadline, .respond(.refusal(.unsupportedContentCoding("br")), closing: true)]),
        Transition("a coding without a body is not looked at", given: Setup.awaitingHead,
            Sample.head(declared: 0, coding: .unsupported("br")), .reserving(.head(bytes: 500, light: true)),
            [.reserveBodyCapacity(64), .tryReserve(500, light: true)]),
        Transition("a light body at the limit's edge of the estimate", given: Setup.awaitingHead,
            Sample.small, .reserving(.head(bytes: 510, light: true)),
            [.reserveBodyCapacity(74), .tryReserve(510, light: true)]),
        Transition("a heavy body may not use the light reserve", given: Setup.awaitingHead,
            Sample.heavy, .reserving(.head(bytes: 700, light: false)),
            [.reserveBodyCapacity(264), .tryReserve(700, light: false)]),
        Transition("a body at the limit is accepted", given: Setup.awaitingHead,
            Sample.head(declared: 1000), .reserving(.head(bytes: 1500, light: false)),
            [.reserveBodyCapacity(1064), .tryReserve(1500, light: false)]),
        Transition("no Content-Length: the estimate of no body", given: Setup.awaitingHead,
            Sample.unknownLength, .reserving(.head(bytes: 500, light: true)), [.tryReserve(500, light: true)]),
        Transition("Transfer-Encoding: not light", given: Setup.awaitingHead,
            Sample.head(declared: nil, chunked: true), .reserving(.head(bytes: 500, light: false)),
            [.tryReserve(500, light: false)]),
        Transition("a gzip body reserves its decoding", given: Setup.awaitingHead,
            Sample.gzip, .reserving(.head(bytes: 1134, light: false)),
            [.reserveBodyCapacity(20), .tryReserve(1134, light: false)]),
        Transition("cut while the head arrived", given: Setup.awaitingHead, .deadlinePassed, .closed, [.close]),
    ]

    /// Admission by the memory budget.
    static let admission: [Transition] = [
        Transition("room now", given: Setup.reservingHead, .budgetGranted, .readingBody, []),
        Transition("no room now: suspend and wait, the deadline stopped", given: Setup.reservingHead,
            .budgetRefused, .awaitingAdmission(needed: 700, light: false, admitted: nil),
            [.stopDeadline, .suspend, .waitForRoom(700, light: false)]),
        Transition("admitted while waiting", given: Setup.awaitingAdmission, .budgetGranted,
            .awaitingAdmission(needed: 700, light: false, admitted: true), [.resume]),
        Transition("refused while waiting", given: Setup.awaitingAdmission, .budgetRefused,
            .awaitingAdmission(needed: 700, light: false, admitted: false), [.resume]),
        Transition("admitted: the body's deadline runs", given: Setup.admitted, .resumed, .readingBody,
            [.restartDeadline]),
        Transition("refused: the body is thrown away within a deadline too (eb20b6d)", given: Setup.refused,
            .resumed, .discardingBody(.overBudget), [.restartDeadline, .dropBody]),
        Transition("admitted, cut at the resume", given: Setup.admitted, .deadlinePassed, .closed, [.close]),
        Transition("refused, cut at the resume", given: Setup.refused, .deadlinePassed, .closed, [.close]),
    ]

    /// The body kept.
    static let body: [Transition] = [
        Transition("a chunk within the reservation", given: Setup.readingSmall, .bodyChunk(size: 10), .readingBody,
            [.appendChunk]),
        Transition("a gzip chunk was reserved at the head", given: Setup.readingGzip, .bodyChunk(size: 20),
            .readingBody, [.appendChunk]),
        Transition("past the limit: thrown away, the reservation given back", given: Setup.readingHeavy,
            .bodyChunk(size: 1001), .discardingBody(.refused(.contentTooLarge(limit: 1000))),
            [.dropBody, .release(700)]),
        Transition("far past the limit at once: closed", given: Setup.readingHeavy, .bodyChunk(size: 3001), .closed,
            [.dropBody, .release(700), .close]),
        Transition("a body of unknown length outgrows its reservation", given: Setup.readingUnknown,
            .bodyChunk(size: 100), .reserving(.bodyGrowth(chunk: 100, target: 1500, fallback: 600)),
            [.tryReserve(1000, light: false)]),
        Transition("cut while the body arrived", given: Setup.readingHeavy, .deadlinePassed, .closed, [.close]),
        Transition("a light body is answered here", given: Setup.readingSmall + [.bodyChunk(size: 10)],
            .bodyComplete, .computingInline, [.stopDeadline, .computeInline]),
        Transition("an empty body is light", given: Setup.readingUnknown, .bodyComplete, .computingInline,
            [.stopDeadline, .computeInline]),
        Transition("a body at the inline limit goes to the pool",
            given: [Sample.atInlineLimit, .budgetGranted, .bodyChunk(size: 100)], .bodyComplete, .computing,
            [.stopDeadline, .suspend, .compute]),
        Transition("a heavy body goes to the pool", given: Setup.readingHeavy + [.bodyChunk(size: 200)],
            .bodyComplete, .computing, [.stopDeadline, .suspend, .compute]),
        Transition("a gzip body is decoded on its pool, larger first", given: Setup.readingGzip
            + [.bodyChunk(size: 20)], .bodyComplete, .decoding, [.stopDeadline, .suspend, .decode(precedence: 20)]),
    ]

    /// A body of unknown length growing its reservation.
    static let growth: [Transition] = [
        Transition("room for twice the length", given: Setup.growing, .budgetGranted, .readingBody, [.appendChunk]),
        Transition("no room for twice: just enough", given: Setup.growing, .budgetRefused,
            .reserving(.bodyGrowth(chunk: 100, target: 600, fallback: nil)), [.tryReserve(100, light: false)]),
        Transition("room for just enough", given: Setup.growingToFallback, .budgetGranted, .readingBody,
            [.appendChunk]),
        Transition("no room at all: thrown away", given: Setup.growingToFallback, .budgetRefused,
            .discardingBody(.overBudget), [.dropBody, .release(500)]),
    ]

    /// The body thrown away.
    static let discarding: [Transition] = [
        Transition("a chunk thrown away", given: Setup.discardingOverBudget, .bodyChunk(size: 3000),
            .discardingBody(.overBudget), []),
        Transition("sent far past the limit: closed without an answer", given: Setup.discardingOverBudget,
            .bodyChunk(size: 3001), .closed, [.close]),
        Transition("the 503 once the body is in", given: Setup.discardingOverBudget, .bodyComplete, .answered,
            [.stopDeadline, .respond(.overload(.memoryBudgetExhausted(needed: 700, capacity: 10_000)), closing: true)]),
        Transition("the 503 names what the growth needed", given: Setup.growingToFallback + [.budgetRefused],
            .bodyComplete, .answered,
            [.stopDeadline, .respond(.overload(.memoryBudgetExhausted(needed: 600, capacity: 10_000)), closing: true)]),
        Transition("the 413 once the body is in", given: Setup.discardingTooLarge, .bodyComplete, .answered,
            [.stopDeadline, .respond(.refusal(.contentTooLarge(limit: 1000)), closing: true)]),
        Transition("cut while the body was thrown away", given: Setup.discardingOverBudget, .deadlinePassed,
            .closed, [.close]),
    ]

    /// A gzip body decoded, and its work admitted.
    static let decoding: [Transition] = [
        Transition("decoded: the reservation is the decoded body, then its work is asked for",
            given: Setup.decoding, .decoded(.decoded(bytes: 800, capacity: 900)),
            .reserving(.decodedWork(needed: 1300)), [.release(234), .tryReserve(400, light: false)]),
        Transition("decoded within the reservation", given: Setup.decoding,
            .decoded(.decoded(bytes: 10, capacity: 600)), .computing, [.release(534), .release(90), .compute]),
        Transition("undecodable: its refusal, closing", given: Setup.decoding,
            .decoded(.refused(.undecodableContent("bad"))), .computing,
            [.release(1134), .finish(.refusal(.undecodableContent("bad")))]),
        Transition("its decoding outgrew the reservation: 503, closing", given: Setup.decoding,
            .decoded(.overBudget(needed: 5000)), .computing,
            [.release(1134), .finish(.overload(.memoryBudgetExhausted(needed: 5000, capacity: 10_000)))]),
        Transition("the decoding pool would not take it", given: Setup.decoding,
            .workRefused(.computeQueueFull(limit: 4)), .answerReady(closing: false),
            [.release(110), .holdAnswer(.overload(.computeQueueFull(limit: 4))), .resume]),
        Transition("room for the work now", given: Setup.reservingWork, .budgetGranted, .computing, [.compute]),
        Transition("no room for the work now: wait, holding the decoded body", given: Setup.reservingWork,
            .budgetRefused, .awaitingRoomForWork(needed: 1300), [.waitForRoom(400, light: false)]),
        Transition("room for the work came", given: Setup.awaitingRoomForWork, .budgetGranted, .computing,
            [.compute]),
        Transition("no room for the work came: 503, closing", given: Setup.awaitingRoomForWork, .budgetRefused,
            .computing, [.finish(.overload(.memoryBudgetExhausted(needed: 1300, capacity: 10_000)))]),
    ]

    /// Answers computed and sent, and what they hold.
    static let answer: [Transition] = [
        Transition("computed: the reservation becomes the answer's", given: Setup.computing,
            .answerComputed(.whole(bytes: 100)), .answerReady(closing: false), [.forceReserve(424), .resume]),
        Transition("a large answer adds libmicrohttpd's block", given: Setup.computing,
            .answerComputed(.whole(bytes: 70_000)), .answerReady(closing: false),
            [.forceReserve(135_860), .resume]),
        Transition("an answer smaller than the reservation gives the rest back",
            given: [Sample.head(declared: 1000), .budgetGranted, .bodyChunk(size: 1000), .bodyComplete],
            .answerComputed(.whole(bytes: 100)), .answerReady(closing: false), [.release(376), .resume]),
        Transition("a streamed answer keeps the reservation, and its compressor's", given: Setup.computing,
            .answerComputed(.streamed(compressorBytes: 300)), .answerReady(closing: false), [.resume]),
        Transition("the refusal of a body that did not decode closes", given: Setup.computingRefusal,
            .answerComputed(.whole(bytes: 200)), .answerReady(closing: true), [.forceReserve(1224), .resume]),
        Transition("the compute pool would not take it", given: Setup.computing, .workRefused(.shuttingDown),
            .answerReady(closing: false), [.forceReserve(324), .holdAnswer(.overload(.shuttingDown)), .resume]),
        Transition("answered here", given: Setup.computingInline, .answerComputed(.whole(bytes: 10)), .answered,
            [.forceReserve(524), .send(closing: false, handingOver: 0)]),
        Transition("a streamed answer here takes the reservation into its writer", given: Setup.computingInline,
            .answerComputed(.streamed(compressorBytes: 0)), .answered, [.send(closing: false, handingOver: 510)]),
        Transition("resumed with the answer", given: Setup.answerReady, .resumed, .answered,
            [.send(closing: false, handingOver: 0)]),
        Transition("resumed with a streamed answer", given: Setup.answerReadyStreamed, .resumed, .answered,
            [.send(closing: false, handingOver: 1000)]),
        Transition("resumed with a refusal", given: Setup.answerReadyClosing, .resumed, .answered,
            [.send(closing: true, handingOver: 0)]),
    ]

    /// The completion notice gives back what is still held, in any state.
    static let completion: [Transition] = [
        Transition("before the head", given: Setup.awaitingHead, .completed, .completed, []),
        Transition("while asking for the head's room", given: Setup.reservingHead, .completed, .completed, []),
        Transition("while waiting for admission", given: Setup.awaitingAdmission, .completed, .completed, []),
        Transition("admitted, not resumed", given: Setup.admitted, .completed, .completed, [.release(700)]),
        Transition("refused, not resumed", given: Setup.refused, .completed, .completed, []),
        Transition("while reading", given: Setup.readingSmall, .completed, .completed, [.release(510)]),
        Transition("while growing", given: Setup.growing, .completed, .completed, [.release(500)]),
        Transition("while discarding", given: Setup.discardingOverBudget, .completed, .completed, []),
        Transition("while decoding", given: Setup.decoding, .completed, .completed, [.release(1134)]),
        Transition("while asking for the work's room", given: Setup.reservingWork, .completed, .completed,
            [.release(900)]),
        Transition("while waiting for the work's room", given: Setup.awaitingRoomForWork, .completed, .completed,
            [.release(900)]),
        Transition("while computing", given: Setup.computing, .completed, .completed, [.release(700)]),
        Transition("while computing here", given: Setup.computingInline, .completed, .completed, [.release(510)]),
        Transition("with an answer ready", given: Setup.answerReady, .completed, .completed, [.release(1124)]),
        Transition("answered", given: Setup.answered, .completed, .completed, [.release(1034)]),
        Transition("answered by a writer that holds the reservation", given: Setup.answeredStreamed, .completed,
            .completed, []),
        Transition("refused at the head", given: Setup.refusedAtHead, .completed, .completed, []),
        Transition("closed", given: Setup.closed, .completed, .completed, [.release(700)]),
    ]
}

/// A whole request: the budget's free room, and what happens.
struct Journey: Sendable, CustomTestStringConvertible {
    enum Step: Sendable {
        case event(RequestMachine.Event)
        /// The budget decides a request's wait.
        case decideWait(granting: Bool)
        /// Another request gives room back.
        case freeBudget(Int)
        /// The handler's answer is computed (off the connection thread).
        case handlerAnswers
    }

    /// The journey's name in the test's output.
    let name: String
    /// The room the budget has when the request arrives.
    let budgetFree: Int
    /// What happens, in order (the completion notice follows).
    let steps: [Step]
    /// The answers queued, in order ("none": closed without one).
    let answers: [String]
    /// Whether the handler's answer is written while it is sent.
    var streams = false

    var testDescription: String { name }

    /// Every journey.
    static let all: [Journey] = [
        Journey(name: "light request answered here", budgetFree: 10_000,
            steps: [.event(Sample.small), .event(.bodyChunk(size: 10)), .event(.bodyComplete)],
            answers: ["handler"]),
        Journey(name: "heavy request computed on the pool", budgetFree: 10_000,
            steps: [.event(Sample.heavy), .event(.bodyChunk(size: 150)), .event(.bodyChunk(size: 50)),
                .event(.bodyComplete), .handlerAnswers, .event(.resumed)],
            answers: ["handler"]),
        Journey(name: "admitted after waiting", budgetFree: 0,
            steps: [.event(Sample.heavy), .freeBudget(700), .decideWait(granting: true), .event(.resumed),
                .event(.bodyChunk(size: 200)), .event(.bodyComplete), .handlerAnswers, .event(.resumed)],
            answers: ["handler"]),
        Journey(name: "refused after waiting: the body thrown away, then 503", budgetFree: 0,
            steps: [.event(Sample.heavy), .decideWait(granting: false), .event(.resumed),
                .event(.bodyChunk(size: 200)), .event(.bodyComplete)],
            answers: ["503 memoryBudgetExhausted(needed: 700, capacity: 10000) closing"]),
        Journey(name: "refused after waiting, its body stalls: cut", budgetFree: 0,
            steps: [.event(Sample.heavy), .decideWait(granting: false), .event(.resumed),
                .event(.bodyChunk(size: 50)), .event(.deadlinePassed)],
            answers: ["none"]),
        Journey(name: "early 413", budgetFree: 10_000, steps: [.event(Sample.head(declared: 1001))],
            answers: ["413 closing"]),
        Journey(name: "unknown length grows, then passes the limit", budgetFree: 10_000,
            steps: [.event(Sample.unknownLength), .event(.bodyChunk(size: 600)), .event(.bodyChunk(size: 600)),
                .event(.bodyComplete)],
            answers: ["413 closing"]),
        Journey(name: "unknown length grows past the budget", budgetFree: 1200,
            steps: [.event(Sample.unknownLength), .event(.bodyChunk(size: 400)), .event(.bodyChunk(size: 400)),
                .event(.bodyComplete)],
            answers: ["503 memoryBudgetExhausted(needed: 1300, capacity: 10000) closing"]),
        Journey(name: "flooded past the limit", budgetFree: 10_000,
            steps: [.event(Sample.heavy), .event(.bodyChunk(size: 1001)), .event(.bodyChunk(size: 3000))],
            answers: ["none"]),
        Journey(name: "gzip decoded and computed", budgetFree: 10_000,
            steps: [.event(Sample.gzip), .event(.bodyChunk(size: 20)), .event(.bodyComplete),
                .event(.decoded(.decoded(bytes: 800, capacity: 900))), .handlerAnswers, .event(.resumed)],
            answers: ["handler"]),
        Journey(name: "gzip decoded, its work waits and is refused", budgetFree: 1200,
            steps: [.event(Sample.gzip), .event(.bodyChunk(size: 20)), .event(.bodyComplete),
                .event(.decoded(.decoded(bytes: 800, capacity: 900))), .decideWait(granting: false),
                .event(.resumed)],
            answers: ["503 memoryBudgetExhausted(needed: 1300, capacity: 10000) closing"]),
        Journey(name: "gzip that does not decode", budgetFree: 10_000,
            steps: [.event(Sample.gzip), .event(.bodyChunk(size: 20)), .event(.bodyComplete),
                .event(.decoded(.refused(.undecodableContent("bad")))), .event(.resumed)],
            answers: ["400 closing"]),
        Journey(name: "the pool is full", budgetFree: 10_000,
            steps: [.event(Sample.heavy), .event(.bodyChunk(size: 200)), .event(.bodyComplete),
                .event(.workRefused(.computeQueueFull(limit: 4))), .event(.resumed)],
            answers: ["503 computeQueueFull(limit: 4)"]),
        Journey(name: "a streamed answer's reservation goes with its writer", budgetFree: 10_000,
            steps: [.event(Sample.small), .event(.bodyChunk(size: 10)), .event(.bodyComplete)],
            answers: ["handler streamed"], streams: true),
        Journey(name: "a streamed answer from the pool", budgetFree: 10_000,
            steps: [.event(Sample.heavy), .event(.bodyChunk(size: 200)), .event(.bodyComplete), .handlerAnswers,
                .event(.resumed)],
            answers: ["handler streamed"], streams: true),
    ]
}

/// The machine's surroundings, simulated: a budget that admits what fits, the deadline, the connection's
/// suspension, the answers queued; the handler's answer is 300 bytes (streamed when the journey says so).
struct World {
    /// The request.
    var machine = RequestMachine(limits: Sample.limits)
    /// The budget's room not reserved, and what this request holds of it (with its writer's).
    var budgetFree: Int
    var budgetReserved = 0
    /// Whether memory already in use was added past the room (``RequestMachine/Action/forceReserve(_:)``).
    var forced = false
    /// Whether the request deadline runs (it does from the connection's start).
    var deadlineRunning = true
    /// Whether the connection is suspended.
    var suspended = false
    /// Whether the connection was closed without an answer.
    var closedWithoutAnswer = false
    /// The answers queued, in order.
    var answers: [String] = []
    /// The bytes the request waits for in the budget, until the wait is decided.
    var waiting: Int?
    /// Whether the handler's answers are written while they are sent.
    var streamsAnswers = false
    /// The reservation a writer holds until it has written the answer (then gives it back).
    var writerHolds = 0

    /// A connection whose request line has just arrived, with `budgetFree` bytes of room in the budget.
    init(budgetFree: Int) {
        self.budgetFree = budgetFree
    }

    /// Tells the machine `event` and carries out its actions (a budget question is answered at once).
    mutating func tell(_ event: RequestMachine.Event) {
        run(machine.handle(event))
        if case .completed = event {
            budgetReserved -= writerHolds
            writerHolds = 0
        }
    }

    /// The budget decides the request's wait.
    mutating func decideWait(granting: Bool) {
        guard let bytes = waiting else {
            Issue.record("no wait to decide")
            return
        }
        waiting = nil
        if granting {
            budgetReserved += bytes
            budgetFree -= bytes
        }
        tell(granting ? .budgetGranted : .budgetRefused)
    }

    private mutating func run(_ actions: [RequestMachine.Action]) {
        for action in actions {
            switch action {
            case .close:
                closedWithoutAnswer = true
                deadlineRunning = false  // (the connection closes; the janitor stopped a deadline it cut)
                answers.append("none")
            case .restartDeadline: deadlineRunning = true
            case .stopDeadline: deadlineRunning = false
            case .reserveBodyCapacity, .appendChunk, .dropBody: break
            case .tryReserve(let bytes, _):
                if bytes <= budgetFree {
                    budgetFree -= bytes
                    budgetReserved += bytes
                    tell(.budgetGranted)
                } else {
                    tell(.budgetRefused)
                }
            case .waitForRoom(let bytes, _): waiting = bytes
            case .release(let bytes):
                budgetReserved -= bytes
                budgetFree += bytes
            case .forceReserve(let bytes):
                budgetReserved += bytes
                budgetFree -= bytes
                forced = true
            case .suspend:
                #expect(!suspended)
                suspended = true
            case .resume:
                #expect(suspended)
                suspended = false
            case .decode, .compute:
                #expect(suspended)
            case .computeInline:
                tell(.answerComputed(handlerAnswer))
            case .respond(let answer, let closing): answers.append(Self.describe(answer, closing: closing))
            case .finish(let answer):
                pendingAnswer = Self.describe(answer, closing: true)
                tell(.answerComputed(.whole(bytes: 300)))
            case .holdAnswer(let answer): pendingAnswer = Self.describe(answer, closing: false)
            case .send(_, let handingOver):
                writerHolds += handingOver
                answers.append(pendingAnswer ?? (streamsAnswers ? "handler streamed" : "handler"))
                pendingAnswer = nil
            }
        }
    }

    /// The answer built for the connection thread, until it is sent.
    var pendingAnswer: String?

    /// The size of the handler's answer.
    var handlerAnswer: RequestMachine.AnswerSize {
        streamsAnswers ? .streamed(compressorBytes: 0) : .whole(bytes: 300)
    }

    /// An answer as the journeys name it.
    static func describe(_ answer: RequestMachine.Answer, closing: Bool) -> String {
        let text: String = switch answer {
        case .refusal(let refusal): "\(refusal.status)"
        case .overload(let reason): "503 \(reason)"
        }
        return closing ? text + " closing" : text
    }
}
