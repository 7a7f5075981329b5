extension ExactDecimal {
    /// How an exact quotient becomes a whole number.
    enum Rounding {
        /// ⌊q⌋.
        case down
        /// The nearest integer, halves away from zero.
        case toNearestOrAwayFromZero
    }

    /// The product of `numerator` divided by the product of `denominator`, rounded to a whole number,
    /// computed exactly on the decimals (no binary floating point).
    ///
    /// - Parameters:
    ///   - numerator: Non-negative factors.
    ///   - denominator: Positive factors; none for 1.
    ///   - rounding: How the exact quotient is rounded.
    /// - Returns: The rounded quotient; results of 2^62 or more (which validated layouts never reach) are
    ///   2^62.
    /// - Complexity: O(1) when the products fit in `UInt128` (every realistic layout number); otherwise
    ///   quadratic in the digits, which are at most 38 per factor.
    static func quotient(_ numerator: [ExactDecimal], over denominator: [ExactDecimal] = [], rounding: Rounding) -> Int {
        precondition(numerator.allSatisfy { !$0.isNegative } && denominator.allSatisfy { !$0.isNegative && !$0.isZero })
        if numerator.contains(where: \.isZero) { return 0 }
        let exponent = numerator.reduce(0) { $0 + $1.exponent } - denominator.reduce(0) { $0 + $1.exponent }
        if let fast = narrowQuotient(numerator, denominator, exponent, rounding) { return fast }

        let saturated = 1 << 62
        // q < 10^upper and q > 10^lower, from the digit counts alone: settles tiny and huge quotients
        // without building powers of ten.
        let numeratorDigits = numerator.reduce(0) { $0 + $1.digitCount }
        let denominatorDigits = denominator.reduce(0) { $0 + $1.digitCount }
        let upper = numeratorDigits + exponent - denominatorDigits + denominator.count
        let lower = numeratorDigits - numerator.count + exponent - denominatorDigits
        if upper <= -1 { return 0 }
        if lower >= 19 { return saturated }
        var dividend = numerator.reduce(WideNatural(1)) { $0 * WideNatural($1.significand) }
        var divisor = denominator.reduce(WideNatural(1)) { $0 * WideNatural($1.significand) }
        if exponent >= 0 {
            dividend = dividend.timesPowerOfTen(exponent)
        } else {
            divisor = divisor.timesPowerOfTen(-exponent)
        }
        guard let (quotient, remainder) = dividend.divided(by: divisor) else { return saturated }
        let roundsUp = rounding == .toNearestOrAwayFromZero && !(remainder.shiftedLeft(1) < divisor)
        return quotient + (roundsUp ? 1 : 0)
    }

    /// The quotient in `UInt128` arithmetic, or `nil` when an operand overflows.
    private static func narrowQuotient(
        _ numerator: [ExactDecimal], _ denominator: [ExactDecimal], _ exponent: Int, _ rounding: Rounding
    ) -> Int? {
        var dividend: UInt128 = 1
        var divisor: UInt128 = 1
        for factor in numerator {
            let (product, overflow) = dividend.multipliedReportingOverflow(by: factor.significand)
            if overflow { return nil }
            dividend = product
        }
        for factor in denominator {
            let (product, overflow) = divisor.multipliedReportingOverflow(by: factor.significand)
            if overflow { return nil }
            divisor = product
        }
        guard exponent.magnitude <= UInt(maximumDigits) else { return nil }
        let (scaled, overflow) = (exponent >= 0 ? dividend : divisor).multipliedReportingOverflow(by: powersOfTen[Int(exponent.magnitude)])
        if overflow { return nil }
        if exponent >= 0 { dividend = scaled } else { divisor = scaled }
        let (quotient, remainder) = dividend.quotientAndRemainder(dividingBy: divisor)
        guard quotient < 1 << 62 else { return nil }
        let roundsUp = rounding == .toNearestOrAwayFromZero && remainder >= divisor - remainder
        return Int(quotient) + (roundsUp ? 1 : 0)
    }
}
