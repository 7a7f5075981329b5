/// The first pass of a duplicate scan over one list: which ids repeat, as a bit per position of the list set at
/// the id's first position, and how many.
///
/// The ids themselves stay in the caller's table of first positions (which the second pass reads again), so the
/// tally costs a bit per position however many ids repeat.
@usableFromInline
struct RepeatTally {
    /// Bit `i % 64` of word `i / 64`: whether the id first seen at position `i` appears again.
    @usableFromInline var words: [UInt64]
    /// How many ids repeat.
    @usableFromInline var repeatedCount = 0

    /// A tally for a list of `count` positions, with no repeat yet.
    @inlinable
    init(count: Int) {
        words = [UInt64](repeating: 0, count: (count + 63) >> 6)
    }

    /// Records another occurrence of the id first seen at `first`.
    @inlinable @inline(__always)
    mutating func recordRepeat(of first: Int) {
        let mask: UInt64 = 1 << UInt64(first & 63)
        guard words[first >> 6] & mask == 0 else { return }
        words[first >> 6] |= mask
        repeatedCount += 1
    }

    /// Whether the id first seen at `first` appears again.
    @inlinable @inline(__always)
    func isRepeated(_ first: Int) -> Bool {
        words[first >> 6] & (1 << UInt64(first & 63)) != 0
    }

    /// The first position of the first repeated id, or `nil` when no id repeats.
    @inlinable
    var firstRepeated: Int? {
        guard let word = words.firstIndex(where: { $0 != 0 }) else { return nil }
        return word << 6 | words[word].trailingZeroBitCount
    }
}

/// The second pass of a duplicate scan over one list: the first ``limit`` repeated ids in order of first position,
/// each with its first ``positionLimit`` positions and the count of all its occurrences.
///
/// The caller visits every position from ``RepeatTally/firstRepeated`` on, in order, with the first position of
/// its id; only listed ids get an entry, so the listing costs the same however many ids repeat.
@usableFromInline
struct RepeatListing<ID, Position> {
    /// The first pass's findings.
    @usableFromInline let tally: RepeatTally
    /// The most ids listed.
    @usableFromInline let limit: Int
    /// The most positions listed per id.
    @usableFromInline let positionLimit: Int
    /// The listed ids, in order of first position.
    @usableFromInline var entries: [(id: ID, positions: [Position], occurrences: Int)] = []
    /// Each listed id's entry, by the id's first position.
    @usableFromInline var entryOfFirst: [Int: Int] = [:]
    /// The first position of the last id listed once ``limit`` are; later ids are not listed.
    @usableFromInline var lastListedFirst = Int.max

    /// A listing of at most `limit` of the ids `tally` found repeated.
    @inlinable
    init(_ tally: RepeatTally, limit: Int, positionLimit: Int) {
        self.tally = tally
        self.limit = min(limit, tally.repeatedCount)
        self.positionLimit = positionLimit
        entries.reserveCapacity(self.limit)
        entryOfFirst.reserveCapacity(self.limit)
        if self.limit == 0 { lastListedFirst = -1 }
    }

    /// Visits the occurrence at `index` (visited in order), whose id first appeared at `first`, standing at
    /// `position`; `id` reads the id, only when its first occurrence starts an entry.
    @inlinable @inline(__always)
    mutating func visit(_ index: Int, first: Int, at position: @autoclosure () -> Position, id: () -> ID) {
        guard first <= lastListedFirst, tally.isRepeated(first) else { return }
        if first == index {
            entryOfFirst[index] = entries.count
            entries.append((id: id(), positions: positionLimit > 0 ? [position()] : [], occurrences: 1))
            if entries.count == limit { lastListedFirst = index }
        } else if let entry = entryOfFirst[first] {
            entries[entry].occurrences += 1
            if entries[entry].positions.count < positionLimit { entries[entry].positions.append(position()) }
        }
    }
}
