internal import CSimdJSON

/// A simdjson parser handle (CSimdJSON), borrowed from the calling thread's idle ones (``ParserPool``): the
/// walks it runs (``walk(_:_:probes:maximumViolations:validated:_:finished:)``), the comparison of two objects, and the
/// number grammar.
///
/// Parsers are reused: a walk borrows one and gives it back, so that a server reading small bodies does not
/// allocate simdjson's buffers per request.
package struct SimdJSONParser {
    /// The C handle; used by one thread at a time, until ``recycle()``.
    let pointer: OpaquePointer

    /// Bytes that must be readable (any value) after a text's last byte.
    package static let padding = Int(CSimdJSON_PADDING)
    /// Deepest nesting of arrays and objects accepted; the document's own object or array is level 1.
    package static let maximumDepth = Int(CSimdJSON_MAX_DEPTH)
    /// Largest magnitude of a number's written exponent.
    package static let maximumExponent = Int(CSimdJSON_MAX_EXPONENT)

    /// A parser from this thread's idle ones, or a new one.
    package static func borrow() -> SimdJSONParser { SimdJSONParser(pointer: ParserPool.borrow()) }

    /// Calls `body` with a parser borrowed for the call.
    package static func withBorrowed<Result>(_ body: (SimdJSONParser) -> Result) -> Result {
        let parser = borrow()
        defer { parser.recycle() }
        return body(parser)
    }

    /// Gives the parser back to the calling thread's pool; it must not be used afterwards.
    package func recycle() { ParserPool.recycle(pointer) }

    /// Bytes the parser keeps allocated between walks.
    package var retainedBytes: Int { CSimdJSON_ParserRetainedBytes(pointer) }

    /// Whether the contents (every member but the one named `skipped`) of the object texts `a[aRange]` and
    /// `b[bRange]` (validated by an earlier walk) are equal, read member by member in the order written: numbers
    /// by exact decimal value, strings by their unescaped bytes; `nil` when that cannot tell (members in another
    /// order). Both arrays hold their padding as spare capacity.
    package func sameContent(
        _ a: [UInt8], _ aRange: Range<Int>, _ b: [UInt8], _ bRange: Range<Int>, skipping skipped: StaticString
    ) -> Bool? {
        let same = a.withUnsafeBufferPointer { mine in
            b.withUnsafeBufferPointer { theirs in
                skipped.withUTF8Buffer { name in
                    CSimdJSON_SameObjectContent(
                        pointer, mine.baseAddress, a.capacity, aRange.lowerBound, aRange.count,
                        theirs.baseAddress, b.capacity, bRange.lowerBound, bRange.count,
                        UnsafeRawPointer(name.baseAddress)?.assumingMemoryBound(to: CChar.self), name.count)
                }
            }
        }
        return same < 0 ? nil : same == 1
    }

    /// Whether the byte just past `bytes` (the first padding byte, which must be readable) is NUL or JSON
    /// whitespace: simdjson reads it as the token after the last one when a document ends early.
    package static func paddingIsInert(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        CSimdJSON_PaddingIsInert(bytes.baseAddress, bytes.count) != 0
    }

    /// Whether `array`'s spare capacity holds at least the padding and starts with an inert byte (see
    /// ``paddingIsInert(_:)``), so that it can be walked in place.
    package static func isPadded(_ array: [UInt8]) -> Bool {
        array.capacity - array.count >= padding && array.withUnsafeBufferPointer(paddingIsInert)
    }

    /// The parts of the number whose text is `source[range]`, or `nil` when it is not a number (a walk reading
    /// it then finds the syntax error).
    package static func number(_ source: [UInt8], _ range: Range<Int>) -> JSONNumber? {
        let parts = source.withUnsafeBufferPointer { CSimdJSON_ParseNumber($0.baseAddress! + range.lowerBound, range.count) }
        guard parts.valid != 0 else { return nil }
        let integer = range.lowerBound + Int(parts.integerOffset), fraction = range.lowerBound + Int(parts.fractionOffset)
        return JSONNumber(exponent: parts.exponent, integerDigits: integer ..< integer + Int(parts.integerLength),
                          fractionDigits: fraction ..< fraction + Int(parts.fractionLength),
                          isNegative: parts.negative != 0, isInteger: parts.isInteger != 0,
                          isOutOfRange: parts.outOfRange != 0)
    }

    /// A 64-bit hash of some bytes, seeded per process as Swift's `Hasher` is (so which inputs collide cannot be
    /// known outside the process).
    package static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }
}

/// A number exactly as written, ±digits × 10^exponent.
package struct JSONNumber {
    /// The power of ten of the last significant digit.
    package var exponent: Int64
    /// The significant digits (ASCII, no leading or trailing zeros; none for zero): those of the integer part,
    /// then those of the fraction, as ranges of the bytes parsed.
    package var integerDigits: Range<Int>
    package var fractionDigits: Range<Int>
    package var isNegative: Bool
    /// Written without fraction or exponent.
    package var isInteger: Bool
    /// Its exponent is beyond ``SimdJSONParser/maximumExponent`` (reported as a violation when a walk moves past
    /// it).
    package var isOutOfRange: Bool
}
