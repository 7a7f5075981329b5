import Synchronization

/// What the C callbacks need, shared by every worker thread; handed to libmicrohttpd as its `cls`.
///
/// Immutable apart from two atomics, hence `Sendable` without exceptions.
final class ServerContext: Sendable {
    /// The application handler, called on worker threads.
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    /// The largest accepted body.
    let maxBodyBytes: Int
    /// Spare capacity reserved after a body of known length.
    let bodyCapacityPadding: Int
    /// Bytes discarded past ``maxBodyBytes`` before the connection is cut without an answer.
    let overflowDrainLimit: Int
    /// The 413 answer.
    let payloadTooLargeResponse: HTTPResponse
    /// Set once shutdown begins; responses then carry `Connection: close`.
    let isShuttingDown = Atomic<Bool>(false)
    /// Requests between their request line and their completion notice.
    let inFlightRequests = Atomic<Int>(0)

    init(configuration: HTTPServer.Configuration, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.handler = handler
        self.maxBodyBytes = configuration.maxBodyBytes
        self.bodyCapacityPadding = configuration.bodyCapacityPadding
        self.overflowDrainLimit = max(configuration.maxBodyBytes, 1 << 20)
        self.payloadTooLargeResponse = configuration.payloadTooLargeResponse
    }
}
