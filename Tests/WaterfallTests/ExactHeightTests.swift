import PropertyBased
import Testing
@testable import Waterfall

/// 10^power as an integer, for the exact rationals the tests compute by hand.
private func tenTo(_ power: Int) -> UInt128 { (0..<power).reduce(1) { result, _ in result * 10 } }

/// A decimal `significand` × 10^-`places`.
private func decimal(_ significand: Int, places: Int) -> ExactDecimal {
    ExactDecimal(significand: UInt128(significand), exponent: -places)!
}

/// Heights are the documented rounding of the exact result for the decimals as written, never of a binary
/// floating-point approximation of them.
@Suite struct ExactHeightTests {
    /// Issue 15: 550 ÷ 1.1 is exactly 500; in `Double`, 550 / 1.1 is 499.99999999999994, floored to 499.
    @Test func aspectRatioOfOnePointOneOnFiveHundredFiftyIsFiveHundred() throws {
        let geometry = try WaterfallGeometry(WaterfallSettings(containerWidth: 550, columns: .count(1)))
        #expect(try geometry.height(of: WaterfallItem(size: .aspectRatio(1.1)), index: 0) == 500)
        #expect(try geometry.height(of: WaterfallItem(size: .size(width: 1.1, height: 1)), index: 0) == 500)
    }

    @Test func decimalsReadAsWritten() {
        #expect(ExactDecimal(0.1) == ExactDecimal(significand: 1, exponent: -1))
        #expect(ExactDecimal(100_000.0) == ExactDecimal(significand: 1, exponent: 5))
        #expect(ExactDecimal(isNegative: false, digits: Array("0012500".utf8), exponent: -3) == 12.5)
        #expect(ExactDecimal(isNegative: false, digits: Array("1020".utf8), exponent: 0) == 1020)
        #expect(ExactDecimal(isNegative: false, digits: Array(String(repeating: "1", count: 39).utf8), exponent: 0) == nil)
        #expect(ExactDecimal(isNegative: false, digits: Array((String(repeating: "1", count: 38) + "000").utf8), exponent: 0) != nil)
        #expect(ExactDecimal(0.25) < 0.3 && ExactDecimal(-1) < 0 && ExactDecimal(1e-300) > 0 && !(ExactDecimal(2) < 2))
        #expect(ExactDecimal(1e300) > 100_000)
    }

    /// For random decimal aspect ratios, ⌊width ÷ ratio⌋ computed on integers: ratio = m / 10^k, so the
    /// height is ⌊width · 10^k / m⌋. Widths are multiples of m, off by -1, 0 or 1, so that the exact
    /// quotient is often a whole number, where binary floating point falls just short (550 / 1.1).
    @Test func aspectRatioHeightIsTheFloorOfTheExactQuotient() async {
        await propertyCheck(
            count: 3000, input: Gen.int(in: 1...99_999), Gen.int(in: 0...5), Gen.int(in: 1...20_000), Gen.int(in: -1...1)
        ) { significand, places, multiple, offset in
            let ratio = decimal(significand, places: places)
            let width = min(20_000, max(1, (multiple % (20_000 / significand + 1)) * significand + offset))
            guard WaterfallGeometry.aspectRatioRange.contains(ratio) else { return }
            let geometry = try WaterfallGeometry(WaterfallSettings(containerWidth: ExactDecimal(width), columns: .count(1)))
            let expected = UInt128(width) * tenTo(places) / UInt128(significand)
            #expect(try geometry.height(of: WaterfallItem(size: .aspectRatio(ratio)), index: 0) == max(1, Int(expected)))
        }
    }

    /// For random decimal model sizes h / 10^j and w / 10^k: ⌊(h / 10^j) · width ÷ (w / 10^k)⌋ =
    /// ⌊h · width · 10^k ÷ (w · 10^j)⌋.
    @Test func modelSizeHeightIsTheFloorOfTheExactQuotient() async {
        await propertyCheck(
            count: 3000, input: Gen.int(in: 1...20_000), Gen.int(in: 1...99_999), Gen.int(in: 1...99_999), Gen.int(in: 0...4),
            Gen.int(in: 0...4)
        ) { multiple, modelWidth, modelHeight, widthPlaces, heightPlaces in
            // A multiple of the model width, so that the exact quotient is often whole.
            let width = min(20_000, max(1, (multiple % (20_000 / modelWidth + 1)) * modelWidth))
            let item = WaterfallItem(
                size: .size(width: decimal(modelWidth, places: widthPlaces), height: decimal(modelHeight, places: heightPlaces)))
            guard item.violations(index: 0).isEmpty else { return }
            let geometry = try WaterfallGeometry(WaterfallSettings(containerWidth: ExactDecimal(width), columns: .count(1)))
            let expected =
                UInt128(modelHeight) * UInt128(width) * tenTo(widthPlaces) / (UInt128(modelWidth) * tenTo(heightPlaces))
            #expect(try geometry.height(of: item) == max(1, Int(expected)))
        }
    }

