internal import SimdJSON
/// A `/layout` body read by ``read(_:members:item:)``: its `"items"`, whose objects later walks may read again.
public struct JSONDocument {
    /// The elements of `"items"`: their ids, in order, and where the array's text is, so that its objects can be
    /// read again (each walk costs the array's text once; nothing is kept per item but its id).
    public struct Items {
        /// Each item's id, in order.
        public let ids: [WireID]
        /// The body with its padding, and the array's text in it.
        private let source: [UInt8]
        private let text: Range<Int>

        init(ids: [WireID], source: [UInt8], text: Range<Int>) {
            self.ids = ids
            self.source = source
            self.text = text
        }

        /// The number of items.
        public var count: Int { ids.count }

        /// Calls `body` with each item's index and a reader at its object (`"id"` included), in order.
        ///
        /// - Complexity: O(*n*) in the array's text, besides what `body` does.
        public func forEach(_ body: (Int, inout JSONReader) -> Void) {
            SimdJSONParser.withBorrowed { parser in
                parser.readValid(source, text) { reader in
                    reader.elements { item, index in body(index, &item) }
                }
            }
        }
    }

    /// The root's `"items"`, when present.
    public let items: Items?

    /// Reads a body in one walk, checking syntax, UTF-8, nesting depth, number exponents and repeated member names
    /// exactly as ``parseDiffRequest(_:)`` does, and that the root is an object whose `"items"`, if any, is an
    /// array of objects with valid ids (ids exact: `1` and `"1"` differ, `1.0` is not an id). The root's other
    /// members are given to `member`, in the order written, as the walk meets them.
    ///
    /// - Parameters:
    ///   - body: The JSON text.
    ///   - member: Called with each member of the root but `"items"`: its name, and a reader at its value (what
    ///     it leaves unread is validated as the walk moves on).
    ///   - item: Called with each item that is an object: its index, a reader at it, and a function to hand a
    ///     member to (its name and a reader at its value). It may read the item's members in this walk, handing
    ///     every member it does not read to that function (which reads `"id"` and leaves the others; a member
    ///     not handed over is not read as the id, and an item whose `"id"` is not handed over is refused for
    ///     missing it), and return true; returning false (the default) leaves the members to the document.
    /// - Returns: The document's items.
    /// - Throws: ``RequestError`` for an empty or malformed body; `.invalid`, listing every violation in the order
    ///   met, when the root is not an object, an object repeats a member name, or an item is not an object with a
    ///   valid `id`.
    public static func read(
        _ body: [UInt8], members member: (String, inout JSONReader) -> Void,
        item: (Int, inout JSONReader, (String, inout JSONReader) -> Void) -> Bool = { _, _, _ in false }
    ) throws(RequestError) -> JSONDocument {
        var violations = Violations()
        var items: (ids: [WireID], text: Range<Int>)?
        let (_, rules, padded) = try RequestReader.read(body) { root in
            guard root.kind == .object else {
                violations.add(.expected(.object, found: .init(root.kind)), at: "", byteOffset: 0, place: 0)
                return
            }
            var hasItems = false
            root.members { reader, name in
                guard name == "items" else { return member(name, &reader) }
                guard !hasItems else { return }  // (a repeated name: a violation of the walk's)
                hasItems = true
                items = Self.items(&reader, violations: &violations, item: item)
            }
        }
        violations.include(rules)
        guard violations.isEmpty else { throw violations.error }
        return JSONDocument(items: items.map { Items(ids: $0.ids, source: padded, text: $0.text) })
    }

    /// The ids of the items, and where the array's text is; `nil` (after recording why) when it is not an array.
    private static func items(
        _ reader: inout JSONReader, violations: inout Violations,
        item readItem: (Int, inout JSONReader, (String, inout JSONReader) -> Void) -> Bool
    ) -> (ids: [WireID], text: Range<Int>)? {
        guard reader.kind == .array else {
            violations.add(.expected(.array, found: .init(reader.kind)), at: "items", byteOffset: reader.byteOffset, place: reader.place)
            return nil
        }
        var ids: [WireID] = []
        let text = reader.readText { reader in
            reader.elements { item, index in
                guard item.kind == .object else {
                    violations.add(
                        .expected(.object, found: .init(item.kind)), at: JSONPath.element(index, of: "items"),
                        byteOffset: item.byteOffset, place: item.place)
                    return
                }
                // (Closures written at the calls, and the id's state in a struct: nothing is allocated an item.)
                var read = ItemID()
                if !readItem(index, &item, { name, member in read.take(name, &member, item: index, violations: &violations) }) {
                    item.members { member, name in read.take(name, &member, item: index, violations: &violations) }
                }
                if !read.found {  // (at the place past the item: after what the walk found in it)
                    violations.add(.missingMember, at: JSONPath.member("id", of: JSONPath.element(index, of: "items")), place: item.place)
                }
                if let id = read.id { ids.append(id) }
            }
        }
        return (ids, text)
    }

    /// An item's `"id"`, as the walk of its members meets it.
    private struct ItemID {
        var id: WireID?
        /// Whether the item has an `"id"` (valid or not).
        var found = false

        /// Reads the member when it is the item's first `"id"` (a second is a repeated name: a violation already).
        mutating func take(_ name: String, _ member: inout JSONReader, item index: Int, violations: inout Violations) {
            guard name == "id", !found else { return }
            found = true
            id = violations.id(&member, JSONPath.member("id", of: JSONPath.element(index, of: "items")), located: true)
        }
    }
}
