extension ExactDecimal {
    /// How an exact quotient becomes a whole number.
    enum Rounding {
        /// ⌊q⌋.
        case down
        /// The nearest integer, halves away from zero.
        case toNearestOrAwayFromZero
    }

    /// `factor` × `other` ÷ `divisor`, rounded to a whole number, computed exactly on the decimals (no
    /// binary floating point).
    ///
    /// - Parameters:
    ///   - factor: A non-negative factor.
    ///   - other: A second non-negative factor, 1 unless given.
    ///   - divisor: A positive divisor, 1 unless given.
    ///   - rounding: How the exact quotient is rounded.
    /// - Returns: The rounded quotient; results of 2^62 or more (which validated layouts never reach) are
    ///   2^62.
    /// - Complexity: O(1) when the products fit in `UInt128` (every realistic layout number); otherwise
    ///   quadratic in the digits, which are at most 38 per factor.
    static func quotient(
        _ factor: ExactDecimal, times other: ExactDecimal = 1, over divisor: ExactDecimal = 1, rounding: Rounding
    ) -> Int {
        precondition(!factor.isNegative && !other.isNegative && !divisor.isNegative && !divisor.isZero)
        if factor.isZero || other.isZero { return 0 }
        let exponent = factor.exponent + other.exponent - divisor.exponent
        if let fast = narrowQuotient(factor.significand, other.significand, divisor.significand, exponent, rounding) {
            return fast
        }
        return wideQuotient([factor, other], over: [divisor], exponent: exponent, rounding: rounding)
    }

    /// ``quotient(_:times:over:rounding:)`` for operands that overflow `UInt128`.
    private static func wideQuotient(
        _ numerator: [ExactDecimal], over denominator: [ExactDecimal], exponent: Int, rounding: Rounding
    ) -> Int {

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
        _ factor: UInt128, _ other: UInt128, _ divisor: UInt128, _ exponent: Int, _ rounding: Rounding
    ) -> Int? {
        var (dividend, overflow) = factor.multipliedReportingOverflow(by: other)
        if overflow { return nil }
        var divisor = divisor
        guard exponent.magnitude <= UInt(maximumDigits) else { return nil }
        if exponent >= 0 {
            (dividend, overflow) = dividend.multipliedReportingOverflow(by: powersOfTen[exponent])
        } else {
            (divisor, overflow) = divisor.multipliedReportingOverflow(by: powersOfTen[-exponent])
        }
        if overflow { return nil }
        let (quotient, remainder) = dividend.quotientAndRemainder(dividingBy: divisor)
        guard quotient < 1 << 62 else { return nil }
        let roundsUp = rounding == .toNearestOrAwayFromZero && remainder >= divisor - remainder
        return Int(quotient) + (roundsUp ? 1 : 0)
    }
}
