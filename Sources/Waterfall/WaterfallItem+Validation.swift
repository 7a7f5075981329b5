extension WaterfallItem {
    /// Every size value of the item out of its allowed range; none for a valid item.
    ///
    /// - Parameter index: The item's position among the items given, recorded in each violation.
    public func violations(index: Int) -> [WaterfallViolation] {
        var violations: [WaterfallViolation] = []
        func check(_ valid: Bool, _ field: ItemSizeField, _ reason: String) {
            if !valid { violations.append(WaterfallViolation(.item(index: index, field), reason)) }
        }
        switch size {
        case .aspectRatio(let ratio):
            check(WaterfallGeometry.aspectRatioRange.contains(ratio), .aspectRatio, "must be a number from 0.01 to 100")
        case .size(let width, let height):
            let validWidth = width > 0 && width <= WaterfallGeometry.maximumModelLength
            let validHeight = height > 0 && height <= WaterfallGeometry.maximumModelLength
            check(validWidth, .width, "must be a number above 0 and at most 1e9")
            check(validHeight, .height, "must be a number above 0 and at most 1e9")
            if validWidth && validHeight {
                // 0.01 ≤ width ÷ height ≤ 100, exactly.
                check(
                    width >= height.timesPowerOfTen(-2) && width <= height.timesPowerOfTen(2), .width,
                    "width ÷ height must be from 0.01 to 100")
            }
        case .fixedHeight(let points):
            check(
                points > 0 && points <= WaterfallGeometry.maximumLength, .fixedHeight,
                "must be a number above 0 and at most 100000")
        }
        check(
            extraHeight >= 0 && extraHeight <= WaterfallGeometry.maximumLength, .extraHeight,
            "must be a number from 0 to 100000")
        return violations
    }
}
