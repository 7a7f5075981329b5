/// A cursor over a JSON value that the request parse validated (an option, a layout request, an item): it
/// reads the value's members, elements and scalars as Swift values, so that structured parts of a request are
/// decoded in Swift. Object members come in the order written.
public struct JSONReader: Sendable {
    /// The JSON type of a value.
    public enum Kind: String, Sendable {
        case null, boolean, number, string, array, object
    }

    private let tree: JSONTree
    private var position: Int

    init(_ tree: JSONTree, at position: Int = 0) {
        self.tree = tree
        self.position = position
    }

    /// The type of the value at the reading position.
    public var kind: Kind {
        switch tree.kind(position) {
        case .null: .null
        case .true, .false: .boolean
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// The first byte of the value's text in the bytes parsed.
    public var byteOffset: Int { tree.base + Int(tree.nodes[position].offset) }

    /// The reading position among the tree's nodes (the place of a violation found there).
    var place: Int { position }

    /// Whether the value is a number written without fraction or exponent.
    public var isWrittenAsInteger: Bool { numberValue?.isInteger ?? false }

    /// Whether the value is a number whose exponent is beyond the request limit (a violation of its own).
    var isOutOfRange: Bool { numberValue?.isOutOfRange ?? false }

    /// Whether the value's members or elements are listed: `false` for a container deeper than the reader was
    /// made to enter (``JSONText/reader(depth:)``, ``parseJSONDocument(_:depth:)``), whose kind and place alone are
    /// known; it reads as empty, and entering it is a programming error (checked in debug builds).
    public var isListed: Bool { tree.isListed(position) }

    /// Moves past the value at the reading position.
    public mutating func skip() {
        position = tree.next(after: position)
    }

    /// Reads a string, or returns `nil` and leaves any other value unread.
    public mutating func string() -> String? {
        guard kind == .string else { return nil }
        defer { skip() }
        return tree.string(position)
    }

    /// Reads a boolean, or returns `nil` and leaves any other value unread.
    public mutating func boolean() -> Bool? {
        guard kind == .boolean else { return nil }
        defer { skip() }
        return tree.kind(position) == .true
    }

    /// The number at the reading position, if it is one.
    private var numberValue: JSONTree.Number? {
        tree.kind(position) == .number ? tree.number(position) : nil
    }

    /// The significant digits of a number, as ASCII.
    private func digits(of number: JSONTree.Number) -> ArraySlice<UInt8> {
        guard !number.fractionDigits.isEmpty else { return tree.source[number.integerDigits] }
        var digits = ArraySlice(tree.source[number.integerDigits])
        digits.append(contentsOf: tree.source[number.fractionDigits])
        return digits
    }

    /// Reads a number whose value is an integer that fits `Int` (`2`, `2.0`, `2e0`), or returns `nil` and leaves
    /// the value unread.
    public mutating func integer() -> Int? {
        guard let number = numberValue, !number.isOutOfRange, number.exponent >= 0,
              number.integerDigits.count + number.fractionDigits.count + Int(number.exponent) <= 18
        else { return nil }
        var value = 0
        for digit in digits(of: number) { value = value * 10 + Int(digit - UInt8(ascii: "0")) }
        for _ in 0 ..< number.exponent { value *= 10 }
        skip()
        return number.isNegative ? -value : value
    }

    /// Reads an integer written without fraction or exponent that fits `Int64` (an id), or returns `nil` and
    /// leaves the value unread.
    public mutating func writtenInteger() -> Int64? {
        guard let number = numberValue, number.isInteger, number.exponent >= 0 else { return nil }
        var magnitude: UInt64 = 0
        for digit in digits(of: number) {
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }  // (18446744073709551616 overflows only in the addition)
            magnitude = sum
        }
        for _ in 0 ..< number.exponent {
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            magnitude = times10
        }
        let limit = number.isNegative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        guard magnitude <= limit else { return nil }
        skip()
        return number.isNegative ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(magnitude)
    }

    /// Reads a number as the nearest `Double` (infinite beyond its range), or returns `nil` and leaves any
    /// other value unread.
    public mutating func number() -> Double? {
        guard let (isNegative, digits, exponent) = decimal() else { return nil }
        guard !digits.isEmpty else { return 0 }
        let value = Double("\(String(decoding: digits, as: UTF8.self))e\(exponent)") ?? .infinity
        return isNegative ? -value : value
    }

    /// Reads a number exactly as written — its sign, its significant digits (ASCII, without leading or
    /// trailing zeros; none for zero) and the power of ten of the last digit — or returns `nil` and leaves
    /// any other value unread. For decimal arithmetic where the nearest `Double` is not good enough.
    ///
    /// - Complexity: O(*n*) in the number's text (it is read again).
    public mutating func decimal() -> (isNegative: Bool, digits: ArraySlice<UInt8>, exponent: Int)? {
        guard let number = numberValue else { return nil }
        skip()
        let digits = digits(of: number)
        guard !digits.isEmpty else { return (false, [], 0) }  // zero (an exponent out of range reads as 0)
        return (number.isNegative, digits, Int(number.exponent))
    }

    /// Reads an array, calling `body` with the reader at each element and its index; what `body` reads of the
    /// element does not matter: the next one is found from the tree.
    ///
    /// - Complexity: O(*n*) in the elements, besides what `body` does.
    public mutating func elements(_ body: (inout JSONReader, Int) -> Void) {
        precondition(kind == .array)
        assert(isListed, "an array deeper than the reader enters")  // (it would read as empty)
        let end = tree.next(after: position)
        var element = position + 1
        var index = 0
        while element < end {
            let next = tree.next(after: element)
            position = element
            body(&self, index)
            element = next
            index += 1
        }
        position = end
    }

    /// Reads an object, calling `body` with each member name and the reader at its value, in the order written;
    /// what `body` reads of the value does not matter.
    ///
    /// - Complexity: O(*n*) in the members' names, besides what `body` does.
    public mutating func members(_ body: (inout JSONReader, String) -> Void) {
        precondition(kind == .object)
        assert(isListed, "an object deeper than the reader enters")  // (it would read as empty)
        let end = tree.next(after: position)
        var name = position + 1
        while name < end {
            let next = tree.next(after: name + 1)
            let text = tree.string(name)
            position = name + 1
            body(&self, text)
            name = next
        }
        position = end
    }

    /// Reads an object at `path`, calling `body` with each member name, its JSON path (``JSONPath``) and the
    /// reader at its value, in the order written.
    public mutating func members(at path: String, _ body: (inout JSONReader, String, String) -> Void) {
        members { reader, name in body(&reader, name, JSONPath.member(name, of: path)) }
    }
}
