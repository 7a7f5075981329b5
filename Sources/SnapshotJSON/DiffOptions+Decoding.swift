extension DiffOptions {
    /// Decodes the canonical encoding of an `"options"` value, appending one violation per problem.
    ///
    /// To add an option: add a stored property with a default, and a `case` below that reads its value
    /// (`reader.string()`, `.boolean()`, `.integer()`, `.elements`, `.members`) or reports it.
    init(decoding reader: inout CanonicalReader, violations: inout [Violation]) {
        self.init()
        let root = "options"
        guard reader.kind == .object else {
            violations.append(Violation(path: root, message: "expected object, found \(reader.kind)"))
            return
        }
        reader.members { reader, name in
            let path = JSONPath.member(name, of: root)
            switch name {
            case "renderings":
                decodeRenderings(&reader, path: path, violations: &violations)
            case "duplicates":
                if let value = Self.decodeEnum(DuplicateHandling.self, &reader, path: path, violations: &violations) {
                    duplicates = value
                }
            case "pretty":
                if let value = reader.boolean() {
                    pretty = value
                } else {
                    violations.append(Violation(path: path, message: "expected boolean, found \(reader.kind)"))
                    reader.skip()
                }
            case "layouts":
                layouts = reader
                reader.skip()
            default:
                violations.append(Violation(path: path,
                                            message: "unknown option; expected \"renderings\", \"duplicates\", \"pretty\" or \"layouts\""))
                reader.skip()
            }
        }
    }

    private mutating func decodeRenderings(_ reader: inout CanonicalReader, path: String,
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
            guard let rendering = Self.decodeEnum(Rendering.self, &reader, path: elementPath, violations: &violations) else {
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

    private static func decodeEnum<Value: RawRepresentable & CaseIterable>(
        _: Value.Type, _ reader: inout CanonicalReader, path: String, violations: inout [Violation]
    ) -> Value? where Value.RawValue == String {
        let expected = Value.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        guard let string = reader.string() else {
            violations.append(Violation(path: path, message: "expected \(expected), found \(reader.kind)"))
            reader.skip()
            return nil
        }
        guard let value = Value(rawValue: string) else {
            violations.append(Violation(path: path, message: "expected \(expected), found \(WireID.string(string))"))
            return nil
        }
        return value
    }
}
