import Waterfall

/// Every rule a request's values follow, each with what an answer says of a value that breaks it: the one
/// vocabulary of the `errors[].message` of `/diff`'s and `/layout`'s problems, whichever layer finds the
/// violation (the walk of the JSON, `/diff`'s schema, the options, the layouts, `/layout`'s body, the layout
/// engine's ranges, the cursor).
///
/// A rule whose message depends on what the body holds carries it: `.expected(.object, found: .array)` says
/// `expected object, found array`. Record a violation with ``Violations/add(_:at:byteOffset:place:)``.
public enum ViolationRule: Hashable, Sendable {
    // The rules of every JSON value, which the walk checks.

    /// A value of the wrong type: `expected object, found array`.
    case expected(Expected, found: Found)
    /// A required member is absent: `missing required member`.
    case missingMember
    /// An object gives a member name twice: `duplicate member name`.
    case duplicateMemberName
    /// A number's written exponent is beyond ±``DiffRequest/maximumExponentMagnitude``:
    /// `number exponent out of range (limit ±1000000000)`.
    case exponentOutOfRange
    /// A value the walk refused by a rule no case here names (never expected): `invalid value`.
    case invalidValue

    // The members of the objects a body holds.

    /// A member the object does not have: `unknown member; expected "old", "new" or "options"`.
    case unknownMember(in: Container)
    /// A snapshot with both `sections` and `items`: `has both "sections" and "items"; expected one of them`.
    case sectionsAndItems

    // Options.

    /// A rendering `options.renderings` names again: `duplicate rendering "staged"`.
    case repeatedRendering(String)
    /// An empty `options.renderings`: `expected at least one rendering`.
    case noRendering

    // Numbers read as layout values.

    /// A number that is not an integer that fits 18 digits (`1.5`, `1e30`): `expected an integer`.
    case notAnInteger
    /// A number with more significant digits than ``Waterfall/ExactDecimal/maximumDigits`` (`more than 38
    /// significant digits`).
    case tooManyDigits

    // Layouts, their settings and their items.

    /// A second layout for one section: `this section already has a layout`.
    case sectionAlreadyLaidOut
    /// A layout for a section the new snapshot does not have: `no section with this id in the new snapshot`.
    case noSuchSection
    /// `columns` with neither `count` nor `minimumWidth`: `expected count or minimumWidth`.
    case missingColumnRule
    /// `columns` with `count` and `minimumWidth` or `maximumCount`:
    /// `give either count, or minimumWidth (with an optional maximumCount)`.
    case conflictingColumnRules
    /// An item without a size: `missing size: give aspectRatio, width and height, or fixedHeight`.
    case missingSize
    /// An item with two sizes: `ambiguous size: give only one of aspectRatio, width and height, or fixedHeight`.
    case ambiguousSize
    /// An item's `width` without `height` or the reverse, at the missing one:
    /// `missing required member (width and height go together)`.
    case missingSizePartner
    /// A value outside what the layout engine allows: `must be a number from 0.25 to 8`.
    case notAllowed(WaterfallViolation.Allowed)

    // Cursors.

    /// A cursor that is not one this service issued, with why (`not base64url`): `malformed (not base64url)`.
    case malformedCursor(String)
    /// A cursor whose tag does not match.
    case alteredCursor
    /// A cursor made with other layout settings: `made with other settings`.
    case cursorMadeWithOtherSettings
    /// A cursor or a page size given with a strategy that lays out a whole section at once:
    /// `not supported by balanced`.
    case notSupported(by: LayoutStrategy)

    /// What the answer says of a value that breaks the rule, after its path.
    ///
    /// - Complexity: O(*n*) in the message's length.
    public var message: String {
        switch self {
        case .expected(let expected, let found): "expected \(expected.phrase), found \(found.phrase)"
        case .missingMember: "missing required member"
        case .duplicateMemberName: "duplicate member name"
        case .exponentOutOfRange: "number exponent out of range (limit ±\(DiffRequest.maximumExponentMagnitude))"
        case .invalidValue: "invalid value"
        case .unknownMember(let container): container.unknownMemberMessage
        case .sectionsAndItems: #"has both "sections" and "items"; expected one of them"#
        case .repeatedRendering(let name): "duplicate rendering \(JSONString.quoted(name))"
        case .noRendering: "expected at least one rendering"
        case .notAnInteger: "expected an integer"
        case .tooManyDigits: "more than \(ExactDecimal.maximumDigits) significant digits"
        case .sectionAlreadyLaidOut: "this section already has a layout"
        case .noSuchSection: "no section with this id in the new snapshot"
        case .missingColumnRule: "expected count or minimumWidth"
        case .conflictingColumnRules: "give either count, or minimumWidth (with an optional maximumCount)"
        case .missingSize: "missing size: give aspectRatio, width and height, or fixedHeight"
        case .ambiguousSize: "ambiguous size: give only one of aspectRatio, width and height, or fixedHeight"
        case .missingSizePartner: "missing required member (width and height go together)"
        case .notAllowed(let allowed): allowed.message
        case .malformedCursor(let why): "malformed (\(why))"
        case .alteredCursor: "altered, or issued under another SNAPDIFF_CURSOR_KEY (without one, by another process)"
        case .cursorMadeWithOtherSettings: "made with other settings"
        case .notSupported(let strategy): "not supported by \(strategy.rawValue)"
        }
    }
}

