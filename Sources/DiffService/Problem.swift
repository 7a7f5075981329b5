import MicroHTTP
import SnapshotJSON

/// An RFC 9457 problem: what went wrong with a request, where, and nothing else happens.
///
/// Every error the service answers with becomes a `Problem` and is written in one place
/// (``response(instance:)``), as `application/problem+json`.
public struct Problem: Error, Sendable {
    /// An id that a snapshot repeats, and the JSON paths of every occurrence.
    public struct Duplicate: Sendable {
        /// `old` or `new`.
        public var snapshot: String
        /// `section` or `item`.
        public var kind: String
        /// Writes the id as JSON (a string or an integer).
        public var writeID: @Sendable (inout JSONWriter) -> Void
        /// The paths of the first occurrences (at most ``Problem/listedPathLimit``).
        public var paths: [String]
        /// How many times the id appears.
        public var occurrences: Int

        /// Creates a duplicate from the positions of its occurrences, rendering only the paths that are listed.
        ///
        /// - Parameters:
        ///   - snapshot: `old`, `new` or `layout`.
        ///   - kind: `section` or `item`.
        ///   - writeID: Writes the id.
        ///   - positions: Every occurrence, in order.
        ///   - path: Renders one occurrence's JSON path.
        public init<Positions: Collection>(
            snapshot: String, kind: String, writeID: @escaping @Sendable (inout JSONWriter) -> Void,
            positions: Positions, path: (Positions.Element) -> String
        ) {
            self.snapshot = snapshot
            self.kind = kind
            self.writeID = writeID
            self.paths = positions.prefix(Problem.listedPathLimit).map(path)
            self.occurrences = positions.count
        }
    }

    /// For duplicate ids: how many ids are repeated, when more than ``duplicates`` holds.
    public var duplicateCount: Int?

    /// The kind of problem.
    public var type: ProblemType
    /// A human-readable explanation of this occurrence.
    public var detail: String
    /// For syntax errors: the 1-based line.
    public var line: Int?
    /// For syntax errors: the 1-based column, in Unicode scalars.
    public var column: Int?
    /// For syntax errors and bad bytes: the 0-based byte offset in the body.
    public var offset: Int?
    /// For invalid values: the offending values (the first ``SnapshotJSON/Violations/listedLimit`` are written).
    public var errors: [Violation] = []
    /// For invalid values: how many there are, when more were found than ``errors`` holds.
    public var errorCount: Int?
    /// For duplicate ids: every duplicate.
    public var duplicates: [Duplicate] = []
    /// For limits: the limit.
    public var limit: Int?
    /// For 405: the allowed methods, sent in `Allow`.
    public var allowedMethods: [String] = []
    /// For 503: the seconds after which a retry may succeed, sent in `Retry-After`.
    public var retryAfterSeconds: Int?

    /// The most entries of ``duplicates`` an answer lists (the first ones, in body order), as ``errors`` lists
    /// at most ``SnapshotJSON/Violations/listedLimit``; `duplicateCount`, `errorCount` and a duplicate's
    /// `occurrences` give the totals. So an error answer stays small whatever the body.
    public static let listedEntryLimit = 1000
    /// The most paths listed for one duplicate id.
    public static let listedPathLimit = 10

    /// Creates a problem.
    public init(_ type: ProblemType, detail: String) {
        self.type = type
        self.detail = detail
    }

    /// The problem as an HTTP response with `Content-Type: application/problem+json`.
    ///
    /// - Parameter instance: The request path, reported as `instance`; `nil` leaves the member out (the 413
    ///   that the HTTP layer sends before routing is made once, for every path).
    public func response(instance: String?) -> HTTPResponse {
        var writer = JSONWriter(pretty: false)
        writer.beginObject()
        writer.member("type", type.uri)
        writer.member("title", type.title)
        writer.member("status", type.status)
        writer.member("detail", detail)
        if let instance { writer.member("instance", instance) }
        if let line { writer.member("line", line) }
        if let column { writer.member("column", column) }
        if let offset { writer.member("offset", offset) }
        if let limit { writer.member("limit", limit) }
        if !errors.isEmpty {
            writer.member("errorCount", max(errorCount ?? 0, errors.count))
            writer.key("errors")
            writer.beginArray()
            for error in errors.prefix(Violations.listedLimit) {
                writer.beginObject()
                writer.member("path", error.path)
                writer.member("message", error.message)
                writer.endObject()
            }
            writer.endArray()
        }
        if !duplicates.isEmpty {
            writer.member("duplicateCount", max(duplicateCount ?? 0, duplicates.count))
            writer.key("duplicates")
            writer.beginArray()
            for duplicate in duplicates.prefix(Self.listedEntryLimit) {
                writer.beginObject()
                writer.member("snapshot", duplicate.snapshot)
                writer.member("kind", duplicate.kind)
                writer.key("id")
                duplicate.writeID(&writer)
                writer.member("occurrences", duplicate.occurrences)
                writer.key("paths")
                writer.beginArray()
                for path in duplicate.paths { writer.value(path) }
                writer.endArray()
                writer.endObject()
            }
            writer.endArray()
        }
        writer.endObject()
        writer.finish()
        var headers: HTTPHeaders = ["Content-Type": "application/problem+json"]
        if !allowedMethods.isEmpty { headers.add(name: "Allow", value: allowedMethods.joined(separator: ", ")) }
        if let retryAfterSeconds { headers.add(name: "Retry-After", value: String(retryAfterSeconds)) }
        return HTTPResponse(status: type.status, headers: headers, body: writer.bytes)
    }
}
