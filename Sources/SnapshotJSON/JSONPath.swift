/// Renders paths like `options.renderings[1]`, as CSimdJSON does for the paths it reports.
enum JSONPath {
    /// `path` followed by the member `name`: `.name` when it is an identifier, `["name"]` otherwise.
    static func member(_ name: String, of path: String) -> String {
        let isIdentifier = name.utf8.first.map { !(UInt8(ascii: "0") ... UInt8(ascii: "9")).contains($0) } ?? false
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"),
                     UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"): true
                default: false
                }
            }
        if isIdentifier { return path.isEmpty ? name : path + "." + name }
        return path + "[" + WireID.string(name).description + "]"
    }

    /// `path` followed by the array index `index`.
    static func element(_ index: Int, of path: String) -> String {
        path + "[" + String(index) + "]"
    }
}
