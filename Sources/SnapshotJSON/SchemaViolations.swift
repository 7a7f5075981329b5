/// The violations a schema finds while a walk reads a body, each at its place in the walk, merged with those of
/// the rules every value follows (``RuleViolations``). The schema records its own in document order, so only the
/// first ``DiffRequest/maximumViolationCount`` can be listed: later ones are only counted (a body of millions of
/// bad values costs a counter).
struct SchemaViolations {
    private var found: [(violation: Violation, place: Int, isRule: Bool)] = []
    private var schemaListed = 0
    private var omitted = 0

    /// None yet.
    init() {}

    var isEmpty: Bool { found.isEmpty && omitted == 0 }

    /// How many violations are kept (the rules' and at most ``DiffRequest/maximumViolationCount`` of the schema's).
    var keptCount: Int { found.count }

    /// Records a violation the schema found at `place`.
    mutating func add(_ violation: @autoclosure () -> Violation, place: Int) {
        guard schemaListed < DiffRequest.maximumViolationCount else {
            omitted += 1
            return
        }
        schemaListed += 1
        found.append((violation(), place, false))
    }

    /// Adds the violations of the rules the walk found (and the count of those it did not list).
    mutating func include(_ rules: RuleViolations) {
        found += rules.violations.map { ($0.0, $0.place, true) }
        omitted += rules.omitted
    }

    /// The 422 error: in the order met (by place; at one place, a rule's first), the first
    /// ``DiffRequest/maximumViolationCount`` listed and the rest counted.
    var error: RequestError {
        let ordered = found.enumerated().sorted {
            ($0.element.place, $0.element.isRule ? 0 : 1, $0.offset) < ($1.element.place, $1.element.isRule ? 0 : 1, $1.offset)
        }
        return RequestReader.invalid(ordered.map(\.element.violation), omitted: omitted)
    }
}
