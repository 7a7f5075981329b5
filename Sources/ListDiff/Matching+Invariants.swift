#if LISTDIFF_INTERNAL_CHECKS
    extension Matching {
        /// Traps unless the tables are consistent: each partner table is the inverse of the other, the section
        /// starts cover the flat elements in order and agree with each element's section, and only matched
        /// sections and elements are marked changed.
        ///
        /// - Complexity: O(n + m).
        func _checkInvariants() {
            Self.checkInverse(sourceSectionTarget, targetSectionSource, "sections")
            Self.checkInverse(sourceElementTarget, targetElementSource, "elements")
            Self.checkStarts(sourceSectionStart, sourceElementSection, sectionCount: sourceSectionTarget.count, "source")
            Self.checkStarts(targetSectionStart, targetElementSection, sectionCount: targetSectionSource.count, "target")
            precondition(sectionChanged.count == targetSectionSource.count, "sectionChanged is not one per target section")
            precondition(elementChanged.count == targetElementCount, "elementChanged is not one per target element")
            for (section, source) in targetSectionSource.enumerated() where source.isAbsent {
                precondition(!sectionChanged[section], "inserted section \(section) marked changed")
            }
            for (element, source) in targetElementSource.enumerated() where source.isAbsent {
                precondition(!elementChanged[element], "new element \(element) marked changed")
            }
        }

        /// Traps unless `forward` and `backward` pair indices both ways.
        private static func checkInverse(_ forward: [OptionalIndex], _ backward: [OptionalIndex], _ what: String) {
            for (tables, (from, to)) in [(forward, backward), (backward, forward)].enumerated() {
                for (index, partner) in from.enumerated() {
                    guard let partner = partner.index else { continue }
                    precondition(
                        partner < to.count && to[partner] == OptionalIndex(index),
                        "\(what): \(index) → \(partner) is not returned (table \(tables))")
                }
            }
        }

        /// Traps unless `starts` holds one start per section plus the element count, in order, and
        /// `elementSection` names the section whose range holds each element.
        private static func checkStarts(_ starts: [Int], _ elementSection: [Int32], sectionCount: Int, _ what: String) {
            precondition(starts.count == sectionCount + 1, "\(what) starts are not one per section plus one")
            precondition(starts.first == 0 && starts.last == elementSection.count, "\(what) starts do not cover the elements")
            for section in 0..<sectionCount {
                precondition(starts[section] <= starts[section + 1], "\(what) starts out of order at section \(section)")
                for element in starts[section]..<starts[section + 1] {
                    precondition(Int(elementSection[element]) == section, "\(what) element \(element) is not in section \(section)")
                }
            }
        }
    }
#endif
