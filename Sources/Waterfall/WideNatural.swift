/// A natural number of any size, for the rare exact quotient whose operands overflow `UInt128` (decimals
/// with many digits or far-apart exponents). Little-endian 64-bit limbs, no leading zero limbs.
struct WideNatural: Comparable {
    private(set) var limbs: [UInt64]

    init(_ value: UInt128) {
        limbs = [UInt64(truncatingIfNeeded: value), UInt64(truncatingIfNeeded: value >> 64)]
        trim()
    }

    private mutating func trim() {
        while limbs.last == 0 { limbs.removeLast() }
        _checkInvariants()
    }

    #if WATERFALL_INTERNAL_CHECKS
        /// Traps unless the number has no leading zero limb (so that zero has no limbs, and comparing limb
        /// counts compares magnitudes).
        func _checkInvariants() {
            precondition(limbs.last != 0, "a leading zero limb")
        }
    #else
        /// Does nothing unless `WATERFALL_INTERNAL_CHECKS` is defined.
        @inline(__always)
        func _checkInvariants() {}
    #endif

    var isZero: Bool { limbs.isEmpty }

    static func * (lhs: WideNatural, rhs: WideNatural) -> WideNatural {
        guard !lhs.isZero, !rhs.isZero else { return WideNatural(0) }
        var result = [UInt64](repeating: 0, count: lhs.limbs.count + rhs.limbs.count)
        for (i, a) in lhs.limbs.enumerated() {
            var carry: UInt64 = 0
            for (j, b) in rhs.limbs.enumerated() {
                let (high, low) = a.multipliedFullWidth(by: b)
                let sum = UInt128(low) + UInt128(result[i + j]) + UInt128(carry)
                result[i + j] = UInt64(truncatingIfNeeded: sum)
                carry = high + UInt64(truncatingIfNeeded: sum >> 64)
            }
            result[i + rhs.limbs.count] = carry
        }
        var product = WideNatural(0)
        product.limbs = result
        product.trim()
        return product
    }

    /// The number × 10^`power`.
    func timesPowerOfTen(_ power: Int) -> WideNatural {
        var result = self
        var remaining = power
        while remaining > 0 {
            let step = min(remaining, 38)
            result = result * WideNatural(ExactDecimal.powersOfTen[step])
            remaining -= step
        }
        return result
    }

    /// The number × 2^`bits`.
    func shiftedLeft(_ bits: Int) -> WideNatural {
        guard !isZero else { return self }
        var result = WideNatural(0)
        result.limbs = [UInt64](repeating: 0, count: bits / 64)
        let shift = UInt64(bits % 64)
        var carry: UInt64 = 0
        for limb in limbs {
            result.limbs.append(limb << shift | carry)
            carry = shift == 0 ? 0 : limb >> (64 - shift)
        }
        result.limbs.append(carry)
        result.trim()
        return result
    }

    /// Subtracts a number no larger than this one.
    mutating func subtract(_ other: WideNatural) {
        var borrow = false
        for index in limbs.indices {
            let (partial, overflow1) = limbs[index].subtractingReportingOverflow(index < other.limbs.count ? other.limbs[index] : 0)
            let (difference, overflow2) = partial.subtractingReportingOverflow(borrow ? 1 : 0)
            limbs[index] = difference
            borrow = overflow1 || overflow2
        }
        precondition(!borrow, "subtracting a larger number")
        trim()
    }

    static func < (lhs: WideNatural, rhs: WideNatural) -> Bool {
        if lhs.limbs.count != rhs.limbs.count { return lhs.limbs.count < rhs.limbs.count }
        for index in lhs.limbs.indices.reversed() where lhs.limbs[index] != rhs.limbs[index] {
            return lhs.limbs[index] < rhs.limbs[index]
        }
        return false
    }

    /// ⌊self ÷ divisor⌋ when it is below 2^62, with the remainder; `nil` when it is larger.
    func divided(by divisor: WideNatural) -> (quotient: Int, remainder: WideNatural)? {
        precondition(!divisor.isZero)
        guard self < divisor.shiftedLeft(62) else { return nil }
        var remainder = self
        var quotient = 0
        for bit in (0..<62).reversed() {
            let part = divisor.shiftedLeft(bit)
            if !(remainder < part) {
                remainder.subtract(part)
                quotient |= 1 << bit
            }
        }
        return (quotient, remainder)
    }
}
