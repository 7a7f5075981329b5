/// Validated settings turned into whole device pixels: the column count, the column width and every
/// spacing. Working in integer pixels is what makes laying out page by page give exactly the frames of
/// laying out everything at once.
///
/// Conversions, exact on the decimals given: the container width is floored to whole pixels; spacings,
/// insets and fixed heights are rounded to the nearest pixel (halves up); the column width is
/// ⌊(available − (n−1) · spacing) ÷ n⌋, as CHTCollectionViewWaterfallLayout does, where available is the
/// container minus the leading and trailing insets; a full-width item spans the available width.
public struct WaterfallGeometry: Hashable, Sendable {
    /// The most columns a layout may have.
    public static let maximumColumnCount = 64
    /// The largest container width, spacing, inset or fixed height accepted, in points.
    public static let maximumLength: ExactDecimal = 100_000
    /// The largest model width or height accepted (``ItemSize/size(width:height:)``).
    public static let maximumModelLength: ExactDecimal = 1_000_000_000
    /// The display scales accepted.
    public static let scaleRange: ClosedRange<ExactDecimal> = 0.25...8
    /// The aspect ratios (width ÷ height) accepted: from 1:100 to 100:1.
    public static let aspectRatioRange: ClosedRange<ExactDecimal> = 0.01...100

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
    /// ``columnWidth`` and ``fullWidth`` as decimals, made once: every item's height is computed from one of them.
    private let columnWidthDecimal: ExactDecimal, fullWidthDecimal: ExactDecimal

    /// Validates settings and converts them to pixels.
    ///
    /// - Parameter settings: The layout settings.
    /// - Throws: ``WaterfallError/invalidValues(_:)`` naming every setting that is not finite, out of range
    ///   or non-positive, or ``WaterfallSetting/columns`` when the columns leave no positive width after
    ///   spacing and insets.
    public init(_ settings: WaterfallSettings) throws(WaterfallError) {
        var violations: [WaterfallViolation] = []
        self.init(settings, violations: &violations)
        guard violations.isEmpty else { throw .invalidValues(violations) }
    }

    /// Every invalid value of settings: what ``init(_:)`` throws, without throwing.
    ///
    /// - Parameter settings: The layout settings.
    /// - Returns: The violations, none for valid settings.
    public static func violations(of settings: WaterfallSettings) -> [WaterfallViolation] {
        var violations: [WaterfallViolation] = []
        _ = WaterfallGeometry(settings, violations: &violations)
        return violations
    }

    /// Converts settings to pixels, recording every invalid value (the geometry is then meaningless).
    init(_ settings: WaterfallSettings, violations: inout [WaterfallViolation]) {
        self.settings = settings
        let validScale = Self.scaleRange.contains(settings.scale)
        if !validScale { violations.append(WaterfallViolation(.setting(.scale), allowed: .number(in: Self.scaleRange))) }
        let scale = validScale ? settings.scale : 1
        func pixels(
            _ value: ExactDecimal, _ setting: WaterfallSetting, positive: Bool = false,
            rule: ExactDecimal.Rounding = .toNearestOrAwayFromZero
        ) -> Int {
            guard positive ? value > 0 : value >= 0, value <= Self.maximumLength else {
                violations.append(
                    WaterfallViolation(
                        .setting(setting),
                        allowed: positive ? .positiveNumber(atMost: Self.maximumLength) : .number(in: 0...Self.maximumLength)))
                return positive ? 1 : 0
            }
            return ExactDecimal.quotient(value, times: scale, rounding: rule)
        }
        containerWidth = pixels(settings.containerWidth, .containerWidth, positive: true, rule: .down)
        columnSpacing = pixels(settings.columnSpacing, .columnSpacing)
        itemSpacing = pixels(settings.itemSpacing, .itemSpacing)
        top = pixels(settings.insets.top, .insetTop)
        leading = pixels(settings.insets.leading, .insetLeading)
        bottom = pixels(settings.insets.bottom, .insetBottom)
        trailing = pixels(settings.insets.trailing, .insetTrailing)
        let available = containerWidth - leading - trailing
        let countRange = 1...Self.maximumColumnCount

        switch settings.columns {
        case .count(let count):
            if countRange.contains(count) {
                columnCount = count
            } else {
                violations.append(WaterfallViolation(.setting(.columnCount), allowed: .integer(in: countRange)))
                columnCount = 1
            }
        case .minimumWidth(let width, let maximumCount):
            let minimum = pixels(width, .minimumColumnWidth, positive: true)
            var maximum = maximumCount ?? Self.maximumColumnCount
            if !countRange.contains(maximum) {
                violations.append(WaterfallViolation(.setting(.maximumColumnCount), allowed: .integer(in: countRange)))
                maximum = Self.maximumColumnCount
            }
            let fitting = (available + columnSpacing) / max(1, minimum + columnSpacing)
            columnCount = max(1, min(fitting, maximum, Self.maximumColumnCount))
        }
        let width = (available - (columnCount - 1) * columnSpacing) / columnCount
        if violations.isEmpty && !(available > 0 && width >= 1) {
            let remaining = available - (columnCount - 1) * columnSpacing
            violations.append(
                WaterfallViolation(
                    .setting(.columns), allowed: .positiveColumnWidth(columnCount: columnCount, remainingPixels: remaining)))
        }
        columnWidth = max(1, width)
        columnWidthDecimal = ExactDecimal(columnWidth)
        fullWidthDecimal = ExactDecimal(containerWidth - leading - trailing)
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
    /// - Throws: ``WaterfallError/invalidValues(_:)`` for a non-positive, non-finite or absurd size.
    public func height(of item: WaterfallItem, index: Int) throws(WaterfallError) -> Int {
        let violations = item.violations(index: index)
        guard violations.isEmpty else { throw .invalidValues(violations) }
        return height(ofValid: item)
    }

    /// The height in pixels of an item whose ``WaterfallItem/violations(index:)`` are none, never less than one
    /// pixel.
    ///
    /// Exact on the decimals given: ⌊width ÷ ratio⌋, ⌊height × width ÷ modelWidth⌋ or the fixed height
    /// rounded to the nearest pixel, plus the extra height rounded to the nearest pixel; a sum below one pixel
    /// (a panorama in a narrow column: `aspectRatio` 100 in a column of 90 pixels floors to 0) is one pixel, so
    /// every item has a frame a client can draw and hit-test, and no two items of a column share a `y`.
    func height(ofValid item: WaterfallItem) -> Int {
        let width = item.isFullWidth ? fullWidthDecimal : columnWidthDecimal
        let content =
            switch item.size {
            case .aspectRatio(let ratio): ExactDecimal.quotient(width, over: ratio, rounding: .down)
            case .size(let modelWidth, let modelHeight): ExactDecimal.quotient(modelHeight, times: width, over: modelWidth, rounding: .down)
            case .fixedHeight(let points): ExactDecimal.quotient(points, times: settings.scale, rounding: .toNearestOrAwayFromZero)
            }
        return max(1, content + ExactDecimal.quotient(item.extraHeight, times: settings.scale, rounding: .toNearestOrAwayFromZero))
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
        hash.combine((settings.scale.doubleValue + 0).bitPattern)
        hash.combine(string: settings.direction.rawValue)
        hash.combine(string: settings.strategy.rawValue)
        return hash.value
    }
}
