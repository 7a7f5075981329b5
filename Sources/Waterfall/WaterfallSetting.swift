/// A value of ``WaterfallSettings`` (or of the layout call) that the engine checks, named without reference
/// to any wire format: the service maps each to where the client wrote it.
public enum WaterfallSetting: Hashable, Sendable {
    /// ``WaterfallSettings/containerWidth``.
    case containerWidth
    /// ``WaterfallSettings/scale``.
    case scale
    /// The count of ``ColumnRule/count(_:)``.
    case columnCount
    /// The width of ``ColumnRule/minimumWidth(_:maximumCount:)``.
    case minimumColumnWidth
    /// The maximum count of ``ColumnRule/minimumWidth(_:maximumCount:)``.
    case maximumColumnCount
    /// The column rule as a whole, with the spacing and insets: the columns leave no width.
    case columns
    /// ``WaterfallSettings/columnSpacing``.
    case columnSpacing
    /// ``WaterfallSettings/itemSpacing``.
    case itemSpacing
    /// ``EdgeInsets/top``.
    case insetTop
    /// ``EdgeInsets/leading``.
    case insetLeading
    /// ``EdgeInsets/bottom``.
    case insetBottom
    /// ``EdgeInsets/trailing``.
    case insetTrailing
    /// The page size given to ``WaterfallLayout/layout(_:settings:after:pageSize:)``.
    case pageSize
}
