import Synchronization

/// What the C callbacks need, shared by every connection thread; handed to libmicrohttpd as its `cls`.
///
/// Immutable apart from its atomics and the thread-safe budget and pool, hence `Sendable` without exceptions.
final class ServerContext: Sendable {
    /// The application handler, called on connection threads (light requests) and compute threads (heavy ones).
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    /// The largest accepted body.
    let maxBodyBytes: Int
    /// Spare capacity reserved after a body of known length.
    let reservedTrailingCapacity: Int
    /// The answers to refused requests (status and `Connection: close` enforced by ``refusal(_:method:path:headers:)``).
    private let refusalResponse: @Sendable (HTTPServer.Refusal, String, String, HTTPHeaders) -> HTTPResponse
    /// Told libmicrohttpd's messages, with the status of an answer libmicrohttpd sent on its own.
    let libraryMessage: @Sendable (String, Int?) -> Void
    /// How long a request may take to arrive.
    let requestTimeout: Duration
    /// Enforces request deadlines and closes sockets gracefully.
    let janitor: ConnectionJanitor
    /// The 503 answers.
    private let overload: @Sendable (HTTPServer.Overload, String, String, HTTPHeaders) -> HTTPResponse
    /// What every request in flight may hold together.
    let budget: MemoryBudget
    /// A request's peak memory from its method, path and body size.
    let memoryEstimate: @Sendable (String, String, Int) -> Int
    /// What each request's ``RequestMachine`` decides with.
    let requestLimits: RequestMachine.Limits
    /// The longest wait for room in the budget.
    let admissionTimeout: Duration
    /// The idle timeout, and the shorter one while a large answer waits for its reader, in seconds.
    let connectionTimeoutSeconds: UInt32
    let sendTimeoutSeconds: UInt32
    /// Where heavy requests are computed.
    let pool: ComputePool
    /// Where gzip bodies are decoded, below the compute threads' priority (``ComputePool/decodeNiceness``).
    let decodePool: ComputePool
    /// The answers being written while they are sent.
    let answerPipes = AnswerPipes()
    /// Set once shutdown begins; responses then carry `Connection: close`.
    let isShuttingDown = Atomic<Bool>(false)
    /// The libmicrohttpd threads whose next "Error processing request" message is about an answer MicroHTTP
    /// replaced (see `microHTTPLog`).
    let replacedAnswerThreads = Mutex<Set<UInt>>([])
    /// Requests between their request line and their completion notice.
    let inFlightRequests = Atomic<Int>(0)
    /// The gzip level of answers (0: none) and the fewest bytes worth gzipping.
    let compressionLevel: Int
    let compressionThreshold: Int
    /// Whether the heads' bytes after the request line can be read as sent at the URI-log callback
    /// (``RequestHead/scanRaw(target:)``): libmicrohttpd 0.9.75 maps a connection's memory pool (zero-filled,
    /// and zeroed again between requests) when it is over 32 KiB and at least 4/3 of a page; a smaller one comes
    /// from malloc, whose bytes past those received are not known (its heads' answers then close the connection).
    let scansRawHeads: Bool

    init(configuration: HTTPServer.Configuration, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.handler = handler
        self.maxBodyBytes = configuration.maxBodyBytes
        self.reservedTrailingCapacity = configuration.reservedTrailingCapacity
        self.refusalResponse = configuration.refusalResponse
        self.libraryMessage = configuration.libraryMessage
        self.requestTimeout = .seconds(configuration.requestTimeoutSeconds)
        let refusal = configuration.refusalResponse
        let timeout = HTTPServer.Refusal.requestTimeout(seconds: configuration.requestTimeoutSeconds)
        self.janitor = ConnectionJanitor(lingerLimit: max(configuration.connectionLimit, 64)) { method, path, headers in
            var response = refusal(timeout, method, path, headers)
            response.status = timeout.status
            return response
        }
        self.overload = configuration.overloadResponse
        self.budget = configuration.memoryBudget
        self.memoryEstimate = configuration.memoryEstimate
        self.admissionTimeout = configuration.admissionTimeout
        self.connectionTimeoutSeconds = UInt32(clamping: configuration.connectionTimeoutSeconds)
        self.sendTimeoutSeconds = UInt32(clamping: configuration.sendTimeoutSeconds)
        self.compressionLevel = configuration.compressionLevel
        self.compressionThreshold = configuration.compressionThreshold
        self.requestLimits = RequestMachine.Limits(
            maxBodyBytes: configuration.maxBodyBytes, inlineBodyLimit: configuration.inlineBodyLimit,
            reservedTrailingCapacity: configuration.reservedTrailingCapacity,
            overflowDrainLimit: max(configuration.maxBodyBytes, 1 << 20),
            budgetCapacity: configuration.memoryBudget.capacity)
        self.scansRawHeads = configuration.perConnectionMemoryLimit > 32 * 1024
            && configuration.perConnectionMemoryLimit >= Int(RequestHead.pageSize) * 4 / 3
        self.pool = ComputePool(threads: configuration.computeThreads, queueLimit: configuration.computeQueueLimit)
        self.decodePool = ComputePool(
            threads: configuration.computeThreads, queueLimit: configuration.computeQueueLimit,
            niceness: ComputePool.decodeNiceness)
    }

    /// The 503 answer to a request for `reason`.
    func overloadResponse(_ reason: HTTPServer.Overload, to state: RequestState) -> HTTPResponse {
        var response = overload(reason, state.method, String(state.path), state.headers)
        response.status = 503
        return response
    }

    /// The answer to a request the server refuses itself.
    func refusal(_ refusal: HTTPServer.Refusal, method: String, path: String, headers: HTTPHeaders) -> HTTPResponse {
        var response = refusalResponse(refusal, method, path, headers)
        response.status = refusal.status
        if case .unsupportedContentCoding = refusal {
            // RFC 9110 §12.5.3: a 415 for a content coding says which codings are accepted.
            response.headers.replaceOrAdd(name: "Accept-Encoding", value: ContentCoding.acceptedInRequests)
        }
        return response
    }

    /// The bytes a request of `method` to `path` needs for a body of a given size, never less than the body (a
    /// gzip body's bytes are decoded bytes, once known).
    func estimate(method: String, path: String) -> @Sendable (_ bodyBytes: Int) -> Int {
        let memoryEstimate = self.memoryEstimate
        return { bodyBytes in max(bodyBytes, memoryEstimate(method, path, bodyBytes)) }
    }

    /// The most the decoding of a gzip body of `compressedBytes` can hold beside the body itself: its decoder,
    /// and its decoded bytes (with the reader's trailing ones), which deflate's largest ratio
    /// (``ContentCoding/largestInflation``) and the body limit bound. A gzip request reserves this and its body
    /// before the body is read; the work on the decoded body is reserved once its size is known.
    func decodingBytes(compressedBytes: Int) -> Int {
        requestLimits.decodingBytes(compressedBytes: compressedBytes)
    }
}