    /// The container width is floored, and fixed and extra heights rounded (halves up), on the exact
    /// products of decimal points and a decimal scale.
    @Test func pixelConversionsRoundTheExactProduct() async {
        await propertyCheck(
            count: 2000, input: Gen.int(in: 1...9_999_999), Gen.int(in: 0...4), Gen.int(in: 25...800), Gen.int(in: 1...999_999),
            Gen.int(in: 0...4)
        ) { container, containerPlaces, scaleHundredths, points, pointPlaces in
            let width = decimal(container, places: containerPlaces)
            let scale = decimal(scaleHundredths, places: 2)
            let fixed = decimal(points, places: pointPlaces)
            guard width <= WaterfallGeometry.maximumLength, fixed <= WaterfallGeometry.maximumLength else { return }
            let settings = WaterfallSettings(containerWidth: width, scale: scale, columns: .count(1))
            let pixels = UInt128(container) * UInt128(scaleHundredths) / tenTo(containerPlaces + 2)
            guard pixels >= 1 else { return }
            let geometry = try WaterfallGeometry(settings)
            #expect(geometry.containerWidth == Int(pixels))
            // round(p · s) = ⌊(2 · p · s + 1) ÷ 2⌋ on the integers scaled by 10^(places + 2).
            let unit = tenTo(pointPlaces + 2)
            let rounded = (2 * UInt128(points) * UInt128(scaleHundredths) + unit) / (2 * unit)
            let item = WaterfallItem(size: .fixedHeight(fixed), extraHeight: fixed)
            #expect(try geometry.height(of: item) == max(1, 2 * Int(rounded)))
        }
    }

    /// Operands too large for `UInt128` take the wide path, which must give the same exact answer. With
    /// a = p·x, f = s·y + r and d = p·s: a·f ÷ d = x·y + x·r ÷ s, whose floor and remainder are small.
    @Test func wideOperandsGiveTheExactQuotient() async {
        await propertyCheck(
            count: 1000, input: Gen.int(in: 1...999_999_999), Gen.int(in: 1...999_999_999), Gen.int(in: 1...999_999_999),
            Gen.int(in: 0...Int.max)
        ) { x, y, pSeed, rSeed in
            let p = UInt128(pSeed) * tenTo(7) + 1  // about 10^16
            let s = UInt128(pSeed % 1000 + 1) * tenTo(14) + 3  // about 10^15…10^17
            let r = UInt128(rSeed) % s
            guard let a = ExactDecimal(significand: p * UInt128(x), exponent: -2),
                let f = ExactDecimal(significand: s * UInt128(y) + r, exponent: 1),
                let d = ExactDecimal(significand: p * s, exponent: -1)
            else { return }
            let whole = UInt128(x) * UInt128(y) + UInt128(x) * r / s
            let remainder = UInt128(x) * r % s
            #expect(ExactDecimal.quotient(a, times: f, over: d, rounding: .down) == Int(whole))
            let up: UInt128 = 2 * remainder >= s ? 1 : 0
            #expect(ExactDecimal.quotient(a, times: f, over: d, rounding: .toNearestOrAwayFromZero) == Int(whole + up))
            // Far-apart exponents: tiny quotients are 0, without building huge powers of ten.
            #expect(ExactDecimal.quotient(a.timesPowerOfTen(-1_000_000), over: d, rounding: .toNearestOrAwayFromZero) == 0)
        }
    }

    @Test func digitCountsAreExact() {
        for power in 0...37 {
            let value = ExactDecimal.powersOfTen[power]
            #expect(ExactDecimal(significand: value + (power == 0 ? 0 : 1), exponent: 0)!.digitCount == power + 1)
            if power > 0 { #expect(ExactDecimal(significand: value - 1, exponent: 0)!.digitCount == power) }
        }
    }
}

extension WaterfallGeometry {
    fileprivate func height(of item: WaterfallItem) throws -> Int { try height(of: item, index: 0) }
}
