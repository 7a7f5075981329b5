// The C callbacks libmicrohttpd calls on its connection threads, and the carrying out of each request's
// RequestMachine. They are global functions (never closures written in main.swift, which Swift 6 would infer
// as @MainActor) and they copy every borrowed C buffer before returning.
//
// Per-connection: the connection-notify callback creates a ConnectionState (the request deadline) at the
// connection's start and hands the socket to the janitor for a lingering close at its end.
//
// Per-request (libmicrohttpd 0.9.75, MHD_ALLOW_SUSPEND_RESUME): what happens to a request is decided by its
// RequestMachine (RequestMachine.swift: the head's refusals, admission by the memory budget, the body, the
// deadline, the answer and every reservation); these callbacks tell it what happened and carry out its actions
// (``perform(_:for:on:chunk:deadlinesSettled:context:)``):
//   1. URI-log callback: request line parsed → allocate RequestState and its machine, the request's con_cls.
//   2. Access handler, first call (upload_data NULL): head complete → copy method, headers, address, check the
//      framing (RequestHead) → .headReceived.
//   3. Access handler after a resume (the budget decided, or an answer was computed off the connection
//      thread; libmicrohttpd repeats the last call) → .resumed.
//   4. Access handler with size > 0: body chunk → .bodyChunk (the chunk is copied or not, and consumed); with
//      size 0 after the head → .bodyComplete.
//   5. The budget's decisions → .budgetGranted / .budgetRefused (a wait's, from any thread); the decoding pool
//      (gzip bodies, MHDCallbacks+ContentCoding.swift: below the compute threads' priority, so a bomb flood
//      takes only the cores the requests' work leaves) and the compute pool → .decoded, .answerComputed,
//      .workRefused, on their threads while the connection is suspended.
//   6. Completion callback (always, also on client abort or daemon stop) → .completed (what the request still
//      holds goes back to the budget); RequestState is released.
// An event that arrives while the request is being received (its head, the resume after admission, its body)
// is told under the connection's lock, as .deadlinePassed instead when the janitor has cut the connection (it
// answered 408), and the deadline change the machine asks for is made under the same lock
// (``receiving(_:for:context:publishing:)``): exactly one of the two answers.

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
/// `@unchecked Sendable`: the other thread only resumes it (`MHD_resume_connection`, once per suspension), which
/// libmicrohttpd allows from any thread; the connection cannot be freed while suspended, and the server resumes every
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
    let state = RequestState(target: uri.map { String(cString: $0) } ?? "/", limits: context.requestLimits)
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
    // (Completion asks only to give back what the request still holds.)
    if let bytes = state.machine.complete() { context.budget.release(bytes) }
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

/// The access handler (`MHD_AccessHandlerCallback`): tells the request's machine what the call means in its
/// state.
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
        state = RequestState(target: url.map { String(cString: $0) } ?? "/", limits: context.requestLimits)
        context.inFlightRequests.add(1, ordering: .relaxed)
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
    }

    switch state.machine.state {
    case .awaitingHead:
        return readHead(of: state, method: method, version: version, connection: connection, context: context)
    case .awaitingAdmission:
        // Resumed: the budget has decided (libmicrohttpd repeats the first call).
        let actions = receiving(.resumed, for: state, context: context)
        return perform(actions, for: state, on: connection, deadlinesSettled: true, context: context)
    case .answerReady:
        // Resumed by the thread that computed the answer (libmicrohttpd repeats the last call).
        return perform(state.machine.handle(.resumed), for: state, on: connection, context: context)
    case .readingBody, .discardingBody:
        let size = uploadDataSize.pointee
        let actions = receiving(size > 0 ? .bodyChunk(size: size) : .bodyComplete, for: state, context: context)
        uploadDataSize.pointee = 0
        return perform(actions, for: state, on: connection, chunk: (uploadData, size), deadlinesSettled: true, context: context)
    default:
        // Not called while suspended, nor once an answer is queued: the machine swallows anything else.
        let size = uploadDataSize.pointee
        uploadDataSize.pointee = 0
        let actions = state.machine.handle(size > 0 ? .bodyChunk(size: size) : .bodyComplete)
        return perform(actions, for: state, on: connection, context: context)
    }
}

