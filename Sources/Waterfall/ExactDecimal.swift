/// A decimal number exactly as written: ±significand × 10^exponent, with up to
/// ``maximumDigits`` significant digits.
///
/// Layout lengths, ratios and the scale are decimals so that pixel sizes are the exact results for the
/// numbers a client wrote, then rounded as documented: 550 ÷ 1.1 is 500 pixels, where binary floating
/// point gives 499.999… and so 499. A literal (`1.1`, `375`) is the decimal it is written as, for literals of up
/// to 17 significant digits (a float literal passes through `Double`).
public struct ExactDecimal: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral
{
    /// The most significant digits a decimal holds (every value of `UInt128` below 10^38).
    public static let maximumDigits = 38

    // Stored largest first, the exponent in 32 bits: 32 bytes a decimal rather than 48 (a layout holds several
    // per item).
    /// The significant digits as an integer, without trailing zeros (0 for zero).
    public let significand: UInt128
    private let storedExponent: Int32
    /// Whether the number is below zero (never for zero).
    public let isNegative: Bool
    /// The power of ten of the last significant digit (0 for zero).
    public var exponent: Int { Int(storedExponent) }

    /// The most distant power of ten of a last significant digit, either way.
    public static let maximumExponent = Int(Int32.max) - maximumDigits

    /// ±`significand` × 10^`exponent`, or `nil` when the significand, without its trailing zeros, has
    /// more than ``maximumDigits`` digits, or the exponent is beyond ±``maximumExponent``.
    public init?(isNegative: Bool = false, significand: UInt128, exponent: Int) {
        var significand = significand
        var exponent = exponent
        if significand == 0 {
            self.init(normalized: false, 0, 0)
            return
        }
        // (Bounded first: dropping trailing zeros below adds at most 38 to it.)
        guard exponent.magnitude <= UInt(Self.maximumExponent) else { return nil }
        while significand % 10 == 0 {
            significand /= 10
            exponent += 1
        }
        guard significand < Self.powersOfTen[Self.maximumDigits], abs(exponent) <= Self.maximumExponent else { return nil }
        self.init(normalized: isNegative, significand, exponent)
    }

    /// The number written with the ASCII digits `digits` × 10^`exponent`, or `nil` when it has more than
    /// ``maximumDigits`` significant digits.
    ///
    /// - Parameters:
    ///   - isNegative: Whether a minus sign precedes it.
    ///   - digits: ASCII decimal digits (`"0"` … `"9"`).
    ///   - exponent: The power of ten of the last digit.
    @inlinable  // (specialised where it is called: generic over the digits, it is called once a decoded number)
    public init?(isNegative: Bool, digits: some Collection<UInt8>, exponent: Int) {
        var significand: UInt128 = 0
        var count = 0
        var trailingZeros = 0
        for digit in digits {
            let value = UInt128(digit &- UInt8(ascii: "0"))
            if significand == 0 && value == 0 { continue }
            if value == 0 {
                trailingZeros += 1
                continue
            }
            // Digits after a run of zeros: the zeros are significant after all.
            count += trailingZeros + 1
            guard count <= Self.maximumDigits else { return nil }
            significand = significand * Self.powersOfTen[trailingZeros + 1] + value
            trailingZeros = 0
        }
        let (shifted, overflow) = exponent.addingReportingOverflow(trailingZeros)
        guard !overflow else { return nil }
        self.init(isNegative: isNegative, significand: significand, exponent: shifted)
    }

    /// The shortest decimal that reads back as `value` (what `value.description` prints): `0.1` for the
    /// `Double` nearest to 0.1.
    ///
    /// - Precondition: `value` is finite.
    public init(_ value: Double) {
        precondition(value.isFinite, "\(value) is not a decimal")
        let text = value.magnitude.description.utf8
        let mantissa = text.prefix { $0 != UInt8(ascii: "e") }
        let power = text.count > mantissa.count ? Int(String(decoding: text.dropFirst(mantissa.count + 1), as: UTF8.self))! : 0
        let point = mantissa.firstIndex(of: UInt8(ascii: ".")).map { mantissa.distance(from: mantissa.startIndex, to: $0) }
        let digits = mantissa.filter { $0 != UInt8(ascii: ".") }
        let fraction = point.map { digits.count - $0 } ?? 0
        // A Double's shortest form has at most 17 digits.
        self.init(isNegative: value < 0, digits: digits, exponent: power - fraction)!
    }

