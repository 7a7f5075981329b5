/// The identity matching of two snapshots, reduced to integers: which section and which element of the
/// source is which of the target, and whose content changed.
///
/// Elements are numbered globally, section by section ("flat" indices), on both sides. Everything after the
/// matching — minimal moves, the staged and sequential renderings — works on these arrays only, so it is
/// compiled once rather than specialised for every identifier type.
@usableFromInline
struct Matching: Sendable {
    /// For each source section, the index of the target section with its id, if any.
    @usableFromInline var sourceSectionTarget: [OptionalIndex]
    /// For each target section, the index of the source section with its id, if any.
    @usableFromInline var targetSectionSource: [OptionalIndex]
    /// For each target section with a source, whether its own content changed.
    @usableFromInline var sectionChanged: [Bool]

    /// Flat index of each source section's first element; one extra entry holds the element count.
    @usableFromInline var sourceSectionStart: [Int]
    /// Flat index of each target section's first element; one extra entry holds the element count.
    @usableFromInline var targetSectionStart: [Int]
    /// The section of each source element (32 bits, as ``OptionalIndex``: one per element).
    @usableFromInline var sourceElementSection: [Int32]
    /// The section of each target element.
    @usableFromInline var targetElementSection: [Int32]

    /// For each source element, the flat index of the target element with its id, if any.
    @usableFromInline var sourceElementTarget: [OptionalIndex]
    /// For each target element, the flat index of the source element with its id, if any.
    @usableFromInline var targetElementSource: [OptionalIndex]
    /// For each target element with a source, whether its content changed.
    @usableFromInline var elementChanged: [Bool]

    @usableFromInline
    init(
        sourceSectionTarget: [OptionalIndex], targetSectionSource: [OptionalIndex], sectionChanged: [Bool],
        sourceSectionStart: [Int], targetSectionStart: [Int],
        sourceElementSection: [Int32], targetElementSection: [Int32],
        sourceElementTarget: [OptionalIndex], targetElementSource: [OptionalIndex], elementChanged: [Bool]
    ) {
        self.sourceSectionTarget = sourceSectionTarget
        self.targetSectionSource = targetSectionSource
        self.sectionChanged = sectionChanged
        self.sourceSectionStart = sourceSectionStart
        self.targetSectionStart = targetSectionStart
        self.sourceElementSection = sourceElementSection
        self.targetElementSection = targetElementSection
        self.sourceElementTarget = sourceElementTarget
        self.targetElementSource = targetElementSource
        self.elementChanged = elementChanged
    }

    var sourceElementCount: Int { sourceElementTarget.count }
    var targetElementCount: Int { targetElementSource.count }
}

extension Matching {
    /// Matches two snapshots by identity, or returns `nil` as soon as either repeats an id.
    ///
    /// One find-or-insert in `table` per element: source elements are recorded (``Claim/source(_:)``); a target
    /// element either finds its source element, or is recorded (``Claim/target(_:)``) so that its repetition is
    /// noticed.
    ///
    /// It is inlinable so that it is specialised for the caller's identifier types: hashing through
    /// unspecialised generics costs about twice as much.
    ///
    /// - Parameter table: An empty table for the elements' identities.
    /// - Complexity: O(n + m) expected time and memory for n source and m target elements.
    @inlinable
    static func match<Section: DifferentiableSection, Table: ElementTable>(
        source: [Section], sourceElements: [[Section.Element]],
        target: [Section], targetElements: [[Section.Element]],
        table: inout Table
    ) -> Matching? where Table.Element == Section.Element {
        // Sections.
        guard let (sourceSectionTarget, targetSectionSource) = matchSections(source: source, target: target) else {
            return nil
        }
        var sectionChanged = [Bool](repeatElement(false, count: target.count))
        for (index, sourceIndex) in targetSectionSource.enumerated() {
            guard let sourceIndex = sourceIndex.index else { continue }
            sectionChanged[index] = !target[index].isContentEqual(to: source[sourceIndex])
        }

        // Source elements.
        let sourceCount = sourceElements.reduce(0) { $0 + $1.count }
        let targetCount = targetElements.reduce(0) { $0 + $1.count }
        // The tables hold indices in 32 bits.
        precondition(
            max(sourceCount, targetCount, source.count, target.count) < Int(Int32.max),
            "a snapshot of 2^31 elements or sections or more")
        var sourceSectionStart = [Int]()
        sourceSectionStart.reserveCapacity(source.count + 1)
        var sourceElementSection = [Int32]()
        sourceElementSection.reserveCapacity(sourceCount)
        var flat = 0
        // (Elements are read in place, by index: iterating would copy each one, retaining what it holds.)
        for (section, elements) in sourceElements.enumerated() {
            sourceSectionStart.append(flat)
            for index in elements.indices {
                guard case .unclaimed = table.claimSource(elements, index, flat: flat) else { return nil }
                sourceElementSection.append(Int32(truncatingIfNeeded: section))
                flat += 1
            }
        }
        sourceSectionStart.append(flat)

        // Target elements. The engine's arrays are built from `repeatElement`, whose copy is specialised for the
        // element type; `init(repeating:count:)` allocates through an unspecialised standard-library function that
        // looks the storage class up in the runtime's metadata cache (about 700 instructions, 16 times per diff).
        var sourceElementTarget = [OptionalIndex](repeatElement(.absent, count: sourceCount))
        var targetElementSource = [OptionalIndex](repeatElement(.absent, count: targetCount))
        var elementChanged = [Bool](repeatElement(false, count: targetCount))
        var targetSectionStart = [Int]()
        targetSectionStart.reserveCapacity(target.count + 1)
        var targetElementSection = [Int32]()
        targetElementSection.reserveCapacity(targetCount)
        flat = 0
        for (section, elements) in targetElements.enumerated() {
            targetSectionStart.append(flat)
            for index in elements.indices {
                let (found, sameContent) = table.claimTarget(elements, index, flat: flat)
                switch found {
                case .unclaimed:
                    break
                case .target:  // an earlier target element has the id
                    return nil
                case .source(let sourceFlat):
                    guard sourceElementTarget[sourceFlat].isAbsent else { return nil }
                    sourceElementTarget[sourceFlat] = OptionalIndex(flat)
                    targetElementSource[flat] = OptionalIndex(sourceFlat)
                    let sourceSection = Int(sourceElementSection[sourceFlat])
                    let oldIndex = sourceFlat - sourceSectionStart[sourceSection]
                    assert(
                        elements[index].differenceIdentifier == sourceElements[sourceSection][oldIndex].differenceIdentifier,
                        "the table matched different ids")
                    if !sameContent {  // (else unchanged, known by content numbers)
                        elementChanged[flat] = !elements[index].isContentEqual(to: sourceElements[sourceSection][oldIndex])
                    }
                }
                targetElementSection.append(Int32(truncatingIfNeeded: section))
                flat += 1
            }
        }
        targetSectionStart.append(flat)

        #if LISTDIFF_INTERNAL_CHECKS
            table._checkInvariants(sourceCount: sourceCount, targetCount: targetCount)
        #endif
        return Matching(
            sourceSectionTarget: sourceSectionTarget, targetSectionSource: targetSectionSource,
            sectionChanged: sectionChanged,
            sourceSectionStart: sourceSectionStart, targetSectionStart: targetSectionStart,
            sourceElementSection: sourceElementSection, targetElementSection: targetElementSection,
            sourceElementTarget: sourceElementTarget, targetElementSource: targetElementSource,
            elementChanged: elementChanged)
    }
}

