import Waterfall

// The readers below read one value, or record the rule it breaks and skip it.

extension Violations {
    /// Reads an integer that fits 18 digits (`2`, `2.0`, `2e0`), or records ``ViolationRule/notAnInteger`` (a
    /// number) or that an integer was expected, and skips the value.
    ///
    /// - Parameters:
    ///   - reader: A reader at the value.
    ///   - path: The value's JSON path, made only for a violation.
    /// - Returns: The integer, or `nil` after recording the violation.
    public mutating func integer(_ reader: inout JSONReader, _ path: @autoclosure () -> String) -> Int? {
        if let value = reader.integer() { return value }
        add(reader.kind == .number ? .notAnInteger : .expected(.integer, found: .init(reader.kind)), at: path())
        reader.skip()
        return nil
    }

    /// Reads a boolean, or records that one was expected and skips the value.
    ///
    /// - Parameters:
    ///   - reader: A reader at the value.
    ///   - path: The value's JSON path, made only for a violation.
    /// - Returns: The boolean, or `nil` after recording the violation.
    public mutating func boolean(_ reader: inout JSONReader, _ path: @autoclosure () -> String) -> Bool? {
        if let value = reader.boolean() { return value }
        add(.expected(.boolean, found: .init(reader.kind)), at: path())
        reader.skip()
        return nil
    }

    /// Reads a string, or records that one was expected and skips the value.
    ///
    /// - Parameters:
    ///   - reader: A reader at the value.
    ///   - path: The value's JSON path, made only for a violation.
    /// - Returns: The string, or `nil` after recording the violation.
    public mutating func string(_ reader: inout JSONReader, _ path: @autoclosure () -> String) -> String? {
        if let value = reader.string() { return value }
        add(.expected(.string, found: .init(reader.kind)), at: path())
        reader.skip()
        return nil
    }

    /// Checks that the value is an object, or records that one was expected and skips the value.
    ///
    /// - Parameters:
    ///   - reader: A reader at the value.
    ///   - path: The value's JSON path, made only for a violation.
    /// - Returns: Whether the value is an object (left unread).
    public mutating func object(_ reader: inout JSONReader, _ path: @autoclosure () -> String) -> Bool {
        guard reader.kind == .object else {
            add(.expected(.object, found: .init(reader.kind)), at: path())
            reader.skip()
            return false
        }
        return true
    }

    /// Reads a string that names one of `choices` (its Unicode scalars exactly), or records which were expected
    /// and what was found: `expected "reject" or "keepFirst", found "first"`.
    ///
    /// - Parameters:
    ///   - choices: Each name and the value it stands for.
    ///   - reader: A reader at the value.
    ///   - path: The value's JSON path, made only for a violation.
    /// - Returns: The value named, or `nil` after recording the violation.
    /// - Complexity: O(*n*) in the names' lengths.
    public mutating func choice<Value>(
        _ choices: [(name: String, value: Value)], _ reader: inout JSONReader, _ path: @autoclosure () -> String
    ) -> Value? {
        guard let string = reader.string() else {
            add(.expected(.oneOf(choices.map(\.name)), found: .init(reader.kind)), at: path())
            reader.skip()
            return nil
        }
        guard let value = choices.first(where: { WireID.sameScalars($0.name, string) })?.value else {
            add(.expected(.oneOf(choices.map(\.name)), found: .text(string)), at: path())
            return nil
        }
        return value
    }

    /// Reads a string that names one of an enumeration's cases by its raw value, or records which were
    /// expected and what was found (as the `choices` form does).
    ///
    /// - Parameters:
    ///   - type: The enumeration, whose cases are named by their raw values, in the order declared.
    ///   - reader: A reader at the value.
    ///   - path: The value's JSON path, made only for a violation.
    /// - Returns: The case named, or `nil` after recording the violation.
    public mutating func choice<Value: RawRepresentable & CaseIterable>(
        _ type: Value.Type, _ reader: inout JSONReader, _ path: @autoclosure () -> String
    ) -> Value? where Value.RawValue == String {
        choice(Value.allCases.map { ($0.rawValue, $0) }, &reader, path())
    }

    /// Reads an id: a string, or an integer written without fraction or exponent that fits 64 bits (`1.0` and
    /// `1e0` are not ids), as `/diff` reads the ids of its snapshots. Otherwise records what was found
    /// (`expected string or integer, found number with a fraction or an exponent`); a number whose exponent is
    /// out of range is left to the walk, which reports it.
    ///
    /// - Parameters:
    ///   - reader: A reader at the value; moved past it only when it is an id.
    ///   - path: The value's JSON path, made only for a violation.
    ///   - located: Whether the violation carries the value's byte offset and place (see
    ///     ``add(_:at:byteOffset:place:)``).
    /// - Returns: The id, or `nil`.
    public mutating func id(
        _ reader: inout JSONReader, _ path: @autoclosure () -> String, located: Bool = false
    ) -> WireID? {
        if let string = reader.string() { return .string(string) }
        if let integer = reader.writtenInteger() { return .integer(integer) }
        if reader.isOutOfRange { return nil }
        let found: ViolationRule.Found =
            reader.kind != .number ? .init(reader.kind)
            : reader.isWrittenAsInteger ? .integerOutside64Bits : .numberWithFractionOrExponent
        add(.expected(.id, found: found), at: path(),
            byteOffset: located ? reader.byteOffset : nil, place: located ? reader.place : nil)
        return nil
    }

    /// Reads a number exactly as written, or records that a number was expected (and skips the value), or
    /// ``ViolationRule/tooManyDigits``.
    ///
    /// - Parameters:
    ///   - reader: A reader at the value.
    ///   - path: The value's JSON path, made only for a violation.
    /// - Returns: The number, or `nil` after recording the violation.
    public mutating func decimal(_ reader: inout JSONReader, _ path: @autoclosure () -> String) -> ExactDecimal? {
        guard let (isNegative, digits, exponent) = reader.decimal() else {
            add(.expected(.number, found: .init(reader.kind)), at: path())
            reader.skip()
            return nil
        }
        guard let value = ExactDecimal(isNegative: isNegative, digits: digits, exponent: exponent) else {
            add(.tooManyDigits, at: path())
            return nil
        }
        return value
    }
}
