/// Validated settings turned into whole device pixels: the column count, the column width and every
/// spacing. Working in integer pixels is what makes laying out page by page give exactly the frames of
/// laying out everything at once.
///
/// Conversions: the container width is floored to pixels; spacings, insets and fixed heights are rounded
/// to the nearest pixel; the column width is ⌊(available − (n−1) · spacing) ÷ n⌋, as
/// CHTCollectionViewWaterfallLayout does.
public struct WaterfallGeometry: Hashable, Sendable {
    /// The most columns a layout may have.
    public static let maximumColumnCount = 64
    /// The largest container width, spacing, inset or fixed height accepted, in points.
    public static let maximumLength = 100_000.0
    /// The display scales accepted.
    public static let scaleRange = 0.25...8.0
    /// The aspect ratios (width ÷ height) accepted: from 1:100 to 100:1.
    public static let aspectRatioRange = 0.01...100.0

    /// The settings this geometry was made from.
    public let settings: WaterfallSettings
    /// The container width in pixels.
    public let containerWidth: Int
    /// The number of columns.
    public let columnCount: Int
    /// Each column's width in pixels, ≥ 1.
    public let columnWidth: Int
    /// Space between columns in pixels.
    public let columnSpacing: Int
    /// Space between items of a column in pixels.
    public let itemSpacing: Int
    /// Insets in pixels.
    public let top: Int, leading: Int, bottom: Int, trailing: Int

    /// Validates settings and converts them to pixels.
    ///
    /// - Parameter settings: The layout settings.
    /// - Throws: ``WaterfallError/invalidSetting(field:reason:)`` naming the field that is not finite, out of
    ///   range or non-positive; ``WaterfallError/noColumnWidth(columnCount:availablePixels:)`` when the
    ///   columns leave no positive width after spacing and insets.
    public init(_ settings: WaterfallSettings) throws(WaterfallError) {
        self.settings = settings
        guard settings.scale.isFinite, Self.scaleRange.contains(settings.scale) else {
            throw .invalidSetting(field: "scale", reason: "must be a number from 0.25 to 8")
        }
        let scale = settings.scale
        func pixels(
            _ value: Double, _ field: String, positive: Bool = false, rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
        ) throws(WaterfallError) -> Int {
            guard value.isFinite, positive ? value > 0 : value >= 0, value <= Self.maximumLength else {
                throw .invalidSetting(
                    field: field,
                    reason: positive ? "must be a number above 0 and at most 100000" : "must be a number from 0 to 100000")
            }
            return Int((value * scale).rounded(rule))
        }
        containerWidth = try pixels(settings.containerWidth, "containerWidth", positive: true, rule: .down)
        columnSpacing = try pixels(settings.columnSpacing, "columnSpacing")
        itemSpacing = try pixels(settings.itemSpacing, "itemSpacing")
        top = try pixels(settings.insets.top, "insets.top")
        leading = try pixels(settings.insets.leading, "insets.leading")
        bottom = try pixels(settings.insets.bottom, "insets.bottom")
        trailing = try pixels(settings.insets.trailing, "insets.trailing")
        let available = containerWidth - leading - trailing

        switch settings.columns {
        case .count(let count):
            guard (1...Self.maximumColumnCount).contains(count) else {
                throw .invalidSetting(field: "columns.count", reason: "must be an integer from 1 to \(Self.maximumColumnCount)")
            }
            columnCount = count
        case .minimumWidth(let width, let maximumCount):
            let minimum = try pixels(width, "columns.minimumWidth", positive: true)
            if let maximumCount, !(1...Self.maximumColumnCount).contains(maximumCount) {
                throw .invalidSetting(
                    field: "columns.maximumCount", reason: "must be an integer from 1 to \(Self.maximumColumnCount)")
            }
            let fitting = (available + columnSpacing) / max(1, minimum + columnSpacing)
            columnCount = max(1, min(fitting, maximumCount ?? Self.maximumColumnCount, Self.maximumColumnCount))
        }
        let width = (available - (columnCount - 1) * columnSpacing) / columnCount
        guard available > 0, width >= 1 else {
            throw .noColumnWidth(columnCount: columnCount, availablePixels: available - (columnCount - 1) * columnSpacing)
        }
        columnWidth = width
    }

