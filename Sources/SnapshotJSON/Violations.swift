/// Collects the violations of a request while reading goes on, for one 422 that lists the first
/// ``listedLimit`` in the order they were met and counts them all: the one collector of every layer (the walk's
/// rules, `/diff`'s schema, the options, the layouts, `/layout`'s body and the layout engine's ranges), with
/// one cap. A body of a million bad values costs a counter, not a million paths.
///
/// Each violation stands at a place in the walk that found it (``JSONReader``'s order of values). Those
/// recorded without a place stand at the place of the one recorded before them, so a collector that is given
/// no places lists its violations as they were recorded. At one place, the walk's own violations
/// (``include(_:)``) come first, then the others as recorded.
///
/// ```swift
/// var violations = Violations()
/// violations.add(.missingMember, at: "settings")
/// violations.add(.expected(.object, found: .array), at: "items[0]")
/// violations.error  // .invalid([settings: missing required member, items[0]: expected object, found array])
/// ```
public struct Violations: Sendable {
    /// Violations listed at most, ``DiffRequest/maximumViolationCount`` (the walk's own cap): those recorded
    /// later are only counted.
    public static let listedLimit = DiffRequest.maximumViolationCount

    /// A violation kept, where it stands and whether the walk found it.
    private struct Entry: Sendable {
        var violation: Violation
        var place: Int
        /// 0 for the walk's rules, 1 for the others: the walk's come first at one place.
        var rank: UInt8
    }

    /// The violations kept, in the order recorded: at most ``listedLimit`` recorded here, and the walk's.
    private var kept: [Entry] = []
    /// How many of `kept` were recorded here (not included from the walk).
    private var recorded = 0
    /// Whether `kept` is in the order it is listed in.
    private var isOrdered = true

    /// How many violations were recorded, listed or not.
    public private(set) var count = 0

    /// None yet.
    public init() {}

    /// Whether no violation was recorded.
    public var isEmpty: Bool { count == 0 }

    /// The first ``listedLimit`` violations, in the order met (by place; recording order at one place, the
    /// walk's first).
    ///
    /// - Complexity: O(*k* log *k*) for the *k* ≤ 2 × ``listedLimit`` violations kept, O(*k*) when they were
    ///   recorded in order.
    public var listed: [Violation] {
        let ordered = isOrdered ? kept : kept.enumerated().sorted {
            ($0.element.place, $0.element.rank, $0.offset) < ($1.element.place, $1.element.rank, $1.offset)
        }.map(\.element)
        return ordered.prefix(Self.listedLimit).map(\.violation)
    }

    /// How many violations were recorded past those ``listed``.
    public var omittedCount: Int { count - min(kept.count, Self.listedLimit) }

    /// The 422 error of the violations: the first ``listedLimit`` listed in the order met, the rest counted.
    public var error: RequestError { .invalid(listed, omitted: omittedCount) }

    /// Records that the value at `path` breaks `rule` (its path is made only while fewer than ``listedLimit``
    /// are kept).
    ///
    /// - Parameters:
    ///   - rule: The rule broken, whose message the answer gives.
    ///   - path: The value's JSON path (``JSONPath``): empty for the root.
    ///   - byteOffset: The value's (or member name's) first byte in the body, when the answer locates it.
    ///   - place: The value's place in the walk; by default the place of the violation recorded before.
    /// - Complexity: O(*n*) in the path's length, when it is made.
    public mutating func add(
        _ rule: ViolationRule, at path: @autoclosure () -> String, byteOffset: Int? = nil, place: Int? = nil
    ) {
        count += 1
        guard recorded < Self.listedLimit else { return }
        recorded += 1
        append(Entry(violation: Violation(rule, at: path(), byteOffset: byteOffset),
                     place: place ?? kept.last?.place ?? 0, rank: 1))
    }

    /// Records another collector's violations after these, as if recorded now in the order it lists them (the
    /// first ``listedLimit`` of both kept, all counted).
    ///
    /// - Parameter other: The violations to add.
    public mutating func add(contentsOf other: Violations) {
        let listed = other.listed
        let place = kept.last?.place ?? 0
        for violation in listed.prefix(Self.listedLimit - recorded) {
            append(Entry(violation: violation, place: place, rank: 1))
        }
        recorded = min(recorded + listed.count, Self.listedLimit)
        count += other.count
    }

    /// Adds the violations of the rules every value follows that a walk found, each at its place (and the count
    /// of those it did not list).
    ///
    /// - Parameter rules: The walk's violations.
    mutating func include(_ rules: RuleViolations) {
        for (violation, place) in rules.violations { append(Entry(violation: violation, place: place, rank: 0)) }
        count += rules.violations.count + rules.omitted
    }

    private mutating func append(_ entry: Entry) {
        if let last = kept.last, (entry.place, entry.rank) < (last.place, last.rank) { isOrdered = false }
        kept.append(entry)
    }
}
