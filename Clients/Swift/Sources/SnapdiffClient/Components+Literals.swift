// Conveniences over the generated types (Types.swift and Client.swift are generated at build time from
// openapi.yaml): ids and column counts written as literals, and the two shapes of a snapshot by name.

extension Components.Schemas.Id: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    /// A string id: `"n1"`.
    public init(stringLiteral value: String) {
        self = .case1(value)
    }

    /// An integer id: `7` (a different id from `"7"`).
    public init(integerLiteral value: Int) {
        self = .case2(value)
    }
}

extension Components.Schemas.NullableId: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    /// A string id: `"photos"`.
    public init(stringLiteral value: String) {
        self = .case1(value)
    }

    /// An integer id.
    public init(integerLiteral value: Int) {
        self = .case2(value)
    }

    /// The id as an `Id`; `nil` for null.
    public var id: Components.Schemas.Id? {
        switch self {
        case .case1(let string?): .case1(string)
        case .case1(nil): nil
        case .case2(let integer): .case2(integer)
        }
    }
}

extension Components.Schemas.Snapshot {
    /// A sectioned snapshot: `{"sections": [...]}`.
    public static func sections(_ sections: [Components.Schemas.Section]) -> Self {
        .case1(.init(sections: sections))
    }

    /// A bare item list, one implicit section: `{"items": [...]}`.
    public static func items(_ items: [Components.Schemas.Item]) -> Self {
        .case2(.init(items: items))
    }
}

extension Components.Schemas.LayoutSettings.ColumnsPayload: ExpressibleByIntegerLiteral {
    /// A column count: `columns: 2`.
    public init(integerLiteral value: Int) {
        self = .case1(value)
    }
}
