/// How much of a duplicate report to build: the most repeated ids to list, and the most positions to list for
/// each. The totals are exact whatever the limits (``DuplicateIdentifiersError/repeatedCount``,
/// ``DuplicateIdentifier/occurrences``).
///
/// A report of every repeated id holds every position of each, as much memory as the snapshots' ids; a caller
/// that shows only the first few repeats can ask for those only, and the report then costs the same however many
/// ids repeat.
///
/// ```swift
/// // The first 100 repeated ids, each with its first 5 positions, and how many ids repeat in all.
/// try SectionedDifference(from: old, to: new, reportLimits: DuplicateReportLimits(listedIDs: 100, positionsPerID: 5))
/// ```
public struct DuplicateReportLimits: Hashable, Sendable {
    /// The most repeated ids listed, counted over the whole report in its order: the section ids first, then the
    /// element ids (see ``DuplicateIdentifiersError``).
    public var listedIDs: Int

    /// The most positions listed for one repeated id: its first ones.
    public var positionsPerID: Int

    /// Limits; both must be at least 0 (no limit is `Int.max`).
    ///
    /// - Parameters:
    ///   - listedIDs: The most repeated ids listed.
    ///   - positionsPerID: The most positions listed per repeated id.
    public init(listedIDs: Int = .max, positionsPerID: Int = .max) {
        precondition(listedIDs >= 0 && positionsPerID >= 0, "a negative duplicate report limit")
        self.listedIDs = listedIDs
        self.positionsPerID = positionsPerID
    }

    /// Every repeated id with every position: the report ``DuplicatePolicy/reject`` throws by default.
    public static let unlimited = DuplicateReportLimits()
}
