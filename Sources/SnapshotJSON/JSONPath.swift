/// The one JSON path renderer, for every path the service reports (`/diff`, `/layout`, the command line):
/// `new.sections[2].items[7].id`, `options.renderings[1]`, `settings["a b"]`.
///
/// A member whose name is an identifier (ASCII letters, digits, `_` and `$`, not starting with a digit) is
/// written `.name` (just `name` at the root); any other name is written `["name"]`, quoted by ``JSONString``.
/// The root itself is the empty path.
public enum JSONPath {
    /// `path` followed by the member `name`.
    ///
    /// - Parameters:
    ///   - name: The member name, unescaped.
    ///   - path: The path of the object, empty for the root.
    /// - Returns: The member's path.
    /// - Complexity: O(*n*) in the lengths of `name` and `path`.
    public static func member(_ name: String, of path: String) -> String {
        let isIdentifier = name.utf8.first.map { !(UInt8(ascii: "0") ... UInt8(ascii: "9")).contains($0) } ?? false
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"),
                     UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"): true
                default: false
                }
            }
        if isIdentifier { return path.isEmpty ? name : path + "." + name }
        return path + "[" + JSONString.quoted(name) + "]"
    }

    /// `path` followed by the array index `index`.
    ///
    /// - Parameters:
    ///   - index: The element's index.
    ///   - path: The path of the array, empty for the root.
    /// - Returns: The element's path.
    public static func element(_ index: Int, of path: String) -> String {
        path + "[" + String(index) + "]"
    }
}
