// The C callbacks libmicrohttpd calls on its connection threads. They are global functions (never
// closures written in main.swift, which Swift 6 would infer as @MainActor) and they copy every
// borrowed C buffer before returning.
//
// Per-connection: the connection-notify callback creates a ConnectionState (the request deadline) at the
// connection's start and hands the socket to the janitor for a lingering close at its end.
//
// Per-request protocol (libmicrohttpd 0.9.75, MHD_ALLOW_SUSPEND_RESUME):
//   1. URI-log callback: request line parsed → allocate RequestState, becomes the request's con_cls.
//   2. Access handler, first call (upload_data NULL): head complete → copy method, headers, address and
//      check the framing (RequestHead: 400, 411 or 501 and close); answer 413 at once if Content-Length is
//      over the limit, 415 if the body's Content-Encoding is not gzip or identity; reserve the request's memory
//      in the budget (a gzip body's: itself and what its decoding can hold), or suspend the
//      connection until the budget decides (libmicrohttpd then repeats the first call, and the body is read,
//      or discarded and answered 503).
//   3. Access handler with size > 0: body chunk → append (a gzip body as sent), or discard past the limit;
//      consume it.
//   4. Access handler with size 0 after the head: body complete → a gzip body suspends the connection and is
//      decoded on the decoding pool (MHDCallbacks+ContentCoding.swift; its threads run below the compute
//      threads, so a bomb flood takes only the cores the requests' work leaves), then its work is reserved
//      (waiting for room as a head does) and computed on the compute pool. Any other: a light request (body
//      under inlineBodyLimit) is answered here; a heavy one suspends the connection and goes to the compute
//      pool, which resumes the connection with the answer (libmicrohttpd then repeats the last call, which
//      queues it). Either way the answer is gzipped if the request prefers it.
//   5. Completion callback (always, also on client abort or daemon stop): give back the request's budget,
//      release RequestState.

internal import CMicroHTTPD
internal import Gzip
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `struct MHD_Connection *` handed to another thread while its connection is suspended.
///
/// `@unchecked Sendable`: the other thread only calls `MHD_resume_connection` on it, once, which libmicrohttpd
/// allows from any thread; the connection cannot be freed while suspended, and the server resumes every
/// suspended connection (waiting for the compute threads) before it stops the daemon.
private struct SuspendedConnection: @unchecked Sendable {
    let pointer: OpaquePointer

    func resume() { MHD_resume_connection(pointer) }
}

/// A request on its way to a compute thread; the thread takes it out, so that its body is freed as soon as the
/// handler has read it.
///
/// `@unchecked Sendable`: created on the connection thread, then used only by the one compute thread that
/// runs the job (the pool's queue lock orders the two).
private final class PendingRequest: @unchecked Sendable {
    private var request: HTTPRequest?

    init(_ request: HTTPRequest) { self.request = request }

    func take() -> HTTPRequest {
        defer { request = nil }
        return request!
    }
}

/// `MHD_OPTION_NOTIFY_CONNECTION`: a connection starts (its state and deadline begin) or is about to be closed
/// (the janitor takes a duplicate of its socket to close it gracefully).
func microHTTPNotifyConnection(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ event: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection, let socketContext else { return }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    switch event {
    case .CONNECTION_NOTIFY_STARTED:
        let state = ConnectionState(
            connection: connection, socket: CMicroHTTPD_connection_fd(connection),
            deadline: ContinuousClock.now.advanced(by: context.requestTimeout))
        socketContext.pointee = Unmanaged.passRetained(state).toOpaque()
        context.janitor.register(state)
    case .CONNECTION_NOTIFY_CLOSED:
        guard let raw = socketContext.pointee else { return }
        socketContext.pointee = nil
        let state = Unmanaged<ConnectionState>.fromOpaque(raw).takeRetainedValue()
        context.janitor.closing(state)
    default:
        break
    }
}

/// The state of a connection, from its socket context.
private func connectionState(of connection: OpaquePointer?) -> ConnectionState? {
    guard let connection, let raw = CMicroHTTPD_socket_context(connection) else { return nil }
    return Unmanaged<ConnectionState>.fromOpaque(raw).takeUnretainedValue()
}