extension ViolationRule {
    /// What a value should have been.
    public enum Expected: Hashable, Sendable {
        case object, array, boolean, string, number
        /// An integer (the type a value is not): `expected integer, found string`.
        case integer
        /// An id: a string, or an integer written without fraction or exponent that fits 64 bits.
        case id
        /// A column count or a column rule: `expected an integer or an object, found string`.
        case integerOrObject
        /// One of these names, each a string: `expected "reject" or "keepFirst", found "first"`.
        case oneOf([String])

        /// How a message names it.
        var phrase: String {
            switch self {
            case .object: "object"
            case .array: "array"
            case .boolean: "boolean"
            case .string: "string"
            case .number: "number"
            case .integer: "integer"
            case .id: "string or integer"
            case .integerOrObject: "an integer or an object"
            case .oneOf(let names):
                names.count <= 2
                    ? names.map(JSONString.quoted).joined(separator: " or ")
                    : names.dropLast().map(JSONString.quoted).joined(separator: ", ") + " or "
                        + JSONString.quoted(names[names.count - 1])
            }
        }
    }

    /// What a value was instead.
    public enum Found: Hashable, Sendable {
        case null, boolean, number, string, array, object
        /// No value (the walk found none where one belongs).
        case nothing
        /// A number written with a fraction or an exponent, where an id belongs.
        case numberWithFractionOrExponent
        /// An integer outside the 64-bit range, where an id belongs.
        case integerOutside64Bits
        /// A string, quoted in the message: `found "first"`.
        case text(String)

        /// The type of a JSON value.
        ///
        /// - Parameter kind: The value's type.
        public init(_ kind: JSONReader.Kind) {
            switch kind {
            case .null: self = .null
            case .boolean: self = .boolean
            case .number: self = .number
            case .string: self = .string
            case .array: self = .array
            case .object: self = .object
            }
        }

        /// How a message names it.
        var phrase: String {
            switch self {
            case .null: "null"
            case .boolean: "boolean"
            case .number: "number"
            case .string: "string"
            case .array: "array"
            case .object: "object"
            case .nothing: "nothing"
            case .numberWithFractionOrExponent: "number with a fraction or an exponent"
            case .integerOutside64Bits: "integer outside the 64-bit range"
            case .text(let string): JSONString.quoted(string)
            }
        }
    }

    /// An object of a body whose members are known, for ``unknownMember(in:)``.
    public enum Container: Hashable, Sendable, CaseIterable {
        /// A `/diff` body.
        case diffRequest
        /// A snapshot of a `/diff` body.
        case snapshot
        /// `options` of a `/diff` body.
        case options
        /// An entry of `options.layouts`.
        case layout
        /// A `/layout` body.
        case layoutRequest
        /// Layout settings.
        case settings
        /// The object form of `settings.columns`.
        case columns
        /// `settings.insets`.
        case insets

        /// What a member the object does not have breaks: the members it has.
        var unknownMemberMessage: String {
            switch self {
            case .diffRequest: #"unknown member; expected "old", "new" or "options""#
            case .snapshot: #"unknown member; expected "sections" or "items""#
            case .options:
                #"unknown option; expected "renderings", "duplicates", "pretty", "ids", "changedMembers" or "layouts""#
            case .layout: "unknown member; expected section, settings or pageSize"
            case .layoutRequest: "unknown member; expected settings, items, pageSize, cursor or pretty"
            case .settings:
                "unknown setting; expected containerWidth, scale, columns, columnSpacing, itemSpacing, insets, direction or strategy"
            case .columns: "unknown member; expected count, or minimumWidth and maximumCount"
            case .insets: "unknown member; expected top, leading, bottom or trailing"
            }
        }
    }
}
