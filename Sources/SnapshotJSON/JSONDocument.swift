/// A `/layout` body read by ``parseJSONDocument(_:depth:)``: its root object, and its `"items"`.
public struct JSONDocument: Sendable {
    /// One element of `"items"`: its id, and a reader at its object (`"id"` included).
    public struct Item: Sendable {
        /// The item's id.
        public let id: WireID
        /// A reader at the item's object.
        public let reader: JSONReader
    }

    /// The elements of `"items"`, in order: their ids in one array, and where each object is in the tree (4 bytes
    /// an item, where a reader is 16), so that a long list costs little more than its ids.
    public struct Items: RandomAccessCollection, Sendable {
        /// Each item's id, in order.
        public let ids: [WireID]
        private let tree: JSONTree
        private let places: [UInt32]

        init(ids: [WireID], tree: JSONTree, places: [UInt32]) {
            self.ids = ids
            self.tree = tree
            self.places = places
        }

        /// The first position, 0.
        public var startIndex: Int { 0 }
        /// One past the last position: the number of items.
        public var endIndex: Int { ids.count }

        /// The item at a position: its id and a reader at its object.
        ///
        /// - Complexity: O(1).
        public subscript(position: Int) -> Item {
            Item(id: ids[position], reader: JSONReader(tree, at: Int(places[position])))
        }
    }

    /// A reader at the root object (its `"items"` member included).
    public let root: JSONReader
    /// The root's `"items"`, when present.
    public let items: Items?

    /// The document in `tree`, or the violations of its schema (the root is an object, `"items"` an array of
    /// objects, each with an id: a string, or an integer written without fraction or exponent that fits
    /// `Int64`), recorded at their places among the tree's nodes.
    init?(_ tree: JSONTree, violations: inout SchemaViolations) {
        var root = JSONReader(tree)
        guard root.kind == .object else {
            violations.add(Violation(path: "", message: "expected object, found \(root.kind)", byteOffset: 0), place: 0)
            return nil
        }
        self.root = root
        var items: Items?
        root.members { reader, name in
            guard name == "items", items == nil else { return }
            items = Self.items(&reader, tree: tree, violations: &violations)
        }
        guard violations.isEmpty else { return nil }
        self.items = items
    }

    private static func items(_ reader: inout JSONReader, tree: JSONTree, violations: inout SchemaViolations) -> Items {
        var ids: [WireID] = []
        var places: [UInt32] = []
        guard reader.kind == .array else {
            violations.add(Violation(path: "items", message: "expected array, found \(reader.kind)", byteOffset: reader.byteOffset), place: reader.place)
            return Items(ids: ids, tree: tree, places: places)
        }
        reader.elements { item, index in
            let path = { JSONPath.element(index, of: "items") }  // (made only for a violation)
            guard item.kind == .object else {
                violations.add(Violation(path: path(), message: "expected object, found \(item.kind)", byteOffset: item.byteOffset), place: item.place)
                return
            }
            let place = item.place
            var id: WireID?
            var hasID = false
            item.members { member, name in
                guard name == "id", !hasID else { return }  // (a second "id" is a repeated name: reported already)
                hasID = true
                id = Self.id(&member, path: { JSONPath.member("id", of: path()) }, violations: &violations)
            }
            if !hasID {
                violations.add(Violation(path: JSONPath.member("id", of: path()), message: "missing required member"), place: item.place)
            }
            if let id {
                ids.append(id)
                places.append(UInt32(place))  // (a tree's places are 32-bit, as its byte offsets are)
            }
        }
        return Items(ids: ids, tree: tree, places: places)
    }

    /// Reads an id, or records why the value is not one.
    static func id(_ reader: inout JSONReader, path: () -> String, violations: inout SchemaViolations) -> WireID? {
        if let string = reader.string() { return .string(string) }
        if let integer = reader.writtenInteger() { return .integer(integer) }
        if reader.isOutOfRange { return nil }  // (its exponent is reported already)
        let found = reader.kind != .number ? "\(reader.kind)"
            : reader.isWrittenAsInteger ? "integer outside the 64-bit range" : "number with a fraction or an exponent"
        violations.add(Violation(path: path(), message: "expected string or integer, found \(found)", byteOffset: reader.byteOffset), place: reader.place)
        return nil
    }
}