/// `MHD_OPTION_URI_LOG_CALLBACK`: creates the per-request state and returns it retained.
func microHTTPURILog(
    _ cls: UnsafeMutableRawPointer?,
    _ uri: UnsafePointer<CChar>?,
    _ connection: OpaquePointer?
) -> UnsafeMutableRawPointer? {
    guard let cls else { return nil }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let state = RequestState(target: uri.map { String(cString: $0) } ?? "/")
    if let uri {
        let start = UInt(bitPattern: uri)
        state.targetSpan = start..<start + UInt(strlen(uri))
        if context.scansRawHeads { state.rawHead = RequestHead.scanRaw(target: uri) }
    }
    state.connection = connectionState(of: connection)
    state.connection?.guarded.withLock { guarded in
        guarded.awaitingHead = true
        guarded.betweenRequests = false
        guarded.path = String(state.path)
        // Known for sure once the head is complete; until then, enough to give a 408 to a HEAD no body.
        guarded.method = uri.map { RequestHead.isHead(target: $0) ? "HEAD" : "" } ?? ""
    }
    context.inFlightRequests.add(1, ordering: .relaxed)
    return Unmanaged.passRetained(state).toOpaque()
}

/// `MHD_OPTION_NOTIFY_COMPLETED`: gives back the request's memory budget and releases its state, exactly once.
func microHTTPRequestCompleted(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ termination: MHD_RequestTerminationCode
) {
    guard let cls, let requestContext, let raw = requestContext.pointee else { return }
    requestContext.pointee = nil
    let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    if state.reserved > 0 {
        context.budget.release(state.reserved)
        state.reserved = 0
    }
    // The next request's deadline runs from now.
    state.connection?.guarded.withLock { guarded in
        guarded.awaitingHead = false
        guarded.method = ""
        guarded.path = ""
        guarded.headers = HTTPHeaders()
        if !guarded.cut {
            guarded.deadline = ContinuousClock.now.advanced(by: context.requestTimeout)
            guarded.betweenRequests = true
        }
    }
    context.inFlightRequests.subtract(1, ordering: .relaxed)
}

/// The access handler (`MHD_AccessHandlerCallback`).
func microHTTPAccessHandler(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?,
    _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let uploadDataSize, let requestContext else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()

    let state: RequestState
    if let raw = requestContext.pointee {
        state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    } else {
        // Defensive: the URI-log callback always runs first, but never rely on it for memory safety.
        state = RequestState(target: url.map { String(cString: $0) } ?? "/")
        context.inFlightRequests.add(1, ordering: .relaxed)
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
    }

    switch state.phase {
    case .awaitingHead:
        return readHead(of: state, method: method, version: version, connection: connection, context: context)

    case .awaitingAdmission:
        // Resumed: the budget has decided (libmicrohttpd repeats the first call). A refused request's body is
        // read and thrown away before the 503, so that the client, still sending, receives the answer (closing
        // on unread bytes would reset the connection and lose it).
        if state.admitted {
            state.phase = .readingBody
        } else {
            state.body = []
            state.phase = .discardingBody
            state.discardReason = .overBudget
        }
        // The body, kept or thrown away, must now arrive within the request timeout.
        let receiving = state.connection?.guarded.withLock { guarded in
            guard !guarded.cut else { return false }
            guarded.deadline = ContinuousClock.now.advanced(by: context.requestTimeout)
            return true
        }
        return receiving == false ? .NO : .YES

    case .readingBody, .discardingBody:
        // Cut at its deadline (the janitor answered 408): close.
        if state.connection?.guarded.withLock({ $0.cut }) == true { return .NO }
        let size = uploadDataSize.pointee
        if size > 0 {
            uploadDataSize.pointee = 0
            return consumeChunk(uploadData, size: size, into: state, context: context)
        }
        return answer(state, on: connection, context: context)

    case .computing:
        // Not called while suspended; swallow anything else.
        uploadDataSize.pointee = 0
        return .YES

    case .answerReady:
        // Resumed by the compute thread (libmicrohttpd repeats the last call).
        state.phase = .answered
        let response = state.answer ?? context.overloadResponse(.shuttingDown, to: state)
        state.answer = nil
        return send(response, for: state, on: connection, context: context)

    case .answered:
        // libmicrohttpd stops calling once a response is queued; swallow anything else.
        uploadDataSize.pointee = 0
        return .YES
    }
}

