/// One request's way through the server, from its head to libmicrohttpd's completion notice, as a value that
/// turns events into actions: what to answer, when to suspend and resume the connection, when the request
/// deadline runs, and every byte the request reserves in the memory budget and gives back.
///
/// It reads no clock, touches no socket and calls no C: the C callbacks (`MHDCallbacks.swift`) tell it what
/// libmicrohttpd, the budget and the pools report (``Event``) and carry out what it asks (``Action``).
///
/// The request's way:
/// 1. **Head** (``State/awaitingHead``): a framing refusal, a declared body over the limit, or an unsupported
///    content coding is answered at once and the connection closed, whatever the method. Otherwise the request
///    asks the budget for its peak (a gzip body: itself and what its decoding can hold).
/// 2. **Admission** (``State/reserving(_:)``, ``State/awaitingAdmission(needed:light:admitted:)``): no room now
///    stops the deadline and suspends the connection until the budget decides; once resumed, the deadline
///    runs again, for a body kept or thrown away (a refused request reads its body before its 503).
/// 3. **Body** (``State/readingBody``, ``State/discardingBody(_:)``): chunks are kept (a body of unknown length
///    growing its reservation) or thrown away past the limit or the budget, and the connection is closed when
///    a client sends far past the limit. A complete body stops the deadline.
/// 4. **Answer**: a thrown-away body is answered its refusal or 503; a light body here
///    (``State/computingInline``); a heavy one, or a decoded gzip body, on a pool with the connection suspended
///    (``State/decoding``, ``State/computing``) and sent once resumed (``State/answerReady(closing:)``).
///    Once the answer exists the reservation is what the answer holds until it is sent.
/// 5. **Completion** (``State/completed``): whatever is still reserved goes back.
///
/// An event the state does not expect changes nothing and asks for nothing.
struct RequestMachine: Sendable {
    /// The server's settings the machine decides with.
    struct Limits: Sendable, Hashable {
        /// The largest body accepted (a gzip body's decoded bytes too).
        var maxBodyBytes: Int
        /// Bodies under this size are answered on the connection thread; others on the compute pool.
        var inlineBodyLimit: Int
        /// Spare capacity reserved after a body of known length.
        var reservedTrailingCapacity: Int
        /// Bytes thrown away past ``maxBodyBytes`` before the connection is closed without an answer.
        var overflowDrainLimit: Int
        /// The memory budget's capacity (for the 503's text).
        var budgetCapacity: Int
        /// The memory of a gzip decoder.
        var decoderBytes: Int = ContentCoding.decoderBytes

        /// The most the decoding of a gzip body of `compressedBytes` can hold beside the body itself: its decoder,
        /// and its decoded bytes (with the reader's trailing ones), which deflate's largest ratio
        /// (``ContentCoding/largestInflation``) and the body limit bound.
        func decodingBytes(compressedBytes: Int) -> Int {
            let (bound, overflow) = compressedBytes.multipliedReportingOverflow(by: ContentCoding.largestInflation)
            let decoded = min(maxBodyBytes, overflow ? maxBodyBytes : bound)
            return decoded + reservedTrailingCapacity + decoderBytes
        }
    }

    /// Where the request is.
    enum State: Sendable, Hashable {
        /// Request line seen; the head is not complete.
        case awaitingHead
        /// The budget was asked for room now (``Action/tryReserve(_:light:)``); its answer is the next event.
        case reserving(Reservation)
        /// Suspended until the budget admits or refuses the request's `needed` bytes; `admitted` is its decision
        /// (`nil` until told), acted on once libmicrohttpd resumes the connection.
        case awaitingAdmission(needed: Int, light: Bool, admitted: Bool?)
        /// Head accepted; body chunks are kept.
        case readingBody
        /// The body is thrown away; its answer is the refusal.
        case discardingBody(DiscardReason)
        /// Suspended while the gzip body is decoded on the decoding pool.
        case decoding
        /// Suspended while the decoded body waits for the room its work needs.
        case awaitingRoomForWork(needed: Int)
        /// Suspended while the answer is computed off the connection thread.
        case computing
        /// The handler runs on the connection thread.
        case computingInline
        /// The answer is held; it is sent when libmicrohttpd calls again (the connection closes after it when
        /// `closing`).
        case answerReady(closing: Bool)
        /// The answer is queued.
        case answered
        /// The connection closes without an answer from the handler (cut at its deadline, or flooded past the
        /// limit).
        case closed
        /// The completion notice came; nothing follows.
        case completed
    }

    /// What a ``State/reserving(_:)`` request asked the budget for.
    enum Reservation: Sendable, Hashable {
        /// The head's reservation (`bytes`; `light` requests may use the budget's light reserve).
        case head(bytes: Int, light: Bool)
        /// A body of unknown length grew by `chunk` bytes past its reservation: the reservation is to become
        /// `target`, or `fallback` (just enough) when that does not fit.
        case bodyGrowth(chunk: Int, target: Int, fallback: Int?)
        /// A decoded body's work: the reservation is to become `needed`.
        case decodedWork(needed: Int)
    }

