extension HTTPServer {
    /// Why the server cannot take a request now; ``Configuration/overloadResponse`` turns it into a 503.
    public enum Overload: Sendable, Hashable {
        /// The request needs more memory than the budget has free, and none came free within
        /// ``Configuration/admissionTimeout``.
        case memoryBudgetExhausted(needed: Int, capacity: Int)
        /// Every compute thread is busy and ``Configuration/computeQueueLimit`` requests already wait.
        case computeQueueFull(limit: Int)
        /// The server is stopping; the request was not computed.
        case shuttingDown
        /// The system would not start the thread that writes a large answer while it is sent (``BodyStream``).
        case noThreadForAnswer
    }
}