/// First access-handler call: copies the head out of C, checks its framing, decides whether the body is
/// acceptable, and reserves the request's memory (or suspends the connection until the budget decides).
private func readHead(
    of state: RequestState,
    method: UnsafePointer<CChar>?,
    version: UnsafePointer<CChar>?,
    connection: OpaquePointer,
    context: ServerContext
) -> MHD_Result {
    state.method = method.map { String(cString: $0) } ?? ""
    let head = RequestHead.read(
        connection, method: method, version: version, target: state.target, targetSpan: state.targetSpan,
        rawHead: state.rawHead)
    state.headers = head.headers
    // A large answer before this request shortened the connection's timeout; the idle timeout is back.
    if let info = CMicroHTTPD_get_connection_info(connection, .CONNECTION_INFO_CONNECTION_TIMEOUT),
       info.pointee.connection_timeout != context.connectionTimeoutSeconds {
        _ = CMicroHTTPD_set_connection_timeout(connection, context.connectionTimeoutSeconds)
    }
    let stillReceiving = state.connection?.guarded.withLock { guarded in
        guarded.awaitingHead = false
        guarded.method = state.method
        guarded.headers = state.headers
        return !guarded.cut
    }
    if stillReceiving == false { return .NO }  // cut at its deadline while the head arrived

    // Framing first: nothing of a body whose length is in doubt is read.
    if let refusal = head.violation.map(HTTPServer.Refusal.malformed) ?? head.transferCodingRefusal() {
        return refuse(state, refusal, on: connection, context: context)
    }

    let declared = head.contentLength.flatMap { Int($0) }
    if let declared, declared > context.maxBodyBytes {
        return refuse(state, .contentTooLarge(limit: context.maxBodyBytes), on: connection, context: context)
    }
    // A gzip body is decoded as it arrives (the limit and the budget then count decoded bytes); any other
    // content coding is refused before its body is read.
    if (declared ?? 0) > 0 {
        switch ContentCoding.ofRequestBody(state.headers) {
        case .success(.identity): break
        case .success(.gzip):
            state.gzipBody = true
        case .failure(let unsupported):
            return refuse(state, .unsupportedContentCoding(unsupported.value), on: connection, context: context)
        }
    }

    if let declared { state.body.reserveCapacity(declared + (state.gzipBody ? 0 : context.reservedTrailingCapacity)) }
    // A gzip body: itself and what its decoding can hold now, its work once its decoded size is known
    // (decodeOnPool).
    let needed = state.gzipBody
        ? (declared ?? 0) + context.decodingBytes(compressedBytes: declared ?? 0)
        : context.estimate(state, bodyBytes: declared ?? 0)
    // Light: a body known to stay under the inline limit (probes, metrics, small diffs). It may use the
    // budget's light reserve, so that a budget full of large requests still answers probes at once. A gzip
    // body's decoded size is not known.
    let chunked = head.transferEncodingFields > 0  // (its length unknown at the head)
    let light = (declared ?? 0) < context.inlineBodyLimit && !chunked && !state.gzipBody
    if context.budget.tryReserve(needed, light: light) {
        state.reserved = needed
        state.phase = .readingBody
        return .YES
    }
    // No room now: wait for it with the connection suspended (the connection thread serves others meanwhile);
    // the request deadline stops (the admission timeout bounds the wait) and starts again for the body.
    state.phase = .awaitingAdmission
    state.connection?.guarded.withLock { $0.deadline = nil }
    state.refusedBytes = needed
    MHD_suspend_connection(connection)
    let suspended = SuspendedConnection(pointer: connection)
    context.budget.reserve(needed, light: light, waitingAtMost: context.admissionTimeout) { admitted in
        if admitted { state.reserved = needed }
        state.admitted = admitted
        suspended.resume()
    }
    return .YES
}

/// A body chunk: append it (growing the reservation of a body of unknown length), or discard it once past
/// the limit or the budget; cut the connection if a client keeps sending far past the limit.
private func consumeChunk(
    _ data: UnsafePointer<CChar>?,
    size: Int,
    into state: RequestState,
    context: ServerContext
) -> MHD_Result {
    if state.phase == .readingBody {
        let length = state.body.count + size
        if length <= context.maxBodyBytes, let data {
            // (A gzip body's bytes, at most its Content-Length, were reserved with it at the head.)
            if state.gzipBody || reserve(forBodyOf: length, state: state, context: context) {
                state.appendBody(data, count: size)
                return .YES
            }
            state.discardReason = .overBudget
        } else {
            state.discardReason = .refused(.contentTooLarge(limit: context.maxBodyBytes))
        }
        state.phase = .discardingBody
        state.discardedBytes = state.body.count
        state.body = []
        // The body is gone: so is its reservation (the refusal is a few hundred bytes).
        context.budget.release(state.reserved)
        state.reserved = 0
    }
    state.discardedBytes += size
    // Returning NO makes libmicrohttpd close the connection without a response.
    return state.discardedBytes - context.maxBodyBytes > context.overflowDrainLimit ? .NO : .YES
}

