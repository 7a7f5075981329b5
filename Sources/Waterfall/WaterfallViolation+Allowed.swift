extension WaterfallViolation {
    /// What a checked value may be.
    public enum Allowed: Hashable, Sendable {
        /// A number in the range, both ends included (a scale of `0.25...8`).
        case number(in: ClosedRange<ExactDecimal>)
        /// A number above 0 and at most the bound (a container width of at most 100,000 points).
        case positiveNumber(atMost: ExactDecimal)
        /// An integer in the range, both ends included (a column count of `1...64`).
        case integer(in: ClosedRange<Int>)
        /// An integer of at least the bound (a page size of at least 1).
        case integerAtLeast(Int)
        /// Model width ÷ model height in the range, both ends included (``ItemSize/size(width:height:)``).
        case widthToHeightRatio(in: ClosedRange<ExactDecimal>)
        /// Columns at least one pixel wide: `columnCount` columns had `remainingPixels` (zero or fewer, or
        /// fewer than the columns) to share after spacing and insets.
        case positiveColumnWidth(columnCount: Int, remainingPixels: Int)
    }
}
