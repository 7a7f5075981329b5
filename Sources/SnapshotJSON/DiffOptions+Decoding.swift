import ListDiff

extension DiffOptions {
    /// Decodes an `"options"` value, appending one violation per problem.
    ///
    /// To add an option: add a stored property with a default, and a `case` below that reads its value
    /// (`reader.string()`, `.boolean()`, `.integer()`, `.elements`, `.members`) or reports it.
    ///
    /// - Parameters:
    ///   - reader: The value.
    ///   - violations: Where problems are appended.
    ///   - layouts: Receives the `"layouts"` value, if any: the reader decodes it (``layouts``) once the rest of
    ///     the request is known to be valid, since its errors are listed only then.
    init(decoding reader: JSONReader, violations: inout [Violation], layouts: inout JSONReader?) {
        self.init()
        var reader = reader
        let root = "options"
        guard reader.kind == .object else {
            violations.append(Violation(path: root, message: "expected object, found \(reader.kind)"))
            return
        }
        reader.members(at: root) { reader, name, path in
            switch name {
            case "renderings":
                decodeRenderings(&reader, path: path, violations: &violations)
            case "duplicates":
                if let value = Self.decodeChoice(Self.duplicatePolicies, &reader, path: path, violations: &violations) {
                    duplicates = value
                }
            case "pretty":
                if let value = Self.decodeBoolean(&reader, path: path, violations: &violations) { pretty = value }
            case "ids":
                if let value = Self.decodeBoolean(&reader, path: path, violations: &violations) { ids = value }
            case "changedMembers":
                if let value = Self.decodeBoolean(&reader, path: path, violations: &violations) { changedMembers = value }
            case "layouts":
                layouts = reader
                reader.skip()
            default:
                violations.append(Violation(path: path,
                                            message: "unknown option; expected \"renderings\", \"duplicates\", \"pretty\", \"ids\", \"changedMembers\" or \"layouts\""))
                reader.skip()
            }
        }
    }

    private mutating func decodeRenderings(_ reader: inout JSONReader, path: String,
                                           violations: inout [Violation]) {
        guard reader.kind == .array else {
            violations.append(Violation(path: path, message: "expected array, found \(reader.kind)"))
            reader.skip()
            return
        }
        var chosen: [Rendering] = []
        var valid = true
        reader.elements { reader, index in
            let elementPath = JSONPath.element(index, of: path)
            let renderings = Rendering.allCases.map { ($0.rawValue, $0) }
            guard let rendering = Self.decodeChoice(renderings, &reader, path: elementPath, violations: &violations) else {
                valid = false
                return
            }
            if chosen.contains(rendering) {
                violations.append(Violation(path: elementPath, message: "duplicate rendering \"\(rendering.rawValue)\""))
                valid = false
            }
            chosen.append(rendering)
        }
        if chosen.isEmpty && valid {
            violations.append(Violation(path: path, message: "expected at least one rendering"))
        } else if valid {
            renderings = chosen
        }
    }

    /// Reads a boolean, or appends the violation.
    private static func decodeBoolean(_ reader: inout JSONReader, path: String, violations: inout [Violation]) -> Bool? {
        if let value = reader.boolean() { return value }
        violations.append(Violation(path: path, message: "expected boolean, found \(reader.kind)"))
        reader.skip()
        return nil
    }

    /// The wire names of ``DuplicatePolicy``'s cases.
    private static let duplicatePolicies: [(String, DuplicatePolicy)] = [("reject", .reject), ("keepFirst", .keepFirst)]

    /// Reads a string naming one of `choices`, or appends the violation.
    private static func decodeChoice<Value>(
        _ choices: [(name: String, value: Value)], _ reader: inout JSONReader, path: String,
        violations: inout [Violation]
    ) -> Value? {
        let names = choices.map { JSONString.quoted($0.name) }
        let expected = names.count <= 2 ? names.joined(separator: " or ") : names.dropLast().joined(separator: ", ") + " or " + names.last!
        guard let string = reader.string() else {
            violations.append(Violation(path: path, message: "expected \(expected), found \(reader.kind)"))
            reader.skip()
            return nil
        }
        guard let value = choices.first(where: { WireID.sameScalars($0.name, string) })?.value else {
            violations.append(Violation(path: path, message: "expected \(expected), found \(JSONString.quoted(string))"))
            return nil
        }
        return value
    }
}