/// Makes the request's reservation cover a body of `length` bytes (only a body of unknown length grows past
/// what the head reserved): asks for the room of twice the length at once, so a growing body asks
/// O(log n) times, and for just enough if that does not fit.
func reserve(forBodyOf length: Int, state: RequestState, context: ServerContext) -> Bool {
    let needed = context.estimate(state, bodyBytes: length)
    guard needed > state.reserved else { return true }
    let ample = context.estimate(state, bodyBytes: min(context.maxBodyBytes, max(2 * length, 64 * 1024)))
    for target in [ample, needed] where context.budget.tryReserve(target - state.reserved) {
        state.reserved = target
        return true
    }
    state.refusedBytes = needed
    return false
}

/// Last access-handler call of a body: answers a refused body's refusal; hands a gzip body to
/// ``decodeOnPool(_:on:context:)`` and any other to ``dispatch(_:on:context:)``.
private func answer(_ state: RequestState, on connection: OpaquePointer, context: ServerContext) -> MHD_Result {
    // Complete: the deadline no longer applies, unless the janitor cut the request first.
    let received = state.connection?.guarded.withLock { guarded in
        guard !guarded.cut else { return false }
        guarded.deadline = nil
        return true
    }
    if received == false { return .NO }
    if state.phase == .discardingBody {
        state.phase = .answered
        switch state.discardReason {
        case .refused(let refusal):
            return queue(
                context.refusal(refusal, method: state.method, path: String(state.path), headers: state.headers),
                on: connection, forceClose: true)
        case .overBudget:
            let overload = HTTPServer.Overload.memoryBudgetExhausted(
                needed: state.refusedBytes, capacity: context.budget.capacity)
            return queue(context.overloadResponse(overload, to: state), on: connection, forceClose: true)
        }
    }
    if state.gzipBody { return decodeOnPool(state, on: connection, context: context) }
    return dispatch(state, on: connection, context: context)
}

/// Hands a complete, accepted body to the handler: answers a light request here; suspends the connection and
/// hands a heavy one to the compute pool.
private func dispatch(_ state: RequestState, on connection: OpaquePointer, context: ServerContext) -> MHD_Result {
    let (path, query) = state.pathAndQuery
    let body = state.takeBody(zeroingTrailing: context.reservedTrailingCapacity)
    let bodyBytes = body.count
    let request = HTTPRequest(method: state.method, path: path, query: query, headers: state.headers, body: body)

    if bodyBytes < context.inlineBodyLimit {
        state.phase = .answered
        let response = encode(context.handler(request), for: state, context: context)
        settle(state, answer: response, context: context)
        return send(response, for: state, on: connection, context: context)
    }

    state.phase = .computing
    MHD_suspend_connection(connection)
    let suspended = SuspendedConnection(pointer: connection)
    let pending = PendingRequest(request)
    submit(for: state, resuming: suspended, context: context) {
        compute(pending.take(), for: state, resuming: suspended, context: context)
    }
    return .YES
}

/// Runs the handler on `request` (on a compute thread) and resumes the suspended connection with the answer.
private func compute(
    _ request: HTTPRequest, for state: RequestState, resuming suspended: SuspendedConnection, context: ServerContext
) {
    let response = encode(context.handler(request), for: state, context: context)
    settle(state, answer: response, context: context)
    finish(state, with: response, resuming: suspended)
}

/// Submits `work` to `pool` (the compute pool unless given) for a suspended connection; when the pool cancels it
/// (shutdown) or cannot take it (its queue is full, or it is closed), the connection is resumed with a 503.
private func submit(
    for state: RequestState, resuming suspended: SuspendedConnection, context: ServerContext,
    to pool: ComputePool? = nil, precedence: Int = 0, _ work: @escaping @Sendable () -> Void
) {
    let pool = pool ?? context.pool
    let job = ComputePool.Job(
        run: work,
        cancel: {
            settle(state, answerBytes: 0, context: context)
            finish(state, with: context.overloadResponse(.shuttingDown, to: state), resuming: suspended)
        },
        precedence: precedence)
    if !pool.submit(job) {
        settle(state, answerBytes: 0, context: context)
        let reason: HTTPServer.Overload = context.isShuttingDown.load(ordering: .relaxed)
            ? .shuttingDown : .computeQueueFull(limit: pool.queueLimit)
        finish(state, with: context.overloadResponse(reason, to: state), resuming: suspended)
    }
}

