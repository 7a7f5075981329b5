/// The violations a schema walk finds, each at its place among the tree's nodes, merged with those the parse
/// found. The walk records them in document order, so only the first ``DiffRequest/maximumViolationCount`` of
/// its own can be listed: later ones are only counted (a body of millions of bad values costs a counter).
struct SchemaViolations {
    private var found: [(violation: Violation, place: Int)]
    private var walkListed = 0
    private var omitted: Int

    /// Starts with the violations the parse found (and the count of those it did not list).
    init(_ reading: TreeReading) {
        found = reading.violations.map { ($0.0, $0.place) }
        omitted = reading.omitted
    }

    var isEmpty: Bool { found.isEmpty && omitted == 0 }

    /// How many violations are kept (the parse's and at most ``DiffRequest/maximumViolationCount`` of the walk's).
    var keptCount: Int { found.count }

    /// Records a violation the walk found at `place`.
    mutating func add(_ violation: @autoclosure () -> Violation, place: Int) {
        guard walkListed < DiffRequest.maximumViolationCount else {
            omitted += 1
            return
        }
        walkListed += 1
        found.append((violation(), place))
    }

    /// The 422 error: in the order met (by place; at one place, the parse's first), the first
    /// ``DiffRequest/maximumViolationCount`` listed and the rest counted.
    var error: RequestError {
        let ordered = found.enumerated().sorted { ($0.element.place, $0.offset) < ($1.element.place, $1.offset) }
        return RequestReader.invalid(ordered.map(\.element.violation), omitted: omitted)
    }
}
