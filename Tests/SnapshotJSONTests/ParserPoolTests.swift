@testable import SnapshotJSON
import Testing

/// Parsers are kept per thread: a thread gets back the parser it gave back, nested borrows get their own, and a
/// parser that grew past the retention limit is not kept.
@Suite struct ParserPoolTests {
    @Test func aThreadGetsBackItsParserAndNestedBorrowsGetTheirOwn() {
        let pool = ParserPool.shared
        let first = pool.borrow()
        let nested = pool.borrow()
        #expect(first.pointer != nested.pointer)
        pool.recycle(nested)
        pool.recycle(first)  // two parsers are kept per thread, the last given back on top
        let again = pool.borrow()
        let againNested = pool.borrow()
        #expect(again.pointer == first.pointer && againNested.pointer == nested.pointer)
        pool.recycle(againNested)
        pool.recycle(again)
    }

    @Test func aParserGrownByALargeBodyIsNotKeptAndASmallOneIs() throws {
        func parse(items count: Int) throws {
            let items = (0 ..< count).map { #"{"id":\#($0),"t":"some text to make the body larger"}"# }.joined(separator: ",")
            let request = try parseDiffRequest(Array(#"{"old":{"items":[\#(items)]},"new":{"items":[]}}"#.utf8))
            #expect(request.old.itemCount == count)
        }
        func retainedByNextParser() -> Int {
            let handle = ParserPool.shared.borrow()
            defer { ParserPool.shared.recycle(handle) }
            return handle.retainedBytes
        }
        try parse(items: 20)
        #expect(retainedByNextParser() > 0)  // the parser that read the body, kept
        try parse(items: 20_000)  // ~1 MB: the parser grows past the 4 MiB it may keep
        #expect(retainedByNextParser() < 1 << 20)  // a new one
    }
}
