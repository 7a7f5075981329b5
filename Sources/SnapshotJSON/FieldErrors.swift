/// Collects the invalid values of a request, by JSON path, while decoding continues; the request is then
/// answered with one 422 that lists the first ``listedLimit`` and counts them all (so a body of a million bad
/// values costs a counter, not a million paths).
public struct FieldErrors: Sendable {
    /// Errors kept at most; later ones are only counted.
    public static let listedLimit = 1000

    /// The first errors, in document order.
    public private(set) var errors: [Violation] = []
    /// How many errors were recorded.
    public private(set) var count = 0

    /// Whether no error was recorded.
    public var isEmpty: Bool { count == 0 }

    /// No errors yet.
    public init() {}

    /// Records an error (its path and message are kept only while fewer than ``listedLimit`` are).
    ///
    /// - Parameters:
    ///   - path: The value's JSON path (see ``JSONPath``).
    ///   - message: What is wrong with it.
    public mutating func add(_ path: @autoclosure () -> String, _ message: @autoclosure () -> String) {
        count += 1
        if errors.count < Self.listedLimit { errors.append(Violation(path: path(), message: message())) }
    }

    /// Records another collection's errors after these (the first ``listedLimit`` of both kept, all counted).
    public mutating func add(contentsOf other: FieldErrors) {
        errors.append(contentsOf: other.errors.prefix(Self.listedLimit - errors.count))
        count += other.count
    }

    // The readers below read one value, or record what is wrong and skip it.

    /// Reads a number, or records `expected number` and skips the value.
    public mutating func number(_ reader: inout JSONReader, _ path: @autoclosure () -> String) -> Double? {
        if let value = reader.number() {
            guard value.isFinite else {
                add(path(), "number out of range")
                return nil
            }
            return value
        }
        add(path(), "expected number, found \(reader.kind.rawValue)")
        reader.skip()
        return nil
    }

    /// Reads an integer that fits `Int`, or records the error and skips the value.
    public mutating func integer(_ reader: inout JSONReader, _ path: @autoclosure () -> String) -> Int? {
        if let value = reader.integer() { return value }
        add(path(), reader.kind == .number ? "expected an integer" : "expected integer, found \(reader.kind.rawValue)")
        reader.skip()
        return nil
    }

    /// Reads a boolean, or records the error and skips the value.
    public mutating func boolean(_ reader: inout JSONReader, _ path: @autoclosure () -> String) -> Bool? {
        if let value = reader.boolean() { return value }
        add(path(), "expected boolean, found \(reader.kind.rawValue)")
        reader.skip()
        return nil
    }

    /// Reads a string, or records the error and skips the value.
    public mutating func string(_ reader: inout JSONReader, _ path: @autoclosure () -> String) -> String? {
        if let value = reader.string() { return value }
        add(path(), "expected string, found \(reader.kind.rawValue)")
        reader.skip()
        return nil
    }

    /// Reads one of an enumeration's raw values, or records the error.
    public mutating func choice<Value: RawRepresentable & CaseIterable>(
        _: Value.Type, _ reader: inout JSONReader, _ path: @autoclosure () -> String
    ) -> Value? where Value.RawValue == String {
        let expected = Value.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard let text = string(&reader, path()) else { return nil }
        guard let value = Value(rawValue: text) else {
            add(path(), "expected one of \(expected)")
            return nil
        }
        return value
    }

    /// Checks that the value is an object, or records the error and skips it.
    public mutating func object(_ reader: inout JSONReader, _ path: @autoclosure () -> String) -> Bool {
        guard reader.kind == .object else {
            add(path(), "expected object, found \(reader.kind.rawValue)")
            reader.skip()
            return false
        }
        return true
    }

    /// Reads an id: a string, or an integer without fraction or exponent.
    public mutating func id(_ reader: inout JSONReader, _ path: @autoclosure () -> String) -> WireID? {
        if let text = reader.string() { return .string(text) }
        if let value = reader.integer() { return .integer(Int64(value)) }
        add(path(), "expected string or integer, found \(reader.kind == .number ? "number with a fraction, an exponent or out of range" : reader.kind.rawValue)")
        reader.skip()
        return nil
    }
}
