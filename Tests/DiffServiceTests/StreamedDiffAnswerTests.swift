import MicroHTTP
import Testing
import TestSupport

@testable import DiffService

/// A `/diff` answer written while it is sent is byte for byte the answer written whole.
@Suite struct StreamedDiffAnswerTests {
    /// Random snapshots (sections moved, dropped, inserted and retitled; items moved across sections, updated,
    /// inserted, some ids repeated) with random options (every rendering, `ids`, `pretty`, `changedMembers`,
    /// `jsonPatch`, `keepFirst`, a layout): streamed from the smallest threshold, the body is the whole answer.
    @Test(arguments: 0..<200) func streamedAnswerIsTheWholeAnswer(seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 17)
        let body = Array(Self.request(using: &random).utf8)
        let cursors = CursorCodec(secret: "0123456789abcdef0123")
        let whole = DiffEndpoint.respond(to: body, cursors: cursors)
        var statistics = DiffStatistics()
        let streamed = DiffEndpoint.respond(to: body, cursors: cursors, statistics: &statistics, streamingAbove: 0)
        #expect(streamed.status == whole.status)
        #expect(streamed.headers == whole.headers)
        if whole.status == 200 {
            let stream = try #require(streamed.stream)
            #expect(streamed.body.isEmpty)
            #expect(stream.collect() == whole.body, "\(String(decoding: body, as: UTF8.self))")
            #expect(statistics.write == nil)  // it lasts as long as the client reads
        } else {
            #expect(streamed.stream == nil)
            #expect(streamed.body == whole.body)
        }
    }

    /// An answer within the threshold is written whole.
    @Test func smallAnswerIsWrittenWhole() {
        var statistics = DiffStatistics()
        let body = Array(#"{"old":{"items":[{"id":1}]},"new":{"items":[{"id":2}]}}"#.utf8)
        let response = DiffEndpoint.respond(
            to: body, statistics: &statistics, streamingAbove: RequestMemory.diffStreamingThreshold(bodyBytes: body.count))
        #expect(response.stream == nil)
        #expect(response.body == DiffEndpoint.respond(to: body).body)
        #expect(statistics.write != nil)
    }

    private static func request(using random: inout SplitMix) -> String {
        var nextID = 0
        let old: [(id: Int, title: Int, items: [(id: Int, value: Int)])] = (0..<Int.random(in: 0...4, using: &random))
            .map { section in
                (section, 0, (0..<Int.random(in: 0...40, using: &random)).map { _ in
                    nextID += 1
                    // Now and then an id repeated (keepFirst keeps the first; otherwise a 422).
                    return (Int.random(in: 0..<30, using: &random) == 0 ? max(1, nextID - 1) : nextID,
                        Int.random(in: 0...2, using: &random))
                })
            }
        var new = old
        new.removeAll { _ in Int.random(in: 0..<5, using: &random) == 0 }
        new.shuffle(using: &random)
        for index in new.indices where Bool.random(using: &random) { new[index].title += 1 }
        if Bool.random(using: &random) { new.append((9, 0, [(5000, 1)])) }
        if !new.isEmpty {
            var pool = new.flatMap(\.items).filter { _ in Int.random(in: 0..<6, using: &random) != 0 }
            pool.shuffle(using: &random)
            for index in pool.indices where Int.random(in: 0..<3, using: &random) == 0 { pool[index].value += 1 }
            for id in 0..<Int.random(in: 0...20, using: &random) { pool.append((3000 + id, 1)) }
            for index in new.indices { new[index].items = [] }
            for item in pool { new[Int.random(in: 0..<new.count, using: &random)].items.append(item) }
        }
        func render(_ sections: [(id: Int, title: Int, items: [(id: Int, value: Int)])]) -> String {
            #"{"sections":["# + sections.map { section in
                let items = section.items.map { item in
                    #"{"id":\#(item.id),"aspectRatio":\#(1 + item.value % 2),"v":\#(item.value),"s":"é\#(item.value)"}"#
                }
                return #"{"id":"s\#(section.id)","title":\#(section.title),"items":[\#(items.joined(separator: ","))]}"#
            }.joined(separator: ",") + "]}"
        }
        let renderings = ["staged", "sequential", "ranges", "jsonPatch"].filter { _ in Bool.random(using: &random) }
        var options = [#""renderings":[\#(renderings.map { "\"\($0)\"" }.joined(separator: ","))]"#]
        if Bool.random(using: &random) { options.append(#""ids":true"#) }
        if Bool.random(using: &random) { options.append(#""pretty":true"#) }
        if Bool.random(using: &random) { options.append(#""changedMembers":true"#) }
        if Bool.random(using: &random) { options.append(#""duplicates":"keepFirst""#) }
        if Bool.random(using: &random), let section = new.randomElement(using: &random) {
            options.append(
                #""layouts":[{"section":"s\#(section.id)","settings":{"containerWidth":300,"columns":2},"pageSize":7}]"#)
        }
        return #"{"old":\#(render(old)),"new":\#(render(new)),"options":{\#(options.joined(separator: ","))}}"#
    }
}