/// First access-handler call: copies the head out of C, checks its framing, and tells the machine what the
/// check decided.
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
    let declared = head.contentLength.flatMap { Int($0) }
    let coding: RequestMachine.BodyCoding
    if (declared ?? 0) > 0 {  // (the coding of a head without a body is never looked at)
        switch ContentCoding.ofRequestBody(state.headers) {
        case .success(.identity): coding = .identity
        case .success(.gzip): coding = .gzip
        case .failure(let unsupported): coding = .unsupported(unsupported.value)
        }
    } else {
        coding = .identity
    }
    let checked = RequestMachine.Head(
        framingRefusal: head.violation.map(HTTPServer.Refusal.malformed) ?? head.transferCodingRefusal(),
        declaredLength: declared, chunked: head.transferEncodingFields > 0, coding: coding,
        estimate: context.estimate(method: state.method, path: String(state.path)))
    let actions = receiving(.headReceived(checked), for: state, context: context) { guarded in
        guarded.awaitingHead = false
        guarded.method = state.method
        guarded.headers = state.headers
    }
    return perform(actions, for: state, on: connection, deadlinesSettled: true, context: context)
}

/// Tells the machine an event that arrives while the request is being received, under the connection's lock:
/// `.deadlinePassed` instead when the janitor has cut the connection (it has answered 408), and the deadline
/// changes the machine asks for made before the lock is let go, so that the janitor and this thread never both
/// answer.
/// - Parameter publish: Updates what the janitor knows of the request (for its 408), under the same lock.
/// - Returns: The machine's actions, the deadline's already carried out (``perform(_:for:on:chunk:deadlinesSettled:context:)``
///   is told so).
private func receiving(
    _ event: RequestMachine.Event, for state: RequestState, context: ServerContext,
    publishing publish: (inout ConnectionState.Guarded) -> Void = { _ in }
) -> [RequestMachine.Action] {
    guard let connection = state.connection else { return state.machine.handle(event) }
    return connection.guarded.withLock { guarded in
        publish(&guarded)
        let actions = state.machine.handle(guarded.cut ? .deadlinePassed : event)
        for action in actions {
            switch action {
            case .restartDeadline: guarded.deadline = ContinuousClock.now.advanced(by: context.requestTimeout)
            case .stopDeadline: guarded.deadline = nil
            default: break
            }
        }
        return actions
    }
}

/// Carries out the machine's actions in order, and tells it what they find (the budget's answers, the answers
/// built); called on the connection thread, or on the thread that holds the suspended request.
/// - Parameters:
///   - chunk: The body chunk of a `.bodyChunk` event (borrowed from libmicrohttpd for this call).
///   - deadlinesSettled: The deadline's actions were carried out already (``receiving(_:for:context:publishing:)``).
/// - Returns: What the access handler returns: `.NO` closes the connection.
@discardableResult
private func perform(
    _ actions: [RequestMachine.Action], for state: RequestState, on connection: OpaquePointer,
    chunk: (data: UnsafePointer<CChar>?, size: Int) = (nil, 0), deadlinesSettled: Bool = false, context: ServerContext
) -> MHD_Result {
    var result = MHD_Result.YES
    for action in actions {
        switch action {
        case .close:
            return .NO
        case .restartDeadline:
            guard !deadlinesSettled else { continue }
            let deadline = ContinuousClock.now.advanced(by: context.requestTimeout)
            state.connection?.guarded.withLock { $0.deadline = deadline }
        case .stopDeadline:
            guard !deadlinesSettled else { continue }
            state.connection?.guarded.withLock { $0.deadline = nil }
        case .reserveBodyCapacity(let bytes):
            state.reserveBody(bytes)
        case .tryReserve(let bytes, let light):
            let granted = context.budget.tryReserve(bytes, light: light)
            let next = state.machine.handle(granted ? .budgetGranted : .budgetRefused)
            result = perform(next, for: state, on: connection, chunk: chunk, context: context)
        case .waitForRoom(let bytes, let light):
            let suspended = SuspendedConnection(pointer: connection)
            context.budget.reserve(bytes, light: light, waitingAtMost: context.admissionTimeout) { admitted in
                let next = state.machine.handle(admitted ? .budgetGranted : .budgetRefused)
                perform(next, for: state, on: suspended.pointer, context: context)
            }
        case .release(let bytes):
            context.budget.release(bytes)
        case .forceReserve(let bytes):
            context.budget.forceReserve(bytes)
        case .suspend:
            MHD_suspend_connection(connection)
        case .resume:
            SuspendedConnection(pointer: connection).resume()
        case .appendChunk:
            // (libmicrohttpd never passes a chunk without its bytes.)
            if let data = chunk.data { state.appendBody(data, count: chunk.size) }
        case .dropBody:
            state.body = []
        case .decode(let precedence):
            let suspended = SuspendedConnection(pointer: connection)
            decodeOnPool(state, precedence: precedence, resuming: suspended, context: context)
        case .compute:
            computeOnPool(state, resuming: SuspendedConnection(pointer: connection), context: context)
        case .computeInline:
            let response = encode(context.handler(request(of: state, context: context)), for: state, context: context)
            result = computed(response, for: state, on: connection, context: context)
        case .respond(let answer, let closing):
            result = queue(response(to: answer, of: state, context: context), on: connection, forceClose: closing)
        case .finish(let answer):
            let built = response(to: answer, of: state, context: context)
            result = computed(built, for: state, on: connection, context: context)
        case .holdAnswer(let answer):
            state.answer = response(to: answer, of: state, context: context)
        case .send(let closing, let handingOver):
            let response = state.answer ?? context.overloadResponse(.shuttingDown, to: state)
            state.answer = nil
            result = send(
                response, for: state, closing: closing, handingOver: handingOver, on: connection, context: context)
        }
    }
    return result
}

