extension WaterfallPage {
    #if WATERFALL_INTERNAL_CHECKS
        /// Traps unless the page's per-column tables agree with each other and with its items: one entry per
        /// column in ``columnItems`` and ``columnHeights``; items numbered in order; each column's items listed
        /// top to bottom, exactly the items placed in it; every frame within the content height.
        ///
        /// Compiled in under `WATERFALL_INTERNAL_CHECKS`, which debug builds define (as swift-collections does with
        /// `COLLECTIONS_INTERNAL_CHECKS`); otherwise it does nothing. Every page checks itself when it is laid
        /// out; the property tests call it too.
        ///
        /// - Complexity: O(p) for p items on the page.
        @inline(never)
        public func _checkInvariants() {
            let columnCount = geometry.columnCount
            precondition(columnItems.count == columnCount, "columnItems is not one per column")
            precondition(columnHeights.count == columnCount, "columnHeights is not one per column")
            precondition(continuation.map { $0.columnHeights.count == columnCount } ?? true, "the continuation's columns")
            let first = items.first?.index ?? 0
            for (offset, item) in items.enumerated() {
                precondition(item.index == first + offset, "item \(offset) numbered \(item.index)")
                precondition(item.column.map { (0..<columnCount).contains($0) } ?? true, "item \(item.index) in no column")
                precondition(item.frame.maxY <= contentHeight, "item \(item.index) below the content height")
            }
            var listed = 0
            for (column, indices) in columnItems.enumerated() {
                var lastBottom = Int.min
                for index in indices {
                    let offset = index - first
                    precondition(items.indices.contains(offset), "column \(column) lists item \(index), not on the page")
                    precondition(items[offset].column == column, "column \(column) lists item \(index) of another column")
                    precondition(items[offset].frame.y >= lastBottom, "column \(column) out of order at item \(index)")
                    lastBottom = items[offset].frame.maxY
                }
                listed += indices.count
            }
            precondition(listed == items.count(where: { $0.column != nil }), "columns list \(listed) items")
        }
    #else
        /// Traps unless the page's per-column tables agree with each other and with its items; compiled in under
        /// `WATERFALL_INTERNAL_CHECKS` only (debug builds), and here it does nothing.
        ///
        /// - Complexity: O(1).
        @inline(__always)
        public func _checkInvariants() {}
    #endif
}
