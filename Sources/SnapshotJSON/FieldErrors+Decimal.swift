import Waterfall

extension FieldErrors {
    /// Reads a number exactly as written, or records the error and skips the value: `expected number`, or
    /// too many significant digits to be taken exactly.
    public mutating func decimal(_ reader: inout JSONReader, _ path: @autoclosure () -> String) -> ExactDecimal? {
        guard let (isNegative, digits, exponent) = reader.decimal() else {
            add(path(), "expected number, found \(reader.kind.rawValue)")
            reader.skip()
            return nil
        }
        guard let value = ExactDecimal(isNegative: isNegative, digits: digits, exponent: exponent) else {
            add(path(), "more than \(ExactDecimal.maximumDigits) significant digits")
            return nil
        }
        return value
    }
}
