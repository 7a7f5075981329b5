import SnapshotJSON

/// Collects the invalid values of a request, by JSON path, while decoding continues; the request is then
/// answered with one 422 that lists the first ``Problem/listedEntryLimit`` and counts them all (so a body of a
/// million bad values costs a counter, not a million paths).
struct FieldErrors {
    /// The first errors, in document order.
    private(set) var errors: [Violation] = []
    /// How many errors were recorded.
    private(set) var count = 0

    /// Whether no error was recorded.
    var isEmpty: Bool { count == 0 }

    /// Records an error (its path and message are kept only while fewer than ``Problem/listedEntryLimit`` are).
    mutating func add(_ path: @autoclosure () -> String, _ message: @autoclosure () -> String) {
        count += 1
        if errors.count < Problem.listedEntryLimit { errors.append(Violation(path: path(), message: message())) }
    }

    /// The 422 problem for the errors.
    var problem: Problem {
        var problem = Problem(
            .invalidRequest,
            detail: count == 1
                ? "\(errors[0].path): \(errors[0].message)"
                : "\(count) values are invalid; see errors" + (count > errors.count ? " (the first \(errors.count) are listed)." : "."))
        problem.errors = errors
        problem.errorCount = count
        return problem
    }

    /// Reads a number, or records `expected number` and skips the value.
    mutating func number(_ reader: inout CanonicalReader, _ path: String) -> Double? {
        if let value = reader.number() {
            guard value.isFinite else {
                add(path, "number out of range")
                return nil
            }
            return value
        }
        add(path, "expected number, found \(reader.kind.rawValue)")
        reader.skip()
        return nil
    }

    /// Reads an integer that fits `Int`, or records the error and skips the value.
    mutating func integer(_ reader: inout CanonicalReader, _ path: String) -> Int? {
        if let value = reader.integer() { return value }
        add(path, reader.kind == .number ? "expected an integer" : "expected integer, found \(reader.kind.rawValue)")
        reader.skip()
        return nil
    }

    /// Reads a boolean, or records the error and skips the value.
    mutating func boolean(_ reader: inout CanonicalReader, _ path: String) -> Bool? {
        if let value = reader.boolean() { return value }
        add(path, "expected boolean, found \(reader.kind.rawValue)")
        reader.skip()
        return nil
    }

    /// Reads a string, or records the error and skips the value.
    mutating func string(_ reader: inout CanonicalReader, _ path: String) -> String? {
        if let value = reader.string() { return value }
        add(path, "expected string, found \(reader.kind.rawValue)")
        reader.skip()
        return nil
    }

    /// Reads one of an enumeration's raw values, or records the error.
    mutating func choice<Value: RawRepresentable & CaseIterable>(
        _: Value.Type, _ reader: inout CanonicalReader, _ path: String
    ) -> Value? where Value.RawValue == String {
        let expected = Value.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard let text = string(&reader, path) else { return nil }
        guard let value = Value(rawValue: text) else {
            add(path, "expected one of \(expected)")
            return nil
        }
        return value
    }

    /// Checks that the value is an object, or records the error and skips it.
    mutating func object(_ reader: inout CanonicalReader, _ path: String) -> Bool {
        guard reader.kind == .object else {
            add(path, "expected object, found \(reader.kind.rawValue)")
            reader.skip()
            return false
        }
        return true
    }

    /// Reads an id: a string, or an integer without fraction or exponent.
    mutating func id(_ reader: inout CanonicalReader, _ path: String) -> WireID? {
        if let text = reader.string() { return .string(text) }
        if let value = reader.integer() { return .integer(Int64(value)) }
        add(path, "expected string or integer, found \(reader.kind == .number ? "number with a fraction, an exponent or out of range" : reader.kind.rawValue)")
        reader.skip()
        return nil
    }
}
