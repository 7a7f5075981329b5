internal import SimdJSON

extension ViolationRule {
    /// The rule a violation the walk recorded breaks: the walk's own rules, and this package's schema rules by
    /// their code (``DiffRequestSchema/Rule``); `nil` for a code no schema rule has.
    ///
    /// | walk rule | rule |
    /// |---|---|
    /// | `expectedObject` | ``expected(_:found:)`` `.object` |
    /// | `expectedArray` | ``expected(_:found:)`` `.array` |
    /// | `missingMember` | ``missingMember`` |
    /// | `duplicateMember` | ``duplicateMemberName`` |
    /// | `exponentOutOfRange` | ``exponentOutOfRange`` |
    /// | `caller(code)` | ``DiffRequestSchema/Rule/violationRule(found:)`` |
    ///
    /// - Parameters:
    ///   - rule: The walk's rule.
    ///   - found: What stood where the value was expected.
    static func walk(_ rule: WalkViolation.Rule, found: JSONValueKind) -> ViolationRule? {
        switch rule {
        case .expectedObject: .expected(.object, found: Found(found))
        case .expectedArray: .expected(.array, found: Found(found))
        case .missingMember: .missingMember
        case .duplicateMember: .duplicateMemberName
        case .exponentOutOfRange: .exponentOutOfRange
        case .caller(let code): DiffRequestSchema.Rule(rawValue: code)?.violationRule(found: found)
        }
    }
}

extension ViolationRule.Found {
    /// What the walk found.
    init(_ found: JSONValueKind) {
        switch found {
        case .object: self = .object
        case .array: self = .array
        case .string: self = .string
        case .number: self = .number
        case .fractionalNumber: self = .numberWithFractionOrExponent
        case .integerOutOfRange: self = .integerOutside64Bits
        case .boolean: self = .boolean
        case .null: self = .null
        case .nothing: self = .nothing
        }
    }
}

extension DiffRequestSchema.Rule {
    /// The rule of the vocabulary this schema rule is, having found `found` (for ``invalidID``).
    func violationRule(found: JSONValueKind) -> ViolationRule {
        switch self {
        case .unknownRequestMember: .unknownMember(in: .diffRequest)
        case .unknownSnapshotMember: .unknownMember(in: .snapshot)
        case .sectionsAndItems: .sectionsAndItems
        case .invalidID: .expected(.id, found: ViolationRule.Found(found))
        }
    }
}
