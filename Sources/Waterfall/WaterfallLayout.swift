/// Computes Pinterest-style waterfall layouts: which column each item goes in and its frame.
///
/// ```swift
/// let settings = WaterfallSettings(containerWidth: 375, scale: 3, columns: .count(2), columnSpacing: 8)
/// let first = try WaterfallLayout.layout(page1, settings: settings, pageSize: 50)
/// let second = try WaterfallLayout.layout(page2, settings: settings, after: first.continuation)
/// ```
///
/// With an append-stable strategy (``LayoutStrategy/shortestColumn``, ``LayoutStrategy/roundRobin``), the
/// pages obtained through continuations are, frame for frame, the layout of all the items at once.
public enum WaterfallLayout {
    /// Lays out items, from the start of a section or after a previous page.
    ///
    /// - Parameters:
    ///   - items: The items to lay out, starting at the continuation's next index (or at 0).
    ///   - settings: The layout settings.
    ///   - continuation: Where the previous page ended; `nil` for the first page.
    ///   - pageSize: Lay out at most this many of `items` (≥ 1); all when `nil`. Only for append-stable
    ///     strategies.
    /// - Returns: The page, with a continuation for append-stable strategies.
    /// - Throws: ``WaterfallError/invalidValues(_:)`` naming every invalid setting and item (and a page size
    ///   below 1); then ``WaterfallError`` for a continuation from other settings
    ///   (``WaterfallError/continuationMismatch``), or a continuation or page size with a strategy that lays
    ///   out whole sections.
    /// - Complexity: O(p · c) for p items laid out in c columns (O(p log H) for ``LayoutStrategy/balanced``
    ///   with total height H), independent of how many pages came before.
    public static func layout(
        _ items: [WaterfallItem], settings: WaterfallSettings, after continuation: Continuation? = nil,
        pageSize: Int? = nil
    ) throws(WaterfallError) -> WaterfallPage {
        var violations: [WaterfallViolation] = []
        let geometry = WaterfallGeometry(settings, violations: &violations)
        violations += pageSizeViolations(pageSize)
        for (index, item) in items.enumerated() { violations += item.violations(index: index) }
        guard violations.isEmpty else { throw .invalidValues(violations) }
        try check(geometry, after: continuation, pageSize: pageSize)
        // Only the page's items are measured: the rest of a long list is sent but not laid out.
        let count = min(pageSize ?? items.count, items.count)
        let measured = items.prefix(count).map { MeasuredItem(valid: $0, in: geometry) }
        return place(measured, count: count, geometry: geometry, after: continuation)
    }

    /// Lays out items measured for a geometry (``MeasuredItem/init(_:in:)``), from the start of a section or after
    /// a previous page: the same page as ``layout(_:settings:after:pageSize:)`` for the items measured, when a
    /// long list is better held measured (sixteen bytes an item) than decoded.
    ///
    /// - Parameters:
    ///   - items: The items, measured for `geometry`, starting at the continuation's next index (or at 0); only
    ///     the first `pageSize` are laid out, so only those need be given.
    ///   - geometry: The geometry the items were measured for.
    ///   - continuation: Where the previous page ended; `nil` for the first page.
    ///   - pageSize: Lay out at most this many of `items` (≥ 1); all when `nil`. Only for append-stable
    ///     strategies.
    /// - Returns: The page, with a continuation for append-stable strategies.
    /// - Throws: ``WaterfallError/invalidValues(_:)`` for a page size below 1; then what
    ///   ``layout(_:settings:after:pageSize:)`` throws for the continuation and the strategy.
    /// - Complexity: O(p · c) for p items laid out in c columns (O(p log H) for ``LayoutStrategy/balanced``
    ///   with total height H).
    public static func layout(
        _ items: [MeasuredItem], geometry: WaterfallGeometry, after continuation: Continuation? = nil,
        pageSize: Int? = nil
    ) throws(WaterfallError) -> WaterfallPage {
        let violations = pageSizeViolations(pageSize)
        guard violations.isEmpty else { throw .invalidValues(violations) }
        try check(geometry, after: continuation, pageSize: pageSize)
        return place(items, count: min(pageSize ?? items.count, items.count), geometry: geometry, after: continuation)
    }

