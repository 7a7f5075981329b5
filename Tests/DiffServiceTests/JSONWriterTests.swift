@testable import DiffService
import TestSupport
import Testing

@Suite struct JSONWriterTests {
    /// A floating-point number is written as Swift's `description` writes it, whatever path the writer takes
    /// (integral values below 2^53 skip the shortest-digits search): random values of every kind a layout writes
    /// (pixels over scales 1 to 4), integers around 2^53, negative zero and raw bit patterns.
    @Test func doublesAreWrittenAsTheirDescription() {
        var random = SplitMix(seed: 53)
        var values: [Double] = [0, -0.0, 1, -1, 0x1p53, -0x1p53, 0x1p53 - 1, -(0x1p53 - 1), 0x1p53 + 2, 1e15, 1e16, 0.5, 1e-7]
        for _ in 0 ..< 20_000 {
            let pixels = Double(Int.random(in: -5_000_000 ... 5_000_000, using: &random))
            values.append(pixels / Double(Int.random(in: 1 ... 4, using: &random)))
            values.append(Double(Int64.random(in: -(1 << 54) ... (1 << 54), using: &random)))
            let bits = Double(bitPattern: random.next())
            if bits.isFinite { values.append(bits) }
        }
        for value in values {
            var writer = JSONWriter()
            writer.value(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == value.description, "\(value.bitPattern)")
        }
    }

    @Test func writesCompactJSON() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("a", -12)
        writer.key("b")
        writer.beginArray()
        writer.pair(0, 3)
        writer.value("q\"\\\n\u{1}")
        writer.null()
        writer.value(true)
        writer.endArray()
        writer.key("c")
        writer.beginObject()
        writer.endObject()
        writer.member("d", Int.min)
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"a":-12,"b":[[0,3],"q\"\\\n\u0001",null,true],"c":{},"d":-9223372036854775808}"#)
    }

    @Test func prettyPrintsWithTwoSpaces() {
        var writer = JSONWriter(pretty: true)
        writer.beginObject()
        writer.key("list")
        writer.beginArray()
        writer.pair(1, 2)
        writer.endArray()
        writer.key("empty")
        writer.beginArray()
        writer.endArray()
        writer.endObject()
        writer.finish()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "{\n  \"list\": [\n    [1, 2]\n  ],\n  \"empty\": []\n}\n")
    }

    /// A name encoded beforehand writes the same bytes as the same name given as a string, escapes included.
    @Test(arguments: [false, true], ["counts", "a\"b\\c", "tab\there", "é"])
    func namesEncodedOnceWriteWhatStringsWrite(pretty: Bool, name: String) {
        var byName = JSONWriter(pretty: pretty)
        var byString = JSONWriter(pretty: pretty)
        byName.beginObject()
        byName.member(JSONWriter.Name(name), 1)
        byName.key(JSONWriter.Name(name))
        byName.value("x")
        byName.endObject()
        byString.beginObject()
        byString.member(name, 1)
        byString.member(name, "x")
        byString.endObject()
        #expect(byName.bytes == byString.bytes)
    }

    /// The service asks MicroHTTP for `application/json` or `+json` (the whole table: MediaTypeTests).
    @Test(arguments: [
        ("application/json; charset=utf-8", true), ("application/problem+json", true), ("text/plain", false),
        ("application/jsonx", false),
    ])
    func acceptsJSONMediaTypes(contentType: String, accepted: Bool) {
        #expect(ServiceRouter.isJSON(contentType) == accepted)
    }
}

/// Generated request ids: 32 lowercase hex digits, never repeated within a process.
@Suite struct RequestIDTests {
    @Test func generatedIDsAreUniqueHex() {
        let ids = (0 ..< 10_000).map { _ in RequestID.generate() }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.utf8.count == 32 && $0.utf8.allSatisfy { byte in (48...57).contains(byte) || (97...102).contains(byte) } })
        #expect(Set(ids.map { $0.prefix(16) }).count == 1)  // one process, one prefix
    }

    @Test func scrambleIsABijectionOnSamples() {
        var generator = SplitMix(seed: 7)
        let values = (0 ..< 5_000).map { _ in generator.next() } + Array(0 ..< 5_000)
        #expect(Set(values.map(RequestID.scramble)).count == Set(values).count)
    }
}
