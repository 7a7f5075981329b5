/// Every value of one JSON text that simdjson validated, flat and in document order: an object is followed by
/// its members (a name, then the value with its descendants), an array by its elements. Made by
/// ``SimdJSONParser`` (`readTree`); read with ``JSONReader``.
///
/// A large tree's tables are CSimdJSON's own, handed over without a copy (a body's tree is several times its
/// size); a small tree's are copied into one block, so that the parser keeps its buffers for the next parse.
/// `@unchecked Sendable` because the tables are written before `init` and never again, and freed exactly once, in
/// `deinit`, when no reader refers to the tree any more.
final class JSONTree: @unchecked Sendable {
    /// What a node is.
    enum NodeKind: UInt8, Sendable {
        case object = 1, array, string, number, `true`, `false`, null
        /// A member's name; its value is the next node.
        case name
    }

    /// One value, or one member's name: CSimdJSON_Value's fields, in its order (checked by the tests).
    struct Node {
        /// The first byte of its text, relative to the text parsed.
        var offset: UInt32
        /// Its text's length (brackets or quotes included).
        var length: UInt32
        /// A container: the index of the node after its last descendant. A string or name with escapes: where
        /// its unescaped bytes start in ``JSONTree/strings`` (`UInt32.max` without escapes: its text between the
        /// quotes). A number: 0 (see ``JSONTree/number(_:)``).
        var extra: UInt32
        /// A string or name with escapes: its unescaped byte count.
        var unescapedLength: UInt32
        /// ``NodeKind``'s raw value.
        var rawKind: UInt8

        var kind: NodeKind { NodeKind(rawValue: rawKind) ?? .null }
    }

    /// A number exactly as written, ±digits × 10^exponent.
    struct Number {
        /// The power of ten of the last significant digit.
        var exponent: Int64
        /// The significant digits (ASCII, no leading or trailing zeros; none for zero): those of the integer part,
        /// then those of the fraction, as ranges of ``JSONTree/source``.
        var integerDigits: Range<Int>
        var fractionDigits: Range<Int>
        var isNegative: Bool
        /// Written without fraction or exponent.
        var isInteger: Bool
        /// Its exponent is beyond the request limit (reported as a violation when the text was parsed).
        var isOutOfRange: Bool
    }

    let nodes: UnsafeBufferPointer<Node>
    /// Unescaped strings and names that had escapes.
    let strings: UnsafeBufferPointer<UInt8>
    /// The bytes the text was read from, and where the text starts in them.
    let source: [UInt8]
    let base: Int
    /// Frees the tables.
    private let release: () -> Void

    init(nodes: UnsafeBufferPointer<Node>, strings: UnsafeBufferPointer<UInt8>, source: [UInt8], base: Int,
         release: @escaping () -> Void) {
        self.nodes = nodes
        self.strings = strings
        self.source = source
        self.base = base
        self.release = release
    }

    deinit { release() }

    /// The node after the value at `index` and its descendants.
    func next(after index: Int) -> Int {
        let node = nodes[index]
        return node.kind == .object || node.kind == .array ? Int(node.extra) : index + 1
    }

    /// The unescaped UTF-8 bytes of the string or name at `index`, passed to `body`.
    func withUnescaped<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let node = nodes[index]
        if node.extra == UInt32.max {
            let start = base + Int(node.offset) + 1
            return source.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start ..< start + Int(node.length) - 2])) }
        }
        return body(UnsafeBufferPointer(rebasing: strings[Int(node.extra) ..< Int(node.extra) + Int(node.unescapedLength)]))
    }

    /// The number at `index` (its text is parsed again).
    func number(_ index: Int) -> Number {
        let node = nodes[index]
        let start = base + Int(node.offset)
        return SimdJSONParser.number(source, start ..< start + Int(node.length))
    }

    /// The string or name at `index`.
    func string(_ index: Int) -> String {
        withUnescaped(index) { String(decoding: $0, as: UTF8.self) }
    }
}

/// A text read into a tree, with the violations of the rules every value of a request follows (no repeated member
/// names, exponents in range), each at its place among the tree's nodes (the order the walk met them).
struct TreeReading {
    let tree: JSONTree
    var violations: [(Violation, place: Int)]
    /// Violations found beyond those listed.
    let omitted: Int
}
