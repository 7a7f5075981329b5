/// The ids of one flat list that appear more than once: the scan behind ``DuplicateIdentifiersError``, for lists
/// that are not snapshots (a waterfall layout's items).
public enum RepeatedIdentifiers {
    /// Every id that `ids` holds more than once, with all its positions (ascending), in order of first position;
    /// empty when the ids are all different.
    ///
    /// - Complexity: O(*n*) expected: a set of the ids when they are unique; a table of the ids' first positions
    ///   when some id repeats. Inlinable, so that it is specialised for the caller's id type.
    @inlinable
    public static func find<ID: Hashable>(in ids: some Collection<ID>) -> [(id: ID, positions: [Int])] {
        find(in: ids, limits: .unlimited).listed.map { (id: $0.id, positions: $0.positions) }
    }

    /// The first ``DuplicateReportLimits/listedIDs`` ids that `ids` holds more than once, in order of first
    /// position, each with its first ``DuplicateReportLimits/positionsPerID`` positions (ascending) and how many
    /// times it appears; and how many ids repeat in all. Nothing is listed and the count is 0 when the ids are all
    /// different.
    ///
    /// - Complexity: O(*n*) expected: a set of the ids when they are unique; a table of the ids' first positions
    ///   and a bit per position when some id repeats, and only the listed positions. Inlinable, so that it is
    ///   specialised for the caller's id type.
    @inlinable
    public static func find<ID: Hashable>(
        in ids: some Collection<ID>, limits: DuplicateReportLimits
    ) -> (listed: [(id: ID, positions: [Int], occurrences: Int)], repeatedCount: Int) {
        var seen = Set<ID>(minimumCapacity: ids.count)
        guard ids.contains(where: { !seen.insert($0).inserted }) else { return ([], 0) }
        seen = []
        // First pass: which ids repeat, through each id's first position.
        var firsts = [ID: ClaimSlot](minimumCapacity: ids.count)
        var tally = RepeatTally(count: ids.count)
        for (index, id) in ids.enumerated() {
            if case .source(let first) = firsts[id, default: ClaimSlot(.unclaimed)].claim(.source(index)) {
                tally.recordRepeat(of: first)
            }
        }
        guard limits.listedIDs > 0, let start = tally.firstRepeated else { return ([], tally.repeatedCount) }
        // Second pass, from the first repeated id: the listed ids' positions and occurrences.
        var listing = RepeatListing<ID, Int>(tally, limit: limits.listedIDs, positionLimit: limits.positionsPerID)
        for (index, id) in ids.enumerated() where index >= start {
            guard case .source(let first) = firsts[id]?.claim else { continue }
            listing.visit(index, first: first, at: index) { id }
        }
        return (listing.entries, tally.repeatedCount)
    }
}