extension Matching {
    /// Matches sections by identity: for each source section the index of the target section with its id (if
    /// any), and the reverse; `nil` when either snapshot repeats a section id.
    ///
    /// Snapshots have few sections: up to ``linearSectionLimit`` on both sides, comparing every pair costs less
    /// than hashing every id.
    ///
    /// - Complexity: O(n · m) up to the limit, O(n + m) expected beyond it, for n source and m target sections.
    @inlinable
    static func matchSections<Section: DifferentiableSection>(
        source: [Section], target: [Section]
    ) -> (sourceSectionTarget: [OptionalIndex], targetSectionSource: [OptionalIndex])? {
        var sourceSectionTarget = [OptionalIndex](repeatElement(.absent, count: source.count))
        var targetSectionSource = [OptionalIndex](repeatElement(.absent, count: target.count))
        if source.count <= linearSectionLimit && target.count <= linearSectionLimit {
            // Each id read once (reading one may build it: a parser's section may keep only where its id lies).
            let sourceIDs = source.map(\.differenceIdentifier), targetIDs = target.map(\.differenceIdentifier)
            for i in sourceIDs.indices {
                for j in 0 ..< i where sourceIDs[j] == sourceIDs[i] { return nil }
            }
            for i in targetIDs.indices {
                let id = targetIDs[i]
                for j in 0 ..< i where targetIDs[j] == id { return nil }
                if let sourceIndex = sourceIDs.firstIndex(of: id) {
                    sourceSectionTarget[sourceIndex] = OptionalIndex(i)
                    targetSectionSource[i] = OptionalIndex(sourceIndex)
                }
            }
            return (sourceSectionTarget, targetSectionSource)
        }
        // One table for both sides (a set of the target's ids beside it would cost as much again): a source id
        // maps to its index, a target id the source lacks to -1 - its index, so that a repeat of either is seen;
        // a target id repeats a source one when that source section is matched already.
        var sectionIndex = [Section.DifferenceIdentifier: Int32](minimumCapacity: source.count)
        for (index, section) in source.enumerated()
        where sectionIndex.updateValue(Int32(index), forKey: section.differenceIdentifier) != nil {
            return nil
        }
        for (index, section) in target.enumerated() {
            let id = section.differenceIdentifier
            guard let entry = sectionIndex.index(forKey: id) else {
                sectionIndex[id] = Int32(-1 - index)
                continue
            }
            let sourceIndex = Int(sectionIndex.values[entry])
            guard sourceIndex >= 0, sourceSectionTarget[sourceIndex].isAbsent else { return nil }
            sourceSectionTarget[sourceIndex] = OptionalIndex(index)
            targetSectionSource[index] = OptionalIndex(sourceIndex)
        }
        return (sourceSectionTarget, targetSectionSource)
    }

    /// The most sections on either side for which ``matchSections(source:target:)`` compares every pair.
    @inlinable
    static var linearSectionLimit: Int { 8 }
}
