import PropertyBased
import Testing
import Waterfall

/// Random items: fixed heights, aspect ratios and model sizes, some with captions, some full width.
private let itemGenerator = zip(
    Gen.int(in: 0...2), Gen.int(in: 1...400), Gen.int(in: 1...300), Gen.int(in: 0...40), Gen.int(in: 0...14)
).map { kind, a, b, caption, wide in
    let size: ItemSize =
        switch kind {
        case 0: .fixedHeight(ExactDecimal(a))
        case 1: .aspectRatio(ExactDecimal(Double(a) / Double(b) < 0.01 ? 0.01 : min(100, Double(a) / Double(b))))
        default: .size(width: ExactDecimal(max(a, b / 50 + 1)), height: ExactDecimal(max(b, a / 50 + 1)))
        }
    return WaterfallItem(size: size, extraHeight: ExactDecimal(caption), isFullWidth: wide == 0)
}

private let settingsGenerator = zip(
    Gen.int(in: 200...1200), Gen.int(in: 1...3), Gen.int(in: 1...6), Gen.int(in: 0...16), Gen.int(in: 0...16),
    Gen.int(in: 0...20), Gen.bool()
).map { width, scale, columns, columnSpacing, itemSpacing, inset, mirrored in
    WaterfallSettings(
        containerWidth: ExactDecimal(width), scale: ExactDecimal(scale), columns: .count(columns),
        columnSpacing: ExactDecimal(columnSpacing), itemSpacing: ExactDecimal(itemSpacing),
        insets: EdgeInsets(
            top: ExactDecimal(inset), leading: ExactDecimal(inset), bottom: ExactDecimal(Double(inset) / 2),
            trailing: ExactDecimal(Double(inset) / 2)),
        direction: mirrored ? .rightToLeft : .leftToRight)
}

/// Every page laid out here also checks its tables (``WaterfallPage/_checkInvariants()``, which debug builds
/// compile in), so a broken table fails a test even where the frames happen to pass the checks below.
@Suite struct WaterfallPropertyTests {
    @Test(arguments: LayoutStrategy.allCases)
    func everyItemIsPlacedOnceWithoutOverlaps(strategy: LayoutStrategy) async throws {
        await propertyCheck(count: 300, input: itemGenerator.array(of: 0...60), settingsGenerator) { items, base in
            var settings = base
            settings.strategy = strategy
            let page = try WaterfallLayout.layout(items, settings: settings)
            page._checkInvariants()
            #expect(page.items.map(\.index) == Array(items.indices))
            let inColumns = page.columnItems.flatMap { $0 }.sorted()
            #expect(inColumns == items.indices.filter { !items[$0].isFullWidth })
            for (index, placed) in page.items.enumerated() {
                #expect(placed.frame.height >= 1 && placed.frame.width >= 1)
                #expect(placed.frame.x >= 0 && placed.frame.maxX <= page.geometry.containerWidth)
                #expect(placed.frame.maxY <= page.contentHeight)
                #expect((placed.column == nil) == items[index].isFullWidth)
                for other in page.items[(index + 1)...] {
                    #expect(!placed.frame.intersects(other.frame), "\(placed) overlaps \(other)")
                }
            }
            for column in page.columnItems {
                let frames = column.map { page.items[$0].frame }
                #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.maxY + page.geometry.itemSpacing <= $1.y })
            }
        }
    }

    @Test func shortestColumnPutsEachItemInTheShortestColumnAtItsTurn() async throws {
        await propertyCheck(count: 300, input: itemGenerator.array(of: 0...60), settingsGenerator) { items, settings in
            let page = try WaterfallLayout.layout(items, settings: settings)
            page._checkInvariants()
            let geometry = page.geometry
            var nextY = Array(repeating: geometry.top, count: geometry.columnCount)
            for placed in page.items {
                guard let column = placed.column else {
                    #expect(placed.frame.y == nextY.max())
                    nextY = Array(repeating: placed.frame.maxY + geometry.itemSpacing, count: nextY.count)
                    continue
                }
                let shortest = nextY.firstIndex(of: nextY.min()!)!
                #expect(column == shortest, "ties go to the leading column")
                #expect(placed.frame.y == nextY[column])
                #expect(placed.frame.x == geometry.columnX(column))
                nextY[column] = placed.frame.maxY + geometry.itemSpacing
            }
        }
    }

