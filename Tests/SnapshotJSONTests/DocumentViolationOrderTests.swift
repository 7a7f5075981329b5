import SnapshotJSON
import Testing

/// A `/layout` document's violations come in the order the walk meets them, its own (an item's missing id, at the
/// place past the item) and the walk's (repeated names, exponents out of range, wherever they are) merged: the
/// answers pinned here are the ones the value-tree reader gave (d5fd894), which a review of the cursor found it had
/// lost.
@Suite struct DocumentViolationOrderTests {
    private func violations(_ json: String) -> [String] {
        guard case .invalid(let violations, _) = Fixtures.layoutError(json) else { return [] }
        return violations.map { "\($0.path): \($0.message)" }
    }

    @Test func aMissingIDComesAfterWhatTheItemHolds() {
        #expect(violations(#"{"items":[{"aspectRatio":1,"a":1,"a":2},5],"settings":{"containerWidth":375,"columns":2}}"#) == [
            "items[0].a: duplicate member name",
            "items[0].id: missing required member",
            "items[1]: expected object, found number",
        ])
        #expect(violations(#"{"items":[{"w":1e1000000001,"b":[{"x":1,"x":2}]},{"id":1,"id":2}]}"#) == [
            "items[0].w: number exponent out of range (limit ±1000000000)",
            "items[0].b[0].x: duplicate member name",
            "items[0].id: missing required member",
            "items[1].id: duplicate member name",
        ])
    }

    @Test func aScalarDocumentsExponentIsReported() {
        #expect(violations("1e1000000001") == [
            ": number exponent out of range (limit ±1000000000)",
            ": expected object, found number",
        ])
    }

    @Test func aDocumentThatIsAnArrayIsReportedBeforeWhatItHolds() {
        #expect(violations(#"[1e1000000001,{"a":1,"a":1}]"#) == [
            ": expected object, found array",
            "[0]: number exponent out of range (limit ±1000000000)",
            "[1].a: duplicate member name",
        ])
    }
}
