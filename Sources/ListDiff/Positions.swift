/// The first position of each id, and every position of the ids that repeat.
///
/// Only repeated ids get an array of positions, so the scan costs one dictionary entry per id however many
/// ids there are.
@usableFromInline
struct Positions<ID: Hashable, Position> {
    @usableFromInline var first: [ID: (position: Position, ordinal: Int)] = [:]
    @usableFromInline var repeats: [ID: [Position]] = [:]

    @inlinable init() {}

    /// Records `id` at `position`; returns whether this is its first appearance.
    @inlinable
    mutating func record(_ id: ID, at position: Position) -> Bool {
        if let earlier = first[id] {
            repeats[id, default: [earlier.position]].append(position)
            return false
        }
        first[id] = (position, first.count)
        return true
    }

    /// The ids that appear more than once, with all their positions, in order of first appearance.
    ///
    /// - Complexity: O(*r* log *r*) for *r* repeated ids.
    @inlinable
    var repeated: [(id: ID, positions: [Position])] {
        repeats.map { (id: $0.key, positions: $0.value, ordinal: first[$0.key]!.ordinal) }
            .sorted { $0.ordinal < $1.ordinal }
            .map { (id: $0.id, positions: $0.positions) }
    }
}