    @Test func columnHeightsStayWithinTheTallestItemPlusSpacing() async throws {
        await propertyCheck(count: 300, input: itemGenerator.array(of: 1...60), settingsGenerator) { items, settings in
            let page = try WaterfallLayout.layout(items, settings: settings)
            page._checkInvariants()
            let heights = try #require(page.continuation?.columnHeights)
            let tallest = page.items.filter { $0.column != nil }.map(\.frame.height).max() ?? 0
            #expect(heights.max()! - heights.min()! <= tallest + page.geometry.itemSpacing)
        }
    }

    @Test(arguments: [LayoutStrategy.shortestColumn, .roundRobin])
    func pagesThroughContinuationsEqualTheOneShotLayout(strategy: LayoutStrategy) async throws {
        await propertyCheck(
            count: 300, input: itemGenerator.array(of: 0...80), settingsGenerator, Gen.int(in: 1...17)
        ) { items, base, pageSize in
            var settings = base
            settings.strategy = strategy
            let whole = try WaterfallLayout.layout(items, settings: settings)
            whole._checkInvariants()
            var pages: [PlacedItem] = []
            var continuation: Continuation?
            var rest = items[...]
            repeat {
                // The continuation travels as bytes, as the service's cursor does.
                let resumed = try continuation.map { c throws(WaterfallError) in try Continuation(bytes: c.bytes) }
                #expect(resumed == continuation)
                let page = try WaterfallLayout.layout(Array(rest), settings: settings, after: resumed, pageSize: pageSize)
                page._checkInvariants()
                pages += page.items
                continuation = page.continuation
                rest = rest.dropFirst(page.items.count)
                if rest.isEmpty {
                    #expect(page.contentHeight == whole.contentHeight)
                    #expect(page.columnHeights == whole.columnHeights)
                }
            } while !rest.isEmpty
            #expect(pages == Array(whole.items))
            #expect(continuation == whole.continuation)
        }
    }

    /// Items measured beforehand (how `/layout` holds a long list) lay out exactly as the items, page by page.
    @Test(arguments: LayoutStrategy.allCases)
    func measuredItemsLayOutAsTheItems(strategy: LayoutStrategy) async throws {
        await propertyCheck(
            count: 200, input: itemGenerator.array(of: 0...60), settingsGenerator, Gen.int(in: 1...70)
        ) { items, base, size in
            var settings = base
            settings.strategy = strategy
            let geometry = try WaterfallGeometry(settings)
            let measured = try items.map { try #require(MeasuredItem($0, in: geometry)) }
            let pageSize = strategy.isAppendStable ? size : nil
            let page = try WaterfallLayout.layout(measured, geometry: geometry, pageSize: pageSize)
            #expect(page == (try WaterfallLayout.layout(items, settings: settings, pageSize: pageSize)))
            guard let continuation = page.continuation else { return }
            let rest = Array(items.dropFirst(page.items.count))
            #expect(
                try WaterfallLayout.layout(Array(measured.dropFirst(page.items.count)), geometry: geometry, after: continuation)
                    == WaterfallLayout.layout(rest, settings: settings, after: continuation))
        }
    }

    @Test func balancedMatchesBruteForce() async throws {
        await propertyCheck(
            count: 400, input: Gen.int(in: 1...50).array(of: 1...9), Gen.int(in: 1...4), Gen.int(in: 0...5)
        ) { heights, columns, spacing in
            let items = heights.map { WaterfallItem(size: .fixedHeight(ExactDecimal($0))) }
            let settings = WaterfallSettings(
                containerWidth: 400, columns: .count(columns), itemSpacing: ExactDecimal(spacing), strategy: .balanced)
            let page = try WaterfallLayout.layout(items, settings: settings)
            page._checkInvariants()
            let tallest = page.columnHeights.max()!
            #expect(tallest == bruteForceTallest(heights, columns: columns, spacing: spacing))
            // Order-keeping: each column holds a contiguous run, columns in order.
            let columnOfItem = page.items.map { $0.column! }
            #expect(columnOfItem == columnOfItem.sorted())
        }
    }

    /// The smallest possible tallest column over every split of `heights` into at most `columns` runs.
    private func bruteForceTallest(_ heights: [Int], columns: Int, spacing: Int) -> Int {
        func height(_ run: ArraySlice<Int>) -> Int { run.isEmpty ? 0 : run.reduce(0, +) + (run.count - 1) * spacing }
        func best(_ rest: ArraySlice<Int>, _ columns: Int) -> Int {
            if columns == 1 { return height(rest) }
            var result = Int.max
            for cut in rest.startIndex...rest.endIndex {
                result = min(result, max(height(rest[..<cut]), best(rest[cut...], columns - 1)))
            }
            return result
        }
        return best(heights[...], columns)
    }
}
