/// The difference between two snapshots of a sectioned (or flat) list: which sections and elements were
/// deleted, inserted, moved and updated, with the fewest moves possible.
///
/// Sections are matched by id; elements are matched by id across the **whole** snapshot, so an element can
/// move between two surviving sections. An element that leaves a deleted section, or enters an inserted
/// one, is a deletion and an insertion. Within a surviving section, the elements that keep their relative
/// order (a longest increasing subsequence of their old positions) are never reported as moved; every
/// other surviving element is exactly one move, as is every section out of the kept order of sections. So
/// the move counts are the true minimum, and among minimal choices the difference takes one with the fewest
/// values "moved" to the index they came from. That number is not always zero: in `[x0, x1, x2, x3] →
/// [N, x3, x2, x0, x1]` the only minimal choice keeps `x0, x1`, and `x2` moves from index 2 to index 2.
///
/// Three renderings describe the same change:
/// - ``staged``: up to five stages, each one safe UIKit batch update (DifferenceKit's order and names);
/// - ``sequential``: a flat list of operations where each index refers to the state the previous
///   operations left, as RecyclerView and DiffUtil expect (``sequentialSubjects`` names what each concerns);
/// - ``ranges``: the same operations with runs of adjacent removals, insertions or updates merged, as
///   RecyclerView's `notifyItemRange*` calls expect.
///
/// ```swift
/// let difference = try SectionedDifference(from: [1, 2, 3], to: [3, 2, 1])
/// difference.staged.first?.elementMoved   // [[0, 2] → [0, 0], [0, 0] → [0, 2]]
/// ```
public struct SectionedDifference: Sendable {
    let matching: Matching
    /// Per target section: moved (out of the kept order of sections).
    let sectionMoved: [Bool]
    /// Per source section: its index after the section deletions; absent when deleted.
    let sourceSectionCompact: [OptionalIndex]
    /// Per source element: its index within its section after the element deletions; absent when deleted.
    let sourceElementCompact: [OptionalIndex]
    /// Per target element: what became of it.
    let elementFate: [ElementFate]
    /// Per target element: whether an update is reported for it.
    let elementUpdated: [Bool]

    /// How many changes of each kind the difference holds.
    public let counts: ChangeCounts

    /// What ``DuplicatePolicy/keepFirst`` dropped before diffing; empty under ``DuplicatePolicy/reject``.
    public let droppedDuplicates: DroppedDuplicates

    /// Whether the two snapshots are the same, content included.
    public var isEmpty: Bool { counts.total == 0 }

    /// Computes the difference between two sectioned snapshots.
    ///
    /// - Parameters:
    ///   - source: The older snapshot.
    ///   - target: The newer snapshot.
    ///   - policy: What to do with repeated ids; ``DuplicatePolicy/reject`` by default.
    ///   - reportLimits: How many repeated ids, and positions of each, the error lists; all by default.
    /// - Throws: ``DuplicateIdentifiersError`` naming every repeated section and element id of both snapshots
    ///   with all their positions (within `reportLimits`), when `policy` is ``DuplicatePolicy/reject``.
    /// - Complexity: O(n + m + k log k) expected time and O(n + m) memory, for n source and m target
    ///   elements (sections included) of which k keep their section; O(n + m) when the kept elements are
    ///   already in order.
    @inlinable
    public init<Section: DifferentiableSection>(
        from source: [Section], to target: [Section], duplicates policy: DuplicatePolicy = .reject,
        reportLimits: DuplicateReportLimits = .unlimited
    ) throws(DuplicateIdentifiersError<Section.DifferenceIdentifier, Section.Element.DifferenceIdentifier>) {
        let sourceElements = source.map(\.elements), targetElements = target.map(\.elements)
        let table = HashedElementTable(source: sourceElements, target: targetElements)
        try self.init(
            source, sourceElements, target, targetElements, table: table, policy: policy, reportLimits: reportLimits)
    }

    /// Computes the difference between two sectioned snapshots whose element identities are numbered: the same
    /// difference as for elements that are only ``Differentiable``, with elements matched through their numbers.
    ///
    /// Falls back to hashing identifiers when an element is not numbered or the numbers are sparse (see
    /// ``IdentityNumbered``).
    ///
    /// - Parameters:
    ///   - source: The older snapshot.
    ///   - target: The newer snapshot, numbered together with `source`.
    ///   - policy: What to do with repeated ids; ``DuplicatePolicy/reject`` by default.
    ///   - reportLimits: How many repeated ids, and positions of each, the error lists; all by default.
    /// - Throws: ``DuplicateIdentifiersError`` naming every repeated section and element id of both snapshots
    ///   with all their positions (within `reportLimits`), when `policy` is ``DuplicatePolicy/reject``.
    /// - Complexity: O(n + m + k log k) expected time and O(n + m) memory, as for elements that are only
    ///   ``Differentiable``, without hashing element identifiers.
    @inlinable
    public init<Section: DifferentiableSection>(
        from source: [Section], to target: [Section], duplicates policy: DuplicatePolicy = .reject,
        reportLimits: DuplicateReportLimits = .unlimited
    ) throws(DuplicateIdentifiersError<Section.DifferenceIdentifier, Section.Element.DifferenceIdentifier>)
    where Section.Element: IdentityNumbered {
        let sourceElements = source.map(\.elements), targetElements = target.map(\.elements)
        if let table = NumberedElementTable(source: sourceElements, target: targetElements) {
            try self.init(
                source, sourceElements, target, targetElements, table: consume table, policy: policy,
                reportLimits: reportLimits)
        } else {
            let table = HashedElementTable(source: sourceElements, target: targetElements)
            try self.init(
                source, sourceElements, target, targetElements, table: consume table, policy: policy,
                reportLimits: reportLimits)
        }
    }

