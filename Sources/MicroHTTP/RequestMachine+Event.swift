extension RequestMachine {
    /// What happened to the request: told by the C callbacks, the memory budget, the decoding and compute pools.
    enum Event: Sendable {
        /// The head is complete (the first access-handler call) and the connection was not cut while it arrived.
        case headReceived(Head)
        /// The memory budget reserved what the last ``Action/tryReserve(_:light:)`` or
        /// ``Action/waitForRoom(_:light:)`` asked for.
        case budgetGranted
        /// The memory budget did not: no room now (``Action/tryReserve(_:light:)``), or none came within the
        /// admission timeout (``Action/waitForRoom(_:light:)``).
        case budgetRefused
        /// libmicrohttpd called the access handler again after a ``Action/resume``.
        case resumed
        /// A piece of the body arrived (`size` bytes, more than 0, still in libmicrohttpd's buffer).
        case bodyChunk(size: Int)
        /// The body is complete (an access-handler call with no data after the head).
        case bodyComplete
        /// The request was not received within its deadline: the janitor has answered 408 on the socket.
        case deadlinePassed
        /// The gzip body's decoding ended (on the decoding pool).
        case decoded(Decoding)
        /// The answer exists (the handler's, or the one a ``Action/finish(_:)`` asked for), held by the caller.
        case answerComputed(AnswerSize)
        /// A pool would not take the request's work (its queue is full, or it is closed), or cancelled it at
        /// shutdown.
        case workRefused(HTTPServer.Overload)
        /// libmicrohttpd's completion notice: the request is over (answered, or the connection closed or cut).
        case completed
    }

    /// What the head check decided, and what the request's memory depends on.
    struct Head: Sendable {
        /// Why the head's framing is refused before any body byte is read (a 400, 411 or 501), if it is.
        var framingRefusal: HTTPServer.Refusal?
        /// The body's `Content-Length`, when the head declares one that is a number.
        var declaredLength: Int?
        /// Whether the head has a `Transfer-Encoding` field (the body's length is then unknown).
        var chunked: Bool
        /// The body's content coding.
        var coding: BodyCoding
        /// The bytes the request needs at its peak for a body of the given size (never less than the body).
        var estimate: @Sendable (_ bodyBytes: Int) -> Int

        /// Creates a head's outcome.
        init(
            framingRefusal: HTTPServer.Refusal? = nil, declaredLength: Int?, chunked: Bool = false,
            coding: BodyCoding = .identity, estimate: @escaping @Sendable (_ bodyBytes: Int) -> Int
        ) {
            self.framingRefusal = framingRefusal
            self.declaredLength = declaredLength
            self.chunked = chunked
            self.coding = coding
            self.estimate = estimate
        }
    }

    /// A request body's `Content-Encoding`, as far as the server is concerned.
    enum BodyCoding: Sendable, Hashable {
        /// None, or `identity`.
        case identity
        /// gzip (or x-gzip): decoded whole once received.
        case gzip
        /// Anything else, as sent: refused 415 before the body is read.
        case unsupported(String)
    }

    /// How a gzip body's decoding ended.
    enum Decoding: Sendable, Hashable {
        /// Decoded into a body of `bytes` bytes, held in an allocation of `capacity` bytes.
        case decoded(bytes: Int, capacity: Int)
        /// The body cannot be taken (damaged, or decoded past the body limit).
        case refused(HTTPServer.Refusal)
        /// Its decoding needed more than the reservation could hold (`needed` bytes).
        case overBudget(needed: Int)
    }

    /// The memory an answer holds until it has been sent.
    enum AnswerSize: Sendable, Hashable {
        /// A body given whole, of `bytes` bytes.
        case whole(bytes: Int)
        /// A body written while it is sent; `compressorBytes` were reserved for the compressor that gzips it.
        case streamed(compressorBytes: Int)
    }
}
