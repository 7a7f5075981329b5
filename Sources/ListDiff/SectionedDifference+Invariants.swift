extension SectionedDifference {
    #if LISTDIFF_INTERNAL_CHECKS
        /// Traps unless the difference's tables agree with each other, with the matching and with ``counts``.
        ///
        /// The matching's tables are each other's inverse and its section starts cover the flat elements; the
        /// survivors of each list are numbered in order; every element's fate follows from the matching; the
        /// sections and elements that are not moved keep their old order; and the counts are those of the tables.
        ///
        /// Compiled in under `LISTDIFF_INTERNAL_CHECKS`, which debug builds define (as swift-collections does
        /// with `COLLECTIONS_INTERNAL_CHECKS`); otherwise it does nothing. Every difference checks itself when
        /// it is made; the property tests call it too.
        ///
        /// - Complexity: O(n + m).
        @inline(never)
        public func _checkInvariants() {
            let m = matching
            m._checkInvariants()
            precondition(sectionMoved.count == m.targetSectionSource.count, "sectionMoved is not one per target section")
            precondition(sourceSectionCompact.count == m.sourceSectionTarget.count, "sourceSectionCompact is not one per source section")
            precondition(sourceElementCompact.count == m.sourceElementCount, "sourceElementCompact is not one per source element")
            precondition(elementFate.count == m.targetElementCount, "elementFate is not one per target element")
            precondition(elementUpdated.count == m.targetElementCount, "elementUpdated is not one per target element")
            var expected = ChangeCounts()

            // Source sections: the survivors are numbered in order.
            var survivors = 0
            for section in m.sourceSectionTarget.indices {
                if m.sourceSectionTarget[section].isAbsent {
                    precondition(sourceSectionCompact[section].isAbsent, "deleted source section \(section) has an index")
                    expected.sectionDeleted += 1
                } else {
                    precondition(sourceSectionCompact[section] == OptionalIndex(survivors), "source section \(section) misnumbered")
                    survivors += 1
                }
            }

            // Target sections: the ones not moved keep their old order.
            var lastKept = -1
            for section in m.targetSectionSource.indices {
                guard let source = m.targetSectionSource[section].index else {
                    precondition(!sectionMoved[section], "inserted section \(section) moved")
                    expected.sectionInserted += 1
                    continue
                }
                if m.sectionChanged[section] { expected.sectionUpdated += 1 }
                if sectionMoved[section] {
                    expected.sectionMoved += 1
                } else {
                    precondition(source > lastKept, "kept section \(section) out of the old order")
                    lastKept = source
                }
            }

            // Source elements: those that end in a surviving section are numbered in order within their section.
            for section in m.sourceSectionTarget.indices {
                let survives = m.sourceSectionTarget[section].index != nil
                var compact = 0
                for element in m.sourceSectionStart[section]..<m.sourceSectionStart[section + 1] {
                    if let target = m.sourceElementTarget[element].index,
                        m.targetSectionSource[Int(m.targetElementSection[target])].index != nil
                    {
                        precondition(sourceElementCompact[element] == OptionalIndex(compact), "source element \(element) misnumbered")
                        compact += 1
                    } else {
                        precondition(sourceElementCompact[element].isAbsent, "deleted source element \(element) has an index")
                        if survives { expected.elementDeleted += 1 }
                    }
                }
            }

            // Target elements: each fate follows from the matching, and the staying ones keep their old order.
            for section in m.targetSectionSource.indices {
                let sourceSection = m.targetSectionSource[section].index
                var lastStay = -1
                for element in m.targetSectionStart[section]..<m.targetSectionStart[section + 1] {
                    let fate = elementFate[element]
                    guard let sourceSection else {
                        precondition(fate == .coveredBySectionInsert && !elementUpdated[element], "element \(element) of an inserted section")
                        continue
                    }
                    guard let source = m.targetElementSource[element].index,
                        m.sourceSectionTarget[Int(m.sourceElementSection[source])].index != nil
                    else {
                        precondition(fate == .inserted && !elementUpdated[element], "new element \(element) not an insertion")
                        expected.elementInserted += 1
                        continue
                    }
                    precondition(elementUpdated[element] == m.elementChanged[element], "element \(element)'s update")
                    if m.elementChanged[element] { expected.elementUpdated += 1 }
                    switch fate {
                    case .stays:
                        precondition(Int(m.sourceElementSection[source]) == sourceSection, "element \(element) stays in another section")
                        precondition(source > lastStay, "staying element \(element) out of the old order")
                        lastStay = source
                    case .moved:
                        expected.elementMoved += 1
                    case .inserted, .coveredBySectionInsert:
                        preconditionFailure("matched element \(element) reported as \(fate)")
                    }
                }
            }
            precondition(expected == counts, "counts \(counts), tables \(expected)")
        }
    #else
        /// Traps unless the difference's tables agree with each other, with the matching and with ``counts``;
        /// compiled in under `LISTDIFF_INTERNAL_CHECKS` only (debug builds), and here it does nothing.
        ///
        /// - Complexity: O(1).
        @inline(__always)
        public func _checkInvariants() {}
    #endif
}
