import Testing
import Waterfall

private func fixed(_ heights: [Int]) -> [WaterfallItem] { heights.map { WaterfallItem(size: .fixedHeight(ExactDecimal($0))) } }

private func columns(_ page: WaterfallPage) -> [Int?] { page.items.map(\.column) }

@Suite struct WaterfallLayoutTests {
    private let twoColumns = WaterfallSettings(containerWidth: 200, columns: .count(2))

    @Test func seedSplitIsNotAppendStable() throws {
        // DOMAIN.md §3: heights 100,100,100,300 then append 100,100 and item 3 jumps columns.
        var settings = twoColumns
        settings.strategy = .sequentialSplit
        let before = try WaterfallLayout.layout(fixed([100, 100, 100, 300]), settings: settings)
        let after = try WaterfallLayout.layout(fixed([100, 100, 100, 300, 100, 100]), settings: settings)
        #expect(columns(before) == [0, 0, 0, 1])
        #expect(columns(after) == [0, 0, 0, 0, 1, 1])
        #expect(before.continuation == nil)
    }

    @Test func seedSplitCanLeaveTheTrailingColumnEmpty() throws {
        var settings = twoColumns
        settings.strategy = .sequentialSplit
        let page = try WaterfallLayout.layout(fixed([1, 1, 1, 1, 8]), settings: settings)
        #expect(columns(page) == [0, 0, 0, 0, 0])
        #expect(page.columnItems[1].isEmpty)
    }

    @Test func shortestColumnIsAppendStableOnTheSameExample() throws {
        let before = try WaterfallLayout.layout(fixed([100, 100, 100, 300]), settings: twoColumns)
        let after = try WaterfallLayout.layout(fixed([100, 100, 100, 300, 100, 100]), settings: twoColumns)
        #expect(columns(before) == [0, 1, 0, 1])
        #expect(Array(after.items.prefix(4)) == Array(before.items))
    }

    @Test func tiesGoToTheLeadingColumn() throws {
        let page = try WaterfallLayout.layout(
            fixed([50, 50, 50, 50]), settings: WaterfallSettings(containerWidth: 300, columns: .count(3)))
        #expect(columns(page) == [0, 1, 2, 0])
    }

    @Test func geometryFollowsCHT() throws {
        // (375·3 − 2·8·3 px … ) — column width floors to pixels; items scale to it.
        let settings = WaterfallSettings(
            containerWidth: 375, scale: 3, columns: .count(3), columnSpacing: 8, itemSpacing: 4,
            insets: EdgeInsets(top: 10, leading: 16, bottom: 10, trailing: 16))
        let geometry = try WaterfallGeometry(settings)
        #expect(geometry.containerWidth == 1125)
        #expect(geometry.columnWidth == (1125 - 48 - 48 - 2 * 24) / 3)
        let page = try WaterfallLayout.layout(
            [WaterfallItem(size: .size(width: 1000, height: 1500), extraHeight: 20)], settings: settings)
        #expect(page.items[0].frame == PixelRect(x: 48, y: 30, width: 327, height: 327 * 3 / 2 + 60))
        #expect(page.contentHeight == 30 + 550 + 30)
    }

    @Test func rightToLeftMirrorsFrames() throws {
        var settings = WaterfallSettings(
            containerWidth: 320, columns: .count(3), columnSpacing: 10, insets: EdgeInsets(leading: 20, trailing: 10))
        let items = fixed([30, 40, 50, 60])
        let ltr = try WaterfallLayout.layout(items, settings: settings)
        settings.direction = .rightToLeft
        let rtl = try WaterfallLayout.layout(items, settings: settings)
        #expect(columns(ltr) == columns(rtl))
        for (left, right) in zip(ltr.items, rtl.items) {
            #expect(right.frame.y == left.frame.y)
            #expect(right.frame.maxX == 320 - left.frame.x)
        }
    }

    @Test func fullWidthItemsStartBelowTheTallestColumn() throws {
        let items = fixed([100, 30]) + [WaterfallItem(size: .fixedHeight(20), isFullWidth: true)] + fixed([10, 10])
        let settings = WaterfallSettings(containerWidth: 200, columns: .count(2), itemSpacing: 5)
        let page = try WaterfallLayout.layout(items, settings: settings)
        #expect(page.items[2].frame == PixelRect(x: 0, y: 105, width: 200, height: 20))
        #expect(page.items[3].frame.y == 130 && page.items[4].frame.y == 130)
        #expect(columns(page) == [0, 1, nil, 0, 1])
    }

