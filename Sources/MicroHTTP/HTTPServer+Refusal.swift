extension HTTPServer {
    /// Why the server answers a request itself, without the handler; ``Configuration/refusalResponse`` turns it
    /// into the answer, which always closes the connection.
    public enum Refusal: Sendable, Hashable {
        /// The head breaks RFC 9112's framing rules (a repeated or malformed Content-Length, whitespace before a
        /// colon, Transfer-Encoding with Content-Length, no Host, a NUL or bare CR, obs-fold …): 400. The text
        /// says what is wrong and where.
        case malformed(String)
        /// The body is declared (or grew) larger than ``Configuration/maxBodyBytes``: 413.
        case contentTooLarge(limit: Int)
        /// The body is sent with the chunked transfer coding: 411 (send it with Content-Length).
        case lengthRequired
        /// The body is sent with a transfer coding other than chunked: 501.
        case transferCodingNotImplemented(String)
        /// The request was not received completely within ``Configuration/requestTimeout``: 408.
        case requestTimeout(seconds: Int)
        /// The body is declared with a content coding other than gzip (or identity), given as the
        /// `Content-Encoding` value sent: 415, with `Accept-Encoding: gzip` (RFC 9110 §15.5.16).
        case unsupportedContentCoding(String)
        /// The gzip body could not be decoded (damaged, truncated, or followed by bytes that are not another
        /// gzip member); the text says why: 400.
        case undecodableContent(String)

        /// The status of the answer.
        public var status: Int {
            switch self {
            case .malformed: 400
            case .contentTooLarge: 413
            case .lengthRequired: 411
            case .transferCodingNotImplemented: 501
            case .requestTimeout: 408
            case .unsupportedContentCoding: 415
            case .undecodableContent: 400
            }
        }
    }
}
