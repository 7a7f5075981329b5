@testable import SnapshotJSON
import Testing

/// A walk that meets millions of bad values keeps a bounded list: the first violations it meets, and a count.
@Suite struct SchemaViolationsTests {
    @Test func theWalkKeepsAtMostTheListedViolations() throws {
        var violations = SchemaViolations()
        for place in 0 ..< 10_000 { violations.add(Violation(path: "x[\(place)]", message: "bad"), place: place + 10) }
        violations.include(try RequestReader.read(Array(#"{"a":1,"a":2}"#.utf8)) { $0.skip() }.rules)
        #expect(violations.keptCount == 1 + DiffRequest.maximumViolationCount)
        guard case .invalid(let listed, let omitted) = violations.error else {
            Issue.record("not a 422")
            return
        }
        #expect(listed.count == DiffRequest.maximumViolationCount && listed.count + omitted == 10_001)
        #expect(listed.first?.path == "a" && listed.last?.path == "x[98]")
    }
}