/// Hands a suspended request's answer to its connection thread: libmicrohttpd repeats the last access-handler
/// call, which queues it (``RequestState/Phase/answerReady``).
/// - Parameter closing: Whether the connection closes after the answer (a refusal, a 503 for the budget).
private func finish(
    _ state: RequestState, with response: HTTPResponse, closing: Bool = false, resuming suspended: SuspendedConnection
) {
    state.answer = response
    state.closesAfterAnswer = closing
    state.phase = .answerReady
    suspended.resume()
}

/// A gzip body, whole: suspends the connection and decodes it on the decoding pool
/// (``decodeBody(_:for:context:)``), whose threads run below the compute threads' priority: a flood of gzip bombs
/// takes the cores only when the requests' own work leaves them free, and never holds a connection thread and
/// every connection on it. A body that does not decode, or decodes past the limit, is answered its refusal (and
/// the connection closed); a decoded one gets the room its work needs, waiting for it as a head waits (holding
/// only its decoded bytes), and is computed on the compute pool.
private func decodeOnPool(_ state: RequestState, on connection: OpaquePointer, context: ServerContext) -> MHD_Result {
    state.phase = .computing
    MHD_suspend_connection(connection)
    let suspended = SuspendedConnection(pointer: connection)
    let body = state.takeBody(zeroingTrailing: 0)
    // The larger body as sent first: its decoding costs the least per byte the client sent (a bomb, a few
    // kilobytes that decode to the limit, the most), so a flood of bombs does not hold up bodies sent in full.
    let precedence = body.count
    let compressed = PendingBody(body)
    submit(for: state, resuming: suspended, context: context, to: context.decodePool, precedence: precedence) {
        if let reason = decodeBody(compressed.take(), for: state, context: context) {
            let response: HTTPResponse
            switch reason {
            case .refused(let refusal):
                response = context.refusal(
                    refusal, method: state.method, path: String(state.path), headers: state.headers)
            case .overBudget:
                response = context.overloadResponse(
                    .memoryBudgetExhausted(needed: state.refusedBytes, capacity: context.budget.capacity), to: state)
            }
            settle(state, answer: response, context: context)
            finish(state, with: response, closing: true, resuming: suspended)
            return
        }
        // The decoded body's work: what the reservation lacks, asked for now or waited for.
        let needed = context.estimate(state, bodyBytes: state.body.count)
        // The work itself runs on the compute pool, at the compute threads' priority.
        let computeDecoded: @Sendable () -> Void = {
            submit(for: state, resuming: suspended, context: context) {
                compute(decodedRequest(state, context: context), for: state, resuming: suspended, context: context)
            }
        }
        if needed <= state.reserved {
            context.budget.release(state.reserved - needed)
            state.reserved = needed
            computeDecoded()
            return
        }
        if context.budget.tryReserve(needed - state.reserved) {
            state.reserved = needed
            computeDecoded()
            return
        }
        state.refusedBytes = needed
        let holding = state.reserved
        context.budget.reserve(needed - holding, waitingAtMost: context.admissionTimeout) { admitted in
            guard admitted else {
                let response = context.overloadResponse(
                    .memoryBudgetExhausted(needed: needed, capacity: context.budget.capacity), to: state)
                settle(state, answer: response, context: context)
                finish(state, with: response, closing: true, resuming: suspended)
                return
            }
            state.reserved = needed
            computeDecoded()  // (from the thread that freed the room, or this one)
        }
    }
    return .YES
}

/// The request with its decoded body, taken out of the state.
private func decodedRequest(_ state: RequestState, context: ServerContext) -> HTTPRequest {
    let (path, query) = state.pathAndQuery
    let body = state.takeBody(zeroingTrailing: context.reservedTrailingCapacity)
    return HTTPRequest(method: state.method, path: path, query: query, headers: state.headers, body: body)
}

