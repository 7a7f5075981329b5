internal import SimdJSON

/// A reader of one JSON value, in document order, as a walk of the bridge's cursor meets it (an option, a layout
/// request, a `/layout` body, an item): it reads members, elements and scalars as Swift values, so that the
/// structured parts of a request are decoded in Swift without a table of every value. Object members come in the
/// order written.
///
/// A reader stands on one value: reading it (a scalar, or the members or elements of a container) or skipping it
/// moves past it, and a value moved past unread is validated then (in a walk of text not validated before). Copies
/// of a reader share its walk;
/// they are valid only during the read that made them (``JSONText/read(_:)``, ``JSONDocument/read(_:members:item:)``).
public struct JSONReader {
    /// The JSON type of a value.
    public enum Kind: String, Sendable {
        case null, boolean, number, string, array, object
    }

    private let walk: JSONCursor

    /// A reader at the value `cursor` stands on.
    init(_ cursor: JSONCursor) {
        walk = cursor
    }

    /// The type of the value the reader stands on.
    public var kind: Kind {
        switch walk.kind {
        case .object: .object
        case .array: .array
        case .string: .string
        case .boolean: .boolean
        case .null, .nothing: .null  // (nothing: the walk ended, its error outweighs)
        case .number, .fractionalNumber, .integerOutOfRange: .number
        }
    }

    /// The first byte of the value's text in the bytes parsed.
    public var byteOffset: Int { walk.offset }

    /// The value's place in the walk (the order of the violations found there).
    var place: Int { walk.place }

    /// Whether the value is a number written without fraction or exponent.
    public var isWrittenAsInteger: Bool { numberValue?.isInteger ?? false }

    /// Whether the value is a number whose exponent is beyond the request limit (a violation of its own).
    var isOutOfRange: Bool { numberValue?.isOutOfRange ?? false }

    /// Moves past the value (validating it).
    public mutating func skip() {
        walk.skip()
    }

    /// Moves past the value (validating it) and returns where its text is in the bytes parsed.
    mutating func skipText() -> Range<Int> {
        walk.skipText()
    }

    /// Reads the object or array the reader stands on with `read` (its members or elements) and returns where its
    /// text is in the bytes parsed.
    mutating func readText(_ read: (inout JSONReader) -> Void) -> Range<Int> {
        let start = byteOffset
        read(&self)
        return start ..< walk.endOfLeft(start)
    }

    /// Reads the value the reader stands on with `read` and returns where its text is in the bytes parsed.
    mutating func readSpan(_ read: (inout JSONReader) -> Void) -> Range<Int> {
        guard kind != .object && kind != .array else { return readText(read) }
        let text = walk.scalarText
        read(&self)
        return text
    }

    /// Enters the object the reader stands on: ``nextMember()`` then moves it onto each member in turn, giving
    /// its name's bytes (``members(_:)`` gives them as `String`s).
    mutating func enter() {
        walk.enter()
    }

    /// Stands on the next member of the object entered last and returns its name's bytes; `nil` at its end (it
    /// is left).
    mutating func nextMember() -> WalkedBytes? {
        walk.nextMember()?.bytes
    }

    /// Reads the string the reader stands on as its unescaped bytes (valid while the walk lasts).
    mutating func stringBytes() -> WalkedBytes {
        walk.readStringBytes()
    }

    /// Reads a string, or returns `nil` and leaves any other value unread (and a document that is one scalar:
    /// only its kind is read).
    public mutating func string() -> String? {
        guard kind == .string, walk.isReadable else { return nil }
        return walk.readStringBytes().string
    }

    /// Reads a boolean, or returns `nil` and leaves any other value unread (and a document that is one scalar).
    public mutating func boolean() -> Bool? {
        guard kind == .boolean, walk.isReadable else { return nil }
        defer { skip() }
        return walk.source[walk.offset] == UInt8(ascii: "t")
    }

    /// The number the reader stands on, if it is one.
    private var numberValue: JSONNumber? { walk.number }

    /// The significant digits of a number, as ASCII.
    private func digits(of number: JSONNumber) -> ArraySlice<UInt8> {
        guard !number.fractionDigits.isEmpty else { return walk.source[number.integerDigits] }
        var digits = ArraySlice(walk.source[number.integerDigits])
        digits.append(contentsOf: walk.source[number.fractionDigits])
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

    /// Reads an array, calling `body` with the reader at each element and its index; what `body` leaves unread
    /// of the element is validated when the reader moves on.
    ///
    /// - Complexity: O(*n*) in the elements, besides what `body` does.
    public mutating func elements(_ body: (inout JSONReader, Int) -> Void) {
        precondition(kind == .array)
        walk.enter()
        var index = 0
        while walk.nextElement() {
            body(&self, index)
            index += 1
        }
    }

    /// Reads an object, calling `body` with each member name and the reader at its value, in the order written;
    /// what `body` leaves unread of the value is validated when the reader moves on. A name the object gives
    /// twice is a violation of the walk's.
    ///
    /// - Complexity: O(*n*) in the members' names, besides what `body` does.
    public mutating func members(_ body: (inout JSONReader, String) -> Void) {
        precondition(kind == .object)
        walk.enter()
        while let name = walk.nextMember() {
            body(&self, name.bytes.string)
        }
    }

    /// Reads an object at `path`, calling `body` with each member name, its JSON path (``JSONPath``) and the
    /// reader at its value, in the order written.
    public mutating func members(at path: String, _ body: (inout JSONReader, String, String) -> Void) {
        members { reader, name in body(&reader, name, JSONPath.member(name, of: path)) }
    }
}

/// The violations of the rules every value of a request follows (no repeated member names, exponents in range)
/// that a walk found, each at its place in the walk (the order it met them).
struct RuleViolations {
    var violations: [(Violation, place: Int)]
    /// Violations found beyond those listed.
    let omitted: Int
}

extension SimdJSONParser {
    /// Reads `source[range]` (the array holds its padding as spare capacity), a text that an earlier walk
    /// validated, with `read` given a reader at its value: what `read` leaves unread is not checked again.
    func readValid<Value>(_ source: [UInt8], _ range: Range<Int>, _ read: (inout JSONReader) -> Value) -> Value {
        self.read(source, range, maximumViolations: 0, validated: true, { cursor in
            var reader = JSONReader(cursor)
            return read(&reader)
        }, finished: { value, result in
            guard result.outcome == .parsed, let value else {
                fatalError("a validated value of \(range.count) bytes did not parse again: \(result.outcome)")
            }
            return value
        })
    }
}

extension JSONReader {
    /// Reads `source[range]`, a text that an earlier walk validated, with `read` (see
    /// ``SimdJSONParser/readValid(_:_:_:)``), with a parser borrowed for the read.
    static func readValid<Value>(_ source: [UInt8], _ range: Range<Int>, _ read: (inout JSONReader) -> Value) -> Value {
        SimdJSONParser.withBorrowed { $0.readValid(source, range, read) }
    }
}
