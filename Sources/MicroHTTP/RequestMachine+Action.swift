extension RequestMachine {
    /// What the caller must do, in order, after an event.
    ///
    /// The access handler returns `MHD_NO` for ``close`` and for an answer libmicrohttpd could not queue, and
    /// `MHD_YES` otherwise. ``tryReserve(_:light:)`` and ``finish(_:)`` are answered by the next event.
    enum Action: Sendable, Hashable {
        /// Return `MHD_NO`: libmicrohttpd closes the connection without an answer (the janitor may have written
        /// one).
        case close
        /// Start the request deadline again: the (rest of the) request must arrive within the request timeout.
        case restartDeadline
        /// Stop the request deadline: nothing more is being received for this request.
        case stopDeadline
        /// Make room for `bytes` bytes of body in the body's buffer (not the budget).
        case reserveBodyCapacity(Int)
        /// Ask the memory budget for `bytes` now; tell the outcome as ``Event/budgetGranted`` or
        /// ``Event/budgetRefused`` at once.
        case tryReserve(Int, light: Bool)
        /// Ask the memory budget for `bytes`, waiting at most the admission timeout; tell the outcome when it
        /// comes (from any thread).
        case waitForRoom(Int, light: Bool)
        /// Give `bytes` back to the memory budget.
        case release(Int)
        /// Add `bytes` already in use to the memory budget, whether or not they fit.
        case forceReserve(Int)
        /// Suspend the connection (another thread answers ``Action/resume``).
        case suspend
        /// Resume the suspended connection: libmicrohttpd calls the access handler again (``Event/resumed``).
        case resume
        /// Copy the chunk of the current ``Event/bodyChunk(size:)`` onto the body.
        case appendChunk
        /// Free what the body holds.
        case dropBody
        /// Hand the gzip body to the decoding pool, taken ahead of bodies of lower `precedence`; tell
        /// ``Event/decoded(_:)``, or ``Event/workRefused(_:)`` when the pool does not take it.
        case decode(precedence: Int)
        /// Hand the request (body taken out) to the compute pool; the handler's answer comes back as
        /// ``Event/answerComputed(_:)``, or ``Event/workRefused(_:)`` when the pool does not take it.
        case compute
        /// Run the handler on the request here, on the connection thread; tell ``Event/answerComputed(_:)``.
        case computeInline
        /// Queue `answer` now (the connection closes after it when `closing`).
        case respond(Answer, closing: Bool)
        /// Build `answer` and hold it for the connection thread; tell ``Event/answerComputed(_:)``.
        case finish(Answer)
        /// Build `answer` and hold it for the connection thread (nothing to tell).
        case holdAnswer(Answer)
        /// Queue the answer held; the connection closes after it when `closing`. A body written while it is sent
        /// takes `handingOver` bytes of the request's reservation with it (the writer gives them back).
        case send(closing: Bool, handingOver: Int)
    }

    /// An answer the server gives itself, without the handler.
    enum Answer: Sendable, Hashable {
        /// The refusal's answer (400, 408, 411, 413, 415, 501).
        case refusal(HTTPServer.Refusal)
        /// A 503.
        case overload(HTTPServer.Overload)
    }
}
