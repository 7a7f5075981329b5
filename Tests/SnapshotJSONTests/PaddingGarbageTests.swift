import SnapshotJSON
import Testing

/// simdjson reads the byte after the body as the next token when a document ends early. Bodies whose spare
/// capacity holds a stray token there (left by an earlier allocation) must still be rejected, never read on:
/// `{"old"` followed by `:::` in memory made the walk scan backwards out of the buffer for a colon (a crash in
/// CI). Every prefix of a body, with every kind of leftover byte in its spare capacity, is an error, and whole
/// bodies read the same whatever the leftovers.
@Suite struct PaddingGarbageTests {
    static let json = #"{"old":{"items":[{"id":"x","t":[1,2.5,"s\u00e9",{"k":null}]}]},"new":{"items":[]}}"#

    /// `bytes` as an array whose spare capacity (at least the padding) is filled with `leftover`.
    static func body(_ bytes: ArraySlice<UInt8>, leftover: UInt8) -> [UInt8] {
        body(bytes, leftovers: [UInt8](repeating: leftover, count: 100))
    }

    /// `bytes` as an array whose spare capacity starts with `leftovers`.
    static func body(_ bytes: ArraySlice<UInt8>, leftovers: [UInt8]) -> [UInt8] {
        var body = Array(bytes) + leftovers + [UInt8](repeating: 0, count: max(0, 100 - leftovers.count))
        body.removeLast(body.count - bytes.count)
        return body
    }

    @Test(arguments: Array(#""':{}[],a1\ -"#.utf8) + [0, 0x80])
    func prefixesAreErrorsWhateverFollowsThemInMemory(_ leftover: UInt8) {
        let bytes = Array(Self.json.utf8)
        for length in 1 ..< bytes.count {
            let body = Self.body(bytes[0 ..< length], leftover: leftover)
            #expect(body.capacity - body.count >= DiffRequest.requiredPadding)
            #expect(throws: RequestError.self, "prefix of \(length) bytes, then \(leftover)") { try parseDiffRequest(body) }
        }
    }

    @Test(arguments: Array(#""':{}[],a1\ -"#.utf8) + [0, 0x80])
    func wholeBodiesReadTheSameWhateverFollowsThemInMemory(_ leftover: UInt8) throws {
        let bytes = Array(Self.json.utf8)
        #expect(try parseDiffRequest(Self.body(bytes[...], leftover: leftover)) == parseDiffRequest(bytes))
    }

    /// Only the first byte after the body is read as a token: inert first, anything after it.
    @Test(arguments: [" :", "\0}", "\n\"a\":1}", "\t,\"new\":{\"items\":[]}}"])
    func prefixesAreErrorsWhateverFollowsAnInertByte(_ leftovers: String) {
        let bytes = Array(Self.json.utf8)
        for length in 1 ..< bytes.count {
            let body = Self.body(bytes[0 ..< length], leftovers: Array(leftovers.utf8))
            #expect(throws: RequestError.self, "prefix of \(length) bytes, then \(leftovers.debugDescription)") {
                try parseDiffRequest(body)
            }
        }
    }
}