    /// Why a body is thrown away.
    enum DiscardReason: Sendable, Hashable {
        /// The memory budget had no room for the body: a 503.
        case overBudget
        /// The body cannot be taken (too large): the answer is the refusal.
        case refused(HTTPServer.Refusal)
    }

    /// Answers of at least this many bytes are streamed from the Swift array (no copy); smaller ones are copied.
    static let streamedAnswerBytes = 64 * 1024
    /// The block libmicrohttpd reads a streamed answer in.
    static let streamedBlockBytes = 64 * 1024
    /// libmicrohttpd's response object and headers (a streamed answer adds its block buffer, a copied one its copy).
    static let responseObjectBytes = 1024

    /// The server's settings.
    let limits: Limits
    /// Where the request is.
    private(set) var state = State.awaitingHead
    /// Bytes the request holds in the memory budget.
    private(set) var reserved = 0
    /// Bytes of body kept so far (a gzip body's as sent, then decoded).
    private(set) var bodyBytes = 0
    /// Bytes thrown away while ``State/discardingBody(_:)``.
    private(set) var discardedBytes = 0
    /// The bytes the request needed when the budget refused it (for the 503).
    private(set) var refusedBytes = 0
    /// Whether the body is sent with `Content-Encoding: gzip`.
    private(set) var gzipBody = false
    /// Whether the connection closes after the answer a ``Action/finish(_:)`` asked for.
    private var closesAfterAnswer = false
    /// Whether the answer computed is written while it is sent.
    private var answerStreamed = false
    /// The request's peak memory for a body size, from its head.
    private var estimate: @Sendable (Int) -> Int = { $0 }

    /// A request whose line has just been seen.
    init(limits: Limits) {
        self.limits = limits
    }

    /// Moves the request on by `event`.
    /// - Returns: What the caller must do, in order.
    /// - Complexity: O(1).
    mutating func handle(_ event: Event) -> [Action] {
        // (By event, then by state: a switch over the pair would copy both into a tuple, and destroy it, at each
        // event.)
        switch event {
        case .headReceived(let head):
            guard case .awaitingHead = state else { return [] }
            return readHead(head)

        case .budgetGranted:
            switch state {
            case .reserving(let reservation):
                return granted(reservation)
            case .awaitingAdmission(let needed, let light, nil):
                reserved = needed
                state = .awaitingAdmission(needed: needed, light: light, admitted: true)
                return [.resume]
            case .awaitingRoomForWork(let needed):
                reserved = needed
                state = .computing
                return [.compute]
            default:
                return []
            }
        case .budgetRefused:
            switch state {
            case .reserving(let reservation):
                return refused(reservation)
            case .awaitingAdmission(let needed, let light, nil):
                state = .awaitingAdmission(needed: needed, light: light, admitted: false)
                return [.resume]
            case .awaitingRoomForWork(let needed):
                state = .computing
                closesAfterAnswer = true
                return [.finish(overBudget(needed: needed))]
            default:
                return []
            }

        case .resumed:
            switch state {
            case .awaitingAdmission(_, _, true):
                state = .readingBody
                return [.restartDeadline]
            case .awaitingAdmission(_, _, false):
                // The body is read and thrown away before the 503, so that the client, still sending, receives
                // the answer (closing on unread bytes would reset the connection and lose it); it too must
                // arrive within the request timeout.
                state = .discardingBody(.overBudget)
                return [.restartDeadline, .dropBody]
            case .answerReady(let closing):
                state = .answered
                return [send(closing: closing)]
            default:
                return []
            }

        case .bodyChunk(let size):
            switch state {
            case .readingBody:
                return receive(size)
            case .discardingBody:
                discardedBytes += size
                return closingIfFlooded().map { [$0] } ?? []
            default:
                return []
            }
        case .bodyComplete:
            switch state {
            case .readingBody:
                return bodyComplete()
            case .discardingBody(let reason):
                state = .answered
                switch reason {
                case .refused(let refusal):
                    return [.stopDeadline, .respond(.refusal(refusal), closing: true)]
                case .overBudget:
                    return [.stopDeadline, .respond(overBudget(needed: refusedBytes), closing: true)]
                }
            default:
                return []
            }

        case .deadlinePassed:
            switch state {
            case .awaitingHead, .awaitingAdmission(_, _, .some), .readingBody, .discardingBody:
                state = .closed
                return [.close]
            default:
                return []
            }

        case .decoded(let decoding):
            guard case .decoding = state else { return [] }
            return decoded(decoding)

        case .answerComputed(let size):
            switch state {
            case .computing:
                state = .answerReady(closing: closesAfterAnswer)
                return Self.sequence(settle(size), .resume)
            case .computingInline:
                state = .answered
                let settled = settle(size)
                return Self.sequence(settled, send(closing: false))
            default:
                return []
            }
        case .workRefused(let reason):
            switch state {
            case .decoding, .computing:
                state = .answerReady(closing: false)
                return [settle(.whole(bytes: 0)), .holdAnswer(.overload(reason)), .resume].compactMap { $0 }
            default:
                return []
            }

        case .completed:
            return complete().map { [.release($0)] } ?? []
        }
    }

