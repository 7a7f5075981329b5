import ListDiff

extension DiffOptions {
    /// Decodes an `"options"` value, recording one error per problem (the first ``FieldErrors/listedLimit`` kept,
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
    init(decoding reader: JSONReader, errors: inout FieldErrors, layoutErrors: inout FieldErrors) {
        self.init()
        var reader = reader
        let root = "options"
        guard reader.kind == .object else {
            errors.add(root, "expected object, found \(reader.kind)")
            return
        }
        reader.members(at: root) { reader, name, path in
            switch name {
            case "renderings":
                decodeRenderings(&reader, path: path, errors: &errors)
            case "duplicates":
                if let value = Self.decodeChoice(Self.duplicatePolicies, &reader, path: path, errors: &errors) {
                    duplicates = value
                }
            case "pretty":
                if let value = Self.decodeBoolean(&reader, path: path, errors: &errors) { pretty = value }
            case "ids":
                if let value = Self.decodeBoolean(&reader, path: path, errors: &errors) { ids = value }
            case "changedMembers":
                if let value = Self.decodeBoolean(&reader, path: path, errors: &errors) { changedMembers = value }
            case "layouts":
                layouts = SectionLayoutRequest.decodeList(reader, errors: &layoutErrors)
            default:
                errors.add(path, "unknown option; expected \"renderings\", \"duplicates\", \"pretty\", \"ids\", \"changedMembers\" or \"layouts\"")
                reader.skip()
            }
        }
    }

    private mutating func decodeRenderings(_ reader: inout JSONReader, path: String,
                                           errors: inout FieldErrors) {
        guard reader.kind == .array else {
            errors.add(path, "expected array, found \(reader.kind)")
            reader.skip()
            return
        }
        var chosen: [Rendering] = []
        var valid = true
        let choices = Rendering.allCases.map { ($0.rawValue, $0) }
        reader.elements { reader, index in
            let elementPath = JSONPath.element(index, of: path)
            guard let rendering = Self.decodeChoice(choices, &reader, path: elementPath, errors: &errors) else {
                valid = false
                return
            }
            if chosen.contains(rendering) {  // (a few at most: each is kept once)
                errors.add(elementPath, "duplicate rendering \"\(rendering.rawValue)\"")
                valid = false
            } else {
                chosen.append(rendering)
            }
        }
        if chosen.isEmpty && valid {
            errors.add(path, "expected at least one rendering")
        } else if valid {
            renderings = chosen
        }
    }

    /// Reads a boolean, or appends the violation.
    private static func decodeBoolean(_ reader: inout JSONReader, path: String, errors: inout FieldErrors) -> Bool? {
        if let value = reader.boolean() { return value }
        errors.add(path, "expected boolean, found \(reader.kind)")
        reader.skip()
        return nil
    }

    /// The wire names of ``DuplicatePolicy``'s cases.
    private static let duplicatePolicies: [(String, DuplicatePolicy)] = [("reject", .reject), ("keepFirst", .keepFirst)]

    /// Reads a string naming one of `choices`, or appends the violation.
    private static func decodeChoice<Value>(
        _ choices: [(name: String, value: Value)], _ reader: inout JSONReader, path: String,
        errors: inout FieldErrors
    ) -> Value? {
        let names = choices.map { JSONString.quoted($0.name) }
        let expected = names.count <= 2 ? names.joined(separator: " or ") : names.dropLast().joined(separator: ", ") + " or " + names.last!
        guard let string = reader.string() else {
            errors.add(path, "expected \(expected), found \(reader.kind)")
            reader.skip()
            return nil
        }
        guard let value = choices.first(where: { WireID.sameScalars($0.name, string) })?.value else {
            errors.add(path, "expected \(expected), found \(JSONString.quoted(string))")
            return nil
        }
        return value
    }
}
