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
        Array(SequentialRange.merging(sequential))
    }
}

extension SequentialRange {
    /// Merges each run of sequential operations that ``extended(by:)`` joins into one range, lazily: a writer
    /// streams the ranges without holding them all.
    ///
    /// - Parameter changes: Sequential operations, each relative to the state the previous ones left.
    /// - Returns: Ranges whose ``changes``, concatenated, are `changes`.
    /// - Complexity: O(1); iterating is O(*n*) for *n* operations.
    public static func merging<Changes: Sequence<SequentialChange>>(_ changes: Changes) -> MergedRanges<Changes> {
        MergedRanges(changes)
    }
}

/// The ranges of a sequence of sequential operations, each run that ``SequentialRange/extended(by:)`` joins
/// merged into one, computed as they are read (see ``SequentialRange/merging(_:)``).
public struct MergedRanges<Changes: Sequence<SequentialChange>>: Sequence {
    private let changes: Changes

    init(_ changes: Changes) {
        self.changes = changes
    }

    /// An iterator over the ranges.
    public func makeIterator() -> Iterator {
        Iterator(changes.makeIterator())
    }

    /// Reads operations until the run in hand ends, then returns it.
    public struct Iterator: IteratorProtocol {
        private var changes: Changes.Iterator
        /// The first operation after the run being returned, read ahead.
        private var pending: SequentialChange?

        init(_ changes: Changes.Iterator) {
            self.changes = changes
            pending = self.changes.next()
        }

        /// The next range, or `nil` after the last.
        public mutating func next() -> SequentialRange? {
            guard let first = pending else { return nil }
            var range = SequentialRange(first)
            pending = nil
            while let change = changes.next() {
                guard let longer = range.extended(by: change) else {
                    pending = change
                    break
                }
                range = longer
            }
            return range
        }
    }
}