/// Holds an answer computed for the request and tells the machine what it holds.
@discardableResult
private func computed(
    _ response: HTTPResponse, for state: RequestState, on connection: OpaquePointer, context: ServerContext
) -> MHD_Result {
    state.answer = response
    let size: RequestMachine.AnswerSize = response.stream == nil
        ? .whole(bytes: response.body.count)
        : .streamed(compressorBytes: state.streamCompressor == nil ? 0 : GzipCompressor.memoryBytes)
    return perform(state.machine.handle(.answerComputed(size)), for: state, on: connection, context: context)
}

/// The answer the server gives itself.
private func response(
    to answer: RequestMachine.Answer, of state: RequestState, context: ServerContext
) -> HTTPResponse {
    switch answer {
    case .refusal(let refusal):
        context.refusal(refusal, method: state.method, path: String(state.path), headers: state.headers)
    case .overload(let reason):
        context.overloadResponse(reason, to: state)
    }
}

/// The request with its body, taken out of the state.
private func request(of state: RequestState, context: ServerContext) -> HTTPRequest {
    let (path, query) = state.pathAndQuery
    let body = state.takeBody(zeroingTrailing: context.reservedTrailingCapacity)
    return HTTPRequest(method: state.method, path: path, query: query, headers: state.headers, body: body)
}

/// Hands the request to the compute pool, whose thread runs the handler and tells the machine the answer.
private func computeOnPool(_ state: RequestState, resuming suspended: SuspendedConnection, context: ServerContext) {
    let pending = PendingRequest(request(of: state, context: context))
    submit(for: state, resuming: suspended, context: context) {
        let response = encode(context.handler(pending.take()), for: state, context: context)
        computed(response, for: state, on: suspended.pointer, context: context)
    }
}

/// Hands a whole gzip body to the decoding pool (``decodeBody(_:context:)``), whose threads run below the
/// compute threads' priority: a flood of gzip bombs takes the cores only when the requests' own work leaves them
/// free, and never holds a connection thread and every connection on it.
private func decodeOnPool(
    _ state: RequestState, precedence: Int, resuming suspended: SuspendedConnection, context: ServerContext
) {
    let compressed = PendingBody(state.takeBody(zeroingTrailing: 0))
    submit(for: state, resuming: suspended, context: context, to: context.decodePool, precedence: precedence) {
        let (body, outcome) = decodeBody(compressed.take(), context: context)
        state.body = body
        perform(state.machine.handle(.decoded(outcome)), for: state, on: suspended.pointer, context: context)
    }
}

/// Submits `work` to `pool` (the compute pool unless given) for a suspended connection; when the pool cancels it
/// (shutdown) or cannot take it (its queue is full, or it is closed), the machine is told `.workRefused`.
private func submit(
    for state: RequestState, resuming suspended: SuspendedConnection, context: ServerContext,
    to pool: ComputePool? = nil, precedence: Int = 0, _ work: @escaping @Sendable () -> Void
) {
    let pool = pool ?? context.pool
    let job = ComputePool.Job(
        run: work,
        cancel: {
            let next = state.machine.handle(.workRefused(.shuttingDown))
            perform(next, for: state, on: suspended.pointer, context: context)
        },
        precedence: precedence)
    if !pool.submit(job) {
        let reason: HTTPServer.Overload = context.isShuttingDown.load(ordering: .relaxed)
            ? .shuttingDown : .computeQueueFull(limit: pool.queueLimit)
        perform(state.machine.handle(.workRefused(reason)), for: state, on: suspended.pointer, context: context)
    }
}

