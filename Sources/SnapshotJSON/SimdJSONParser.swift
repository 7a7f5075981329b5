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
    /// comparisons the reader makes while its parse is borrowed (a borrow that nests gets another parser; the
    /// pool is last in, first out, so a parse gets back the parser it used last).
    private static let maximumIdle = 2
    /// Parsers holding more than this after a parse are freed rather than kept: what stays allocated between
    /// requests is at most this per idle parser, so twice this per worker thread (a parser that read a ~600 KB
    /// body holds about this much).
    private static let maximumRetainedBytes = 4 << 20

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

    /// Whether the byte just past `bytes` (the first padding byte, which must be readable) is NUL or JSON
    /// whitespace: simdjson reads it as the token after the last one when a document ends early.
    static func paddingIsInert(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        CSimdJSON_PaddingIsInert(bytes.baseAddress, bytes.count) != 0
    }

    /// Whether the contents (every member but the one named `skipped`) of the object texts `a[aRange]` and
    /// `b[bRange]` are equal, read member by member in the order written; `nil` when that cannot tell (members in
    /// another order). Both arrays hold their padding as spare capacity.
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

    /// The canonical encoding of the object text `bytes[range]` (every member but the one named `skipped`);
    /// `bytes` holds its padding as spare capacity.
    func canonicalContent(_ bytes: [UInt8], _ range: Range<Int>, skipping skipped: StaticString) -> [UInt8] {
        bytes.withUnsafeBufferPointer { buffer in
            var length = 0
            guard
                let encoded = skipped.withUTF8Buffer({ name in
                    CSimdJSON_CanonicalItem(
                        pointer, buffer.baseAddress, range.lowerBound, range.count, bytes.capacity,
                        UnsafeRawPointer(name.baseAddress)?.assumingMemoryBound(to: CChar.self), name.count, &length)
                })
            else { fatalError("out of memory while canonicalising an item of \(range.count) bytes") }
            return Array(UnsafeBufferPointer(start: encoded, count: length))
        }
    }

    /// The members of the object, or the elements of the array, whose text is `bytes[range]` (validated by an
    /// earlier parse), in the order written: each name (empty for an element), the range of its value's text in
    /// `bytes`, and, when `canonical`, the value's canonical encoding. `bytes` holds its padding as spare
    /// capacity. Members named in `uncanonical` are read without their encoding (empty).
    func children(of bytes: [UInt8], _ range: Range<Int>, canonical: Bool, uncanonical: [String] = []) -> [JSONChild] {
        // Each name ended by a NUL, the list by an empty name.
        let names = uncanonical.map { $0 + "\0" }.joined() + "\0"
        return bytes.withUnsafeBufferPointer { buffer in
            var count = 0
            var text: UnsafePointer<UInt8>?
            guard
                let children = names.withCString({ names in
                    CSimdJSON_Children(
                        pointer, buffer.baseAddress, range.lowerBound, range.count, bytes.capacity, canonical ? 1 : 0,
                        names, &count, &text)
                })
            else { fatalError("out of memory while reading the contents of a value of \(range.count) bytes") }
            func slice(_ offset: UInt64, _ length: UInt64) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(start: text.map { $0 + Int(offset) }, count: Int(length))
            }
            return (0 ..< count).map { index in
                let child = children[index]
                let start = range.lowerBound + Int(child.valueOffset)
                return JSONChild(
                    name: String(decoding: slice(child.nameOffset, child.nameLength), as: UTF8.self),
                    value: start ..< start + Int(child.valueLength),
                    canonical: Array(slice(child.canonicalOffset, child.canonicalLength)))
            }
        }
    }

    /// Takes the arena of the last parse (its canonical encodings); free it with ``freeArena(_:)``.
    func takeArena() -> UnsafeMutablePointer<UInt8>? {
        CSimdJSON_TakeArena(pointer)
    }

    /// Frees an arena taken with ``takeArena()``.
    static func freeArena(_ arena: UnsafeMutablePointer<UInt8>?) {
        CSimdJSON_FreeArena(arena)
    }

    /// The 64-bit hash of a canonical encoding (``ContentKey/contentHash``).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        CSimdJSON_Hash(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
    }
}
