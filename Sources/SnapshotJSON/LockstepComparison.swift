/// Compares two JSON values as two walks meet them side by side, in the order written: cheaper than two
/// canonical encodings (``CanonicalEncoder``), and enough for two texts of an item that list their members in the
/// same order, as most edits of one item do. Equality is ``ContentKey``'s: numbers by exact decimal value, strings
/// by their unescaped bytes, object members in any order (which this cannot tell: it answers `nil` then).
enum LockstepComparison {
    /// Whether the objects `a` and `b` stand on are equal but for their members named `skipped`; `nil` when their
    /// member names stop matching (the same members may come in another order).
    ///
    /// - Complexity: O(*n*) in the texts' lengths, stopping at the first difference.
    static func objects(_ a: inout JSONReader, _ b: inout JSONReader, skipping skipped: StaticString?) -> Bool? {
        a.enter()
        b.enter()
        while true {
            let nameA = nextMember(&a, skipping: skipped), nameB = nextMember(&b, skipping: skipped)
            guard let nameA, let nameB else { return (nameA == nil) == (nameB == nil) }  // (names are unique)
            guard nameA == nameB else { return nil }
            let same = values(&a, &b)
            if same != true { return same }
        }
    }

    /// The next member's name, past those named `skipped`.
    private static func nextMember(_ reader: inout JSONReader, skipping skipped: StaticString?) -> WalkedBytes? {
        while let name = reader.nextMember() {
            guard let skipped, name == skipped else { return name }
        }
        return nil
    }

    private static func values(_ a: inout JSONReader, _ b: inout JSONReader) -> Bool? {
        guard a.kind == b.kind else { return false }
        switch a.kind {
        case .object:
            return objects(&a, &b, skipping: nil)
        case .array:
            a.enter()
            b.enter()
            while true {
                let hasA = a.nextElement(), hasB = b.nextElement()
                guard hasA && hasB else { return hasA == hasB }
                let same = values(&a, &b)
                if same != true { return same }
            }
        case .string:
            return a.stringBytes() == b.stringBytes()
        case .number:
            let textA = a.scalarBytes, textB = b.scalarBytes
            if textA == textB { return true }
            // Integers written plainly have one spelling (JSON allows no leading zeros), but for -0.
            if isPlainInteger(textA) && isPlainInteger(textB) { return isZero(textA) && isZero(textB) }
            guard let numberA = a.decimal(), let numberB = b.decimal() else { return nil }
            return numberA.isNegative == numberB.isNegative && numberA.exponent == numberB.exponent
                && numberA.digits.elementsEqual(numberB.digits)
        case .boolean:
            return a.boolean() == b.boolean()
        case .null:
            return true
        }
    }

    /// Whether a number's text is `-?[0-9]+`: no fraction, no exponent.
    private static func isPlainInteger(_ text: ArraySlice<UInt8>) -> Bool {
        text.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") || $0 == UInt8(ascii: "-") }
    }

    /// Whether a plain integer's text is a zero (`0` or `-0`).
    private static func isZero(_ text: ArraySlice<UInt8>) -> Bool {
        text.elementsEqual("0".utf8) || text.elementsEqual("-0".utf8)
    }
}