    /// The integer `value`.
    public init(_ value: Int) {
        self.init(isNegative: value < 0, significand: UInt128(value.magnitude), exponent: 0)!
    }

    public init(integerLiteral value: Int) {
        self.init(value)
    }

    public init(floatLiteral value: Double) {
        self.init(value)
    }

    private init(normalized isNegative: Bool, _ significand: UInt128, _ exponent: Int) {
        self.significand = significand
        self.storedExponent = Int32(exponent)
        self.isNegative = isNegative
        _checkInvariants()
    }

    #if WATERFALL_INTERNAL_CHECKS
        /// Traps unless the number is in its one normal form: at most ``maximumDigits`` digits without trailing
        /// zeros, the exponent within ±``maximumExponent``, and zero as 0 × 10^0 without a sign (so that `==`
        /// and hashing, which compare the stored values, are the numbers' equality).
        func _checkInvariants() {
            precondition(significand < Self.powersOfTen[Self.maximumDigits], "more than \(Self.maximumDigits) digits")
            precondition(abs(exponent) <= Self.maximumExponent, "exponent \(exponent) out of range")
            if significand == 0 {
                precondition(exponent == 0 && !isNegative, "zero not normal")
            } else {
                precondition(significand % 10 != 0, "trailing zeros")
            }
        }
    #else
        /// Does nothing unless `WATERFALL_INTERNAL_CHECKS` is defined.
        @inline(__always)
        func _checkInvariants() {}
    #endif

    /// Whether the number is zero.
    public var isZero: Bool { significand == 0 }

    /// The nearest `Double` (infinite beyond its range).
    public var doubleValue: Double {
        let magnitude = Double("\(significand)e\(exponent)") ?? .infinity
        return isNegative ? -magnitude : magnitude
    }

    /// The number × 10^`power`.
    ///
    /// - Precondition: The result's exponent is within ±``maximumExponent``.
    public func timesPowerOfTen(_ power: Int) -> ExactDecimal {
        isZero ? self : ExactDecimal(normalized: isNegative, significand, exponent + power)
    }

    /// The signed significand, then `e` and the exponent when it is not 0 (`-125e-4` for -0.0125).
    public var description: String {
        "\(isNegative ? "-" : "")\(significand)\(exponent == 0 ? "" : "e\(exponent)")"
    }

    /// The number of digits of the significand (1 for zero).
    var digitCount: Int {
        // ⌊log10(2^bits)⌋ + 1 digits at least, one more when the significand reaches the next power of ten.
        let bits = UInt128.bitWidth - significand.leadingZeroBitCount
        let count = max(1, (bits * 1233) >> 12)
        return count < Self.maximumDigits && significand >= Self.powersOfTen[count] ? count + 1 : count
    }

    /// The power of ten of the first significant digit.
    private var leadingExponent: Int { exponent + digitCount - 1 }

    public static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
        if lhs.isNegative != rhs.isNegative { return lhs.isNegative }
        if lhs.isNegative { return magnitudeLess(rhs, lhs) }
        return magnitudeLess(lhs, rhs)
    }

    /// |a| < |b|.
    private static func magnitudeLess(_ a: ExactDecimal, _ b: ExactDecimal) -> Bool {
        if a.isZero || b.isZero { return !b.isZero }
        if a.leadingExponent != b.leadingExponent { return a.leadingExponent < b.leadingExponent }
        // Same leading power: aligned to the smaller exponent, both have the same digit count, at most 38.
        let shift = a.exponent - b.exponent
        if shift >= 0 { return a.significand * powersOfTen[shift] < b.significand }
        return a.significand < b.significand * powersOfTen[-shift]
    }

    /// 10^0 … 10^38.
    @usableFromInline static let powersOfTen: [UInt128] = {
        var powers: [UInt128] = [1]
        for _ in 1...38 { powers.append(powers.last! * 10) }
        return powers
    }()
}
