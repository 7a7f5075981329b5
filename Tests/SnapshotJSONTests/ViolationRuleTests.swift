@testable import SnapshotJSON
import SimdJSON
import Testing
import Waterfall

/// The one vocabulary: every rule's message, the bridge's violations read through it, and one wording where two
/// layers had two.
@Suite struct ViolationRuleTests {
    /// Each rule says what the layers wrote before they shared the table, byte for byte.
    @Test(arguments: [
        (ViolationRule.expected(.object, found: .array), "expected object, found array"),
        (.expected(.array, found: .null), "expected array, found null"),
        (.expected(.boolean, found: .string), "expected boolean, found string"),
        (.expected(.string, found: .number), "expected string, found number"),
        (.expected(.number, found: .object), "expected number, found object"),
        (.expected(.integer, found: .boolean), "expected integer, found boolean"),
        (.expected(.integerOrObject, found: .string), "expected an integer or an object, found string"),
        (.expected(.id, found: .numberWithFractionOrExponent), "expected string or integer, found number with a fraction or an exponent"),
        (.expected(.id, found: .integerOutside64Bits), "expected string or integer, found integer outside the 64-bit range"),
        (.expected(.id, found: .nothing), "expected string or integer, found nothing"),
        (.expected(.oneOf(["reject", "keepFirst"]), found: .text("first")), #"expected "reject" or "keepFirst", found "first""#),
        (.expected(.oneOf(["staged", "sequential", "jsonPatch"]), found: .number), #"expected "staged", "sequential" or "jsonPatch", found number"#),
        (.expected(.oneOf(["a"]), found: .text("b\"")), #"expected "a", found "b\"""#),
        (.missingMember, "missing required member"),
        (.duplicateMemberName, "duplicate member name"),
        (.exponentOutOfRange, "number exponent out of range (limit ±1000000000)"),
        (.invalidValue, "invalid value"),
        (.unknownMember(in: .diffRequest), #"unknown member; expected "old", "new" or "options""#),
        (.unknownMember(in: .snapshot), #"unknown member; expected "sections" or "items""#),
        (.unknownMember(in: .options), #"unknown option; expected "renderings", "duplicates", "pretty", "ids", "changedMembers" or "layouts""#),
        (.unknownMember(in: .layout), "unknown member; expected section, settings or pageSize"),
        (.unknownMember(in: .layoutRequest), "unknown member; expected settings, items, pageSize, cursor or pretty"),
        (.unknownMember(in: .settings), "unknown setting; expected containerWidth, scale, columns, columnSpacing, itemSpacing, insets, direction or strategy"),
        (.unknownMember(in: .columns), "unknown member; expected count, or minimumWidth and maximumCount"),
        (.unknownMember(in: .insets), "unknown member; expected top, leading, bottom or trailing"),
        (.sectionsAndItems, #"has both "sections" and "items"; expected one of them"#),
        (.repeatedRendering("staged"), #"duplicate rendering "staged""#),
        (.noRendering, "expected at least one rendering"),
        (.notAnInteger, "expected an integer"),
        (.tooManyDigits, "more than \(ExactDecimal.maximumDigits) significant digits"),
        (.sectionAlreadyLaidOut, "this section already has a layout"),
        (.noSuchSection, "no section with this id in the new snapshot"),
        (.missingColumnRule, "expected count or minimumWidth"),
        (.conflictingColumnRules, "give either count, or minimumWidth (with an optional maximumCount)"),
        (.missingSize, "missing size: give aspectRatio, width and height, or fixedHeight"),
        (.ambiguousSize, "ambiguous size: give only one of aspectRatio, width and height, or fixedHeight"),
        (.missingSizePartner, "missing required member (width and height go together)"),
        (.notAllowed(.integer(in: 1 ... 64)), "must be an integer from 1 to 64"),
        (.malformedCursor("not base64url"), "malformed (not base64url)"),
        (.alteredCursor, "altered, or issued under another SNAPDIFF_CURSOR_KEY (without one, by another process)"),
        (.cursorMadeWithOtherSettings, "made with other settings"),
        (.notSupported(by: .balanced), "not supported by balanced"),
    ])
    func eachRuleSaysWhatTheLayersSaid(rule: ViolationRule, message: String) {
        #expect(rule.message == message)
    }

    /// The walk's rules and what it found, read as rules of the vocabulary.
    @Test(arguments: [
        (WalkViolation.Rule.expectedObject, JSONValueKind.array, ViolationRule.expected(.object, found: .array)),
        (.expectedArray, .object, .expected(.array, found: .object)),
        (.expectedArray, .nothing, .expected(.array, found: .nothing)),
        (.missingMember, .nothing, .missingMember),
        (.duplicateMember, .nothing, .duplicateMemberName),
        (.exponentOutOfRange, .number, .exponentOutOfRange),
        (.caller(DiffRequestSchema.Rule.unknownRequestMember.rawValue), .nothing, .unknownMember(in: .diffRequest)),
        (.caller(DiffRequestSchema.Rule.unknownSnapshotMember.rawValue), .nothing, .unknownMember(in: .snapshot)),
        (.caller(DiffRequestSchema.Rule.sectionsAndItems.rawValue), .nothing, .sectionsAndItems),
        (.caller(DiffRequestSchema.Rule.invalidID.rawValue), .string, .expected(.id, found: .string)),
        (.caller(DiffRequestSchema.Rule.invalidID.rawValue), .fractionalNumber, .expected(.id, found: .numberWithFractionOrExponent)),
        (.caller(DiffRequestSchema.Rule.invalidID.rawValue), .integerOutOfRange, .expected(.id, found: .integerOutside64Bits)),
        (.caller(DiffRequestSchema.Rule.invalidID.rawValue), .boolean, .expected(.id, found: .boolean)),
        (.caller(DiffRequestSchema.Rule.invalidID.rawValue), .null, .expected(.id, found: .null)),
    ] as [(WalkViolation.Rule, JSONValueKind, ViolationRule)])
    func walkViolationsAreRules(rule: WalkViolation.Rule, found: JSONValueKind, expected: ViolationRule) {
        #expect(ViolationRule.walk(rule, found: found) == expected)
    }

    @Test func codesNoSchemaRuleHasAreNoRule() {
        for code: UInt8 in [4, 5, 200, 255] { #expect(ViolationRule.walk(.caller(code), found: .nothing) == nil, "\(code)") }
    }

    /// What `/diff` answers for each violation the bridge's walk finds is its rule's message.
    @Test(arguments: [
        (#"[]"#, "", ViolationRule.expected(.object, found: .array)),
        (#"{"old":[],"new":{"items":[]}}"#, "old", .expected(.object, found: .array)),
        (#"{"old":{"sections":{}},"new":{"items":[]}}"#, "old.sections", .expected(.array, found: .object)),
        (#"{"old":{"items":[{"id":1.5}]},"new":{"items":[]}}"#, "old.items[0].id", .expected(.id, found: .numberWithFractionOrExponent)),
        (#"{"old":{"items":[{"id":99999999999999999999}]},"new":{"items":[]}}"#, "old.items[0].id", .expected(.id, found: .integerOutside64Bits)),
        (#"{"old":{"items":[{"id":null}]},"new":{"items":[]}}"#, "old.items[0].id", .expected(.id, found: .null)),
        (#"{"old":{"items":[{"id":[]}]},"new":{"items":[]}}"#, "old.items[0].id", .expected(.id, found: .array)),
        (#"{"old":{"items":[{}]},"new":{"items":[]}}"#, "old.items[0].id", .missingMember),
        (#"{"old":{"items":[{"id":1,"id":2}]},"new":{"items":[]}}"#, "old.items[0].id", .duplicateMemberName),
        (#"{"old":{"items":[{"id":1,"x":1e2000000000}]},"new":{"items":[]}}"#, "old.items[0].x", .exponentOutOfRange),
        (#"{"old":{"items":[]},"new":{"items":[]},"x":1}"#, "x", .unknownMember(in: .diffRequest)),
        (#"{"old":{"items":[],"x":1},"new":{"items":[]}}"#, "old.x", .unknownMember(in: .snapshot)),
        (#"{"old":{"items":[],"sections":[]},"new":{"items":[]}}"#, "old", .sectionsAndItems),
    ] as [(String, String, ViolationRule)])
    func theWalksViolationsSayTheirRules(body: String, path: String, rule: ViolationRule) {
        let violations = Fixtures.violations(of: body)
        #expect(violations.map(\.path) == [path])
        #expect(violations.map(\.message) == [rule.message])
    }

    /// `/layout`'s item ids and `/diff`'s are read by one rule, and say so in one wording.
    @Test(arguments: [
        ("1.5", "number with a fraction or an exponent"),
        ("1e3", "number with a fraction or an exponent"),
        ("99999999999999999999", "integer outside the 64-bit range"),
        ("true", "boolean"),
    ])
    func idsAreOneRuleInEveryLayer(id: String, found: String) throws {
        let message = "expected string or integer, found \(found)"
        let diff = Fixtures.violations(of: #"{"old":{"items":[{"id":\#(id)}]},"new":{"items":[]}}"#)
        #expect(diff.map(\.message) == [message])
        guard case .invalid(let layout, _) = Fixtures.layoutError(#"{"items":[{"id":\#(id)}]}"#) else {
            Issue.record("/layout accepted \(id)")
            return
        }
        #expect(layout.map(\.message) == [message])
        let layouts = Fixtures.violations(
            of: #"{"old":{"items":[]},"new":{"items":[]},"options":{"layouts":[{"section":\#(id),"settings":{"containerWidth":1}}]}}"#)
        #expect(layouts == [Violation(path: "options.layouts[0].section", message: message)])
    }

    /// `options.layouts[].section` said `found number with a fraction, an exponent or out of range` for every
    /// number it refused, where `/diff`'s ids say which; and it took `1.0` for the id `1` (which no snapshot can
    /// have: `1.0` is not an id) and refused 19-digit ids that snapshots have. It reads ids as snapshots do now.
    @Test func aLayoutsSectionIsAnIdAsSnapshotsWriteThem() throws {
        let options = { (section: String) in #"{"layouts":[{"section":\#(section),"settings":{"containerWidth":1}}]}"# }
        let largest = try Fixtures.request(oldItems: "", newItems: "", options: options("9223372036854775807"))
        #expect(largest.options.layouts.map(\.section) == [.explicit(.integer(.max))])
        let smallest = try Fixtures.request(oldItems: "", newItems: "", options: options("-9223372036854775808"))
        #expect(smallest.options.layouts.map(\.section) == [.explicit(.integer(.min))])
        for written in ["1.0", "1e0", "10E-1"] {
            let violations = Fixtures.violations(of: #"{"old":{"items":[]},"new":{"items":[]},"options":\#(options(written))}"#)
            #expect(violations.map(\.message) == ["expected string or integer, found number with a fraction or an exponent"], "\(written)")
        }
    }

    /// A layout setting that names a choice says which names it takes and what it found, as options do (it said
    /// `expected one of "leftToRight", "rightToLeft"`, or `expected string, found number`).
    @Test func choicesSayTheirNamesAndWhatWasFound() throws {
        let body = { (settings: String) in
            #"{"old":{"items":[]},"new":{"items":[]},"options":{"layouts":[{"settings":{"containerWidth":1,\#(settings)}}]}}"#
        }
        #expect(Fixtures.violations(of: body(#""direction":"up""#)) == [
            Violation(path: "options.layouts[0].settings.direction", message: #"expected "leftToRight" or "rightToLeft", found "up""#)
        ])
        #expect(Fixtures.violations(of: body(#""strategy":1"#)) == [
            Violation(
                path: "options.layouts[0].settings.strategy",
                message: #"expected "shortestColumn", "roundRobin", "sequentialSplit" or "balanced", found number"#)
        ])
        #expect(Fixtures.violations(of: body(#""direction":"rightToLeft","strategy":"balanced""#)).isEmpty)
    }
}