    /// Matches through `table`, then plans; takes the slow path when a snapshot repeats an id.
    ///
    /// The table is consumed: it is freed once the matching is made, before the plan's own tables exist (it holds
    /// a slot per identity and the numbers of every element).
    @inlinable
    init<Section: DifferentiableSection, Table: ElementTable>(
        _ source: [Section], _ sourceElements: [[Section.Element]],
        _ target: [Section], _ targetElements: [[Section.Element]],
        table: consuming Table, policy: DuplicatePolicy, reportLimits: DuplicateReportLimits
    ) throws(DuplicateIdentifiersError<Section.DifferenceIdentifier, Section.Element.DifferenceIdentifier>)
    where Table.Element == Section.Element {
        let matched = Matching.match(
            source: source, sourceElements: sourceElements, target: target, targetElements: targetElements,
            table: &table)
        _ = consume table
        if let matching = matched {
            self.init(matching: matching, dropped: DroppedDuplicates())
        } else {
            try self.init(repeatingIDs: source, target, policy: policy, reportLimits: reportLimits, table: Table.self)
        }
    }

    /// The slow path, taken only when a snapshot repeats an id: throws the report (within `reportLimits`), or
    /// diffs the snapshots without their later occurrences (matched through a table of `Table`'s kind when it
    /// can hold them, by hashing otherwise).
    ///
    /// Inlinable like the fast path, so that it is specialised for the caller's element type.
    @inlinable
    init<Section: DifferentiableSection, Table: ElementTable>(
        repeatingIDs source: [Section], _ target: [Section], policy: DuplicatePolicy,
        reportLimits: DuplicateReportLimits, table: Table.Type
    ) throws(DuplicateIdentifiersError<Section.DifferenceIdentifier, Section.Element.DifferenceIdentifier>)
    where Table.Element == Section.Element {
        switch policy {
        case .reject:
            throw DuplicateScan.report(source: source, target: target, limits: reportLimits, table: Table.self)
        case .keepFirst:
            let source = FirstOccurrences(of: source), target = FirstOccurrences(of: target)
            // (Each table is freed at the end of its branch, before the plan's own tables exist.)
            let matching: Matching?
            if var table = Table(source: source.elements, target: target.elements) {
                matching = Matching.match(
                    source: source.sections, sourceElements: source.elements,
                    target: target.sections, targetElements: target.elements, table: &table)
                _ = consume table
            } else {
                var table = HashedElementTable(source: source.elements, target: target.elements)
                matching = Matching.match(
                    source: source.sections, sourceElements: source.elements,
                    target: target.sections, targetElements: target.elements, table: &table)
                _ = consume table
            }
            guard let matching else {
                preconditionFailure("snapshots still repeat an id after dropping every later occurrence")
            }
            self.init(matching: matching, dropped: DroppedDuplicates(source: source.dropped, target: target.dropped))
        }
    }

    /// Computes the difference between two flat lists, as one section.
    ///
    /// The renderings then report every element path in section 0 and no section change.
    ///
    /// - Parameters:
    ///   - source: The older list.
    ///   - target: The newer list.
    ///   - policy: What to do with repeated ids; ``DuplicatePolicy/reject`` by default.
    ///   - reportLimits: How many repeated ids, and positions of each, the error lists; all by default.
    /// - Throws: ``DuplicateIdentifiersError`` naming every repeated id of both lists with all their positions
    ///   (paths in section 0; within `reportLimits`), when `policy` is ``DuplicatePolicy/reject``.
    /// - Complexity: O(n + m + k log k) expected time and O(n + m) memory, as for sections.
    @inlinable
    public init<Element: Differentiable>(
        from source: [Element], to target: [Element], duplicates policy: DuplicatePolicy = .reject,
        reportLimits: DuplicateReportLimits = .unlimited
    ) throws(DuplicateIdentifiersError<Never, Element.DifferenceIdentifier>) {
        do {
            try self.init(
                from: [ArraySection(model: FlatList(), elements: source)],
                to: [ArraySection(model: FlatList(), elements: target)],
                duplicates: policy, reportLimits: reportLimits)
        } catch {
            throw DuplicateIdentifiersError(sections: [], elements: error.elements, repeatedCount: error.repeatedCount)
        }
    }
}

/// The one section model of a flat list.
@usableFromInline
struct FlatList: Differentiable, Hashable, Sendable {
    @usableFromInline init() {}
}