    /// ``Event/completed``: the bytes to give back to the budget (``Action/release(_:)``), if any. (The
    /// completion callback's way, without an array.)
    mutating func complete() -> Int? {
        if case .completed = state { return nil }
        state = .completed
        guard case .release(let bytes) = giveBack(to: 0) else { return nil }
        return bytes
    }

    // MARK: Head and admission

    /// The head's refusals, then its reservation.
    private mutating func readHead(_ head: Head) -> [Action] {
        estimate = head.estimate
        // Framing first: nothing of a body whose length is in doubt is read.
        if let refusal = head.framingRefusal { return refuse(refusal) }
        let declared = head.declaredLength
        if let declared, declared > limits.maxBodyBytes { return refuse(.contentTooLarge(limit: limits.maxBodyBytes)) }
        // A gzip body is decoded once whole (the limit and the budget then count decoded bytes); any other
        // content coding is refused before its body is read.
        if (declared ?? 0) > 0 {
            switch head.coding {
            case .identity: break
            case .gzip: gzipBody = true
            case .unsupported(let value): return refuse(.unsupportedContentCoding(value))
            }
        }
        let body = declared ?? 0
        // A gzip body: itself and what its decoding can hold now, its work once its decoded size is known.
        let needed = gzipBody ? body + limits.decodingBytes(compressedBytes: body) : estimate(body)
        // Light: a body known to stay under the inline limit (probes, metrics, small diffs), which may use the
        // budget's light reserve. A gzip body's decoded size is not known.
        let light = body < limits.inlineBodyLimit && !head.chunked && !gzipBody
        state = .reserving(.head(bytes: needed, light: light))
        let reservation = Action.tryReserve(needed, light: light)
        guard let declared else { return [reservation] }
        return [.reserveBodyCapacity(declared + (gzipBody ? 0 : limits.reservedTrailingCapacity)), reservation]
    }

    /// Answers the head at once, without reading the body, and closes the connection after the answer.
    private mutating func refuse(_ refusal: HTTPServer.Refusal) -> [Action] {
        state = .answered
        return [.stopDeadline, .respond(.refusal(refusal), closing: true)]
    }

    /// The budget reserved what the request asked for now.
    private mutating func granted(_ reservation: Reservation) -> [Action] {
        switch reservation {
        case .head(let bytes, _):
            reserved = bytes
            state = .readingBody
            return []
        case .bodyGrowth(let chunk, let target, _):
            reserved = target
            state = .readingBody
            bodyBytes += chunk
            return [.appendChunk]
        case .decodedWork(let needed):
            reserved = needed
            state = .computing
            return [.compute]
        }
    }

    /// The budget had no room now for what the request asked for.
    private mutating func refused(_ reservation: Reservation) -> [Action] {
        switch reservation {
        case .head(let bytes, let light):
            // Wait for room with the connection suspended; the deadline stops (the admission timeout bounds
            // the wait) and starts again for the body.
            refusedBytes = bytes
            state = .awaitingAdmission(needed: bytes, light: light, admitted: nil)
            return [.stopDeadline, .suspend, .waitForRoom(bytes, light: light)]
        case .bodyGrowth(let chunk, _, let fallback?):
            state = .reserving(.bodyGrowth(chunk: chunk, target: fallback, fallback: nil))
            return [.tryReserve(fallback - reserved, light: false)]
        case .bodyGrowth(let chunk, let target, nil):
            refusedBytes = target
            return discard(.overBudget, chunk: chunk)
        case .decodedWork(let needed):
            refusedBytes = needed
            state = .awaitingRoomForWork(needed: needed)
            return [.waitForRoom(needed - reserved, light: false)]
        }
    }

    // MARK: Body

    /// A chunk while the body is kept: kept (growing the reservation of a body of unknown length: twice the
    /// length at once, so a growing body asks O(log n) times, or just enough), or the body thrown away past the
    /// limit.
    private mutating func receive(_ size: Int) -> [Action] {
        let length = bodyBytes + size
        guard length <= limits.maxBodyBytes else {
            return discard(.refused(.contentTooLarge(limit: limits.maxBodyBytes)), chunk: size)
        }
        // (A gzip body's bytes, at most its Content-Length, were reserved with it at the head.)
        let needed = gzipBody ? nil : estimate(length)
        guard let needed, needed > reserved else {
            bodyBytes = length
            return [.appendChunk]
        }
        let ample = estimate(min(limits.maxBodyBytes, max(2 * length, 64 * 1024)))
        state = .reserving(.bodyGrowth(chunk: size, target: ample, fallback: needed))
        return [.tryReserve(ample - reserved, light: false)]
    }

