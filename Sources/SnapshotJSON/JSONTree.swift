/// Every value of one JSON text that simdjson validated, flat and in document order: an object is followed by
/// its members (a name, then the value with its descendants), an array by its elements. Made by
/// ``SimdJSONParser`` (`readTree`); read with ``JSONReader``.
///
/// A large tree's tables are CSimdJSON's own, handed over without a copy (8 bytes a value: up to 4 times its
/// size); a small tree's are copied into one block, so that the parser keeps its buffers for the next parse.
/// `@unchecked Sendable` because the tables are written before `init` and never again, and freed exactly once, in
/// `deinit`, when no reader refers to the tree any more.
final class JSONTree: @unchecked Sendable {
    /// What a node is: read from the first byte of its text (JSON's grammar), not stored.
    enum NodeKind: Sendable {
        case object, array, number, `true`, `false`, null
        /// A string, or a member's name (the node before each member's value).
        case string
    }

    /// One value, or one member's name: CSimdJSON_Value's fields, in its order (checked by the tests). 8 bytes:
    /// a body of small values holds one per value.
    struct Node {
        /// The first byte of its text, relative to the text parsed (which tells its kind).
        var offset: UInt32
        /// A container: the index of the node after its last descendant (the next one for a container deeper
        /// than the parse listed, which reads as empty; see ``JSONTree/isListed(_:)``). A number: its text's
        /// length. A string
        /// or name written without escapes: its text's length, quotes included; with escapes, `UInt32.max - i`,
        /// where `i` indexes ``JSONTree/escaped`` (see ``JSONTree/escapedSlot(_:)``). `true`, `false`, `null`: 0.
        var extra: UInt32
    }

    /// Where the unescaped bytes of a string or name that had escapes lie in ``JSONTree/strings``
    /// (CSimdJSON_Escaped's fields, in its order).
    struct Escaped {
        var start: UInt32
        var length: UInt32
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
    /// The strings and names that had escapes, in document order: where their unescaped bytes lie in `strings`.
    let escaped: UnsafeBufferPointer<Escaped>
    /// Unescaped strings and names that had escapes.
    let strings: UnsafeBufferPointer<UInt8>
    /// The bytes the text was read from, and where the text starts in them.
    let source: [UInt8]
    let base: Int
    /// Frees the tables.
    private let release: () -> Void

    init(nodes: UnsafeBufferPointer<Node>, escaped: UnsafeBufferPointer<Escaped>, strings: UnsafeBufferPointer<UInt8>,
         source: [UInt8], base: Int, release: @escaping () -> Void) {
        self.nodes = nodes
        self.escaped = escaped
        self.strings = strings
        self.source = source
        self.base = base
        self.release = release
    }

    deinit { release() }

    /// The first byte of the text of the node at `index`.
    @inline(__always)
    private func firstByte(_ index: Int) -> UInt8 {
        // (Unchecked, like `nodes`: CSimdJSON's offsets lie in the text it read.)
        source.withUnsafeBufferPointer { $0[base + Int(nodes[index].offset)] }
    }

    /// The kind of the node at `index`, from the first byte of its text.
    @inline(__always)
    func kind(_ index: Int) -> NodeKind {
        switch firstByte(index) {
        case UInt8(ascii: "{"): .object
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "t"): .true
        case UInt8(ascii: "f"): .false
        case UInt8(ascii: "n"): .null
        default: .number  // '-' or a digit
        }
    }

    /// The node after the value at `index` and its descendants.
    @inline(__always)
    func next(after index: Int) -> Int {
        let first = firstByte(index)
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? Int(nodes[index].extra) : index + 1
    }

    /// Whether the container at `index` has its members or elements listed: `false` for one deeper than the
    /// parse listed (validated, then left out), which the tree holds as if empty: its text is not.
    @inline(__always)
    func isListed(_ index: Int) -> Bool {
        Int(nodes[index].extra) != index + 1 || isEmptyText(index)
    }

    /// Whether the text of the container at `index` closes right after it opens (`[]`, `{ }`).
    private func isEmptyText(_ index: Int) -> Bool {
        source.withUnsafeBufferPointer { bytes in
            var at = base + Int(nodes[index].offset) + 1
            while bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0A || bytes[at] == 0x0D { at += 1 }
            return bytes[at] == UInt8(ascii: "]") || bytes[at] == UInt8(ascii: "}")
        }
    }

    /// The index in ``escaped`` of the string or name at `index`, or `nil` when it was written without escapes.
    func escapedSlot(_ index: Int) -> Int? {
        // A text's length never reaches the marks (CSimdJSON_Value.extra): UInt32.max - length >= 4 × escaped.count.
        let slot = Int(UInt32.max - nodes[index].extra)
        return slot < escaped.count ? slot : nil
    }

    /// The unescaped UTF-8 bytes of the string or name at `index`, passed to `body`.
    func withUnescaped<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let slot = escapedSlot(index) {
            let record = escaped[slot]
            return body(UnsafeBufferPointer(rebasing: strings[Int(record.start) ..< Int(record.start) + Int(record.length)]))
        }
        let node = nodes[index]
        let start = base + Int(node.offset) + 1
        return source.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start ..< start + Int(node.extra) - 2])) }
    }

    /// The number at `index` (its text is parsed again).
    func number(_ index: Int) -> Number {
        let node = nodes[index]
        let start = base + Int(node.offset)
        return SimdJSONParser.number(source, start ..< start + Int(node.extra))
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
