import Waterfall

extension SectionLayoutRequest {
    /// Decodes the value of `options.layouts`: an array of entries, each with a distinct section.
    ///
    /// - Parameters:
    ///   - reader: The value.
    ///   - errors: Where every invalid member is recorded, by path.
    /// - Returns: The entries that decoded without error, in order.
    /// - Complexity: O(*n* + *e*²) for a value of *n* values with *e* entries (each section is looked up
    ///   among the entries before it).
    static func decodeList(_ reader: JSONReader, errors: inout Violations) -> [SectionLayoutRequest] {
        var reader = reader
        let path = JSONPath.member("layouts", of: "options")
        guard reader.kind == .array else {
            errors.add(.expected(.array, found: .init(reader.kind)), at: path)
            return []
        }
        var requests: [SectionLayoutRequest] = []
        reader.elements { reader, index in
            let base = JSONPath.element(index, of: path)
            guard errors.object(&reader, base) else { return }
            var section = SectionID.implicit
            var settings: WaterfallSettings?
            var pageSize: Int?
            var hasSettings = false
            var paths = WaterfallSettingPaths(
                settings: JSONPath.member("settings", of: base), pageSize: JSONPath.member("pageSize", of: base))
            reader.members(at: base) { reader, name, field in
                switch name {
                case "section":
                    if reader.kind == .null {
                        reader.skip()
                    } else if let id = errors.id(&reader, field) {
                        section = .explicit(id)
                    }
                case "settings":
                    hasSettings = true
                    settings = WaterfallSettings.decode(&reader, paths: &paths, errors: &errors)
                case "pageSize": pageSize = errors.integer(&reader, field)
                default:
                    errors.add(.unknownMember(in: .layout), at: field)
                    reader.skip()
                }
            }
            if !hasSettings { errors.add(.missingMember, at: JSONPath.member("settings", of: base)) }
            if requests.contains(where: { $0.section == section }) {
                errors.add(.sectionAlreadyLaidOut, at: JSONPath.member("section", of: base))
            }
            if let settings {
                requests.append(
                    SectionLayoutRequest(path: base, paths: paths, section: section, settings: settings, pageSize: pageSize))
            }
        }
        return requests
    }
}