    /// Whether the strategy may continue or page, and the continuation is one of this geometry.
    private static func check(
        _ geometry: WaterfallGeometry, after continuation: Continuation?, pageSize: Int?
    ) throws(WaterfallError) {
        let strategy = geometry.settings.strategy
        if continuation != nil && !strategy.isAppendStable { throw .strategyNotAppendStable(strategy) }
        if pageSize != nil && !strategy.isAppendStable { throw .pagingNotSupported(strategy) }
        if let continuation {
            guard continuation.fingerprint == geometry.fingerprint,
                continuation.columnHeights.count == geometry.columnCount
            else { throw .continuationMismatch }
        }
    }

    /// Places the first `count` items, after a continuation checked by ``check(_:after:pageSize:)``.
    private static func place(
        _ items: [MeasuredItem], count: Int, geometry: WaterfallGeometry, after continuation: Continuation?
    ) -> WaterfallPage {
        let strategy = geometry.settings.strategy
        var placer = Placer(geometry: geometry, continuation: continuation, capacity: count)
        switch strategy {
        case .shortestColumn:
            for item in items[..<count] {
                if item.isFullWidth {
                    placer.placeFullWidth(height: item.height)
                } else {
                    placer.place(height: item.height, in: placer.shortestColumn)
                }
            }
        case .roundRobin:
            for item in items[..<count] {
                if item.isFullWidth {
                    placer.placeFullWidth(height: item.height)
                } else {
                    placer.place(height: item.height, in: placer.nextColumn)
                }
            }
        case .sequentialSplit, .balanced:
            var start = 0
            while start < count {
                var end = start
                while end < count && !items[end].isFullWidth { end += 1 }
                let segment = items[start..<end].map(\.height)
                let columns =
                    strategy == .balanced
                    ? balancedColumns(segment, columnCount: geometry.columnCount, spacing: geometry.itemSpacing)
                    : splitColumns(segment, columnCount: geometry.columnCount)
                for (offset, column) in columns.enumerated() { placer.place(height: segment[offset], in: column) }
                if end < count { placer.placeFullWidth(height: items[end].height) }
                start = end + 1
            }
        }
        return placer.page(appendStable: strategy.isAppendStable)
    }

    /// Every invalid setting of a layout call: the settings' (``WaterfallGeometry/violations(of:)``) and a
    /// page size below 1. With each item's ``WaterfallItem/violations(index:)``, what
    /// ``layout(_:settings:after:pageSize:)`` reports.
    public static func violations(of settings: WaterfallSettings, pageSize: Int?) -> [WaterfallViolation] {
        WaterfallGeometry.violations(of: settings) + pageSizeViolations(pageSize)
    }

    private static func pageSizeViolations(_ pageSize: Int?) -> [WaterfallViolation] {
        guard let pageSize, pageSize < 1 else { return [] }
        return [WaterfallViolation(.setting(.pageSize), allowed: .integerAtLeast(1))]
    }

    /// The seed's split generalised to n columns: an item goes to column ⌊n · before ÷ total⌋, capped.
    static func splitColumns(_ heights: [Int], columnCount: Int) -> [Int] {
        let total = heights.reduce(0, +)
        var before = 0
        return heights.map { height in
            defer { before += height }
            return total == 0 ? 0 : min(columnCount - 1, before * columnCount / total)
        }
    }

    /// Contiguous runs of items, one per column, that minimise the tallest column (heights plus item
    /// spacing between items of a column): binary search on the tallest height, greedy feasibility.
    ///
    /// - Complexity: O(n log H) for n items of total height H.
    static func balancedColumns(_ heights: [Int], columnCount: Int, spacing: Int) -> [Int] {
        guard let tallest = heights.max() else { return [] }
        var low = tallest
        var high = heights.reduce(0) { $0 + $1 + spacing } - spacing
        while low < high {
            let middle = low + (high - low) / 2
            if greedyColumns(heights, limit: middle, spacing: spacing).last! < columnCount {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return greedyColumns(heights, limit: low, spacing: spacing)
    }

    /// Fills columns in order, starting a new one when the next item would exceed `limit`.
    private static func greedyColumns(_ heights: [Int], limit: Int, spacing: Int) -> [Int] {
        var column = 0
        var used = 0  // height of the current column, items and spacing between them
        return heights.map { height in
            if used > 0 && used + spacing + height > limit {
                column += 1
                used = 0
            }
            used += (used > 0 ? spacing : 0) + height
            return column
        }
    }
}
