@testable import SimdJSON
import Testing

/// Parsers are kept per thread: a thread gets back the parser it gave back, nested borrows get their own, and a
/// parser that would take the thread's idle parsers past the retention limit is not kept.
@Suite struct ParserPoolTests {
    @Test func aThreadGetsBackItsParserAndNestedBorrowsGetTheirOwn() {
        let first = SimdJSONParser.borrow()
        let nested = SimdJSONParser.borrow()
        #expect(first.pointer != nested.pointer)
        nested.recycle()
        first.recycle()  // two parsers are kept per thread, the last given back on top
        let again = SimdJSONParser.borrow()
        let againNested = SimdJSONParser.borrow()
        #expect(again.pointer == first.pointer && againNested.pointer == nested.pointer)
        againNested.recycle()
        again.recycle()
    }

    @Test func aParserGrownByALargeBodyIsNotKeptAndASmallOneIs() {
        func parse(items count: Int) {
            let items = (0 ..< count).map { #"{"id":\#($0),"t":"some text to make the body larger"}"# }.joined(separator: ",")
            #expect(Self.elementCount(of: "[\(items)]", with: nil) == count)
        }
        func retainedByNextParser() -> Int {
            let parser = SimdJSONParser.borrow()
            defer { parser.recycle() }
            return parser.retainedBytes
        }
        parse(items: 20)
        #expect(retainedByNextParser() > 0)  // the parser that read the body, kept
        parse(items: 40_000)  // ~2 MB: the parser grows past the 8 MiB a thread's idle parsers may keep
        // Whatever this thread's pool holds now (other tests share the thread), it is not the grown parser, and
        // the idle parsers hold at most 8 MiB together.
        let parsers = (0 ..< 2).map { _ in SimdJSONParser.borrow() }
        #expect(parsers.map(\.retainedBytes).reduce(0, +) <= 8 << 20)
        for parser in parsers.reversed() { parser.recycle() }
    }

    /// Two parsers grown by ~1 MB texts (about 6 MB each) are not both kept: a thread's idle parsers hold at most
    /// 8 MiB together, not 8 MiB each.
    @Test func idleParsersHoldTheLimitTogether() {
        let text = "[" + (0 ..< 150_000).map { "\($0)" }.joined(separator: ",") + "]"
        let first = SimdJSONParser.borrow(), second = SimdJSONParser.borrow()
        for parser in [first, second] {
            #expect(Self.elementCount(of: text, with: parser) == 150_000)
        }
        #expect(first.retainedBytes > 4 << 20 && second.retainedBytes > 4 << 20)
        #expect(first.retainedBytes + second.retainedBytes > 8 << 20)
        second.recycle()
        first.recycle()
        let parsers = (0 ..< 2).map { _ in SimdJSONParser.borrow() }
        #expect(parsers.map(\.retainedBytes).reduce(0, +) <= 8 << 20)
        for parser in parsers.reversed() { parser.recycle() }
    }

    /// A parser grown by a ~1 MB text (about 6 MB) is not kept even alone, under the 8 MiB the idle parsers may
    /// hold together: it would stay allocated through the rest of the request that borrowed it.
    @Test func aParserHoldingMoreThanOneParsersShareIsNotKept() {
        let text = "[" + (0 ..< 150_000).map { "\($0)" }.joined(separator: ",") + "]"
        let grown = SimdJSONParser.borrow()
        #expect(Self.elementCount(of: text, with: grown) == 150_000)
        let held = grown.retainedBytes
        #expect(held > ParserPool.maximumRetainedBytesEach && held <= ParserPool.maximumRetainedBytes)
        grown.recycle()
        let parsers = (0 ..< ParserPool.maximumIdle).map { _ in SimdJSONParser.borrow() }
        #expect(parsers.allSatisfy { $0.retainedBytes <= ParserPool.maximumRetainedBytesEach })
        for parser in parsers.reversed() { parser.recycle() }
    }

    /// The elements of the array `text`, counted by a walk with `parser` (or a parser borrowed for it).
    private static func elementCount(of text: String, with parser: SimdJSONParser?) -> Int {
        var bytes = Array(text.utf8)
        bytes.reserveCapacity(bytes.count + SimdJSONParser.padding)
        func count(_ parser: SimdJSONParser) -> Int {
            var count = -1
            parser.read(bytes, 0 ..< bytes.count, maximumViolations: 0, { cursor in
                count = 0
                cursor.enter()
                while cursor.nextElement() { count += 1 }
            }, finished: { result in
                if result.outcome != .parsed { count = -1 }
            })
            return count
        }
        return parser.map(count) ?? SimdJSONParser.withBorrowed(count)
    }
}