    @Test func roundRobinRestartsAfterAFullWidthItem() throws {
        var settings = WaterfallSettings(containerWidth: 300, columns: .count(3))
        settings.strategy = .roundRobin
        let items = fixed([10, 10]) + [WaterfallItem(size: .fixedHeight(5), isFullWidth: true)] + fixed([10, 10])
        #expect(columns(try WaterfallLayout.layout(items, settings: settings)) == [0, 1, nil, 0, 1])
    }

    @Test func minimumColumnWidthDerivesTheCount() throws {
        let geometry = try WaterfallGeometry(
            WaterfallSettings(containerWidth: 1000, columns: .minimumWidth(150, maximumCount: 5), columnSpacing: 10))
        #expect(geometry.columnCount == 5)
        let uncapped = try WaterfallGeometry(WaterfallSettings(containerWidth: 1000, columns: .minimumWidth(150), columnSpacing: 10))
        #expect(uncapped.columnCount == 6)  // 6·150 + 5·10 = 950 ≤ 1000
    }

    /// A page keeps each height in 32 bits: the tallest valid item (the widest container at the largest scale, the
    /// smallest aspect ratio, the largest extra height) fits.
    @Test func theTallestValidItemKeepsItsHeight() throws {
        let settings = WaterfallSettings(containerWidth: WaterfallGeometry.maximumLength, scale: 8, columns: .count(1))
        let item = WaterfallItem(size: .aspectRatio(0.01), extraHeight: WaterfallGeometry.maximumLength, isFullWidth: true)
        let page = try WaterfallLayout.layout([item, item], settings: settings)
        let height = try page.geometry.height(of: item, index: 0)
        #expect(height == 80_800_000)
        #expect(page.items.map(\.frame) == [PixelRect(x: 0, y: 0, width: 800_000, height: height), PixelRect(x: 0, y: height, width: 800_000, height: height)])
    }

    @Test func measuringRefusesAnItemOutOfRange() throws {
        let geometry = try WaterfallGeometry(WaterfallSettings(containerWidth: 300, scale: 2, columns: .count(2)))
        #expect(MeasuredItem(WaterfallItem(size: .aspectRatio(0)), in: geometry) == nil)
        #expect(MeasuredItem(WaterfallItem(size: .fixedHeight(10), extraHeight: -1), in: geometry) == nil)
        let measured = try #require(MeasuredItem(WaterfallItem(size: .fixedHeight(10), isFullWidth: true), in: geometry))
        #expect(measured.height == 20 && measured.isFullWidth)
    }