    /// Throws the body away from now on, with the chunk that did not fit; its reservation goes back (the
    /// refusal is a few hundred bytes).
    private mutating func discard(_ reason: DiscardReason, chunk: Int) -> [Action] {
        state = .discardingBody(reason)
        discardedBytes = bodyBytes + chunk
        bodyBytes = 0
        let givenBack = giveBack(to: 0)
        return [.dropBody, givenBack, closingIfFlooded()].compactMap { $0 }
    }

    /// Closes the connection without an answer once a client sends far past the limit.
    private mutating func closingIfFlooded() -> Action? {
        guard discardedBytes - limits.maxBodyBytes > limits.overflowDrainLimit else { return nil }
        state = .closed
        return .close
    }

    /// The whole body is kept: the deadline stops; a gzip body is decoded, a light one answered here, a heavy
    /// one computed on the pool.
    private mutating func bodyComplete() -> [Action] {
        if gzipBody {
            // The larger body as sent first: its decoding costs the least per byte the client sent (a bomb, a
            // few kilobytes that decode to the limit, the most), so a flood of bombs does not hold up bodies sent
            // in full.
            state = .decoding
            return [.stopDeadline, .suspend, .decode(precedence: bodyBytes)]
        }
        if bodyBytes < limits.inlineBodyLimit {
            state = .computingInline
            return [.stopDeadline, .computeInline]
        }
        state = .computing
        return [.stopDeadline, .suspend, .compute]
    }

    /// A gzip body's decoding ended: the reservation is what the decoded body holds (the body as sent and the
    /// decoder are gone); then what its work needs, asked for now or waited for (holding only its decoded
    /// bytes). A body that did not decode is answered its refusal or 503, and the connection closed.
    private mutating func decoded(_ decoding: Decoding) -> [Action] {
        state = .computing
        switch decoding {
        case .refused(let refusal):
            closesAfterAnswer = true
            return Self.sequence(giveBack(to: 0), .finish(.refusal(refusal)))
        case .overBudget(let needed):
            refusedBytes = needed
            closesAfterAnswer = true
            return Self.sequence(giveBack(to: 0), .finish(overBudget(needed: needed)))
        case .decoded(let bytes, let capacity):
            bodyBytes = bytes
            let givenBack = giveBack(to: min(reserved, capacity))
            let needed = estimate(bytes)
            if needed <= reserved { return [givenBack, giveBack(to: needed), .compute].compactMap { $0 } }
            state = .reserving(.decodedWork(needed: needed))
            return Self.sequence(givenBack, .tryReserve(needed - reserved, light: false))
        }
    }

    // MARK: Answer

    /// Sets the reservation to what the answer holds until it has been sent. An answer written while it is sent
    /// keeps the whole reservation (which covers what its writer holds), and its compressor's.
    private mutating func settle(_ size: AnswerSize) -> Action? {
        switch size {
        case .streamed(let compressorBytes):
            answerStreamed = true
            reserved += compressorBytes
            return nil
        case .whole(let bytes):
            answerStreamed = false
            let holding = bytes + (bytes >= Self.streamedAnswerBytes ? Self.streamedBlockBytes : 0)
                + Self.responseObjectBytes
            if holding > reserved {
                defer { reserved = holding }
                return .forceReserve(holding - reserved)  // the memory is in use already: account for it
            }
            return giveBack(to: holding)
        }
    }

    /// Sends the answer held; one written while it is sent takes the reservation into its writer.
    private mutating func send(closing: Bool) -> Action {
        guard answerStreamed else { return .send(closing: closing, handingOver: 0) }
        defer { reserved = 0 }
        return .send(closing: closing, handingOver: reserved)
    }

    /// Gives back what the reservation holds over `bytes`.
    private mutating func giveBack(to bytes: Int) -> Action? {
        guard reserved > bytes else { return nil }
        defer { reserved = bytes }
        return .release(reserved - bytes)
    }

    /// `first`, when there is one, then `then`: the actions of a step that may have nothing to do before one
    /// that always does (one array, not the concatenation of two).
    private static func sequence(_ first: Action?, _ then: Action) -> [Action] {
        guard let first else { return [then] }
        return [first, then]
    }

    /// The 503 of a request the budget has no room for.
    private func overBudget(needed: Int) -> Answer {
        .overload(.memoryBudgetExhausted(needed: needed, capacity: limits.budgetCapacity))
    }
}
