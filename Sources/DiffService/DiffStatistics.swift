/// Where one `/diff` request spent its time, for metrics; a phase not reached is `nil`.
public struct DiffStatistics: Sendable {
    /// Reading the body (JSON, validation).
    public var parse: Duration?
    /// Diffing the snapshots.
    public var compute: Duration?
    /// Writing the response (renderings and layouts).
    public var write: Duration?
    /// The number of changes, when the diff succeeded.
    public var changes: Int?

    /// Creates empty statistics.
    public init() {}
}
