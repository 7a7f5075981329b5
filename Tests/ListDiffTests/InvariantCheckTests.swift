@testable import ListDiff
import Testing

#if DEBUG
    /// Debug builds compile the tables' checks in (`LISTDIFF_INTERNAL_CHECKS`), and a broken table stops the
    /// process: the property tests' calls to `_checkInvariants()` are not empty.
    @Suite struct InvariantCheckTests {
        @Test func differenceOfAMatchingWhosePartnersDisagreeTraps() async {
            await #expect(processExitsWith: .failure) {
                // Source section 0 names target section 0 as its counterpart; target section 0 names none.
                let matching = Matching(
                    sourceSectionTarget: [OptionalIndex(0)], targetSectionSource: [.absent], sectionChanged: [false],
                    sourceSectionStart: [0, 0], targetSectionStart: [0, 0], sourceElementSection: [],
                    targetElementSection: [], sourceElementTarget: [], targetElementSource: [], elementChanged: [])
                _ = SectionedDifference(matching: matching, dropped: DroppedDuplicates())
            }
        }

        @Test func slotOccupiedTwiceTraps() async {
            await #expect(processExitsWith: .failure) {
                var tree = OccupancyTree(occupied: [true, false])
                tree.add(1, at: 0)
                tree._checkInvariants()
            }
        }

        @Test func consistentTablesPass() {
            var tree = OccupancyTree(occupied: [true, false, true])
            tree.add(-1, at: 0)
            tree.add(1, at: 1)
            tree._checkInvariants()
            #expect(tree.occupied(before: 3) == 2)
        }
    }
#endif
