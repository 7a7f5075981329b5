internal import CSimdJSON

/// The one owner of the CSimdJSON bridge: a parser borrowed from the calling thread's pool, and every call into
/// C that is not a walk over a request (those are in `SimdJSONParser+Request.swift`, the only other file that
/// sees a C type).
///
/// Parsers are reused: a parse borrows one and gives it back, so that a server parsing small bodies does not
/// allocate simdjson's buffers per request. The idle parsers are kept per thread (in CSimdJSON), so a worker
/// thread gets back the parser whose buffers are warm in its own core's cache, without a lock; parsers grown by
/// large bodies are not kept.
struct SimdJSONParser {
    /// The C parser; used by one thread at a time, until ``recycle()``.
    let pointer: OpaquePointer

    /// Bytes that must be readable (any value) after a body's last byte.
    static let padding = Int(CSimdJSON_PADDING)
    /// Deepest nesting of arrays and objects accepted; the request object itself is level 1.
    static let maximumDepth = Int(CSimdJSON_MAX_DEPTH)
    /// Largest magnitude of a number's written exponent.
    static let maximumExponent = Int(CSimdJSON_MAX_EXPONENT)
    /// Violations a walk records at most; later ones are only counted.
    static let maximumViolations = Int(CSimdJSON_MAX_VIOLATIONS)

    /// Parsers kept at most per thread: one serves a thread's parses one after another, a second the item
    /// comparisons and readers of options the reader makes while its parse is borrowed (a borrow that nests gets
    /// another parser; the pool is last in, first out, so a parse gets back the parser it used last).
    private static let maximumIdle = 2
    /// What a thread's idle parsers may hold together: a parser that would take them beyond it is freed rather
    /// than kept, so what stays allocated between requests is at most this per worker thread (a parser that read
    /// a ~600 KB body holds about 4 MiB; one of item comparisons a few KB).
    private static let maximumRetainedBytes = 8 << 20

    /// A parser from this thread's idle ones, or a new one.
    static func borrow() -> SimdJSONParser {
        guard let pointer = CSimdJSON_ParserBorrow() else { fatalError("out of memory") }
        return SimdJSONParser(pointer: pointer)
    }

    /// Calls `body` with a parser borrowed for the call.
    static func withBorrowed<Result>(_ body: (SimdJSONParser) -> Result) -> Result {
        let parser = borrow()
        defer { parser.recycle() }
        return body(parser)
    }

    /// Gives the parser back to the calling thread's pool; it must not be used afterwards.
    func recycle() {
        CSimdJSON_ParserReturn(pointer, Self.maximumIdle, Self.maximumRetainedBytes)
    }

    /// Bytes the parser keeps allocated between parses.
    var retainedBytes: Int { CSimdJSON_ParserRetainedBytes(pointer) }

    /// Whether the contents (every member but the one named `skipped`) of the object texts `a[aRange]` and
    /// `b[bRange]` (validated by an earlier walk) are equal, read member by member in the order written; `nil`
    /// when that cannot tell (members in another order). Both arrays hold their padding as spare capacity.
    func sameContent(
        _ a: [UInt8], _ aRange: Range<Int>, _ b: [UInt8], _ bRange: Range<Int>, skipping skipped: StaticString
    ) -> Bool? {
        let same = a.withUnsafeBufferPointer { mine in
            b.withUnsafeBufferPointer { theirs in
                skipped.withUTF8Buffer { name in
                    CSimdJSON_SameItemContent(
                        pointer, mine.baseAddress, a.capacity, aRange.lowerBound, aRange.count,
                        theirs.baseAddress, b.capacity, bRange.lowerBound, bRange.count,
                        UnsafeRawPointer(name.baseAddress)?.assumingMemoryBound(to: CChar.self), name.count)
                }
            }
        }
        return same < 0 ? nil : same == 1
    }

    /// The hash of some bytes (a canonical encoding's), seeded per process as Swift's `Hasher` is (here, with the
    /// module's other unsafe pointers).
    static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        return UInt64(UInt(bitPattern: hasher.finalize()))
    }

    /// Whether the byte just past `bytes` (the first padding byte, which must be readable) is NUL or JSON
    /// whitespace: simdjson reads it as the token after the last one when a document ends early.
    static func paddingIsInert(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        CSimdJSON_PaddingIsInert(bytes.baseAddress, bytes.count) != 0
    }
}
