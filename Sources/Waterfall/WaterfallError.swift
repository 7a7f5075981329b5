/// Why a waterfall layout cannot be computed. Each case names the offending field so that the service can
/// point at it.
public enum WaterfallError: Error, Hashable, Sendable {
    /// A setting is out of its allowed range; `field` is its name (`containerWidth`, `scale`,
    /// `columns.count`, `insets.leading` …) and `reason` says what is allowed.
    case invalidSetting(field: String, reason: String)
    /// The columns leave no positive width once spacing and insets are taken off.
    case noColumnWidth(columnCount: Int, availablePixels: Int)
    /// An item's size is invalid; `index` is its position in the items given, `field` the size field.
    case invalidItem(index: Int, field: String, reason: String)
    /// A continuation was made with other settings than the ones given now.
    case continuationMismatch
    /// A continuation was given with a strategy that lays out whole sections.
    case strategyNotAppendStable(LayoutStrategy)
    /// A page size was given with a strategy that lays out whole sections.
    case pagingNotSupported(LayoutStrategy)
    /// The continuation's bytes are not a continuation of this version.
    case malformedContinuation(reason: String)
}
