import Waterfall

extension WaterfallViolation.Allowed {
    /// What a client is told about an offending value, after its path: `must be a number from 0.25 to 8`
    /// (``ViolationRule/notAllowed(_:)``'s message).
    var message: String {
        switch self {
        case .number(let range): "must be a number from \(range.lowerBound.written) to \(range.upperBound.written)"
        case .positiveNumber(let bound): "must be a number above 0 and at most \(bound.written)"
        case .integer(in: let range): "must be an integer from \(range.lowerBound) to \(range.upperBound)"
        case .integerAtLeast(let bound): "must be an integer of at least \(bound)"
        case .widthToHeightRatio(let range): "width ÷ height must be from \(range.lowerBound.written) to \(range.upperBound.written)"
        case .positiveColumnWidth(let count, let remaining):
            "\(count) column\(count == 1 ? "" : "s") leave no positive width: \(remaining) pixels remain after spacing and insets"
        }
    }
}

extension ExactDecimal {
    /// The number as a client would write a bound: plainly (`0.25`, `100000`), or as significand and
    /// exponent from a million up when it ends in six zeros or more (`1e9`).
    fileprivate var written: String {
        let sign = isNegative ? "-" : ""
        let digits = String(significand)
        if exponent >= 6 { return "\(sign)\(digits)e\(exponent)" }
        if exponent >= 0 { return sign + digits + String(repeating: "0", count: exponent) }
        let fractionDigits = -exponent
        let padded = String(repeating: "0", count: max(0, fractionDigits + 1 - digits.count)) + digits
        return "\(sign)\(padded.dropLast(fractionDigits)).\(padded.suffix(fractionDigits))"
    }
}
