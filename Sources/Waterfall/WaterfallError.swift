/// Why a waterfall layout cannot be computed.
public enum WaterfallError: Error, Hashable, Sendable {
    /// Values out of their allowed ranges: every invalid setting (including columns that leave no width,
    /// and the page size) and every invalid item size, settings first, then items in order.
    case invalidValues([WaterfallViolation])
    /// A continuation was made with other settings than the ones given now.
    case continuationMismatch
    /// A continuation was given with a strategy that lays out whole sections.
    case strategyNotAppendStable(LayoutStrategy)
    /// A page size was given with a strategy that lays out whole sections.
    case pagingNotSupported(LayoutStrategy)
    /// The continuation's bytes are not a continuation of this version, for the reason given.
    case malformedContinuation(ContinuationDefect)
}
