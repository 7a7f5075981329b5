@testable import SnapshotJSON
import Testing

/// One collector for every layer: a bounded list of the first violations in the order met, and a count.
@Suite struct ViolationsTests {
    /// A walk that meets millions of bad values keeps a bounded list: the first violations it meets, and a count;
    /// the walk's own violations stand at their places among the schema's.
    @Test func theWalkKeepsAtMostTheListedViolations() throws {
        var violations = Violations()
        for place in 0 ..< 10_000 { violations.add(.missingMember, at: "x[\(place)]", place: place + 10) }
        violations.include(try RequestReader.read(Array(#"{"a":1,"a":2}"#.utf8)) { $0.skip() }.rules)
        #expect(violations.count == 10_001 && violations.omittedCount == 10_001 - Violations.listedLimit)
        guard case .invalid(let listed, let omitted) = violations.error else {
            Issue.record("not a 422")
            return
        }
        #expect(listed.count == DiffRequest.maximumViolationCount && listed.count + omitted == 10_001)
        #expect(listed.first?.path == "a" && listed.last?.path == "x[98]")
        #expect(listed.first?.message == "duplicate member name" && listed.last?.message == "missing required member")
    }

    /// Every layer lists as many as the walk of `/diff` does.
    @Test func everyLayerHasTheWalksCap() {
        #expect(Violations.listedLimit == DiffRequest.maximumViolationCount)
    }

    /// Without places, violations are listed as recorded; one recorded without a place stands after the one
    /// recorded before it.
    @Test func violationsWithoutPlacesAreListedAsRecorded() {
        var violations = Violations()
        violations.add(.missingMember, at: "b")
        violations.add(.noRendering, at: "a")
        violations.add(.duplicateMemberName, at: "c", place: 7)
        violations.add(.missingSize, at: "d")
        violations.add(.ambiguousSize, at: "e", place: 3)
        #expect(violations.listed.map(\.path) == ["b", "a", "e", "c", "d"])
    }

    /// Another collector's violations are recorded after these, as if recorded now, within the one cap.
    @Test func addingAnotherCollectorKeepsTheCapAndTheTotal() {
        var first = Violations(), second = Violations()
        for index in 0 ..< 60 { first.add(.missingMember, at: "a[\(index)]") }
        for index in 0 ..< 70 { second.add(.missingMember, at: "b[\(index)]", place: index) }
        first.add(contentsOf: second)
        #expect(first.count == 130 && first.listed.count == Violations.listedLimit && first.omittedCount == 30)
        #expect(first.listed[59].path == "a[59]" && first.listed[60].path == "b[0]" && first.listed.last?.path == "b[39]")
        first.add(.noRendering, at: "late")
        #expect(first.count == 131 && first.listed.last?.path == "b[39]")
    }

    /// A path is made only while the violation is kept.
    @Test func pathsPastTheCapAreNotMade() {
        var violations = Violations()
        var made = 0
        func path() -> String {
            made += 1
            return "x"
        }
        for _ in 0 ..< 1000 { violations.add(.missingMember, at: path()) }
        #expect(made == Violations.listedLimit && violations.count == 1000)
    }
}
