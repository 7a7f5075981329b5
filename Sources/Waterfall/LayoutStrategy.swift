/// How a waterfall layout assigns items to columns.
public enum LayoutStrategy: String, Hashable, Sendable, CaseIterable {
    /// Each item, in order, goes to the column whose running height is smallest; ties go to the leading
    /// column. What nearly every production engine does. **Append-stable.**
    case shortestColumn
    /// Items go to columns 0, 1, …, n−1, 0, … in turn; a full-width item restarts the turn at column 0.
    /// **Append-stable.**
    case roundRobin
    /// The split of seed 001, generalised to n columns: with `total` the sum of the item heights, an item
    /// goes to column ⌊n · (height of the items before it) / total⌋ (capped at n−1). Keeps reading order
    /// within each column. Lays out a whole section: **not** append-stable.
    case sequentialSplit
    /// Order-keeping columns (contiguous runs of items) that minimise the tallest column, exactly (the
    /// linear partition problem). Lays out a whole section: **not** append-stable.
    case balanced

    /// Whether appending items never moves the items already laid out, so that a page can be continued
    /// from a cursor.
    public var isAppendStable: Bool {
        switch self {
        case .shortestColumn, .roundRobin: true
        case .sequentialSplit, .balanced: false
        }
    }
}
