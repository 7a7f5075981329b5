extension WaterfallItem {
    /// Every size value of the item out of its allowed range; none for a valid item.
    ///
    /// - Parameter index: The item's position among the items given, recorded in each violation.
    public func violations(index: Int) -> [WaterfallViolation] {
        var violations: [WaterfallViolation] = []
        // (What is allowed is built only for an invalid value: most items are valid.)
        func check(_ valid: Bool, _ field: ItemSizeField, _ allowed: @autoclosure () -> WaterfallViolation.Allowed) {
            if !valid { violations.append(WaterfallViolation(.item(index: index, field), allowed: allowed())) }
        }
        switch size {
        case .aspectRatio(let ratio):
            check(WaterfallGeometry.aspectRatioRange.contains(ratio), .aspectRatio, .number(in: WaterfallGeometry.aspectRatioRange))
        case .size(let width, let height):
            let validWidth = width > 0 && width <= WaterfallGeometry.maximumModelLength
            let validHeight = height > 0 && height <= WaterfallGeometry.maximumModelLength
            check(validWidth, .width, .positiveNumber(atMost: WaterfallGeometry.maximumModelLength))
            check(validHeight, .height, .positiveNumber(atMost: WaterfallGeometry.maximumModelLength))
            if validWidth && validHeight {
                // 0.01 ≤ width ÷ height ≤ 100, exactly.
                check(
                    width >= height.timesPowerOfTen(-2) && width <= height.timesPowerOfTen(2), .width,
                    .widthToHeightRatio(in: WaterfallGeometry.aspectRatioRange))
            }
        case .fixedHeight(let points):
            check(
                points > 0 && points <= WaterfallGeometry.maximumLength, .fixedHeight,
                .positiveNumber(atMost: WaterfallGeometry.maximumLength))
        }
        check(
            extraHeight >= 0 && extraHeight <= WaterfallGeometry.maximumLength, .extraHeight,
            .number(in: 0...WaterfallGeometry.maximumLength))
        return violations
    }
}