/// A gzip body on its way to the thread that decodes it; taken out there, so it is freed once decoded.
///
/// `@unchecked Sendable`: created on the connection thread, then used only by the one thread that runs the job
/// (the pool's queue lock orders the two).
private final class PendingBody: @unchecked Sendable {
    private var bytes: [UInt8]?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func take() -> [UInt8] {
        defer { bytes = nil }
        return bytes!
    }
}

/// Queues an answer; a large one shortens the connection's timeout so that a client that reads nothing of it
/// loses the connection (and the answer's memory comes back) after the send timeout. The connection closes
/// after it when `closing`, during shutdown, and when the request's line ends could not be seen as sent
/// (``RequestHead/closesAfterAnswer(_:)``). A body written while it is sent takes `handingOver` bytes of the
/// request's reservation into its pipe.
private func send(
    _ response: HTTPResponse, for state: RequestState, closing: Bool, handingOver: Int, on connection: OpaquePointer,
    context: ServerContext
) -> MHD_Result {
    if response.body.count >= RequestMachine.streamedAnswerBytes || response.stream != nil,
        context.sendTimeoutSeconds < context.connectionTimeoutSeconds || context.connectionTimeoutSeconds == 0
    {
        _ = CMicroHTTPD_set_connection_timeout(connection, context.sendTimeoutSeconds)
    }
    let closes = closing || context.isShuttingDown.load(ordering: .relaxed)
        || RequestHead.closesAfterAnswer(state.rawHead)
    guard let stream = response.stream else { return queue(response, on: connection, forceClose: closes) }
    guard let pipe = startWriter(of: stream, for: state, reserved: handingOver, on: connection, context: context)
    else {
        // Written here instead, the answer would stop this connection thread and be held whole outside the budget.
        return queue(context.overloadResponse(.noThreadForAnswer, to: state), on: connection, forceClose: true)
    }
    return queue(response, on: connection, forceClose: closes, streamingThrough: pipe)
}

/// Starts the thread that writes `stream` into a new pipe to `connection`, gzipped when ``encode`` chose to;
/// `reserved` bytes of the request's reservation move into the pipe. `nil` when the system has no thread to
/// give (the reservation is then given back).
private func startWriter(
    of stream: BodyStream, for state: RequestState, reserved: Int, on connection: OpaquePointer,
    context: ServerContext
) -> AnswerPipe? {
    let pipe = AnswerPipe(
        connection: connection, budget: context.budget, reserved: reserved, registry: context.answerPipes,
        compressor: state.streamCompressor)
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
/// read from `pipe`, without a length; a body of at least ``RequestMachine/streamedAnswerBytes`` is read by
/// libmicrohttpd from the Swift array block by block (kept alive until libmicrohttpd frees the response); a
/// smaller one is copied.
/// - Parameter forceClose: Adds `Connection: close` (shutdown, 413, 503).
/// - Returns: `.NO` when libmicrohttpd could not allocate or queue (it then closes the connection).
private func queue(
    _ response: HTTPResponse, on connection: OpaquePointer, forceClose: Bool, streamingThrough pipe: AnswerPipe? = nil
) -> MHD_Result {
    let created: OpaquePointer?
    if let pipe {
        let reader = Unmanaged.passRetained(pipe).toOpaque()
        created = MHD_create_response_from_callback(
            UInt64.max /* MHD_SIZE_UNKNOWN */, RequestMachine.streamedBlockBytes, microHTTPReadStream, reader,
            microHTTPFreeStream)
        if created == nil {
            Unmanaged<AnswerPipe>.fromOpaque(reader).release()
            pipe.readerGone()
        }
    } else if response.body.count >= RequestMachine.streamedAnswerBytes {
        let body = Unmanaged.passRetained(StreamedBody(response.body)).toOpaque()
        created = MHD_create_response_from_callback(
            UInt64(response.body.count), RequestMachine.streamedBlockBytes, microHTTPReadBody, body, microHTTPFreeBody)
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
