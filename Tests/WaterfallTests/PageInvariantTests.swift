@testable import Waterfall
import Testing

#if DEBUG
    /// Debug builds compile the page's checks in (`WATERFALL_INTERNAL_CHECKS`), and a broken page stops the
    /// process: the property tests' calls to `_checkInvariants()` are not empty.
    @Suite struct PageInvariantTests {
        @Test func pageWhoseColumnListsDisagreeTraps() async {
            await #expect(processExitsWith: .failure) {
                let geometry = try! WaterfallGeometry(WaterfallSettings(containerWidth: 100, columns: .count(2)))
                var items = PlacedItems(geometry: geometry, firstIndex: 0, capacity: 1)
                items.append(column: 1, y: 0, height: 10)
                // The item stands in column 1, but column 0 lists it.
                let page = WaterfallPage(
                    geometry: geometry, items: items, columnItems: [[0], []], columnHeights: [0, 10], contentHeight: 10,
                    continuation: nil)
                page._checkInvariants()
            }
        }

        @Test func laidOutPagesPass() throws {
            let items = [10, 20, 30].map { WaterfallItem(size: .fixedHeight(ExactDecimal($0))) }
            let page = try WaterfallLayout.layout(items, settings: WaterfallSettings(containerWidth: 100, columns: .count(2)))
            page._checkInvariants()
            #expect(page.columnItems == [[0, 2], [1]])
        }
    }
#endif