/// A gzip body on its way to the compute thread that decodes it; taken out there, so it is freed once decoded.
///
/// `@unchecked Sendable`: created on the connection thread, then used only by the one compute thread that runs
/// the job (the pool's queue lock orders the two).
private final class PendingBody: @unchecked Sendable {
    private var bytes: [UInt8]?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func take() -> [UInt8] {
        defer { bytes = nil }
        return bytes!
    }
}

/// Answers a request the server refuses before reading its body, and closes the connection after the answer.
///
/// Queued on the first access-handler call, whatever the method: libmicrohttpd 0.9.75 then reads none of the
/// body (`MHD_queue_response` in the head-processed state sets `discard_request` and the upload size to 0), sends
/// no `100 Continue`, and closes the connection after the answer; the janitor's lingering close drains what the
/// client still sends, so that the answer reaches it rather than a reset.
private func refuse(
    _ state: RequestState, _ refusal: HTTPServer.Refusal, on connection: OpaquePointer, context: ServerContext
) -> MHD_Result {
    state.phase = .answered
    state.connection?.guarded.withLock { $0.deadline = nil }
    return queue(
        context.refusal(refusal, method: state.method, path: String(state.path), headers: state.headers), on: connection,
        forceClose: true)
}

/// Once the answer exists, the request holds only the answer (and libmicrohttpd's copy or buffer of it)
/// until it has been sent: the rest of its reservation goes back to the budget. An answer written while it is
/// sent keeps the whole reservation, which covers what its writer holds (the pipe gives it back).
private func settle(_ state: RequestState, answer: HTTPResponse, context: ServerContext) {
    guard answer.stream == nil else { return }
    settle(state, answerBytes: answer.body.count, context: context)
}

/// Sets the request's reservation to what an answer of `answerBytes` bytes holds until it has been sent.
private func settle(_ state: RequestState, answerBytes: Int, context: ServerContext) {
    let holding = answerBytes + (answerBytes >= streamedAnswerBytes ? streamedBlockBytes : 0) + responseObjectBytes
    if holding < state.reserved {
        context.budget.release(state.reserved - holding)
    } else if holding > state.reserved {
        context.budget.forceReserve(holding - state.reserved)  // the memory is in use already: account for it
    }
    state.reserved = holding
}

/// libmicrohttpd's response object and headers (a streamed answer adds its block buffer, a copied one its copy).
private let responseObjectBytes = 1024

/// Answers of at least this many bytes are streamed from the Swift array (no copy); smaller ones are copied.
private let streamedAnswerBytes = 64 * 1024

/// The block libmicrohttpd reads a streamed answer in.
private let streamedBlockBytes = 64 * 1024

/// Queues an answer; a large one shortens the connection's timeout so that a client that reads nothing of it
/// loses the connection (and the answer's memory comes back) after the send timeout. The connection closes
/// after it during shutdown, and when the request's line ends could not be seen as sent
/// (``RequestHead/closesAfterAnswer(_:)``).
private func send(
    _ response: HTTPResponse, for state: RequestState, on connection: OpaquePointer, context: ServerContext
) -> MHD_Result {
    if response.body.count >= streamedAnswerBytes || response.stream != nil,
        context.sendTimeoutSeconds < context.connectionTimeoutSeconds || context.connectionTimeoutSeconds == 0
    {
        _ = CMicroHTTPD_set_connection_timeout(connection, context.sendTimeoutSeconds)
    }
    let closing = context.isShuttingDown.load(ordering: .relaxed) || RequestHead.closesAfterAnswer(state.rawHead)
        || state.closesAfterAnswer
    guard let stream = response.stream else { return queue(response, on: connection, forceClose: closing) }
    guard let pipe = startWriter(of: stream, for: state, on: connection, context: context) else {
        // Written here instead, the answer would stop this connection thread and be held whole outside the budget.
        return queue(context.overloadResponse(.noThreadForAnswer, to: state), on: connection, forceClose: true)
    }
    return queue(response, on: connection, forceClose: closing, streamingThrough: pipe)
}

/// Starts the thread that writes `stream` into a new pipe to `connection`, gzipped when ``encode`` chose to;
/// the request's reservation moves into the pipe. `nil` when the system has no thread to give (the reservation
/// is then given back).
private func startWriter(
    of stream: BodyStream, for state: RequestState, on connection: OpaquePointer, context: ServerContext
) -> AnswerPipe? {
    let pipe = AnswerPipe(
        connection: connection, budget: context.budget, reserved: state.reserved, registry: context.answerPipes,
        compressor: state.streamCompressor)
    state.reserved = 0
    state.streamCompressor = nil
    guard let thread = ComputePool.startThread(body: {
        ComputePool.lowerPriority()
        stream.write(into: BodySink(pipe))
        pipe.writerFinished()
    }) else {
        pipe.readerGone()
        pipe.writerFinished()
        return nil
    }
    pthread_detach(thread)
    return pipe
}

