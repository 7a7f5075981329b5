internal import CSimdJSON

extension ViolationRule {
    /// The rule a violation recorded by the bridge's walk breaks (a `CSimdJSON_Violation`'s `kind` and `found`),
    /// its ``DiffRequestSchema/Rule`` for a kind from `CSimdJSON_ViolationCallerFirst` up; `nil` for a kind the
    /// bridge does not define.
    ///
    /// | kind | rule |
    /// |---|---|
    /// | `CSimdJSON_ViolationExpectedObject` | ``expected(_:found:)`` `.object` |
    /// | `CSimdJSON_ViolationExpectedArray` | ``expected(_:found:)`` `.array` |
    /// | `CSimdJSON_ViolationExpectedID` | ``expected(_:found:)`` `.id` |
    /// | `CSimdJSON_ViolationMissingMember` | ``missingMember`` |
    /// | `CSimdJSON_ViolationDuplicateMember` | ``duplicateMemberName`` |
    /// | `CSimdJSON_ViolationExponentRange` | ``exponentOutOfRange`` |
    /// | `CSimdJSON_ViolationCallerFirst` + a schema rule | ``DiffRequestSchema/Rule/violationRule`` |
    ///
    /// - Parameters:
    ///   - kind: The violation's `kind` (`CSimdJSON_Violation*`).
    ///   - found: The violation's `found` (`CSimdJSON_Found*`), what stood where the value was expected.
    static func walk(kind: UInt8, found: UInt8) -> ViolationRule? {
        switch Int(kind) {
        case CSimdJSON_ViolationExpectedObject: .expected(.object, found: Found(walkFound: found))
        case CSimdJSON_ViolationExpectedArray: .expected(.array, found: Found(walkFound: found))
        case CSimdJSON_ViolationExpectedID: .expected(.id, found: Found(walkFound: found))
        case CSimdJSON_ViolationMissingMember: .missingMember
        case CSimdJSON_ViolationDuplicateMember: .duplicateMemberName
        case CSimdJSON_ViolationExponentRange: .exponentOutOfRange
        default:
            kind < UInt8(CSimdJSON_ViolationCallerFirst) ? nil
                : DiffRequestSchema.Rule(rawValue: kind - UInt8(CSimdJSON_ViolationCallerFirst))?.violationRule
        }
    }
}

extension ViolationRule.Found {
    /// What the bridge's walk found (`CSimdJSON_Found*`): nothing for a code it does not define.
    init(walkFound found: UInt8) {
        switch Int(found) {
        case CSimdJSON_FoundObject: self = .object
        case CSimdJSON_FoundArray: self = .array
        case CSimdJSON_FoundString: self = .string
        case CSimdJSON_FoundNumber: self = .number
        case CSimdJSON_FoundFractionalNumber: self = .numberWithFractionOrExponent
        case CSimdJSON_FoundIntegerOutOfRange: self = .integerOutside64Bits
        case CSimdJSON_FoundBoolean: self = .boolean
        case CSimdJSON_FoundNull: self = .null
        default: self = .nothing
        }
    }
}

extension DiffRequestSchema.Rule {
    /// The rule of the vocabulary this schema rule is (its ``message`` is that rule's).
    var violationRule: ViolationRule {
        switch self {
        case .unknownRequestMember: .unknownMember(in: .diffRequest)
        case .unknownSnapshotMember: .unknownMember(in: .snapshot)
        case .sectionsAndItems: .sectionsAndItems
        }
    }
}
