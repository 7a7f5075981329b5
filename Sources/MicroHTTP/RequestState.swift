/// One request's progress through the access-handler protocol.
///
/// Created by the URI-log callback (retained, passed to C as the request's `con_cls`), touched only
/// by the worker thread that owns the connection, released in the completion callback.
final class RequestState {
    /// Where the access handler is in its three-phase protocol.
    enum Phase {
        /// Request line seen; the first access-handler call (head complete) has not happened.
        case awaitingHead
        /// Head read; body chunks may follow.
        case readingBody
        /// The body went past the limit: chunks are discarded, the answer will be 413.
        case discardingBody
        /// A response has been queued.
        case answered
    }

    /// The request target exactly as sent (path and query).
    let target: String
    var phase = Phase.awaitingHead
    var method = ""
    var headers = HTTPHeaders()
    var client: ClientAddress?
    var body: [UInt8] = []
    /// Bytes thrown away while ``Phase/discardingBody``.
    var discardedBytes = 0

    init(target: String) {
        self.target = target
    }

    /// The target split at the first `?`.
    var pathAndQuery: (path: String, query: String?) {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (target, nil) }
        let path = String(target[..<mark])
        let query = String(target[target.utf8.index(after: mark)...])
        return (path, query)
    }

    /// Appends a borrowed C chunk to the body (copied now; amortised linear growth).
    func appendBody(_ bytes: UnsafePointer<CChar>, count: Int) {
        bytes.withMemoryRebound(to: UInt8.self, capacity: count) { start in
            body.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
        }
    }

    /// Moves the accumulated body out without copying it. When its spare capacity holds `padding` bytes, they
    /// are set to zero first (written, then dropped from the count), so that a parser allowed to read past the
    /// end (simdjson) finds no stray token left there by an earlier allocation.
    func takeBody(zeroingPadding padding: Int) -> [UInt8] {
        if padding > 0 && body.capacity - body.count >= padding {
            body.append(contentsOf: repeatElement(0, count: padding))
            body.removeLast(padding)
        }
        var taken: [UInt8] = []
        swap(&taken, &body)
        return taken
    }
}