    @Test func measuredLayoutRefusesAPageSizeBelowOne() throws {
        let geometry = try WaterfallGeometry(WaterfallSettings(containerWidth: 300, scale: 1, columns: .count(2)))
        #expect(throws: WaterfallError.invalidValues([WaterfallViolation(.setting(.pageSize), allowed: .integerAtLeast(1))])) {
            try WaterfallLayout.layout([], geometry: geometry, pageSize: 0)
        }
    }

    @Test func continuationFromOtherSettingsIsRefused() throws {
        let first = try WaterfallLayout.layout(fixed([10, 20]), settings: twoColumns, pageSize: 1)
        var other = twoColumns
        other.itemSpacing = 3
        #expect(throws: WaterfallError.continuationMismatch) {
            try WaterfallLayout.layout(fixed([20]), settings: other, after: first.continuation)
        }
        var balanced = twoColumns
        balanced.strategy = .balanced
        #expect(throws: WaterfallError.strategyNotAppendStable(.balanced)) {
            try WaterfallLayout.layout(fixed([20]), settings: balanced, after: first.continuation)
        }
        #expect(throws: WaterfallError.pagingNotSupported(.balanced)) {
            try WaterfallLayout.layout(fixed([20]), settings: balanced, pageSize: 10)
        }
    }

    @Test func malformedContinuationBytesAreRefused() throws {
        let bytes = try #require(try WaterfallLayout.layout(fixed([10]), settings: twoColumns).continuation?.bytes)
        let cases: [([UInt8], ContinuationDefect)] = [
            ([], .unknownVersion), ([2] + bytes.dropFirst(), .unknownVersion), (Array(bytes.prefix(5)), .truncated),
            (Array(bytes.dropLast()), .truncated), (bytes + [0], .trailingBytes),
            (Array(bytes.prefix(9)) + [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80], .integerTooLong),
            (Array(bytes.prefix(9)) + [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], .integerOutOfRange),
            (Array(bytes.prefix(9)) + [1, 0, 0], .columnCountOutOfRange),
        ]
        for (malformed, defect) in cases {
            #expect(throws: WaterfallError.malformedContinuation(defect)) { try Continuation(bytes: malformed) }
        }
        #expect(try Continuation(bytes: bytes).nextIndex == 1)
    }

    @Test(arguments: [
        (WaterfallSettings(containerWidth: 0), WaterfallSetting.containerWidth),
        (WaterfallSettings(containerWidth: -1), .containerWidth),
        (WaterfallSettings(containerWidth: 100_000.001), .containerWidth),
        (WaterfallSettings(containerWidth: 300, scale: 0), .scale),
        (WaterfallSettings(containerWidth: 300, columns: .count(0)), .columnCount),
        (WaterfallSettings(containerWidth: 300, columns: .count(65)), .columnCount),
        (WaterfallSettings(containerWidth: 300, columns: .minimumWidth(-1)), .minimumColumnWidth),
        (WaterfallSettings(containerWidth: 300, columns: .minimumWidth(10, maximumCount: 0)), .maximumColumnCount),
        (WaterfallSettings(containerWidth: 300, columnSpacing: -1), .columnSpacing),
        (WaterfallSettings(containerWidth: 300, itemSpacing: 1e6), .itemSpacing),
        (WaterfallSettings(containerWidth: 300, insets: EdgeInsets(top: -2)), .insetTop),
    ])
    func invalidSettingsNameTheirField(settings: WaterfallSettings, field: WaterfallSetting) {
        #expect(throws: WaterfallError.self) { try WaterfallGeometry(settings) }
        do {
            _ = try WaterfallGeometry(settings)
        } catch {
            guard case .invalidValues(let violations) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(violations.map(\.subject) == [.setting(field)])
        }
    }

    @Test func everyInvalidSettingAndItemIsNamed() {
        let settings = WaterfallSettings(
            containerWidth: 0, scale: 0, columns: .count(65), insets: EdgeInsets(leading: -1, trailing: 1e300))
        let items = [
            WaterfallItem(size: .aspectRatio(0)), WaterfallItem(size: .fixedHeight(10)),
            WaterfallItem(size: .size(width: 0, height: -1), extraHeight: -3),
        ]
        #expect(throws: WaterfallError.self) { try WaterfallLayout.layout(items, settings: settings, pageSize: 0) }
        do {
            _ = try WaterfallLayout.layout(items, settings: settings, pageSize: 0)
        } catch {
            guard case .invalidValues(let violations) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(
                violations.map(\.subject) == [
                    .setting(.scale), .setting(.containerWidth), .setting(.insetLeading), .setting(.insetTrailing),
                    .setting(.columnCount), .setting(.pageSize), .item(index: 0, .aspectRatio), .item(index: 2, .width),
                    .item(index: 2, .height), .item(index: 2, .extraHeight),
                ])
        }
    }

    @Test func columnsWithoutWidthAreRefused() {
        let allowed = WaterfallViolation.Allowed.positiveColumnWidth(columnCount: 4, remainingPixels: 100 - 3 * 40)
        #expect(throws: WaterfallError.invalidValues([WaterfallViolation(.setting(.columns), allowed: allowed)])) {
            try WaterfallGeometry(WaterfallSettings(containerWidth: 100, columns: .count(4), columnSpacing: 40))
        }
    }

    @Test(arguments: [
        (ItemSize.aspectRatio(0), ItemSizeField.aspectRatio), (.aspectRatio(-1), .aspectRatio), (.aspectRatio(1000), .aspectRatio),
        (.size(width: 0, height: 10), .width), (.size(width: 10, height: -1), .height),
        (.size(width: 10_000, height: 1), .width), (.fixedHeight(0), .fixedHeight), (.fixedHeight(100_000.5), .fixedHeight),
    ])
    func invalidItemsNameTheirIndexAndField(size: ItemSize, field: ItemSizeField) {
        let items = fixed([10]) + [WaterfallItem(size: size)]
        do {
            _ = try WaterfallLayout.layout(items, settings: twoColumns)
            Issue.record("accepted \(size)")
        } catch {
            guard case .invalidValues(let violations) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(violations.map(\.subject) == [.item(index: 1, field)])
        }
    }

    @Test func negativeExtraHeightIsRefused() {
        #expect(throws: WaterfallError.self) {
            try WaterfallLayout.layout([WaterfallItem(size: .fixedHeight(1), extraHeight: -1)], settings: twoColumns)
        }
    }
}
