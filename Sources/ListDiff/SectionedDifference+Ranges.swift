extension SectionedDifference {
    /// The ``sequential`` operations with every run of adjacent removals, insertions or updates of one kind
    /// (and one section, for elements) merged into one ``SequentialRange``: what RecyclerView's
    /// `notifyItemRangeRemoved / Inserted / Changed` take. Moves are never merged.
    ///
    /// Expanded (``SequentialRange/changes``), the ranges are exactly ``sequential``, so every index still
    /// refers to the list as left by the previous operations. The runs are maximal: sequential removals come
    /// in descending order and insertions and updates in ascending order, so two consecutive ranges of the same
    /// kind and section never touch. Appending 1,000 elements to a section is one `insertElements`.
    ///
    /// - Complexity: O(n + m + k log(n + m)) for k moves, as ``sequential``.
    public var ranges: [SequentialRange] {
        SequentialRange.merging(sequential)
    }
}

extension SequentialRange {
    /// Merges each run of sequential operations that ``extended(by:)`` joins into one range.
    ///
    /// - Parameter changes: Sequential operations, each relative to the state the previous ones left.
    /// - Returns: Ranges whose ``changes``, concatenated, are `changes`.
    /// - Complexity: O(*n*) for *n* operations.
    public static func merging(_ changes: some Sequence<SequentialChange>) -> [SequentialRange] {
        var ranges: [SequentialRange] = []
        var current: SequentialRange?
        for change in changes {
            if let extended = current?.extended(by: change) {
                current = extended
                continue
            }
            if let finished = current { ranges.append(finished) }
            current = SequentialRange(change)
        }
        if let finished = current { ranges.append(finished) }
        return ranges
    }
}
