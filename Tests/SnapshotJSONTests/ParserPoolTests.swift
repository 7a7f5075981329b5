@testable import SnapshotJSON
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

    @Test func aParserGrownByALargeBodyIsNotKeptAndASmallOneIs() throws {
        func parse(items count: Int) throws {
            let items = (0 ..< count).map { #"{"id":\#($0),"t":"some text to make the body larger"}"# }.joined(separator: ",")
            let request = try parseDiffRequest(Array(#"{"old":{"items":[\#(items)]},"new":{"items":[]}}"#.utf8))
            #expect(request.old.itemCount == count)
        }
        func retainedByNextParser() -> Int {
            let parser = SimdJSONParser.borrow()
            defer { parser.recycle() }
            return parser.retainedBytes
        }
        try parse(items: 20)
        #expect(retainedByNextParser() > 0)  // the parser that read the body, kept
        try parse(items: 40_000)  // ~2 MB: the parser grows past the 8 MiB a thread's idle parsers may keep
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
        var padded = Array(text.utf8)
        padded.reserveCapacity(padded.count + DiffRequest.requiredPadding)
        let first = SimdJSONParser.borrow(), second = SimdJSONParser.borrow()
        for parser in [first, second] {
            let count = parser.readValid(padded, 0 ..< padded.count) { reader in
                var count = 0
                reader.elements { element, _ in
                    element.skip()
                    count += 1
                }
                return count
            }
            #expect(count == 150_000)
        }
        #expect(first.retainedBytes > 4 << 20 && second.retainedBytes > 4 << 20)
        #expect(first.retainedBytes + second.retainedBytes > 8 << 20)
        second.recycle()
        first.recycle()
        let parsers = (0 ..< 2).map { _ in SimdJSONParser.borrow() }
        #expect(parsers.map(\.retainedBytes).reduce(0, +) <= 8 << 20)
        for parser in parsers.reversed() { parser.recycle() }
    }
}
