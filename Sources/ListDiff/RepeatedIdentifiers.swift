/// The ids of one flat list that appear more than once: the scan behind ``DuplicateIdentifiersError``, for lists
/// that are not snapshots (a waterfall layout's items).
public enum RepeatedIdentifiers {
    /// Every id that `ids` holds more than once, with all its positions (ascending), in order of first position;
    /// empty when the ids are all different.
    ///
    /// - Complexity: O(*n*) expected: a set of the ids when they are unique; the positions of each only when some
    ///   id repeats. Inlinable, so that it is specialised for the caller's id type.
    @inlinable
    public static func find<ID: Hashable>(in ids: some Collection<ID>) -> [(id: ID, positions: [Int])] {
        var seen = Set<ID>(minimumCapacity: ids.count)
        guard ids.contains(where: { !seen.insert($0).inserted }) else { return [] }
        seen = []
        var positions = Positions<ID, Int>()
        for (index, id) in ids.enumerated() { _ = positions.record(id, at: index) }
        return positions.repeated
    }
}