/// Hands `response` to libmicrohttpd, queues it and destroys our reference. A body written while it is sent is
/// read from `pipe`, without a length; a body of at least ``streamedAnswerBytes`` is read by libmicrohttpd from
/// the Swift array block by block (kept alive until libmicrohttpd frees the response); a smaller one is copied.
/// - Parameter forceClose: Adds `Connection: close` (shutdown, 413, 503).
/// - Returns: `.NO` when libmicrohttpd could not allocate or queue (it then closes the connection).
private func queue(
    _ response: HTTPResponse, on connection: OpaquePointer, forceClose: Bool, streamingThrough pipe: AnswerPipe? = nil
) -> MHD_Result {
    let created: OpaquePointer?
    if let pipe {
        let reader = Unmanaged.passRetained(pipe).toOpaque()
        created = MHD_create_response_from_callback(
            UInt64.max /* MHD_SIZE_UNKNOWN */, streamedBlockBytes, microHTTPReadStream, reader, microHTTPFreeStream)
        if created == nil {
            Unmanaged<AnswerPipe>.fromOpaque(reader).release()
            pipe.readerGone()
        }
    } else if response.body.count >= streamedAnswerBytes {
        let body = Unmanaged.passRetained(StreamedBody(response.body)).toOpaque()
        created = MHD_create_response_from_callback(
            UInt64(response.body.count), streamedBlockBytes, microHTTPReadBody, body, microHTTPFreeBody)
        if created == nil { Unmanaged<StreamedBody>.fromOpaque(body).release() }
    } else {
        created = response.body.withUnsafeBytes { bytes in
            // MUST_COPY: libmicrohttpd copies the bytes before this returns; the pointer is not kept.
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
    }
    guard let mhdResponse = created else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }
    for field in response.headers {
        if field.hasName("content-length") { continue }  // libmicrohttpd computes it
        if forceClose && field.hasName("connection") { continue }
        // (withCString reads a native string's own NUL-terminated bytes; passing the strings directly made a
        // C-string array of each.)
        _ = field.name.withCString { name in
            field.value.withCString { value in MHD_add_response_header(mhdResponse, name, value) }
        }
    }
    if forceClose {
        // libmicrohttpd sees this header, sends it, and closes the connection after the response.
        _ = MHD_add_response_header(mhdResponse, "Connection", "close")
    }
    let status = UInt32(clamping: response.status)
    return MHD_queue_response(connection, (100...999).contains(status) ? status : 500, mhdResponse)
}

/// An answer body libmicrohttpd reads block by block; retained by it from creation to its free callback.
private final class StreamedBody {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

/// `MHD_ContentReaderCallback` of a streamed answer: copies the block at `position` into libmicrohttpd's buffer.
private func microHTTPReadBody(
    _ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int
) -> Int {
    guard let cls, let buffer else { return -1 }
    let body = Unmanaged<StreamedBody>.fromOpaque(cls).takeUnretainedValue()
    let start = Int(clamping: position)
    let count = min(capacity, body.bytes.count - start)
    guard count > 0 else { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
    body.bytes.withUnsafeBytes { bytes in
        UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + start, byteCount: count)
    }
    return count
}

/// `MHD_ContentReaderFreeCallback` of a streamed answer: libmicrohttpd is done with it.
private func microHTTPFreeBody(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<StreamedBody>.fromOpaque(cls).release()
}

/// `MHD_ContentReaderCallback` of an answer written while it is sent (see ``AnswerPipe/read(into:capacity:)``).
private func microHTTPReadStream(
    _ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int
) -> Int {
    guard let cls, let buffer else { return -2 }  // MHD_CONTENT_READER_END_WITH_ERROR
    return Unmanaged<AnswerPipe>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, capacity: capacity)
}

/// `MHD_ContentReaderFreeCallback` of an answer written while it is sent: libmicrohttpd is done with it.
private func microHTTPFreeStream(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    let pipe = Unmanaged<AnswerPipe>.fromOpaque(cls).takeRetainedValue()
    pipe.readerGone()
}
