import ListDiff

extension DiffOptions {
    /// Decodes an `"options"` value, recording one violation per problem (the first ``Violations/listedLimit`` kept,
    /// all counted: an option of millions of bad values costs a counter).
    ///
    /// To add an option: add a stored property with a default, and a `case` below that reads its value
    /// (`reader.string()`, `.boolean()`, `.integer()`, `.elements`, `.members`) or reports it.
    ///
    /// - Parameters:
    ///   - reader: The value.
    ///   - errors: Where problems are recorded.
    ///   - layoutErrors: Where the problems of `"layouts"` are recorded: they are listed only once the rest of
    ///     the request is known to be valid.
    init(decoding reader: JSONReader, errors: inout Violations, layoutErrors: inout Violations) {
        self.init()
        var reader = reader
        let root = "options"
        guard reader.kind == .object else {
            errors.add(.expected(.object, found: .init(reader.kind)), at: root)
            return
        }
        reader.members(at: root) { reader, name, path in
            switch name {
            case "renderings":
                decodeRenderings(&reader, path: path, errors: &errors)
            case "duplicates":
                if let value = errors.choice(Self.duplicatePolicies, &reader, path) {
                    duplicates = value
                }
            case "pretty":
                if let value = errors.boolean(&reader, path) { pretty = value }
            case "ids":
                if let value = errors.boolean(&reader, path) { ids = value }
            case "changedMembers":
                if let value = errors.boolean(&reader, path) { changedMembers = value }
            case "layouts":
                layouts = SectionLayoutRequest.decodeList(reader, errors: &layoutErrors)
            default:
                errors.add(.unknownMember(in: .options), at: path)
                reader.skip()
            }
        }
    }

    private mutating func decodeRenderings(_ reader: inout JSONReader, path: String,
                                           errors: inout Violations) {
        guard reader.kind == .array else {
            errors.add(.expected(.array, found: .init(reader.kind)), at: path)
            reader.skip()
            return
        }
        var chosen: [Rendering] = []
        var valid = true
        let choices = Rendering.allCases.map { (name: $0.rawValue, value: $0) }
        reader.elements { reader, index in
            let elementPath = JSONPath.element(index, of: path)
            guard let rendering = errors.choice(choices, &reader, elementPath) else {
                valid = false
                return
            }
            if chosen.contains(rendering) {  // (a few at most: each is kept once)
                errors.add(.repeatedRendering(rendering.rawValue), at: elementPath)
                valid = false
            } else {
                chosen.append(rendering)
            }
        }
        if chosen.isEmpty && valid {
            errors.add(.noRendering, at: path)
        } else if valid {
            renderings = chosen
        }
    }

    /// The wire names of ``DuplicatePolicy``'s cases.
    private static let duplicatePolicies: [(name: String, value: DuplicatePolicy)] = [("reject", .reject), ("keepFirst", .keepFirst)]
}