    /// The width full-width items get: the container minus the insets, in pixels.
    public var fullWidth: Int { containerWidth - leading - trailing }

    /// The left edge of a column in pixels, mirrored in right-to-left layouts.
    public func columnX(_ column: Int) -> Int {
        switch settings.direction {
        case .leftToRight: leading + column * (columnWidth + columnSpacing)
        case .rightToLeft: containerWidth - leading - columnWidth - column * (columnWidth + columnSpacing)
        }
    }

    /// The left edge of full-width items in pixels.
    public var fullWidthX: Int {
        switch settings.direction {
        case .leftToRight: leading
        case .rightToLeft: trailing
        }
    }

    /// An item's height in pixels at the width it gets (a column, or the full width), ≥ 1.
    ///
    /// - Parameters:
    ///   - item: The item.
    ///   - index: Its position among the items given, for the error.
    /// - Throws: ``WaterfallError/invalidItem(index:field:reason:)`` for a non-positive, non-finite or absurd
    ///   size.
    public func height(of item: WaterfallItem, index: Int) throws(WaterfallError) -> Int {
        let width = Double(item.isFullWidth ? fullWidth : columnWidth)
        let content: Double
        switch item.size {
        case .aspectRatio(let ratio):
            guard ratio.isFinite, Self.aspectRatioRange.contains(ratio) else {
                throw .invalidItem(index: index, field: "aspectRatio", reason: "must be a number from 0.01 to 100")
            }
            content = (width / ratio).rounded(.down)
        case .size(let modelWidth, let modelHeight):
            guard modelWidth.isFinite, modelWidth > 0, modelWidth <= 1e9 else {
                throw .invalidItem(index: index, field: "width", reason: "must be a number above 0 and at most 1e9")
            }
            guard modelHeight.isFinite, modelHeight > 0, modelHeight <= 1e9 else {
                throw .invalidItem(index: index, field: "height", reason: "must be a number above 0 and at most 1e9")
            }
            guard Self.aspectRatioRange.contains(modelWidth / modelHeight) else {
                throw .invalidItem(index: index, field: "width", reason: "width ÷ height must be from 0.01 to 100")
            }
            content = (modelHeight * width / modelWidth).rounded(.down)
        case .fixedHeight(let points):
            guard points.isFinite, points > 0, points <= Self.maximumLength else {
                throw .invalidItem(index: index, field: "fixedHeight", reason: "must be a number above 0 and at most 100000")
            }
            content = (points * settings.scale).rounded()
        }
        guard item.extraHeight.isFinite, item.extraHeight >= 0, item.extraHeight <= Self.maximumLength else {
            throw .invalidItem(index: index, field: "extraHeight", reason: "must be a number from 0 to 100000")
        }
        return max(1, Int(content) + Int((item.extraHeight * settings.scale).rounded()))
    }

    /// A stable 64-bit fingerprint of everything that decides frames: the pixel geometry, the scale, the
    /// direction and the strategy. Equal for any two settings that lay out identically; the same on every
    /// replica and every run (FNV-1a over a fixed encoding).
    public var fingerprint: UInt64 {
        var hash = Fingerprint()
        hash.combine(string: "snapdiff-waterfall-1")
        for value in [containerWidth, columnCount, columnWidth, columnSpacing, itemSpacing, top, leading, bottom, trailing] {
            hash.combine(UInt64(bitPattern: Int64(value)))
        }
        hash.combine((settings.scale + 0).bitPattern)
        hash.combine(string: settings.direction.rawValue)
        hash.combine(string: settings.strategy.rawValue)
        return hash.value
    }
}
