/// Every kind of problem the service reports, each with a stable RFC 9457 `type` URI
/// (`urn:snapdiff:problem:<slug>`), its status and its title. openapi.yaml lists the same set.
public enum ProblemType: String, CaseIterable, Sendable {
    case notFound = "not-found"
    case methodNotAllowed = "method-not-allowed"
    case unsupportedMediaType = "unsupported-media-type"
    case contentTooLarge = "content-too-large"
    case emptyBody = "empty-body"
    case malformedJSON = "malformed-json"
    case invalidUTF8 = "invalid-utf8"
    case nestingTooDeep = "nesting-too-deep"
    case invalidRequest = "invalid-request"
    case duplicateIDs = "duplicate-ids"
    case invalidCursor = "invalid-cursor"
    case cursorMismatch = "cursor-mismatch"
    case layoutNotAppendStable = "layout-not-append-stable"
    case shuttingDown = "shutting-down"
    case overloaded = "overloaded"
    case malformedRequest = "malformed-request"
    case lengthRequired = "length-required"
    case requestTimeout = "request-timeout"
    case notImplemented = "not-implemented"
    case unsupportedContentCoding = "unsupported-content-coding"
    case undecodableContent = "undecodable-content"

    /// The `type` member: a URN, stable across versions and deployments.
    public var uri: String { "urn:snapdiff:problem:\(rawValue)" }

    /// The HTTP status.
    public var status: Int {
        switch self {
        case .notFound: 404
        case .methodNotAllowed: 405
        case .unsupportedMediaType: 415
        case .contentTooLarge: 413
        case .emptyBody, .malformedJSON, .invalidUTF8, .nestingTooDeep, .invalidCursor: 400
        case .cursorMismatch: 409
        case .invalidRequest, .duplicateIDs, .layoutNotAppendStable: 422
        case .shuttingDown, .overloaded: 503
        case .malformedRequest: 400
        case .lengthRequired: 411
        case .requestTimeout: 408
        case .notImplemented: 501
        case .unsupportedContentCoding: 415
        case .undecodableContent: 400
        }
    }

    /// The `title` member: the same for every occurrence of the problem.
    public var title: String {
        switch self {
        case .notFound: "Not found"
        case .methodNotAllowed: "Method not allowed"
        case .unsupportedMediaType: "Unsupported media type"
        case .contentTooLarge: "Content too large"
        case .emptyBody: "Empty body"
        case .malformedJSON: "Malformed JSON"
        case .invalidUTF8: "Invalid UTF-8"
        case .nestingTooDeep: "Nesting too deep"
        case .invalidRequest: "Invalid request"
        case .duplicateIDs: "Duplicate ids"
        case .invalidCursor: "Invalid cursor"
        case .cursorMismatch: "Cursor from other settings"
        case .layoutNotAppendStable: "Layout strategy is not append-stable"
        case .shuttingDown: "Shutting down"
        case .overloaded: "Overloaded"
        case .malformedRequest: "Malformed request"
        case .lengthRequired: "Length required"
        case .requestTimeout: "Request timeout"
        case .notImplemented: "Not implemented"
        case .unsupportedContentCoding: "Unsupported content coding"
        case .undecodableContent: "Undecodable content"
        }
    }
}
