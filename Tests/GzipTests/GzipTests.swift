import Gzip
import Testing

/// The zlib bridge: round trips, streaming in any piece size, concatenated members, damage, truncation, limits.
@Suite struct GzipTests {
    /// `printf '{"message":"made by the gzip command line tool","items":[1,2,3]}\n' | gzip -9 -n` (gzip 1.12):
    /// a member made by another implementation than ours.
    static let fixture: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xab, 0x56, 0xca, 0x4d, 0x2d, 0x2e, 0x4e, 0x4c, 0x4f, 0x55, 0xb2, 0x52, 0xca, 0x4d, 0x4c, 0x49, 0x55, 0x48, 0xaa, 0x54, 0x28, 0xc9, 0x48, 0x55, 0x48, 0xaf, 0xca, 0x2c, 0x50, 0x48, 0xce, 0xcf, 0xcd, 0x4d, 0xcc, 0x4b, 0x51, 0xc8, 0xc9, 0xcc, 0x4b, 0x55, 0x28, 0xc9, 0xcf, 0xcf, 0x51, 0xd2, 0x51, 0xca, 0x2c, 0x49, 0xcd, 0x2d, 0x56, 0xb2, 0x8a, 0x36, 0xd4, 0x31, 0xd2, 0x31, 0x8e, 0xad, 0xe5, 0x02, 0x00, 0xe5, 0xe4, 0xe1, 0x36, 0x41, 0x00, 0x00, 0x00,
    ]
    static let fixtureText = #"{"message":"made by the gzip command line tool","items":[1,2,3]}"# + "\n"

    /// Text that compresses well, and bytes that do not (a seeded xorshift).
    static let text = Array(String(repeating: #"{"id":12345,"title":"a title","likes":42},"#, count: 2000).utf8)
    static let noise: [UInt8] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<100_000).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }()

    @Test func decompressesWhatTheGzipToolMade() throws {
        #expect(try GzipCodec.decompress(Self.fixture) == Array(Self.fixtureText.utf8))
    }

    @Test(arguments: GzipCodec.levels)
    func roundTripsAtEveryLevel(level: Int) throws {
        for data in [Self.text, Self.noise, [], [0x41]] {
            let compressed = try GzipCodec.compress(data, level: level)
            #expect(compressed.count <= GzipCodec.compressedBound(data.count))
            #expect(Array(compressed.prefix(3)) == [0x1F, 0x8B, 0x08])  // the gzip magic and deflate
            #expect(try GzipCodec.decompress(compressed) == data)
        }
        #expect(try GzipCodec.compress(Self.text, level: level).count < Self.text.count / 10)
    }

    @Test(arguments: [0, 10, -1])
    func levelOutsideOneToNineIsRefused(level: Int) {
        #expect(throws: GzipError.invalidLevel(level)) { try GzipCodec.compress(Self.text, level: level) }
    }

    /// Fed one byte at a time, or in pieces of any size, the output is the same.
    @Test(arguments: [1, 7, 4096, 1 << 20])
    func streamsInPiecesOfAnySize(size: Int) throws {
        let compressed = try GzipCodec.compress(Self.text + Self.noise, level: 6)
        let decompressor = try GzipDecompressor()
        var output: [UInt8] = []
        for start in stride(from: 0, to: compressed.count, by: size) {
            let piece = Array(compressed[start..<min(start + size, compressed.count)])
            let going = try piece.withUnsafeBytes { bytes in
                try decompressor.decompress(bytes) { chunk in
                    #expect(chunk.count <= GzipDecompressor.outputPieceBytes)
                    output.append(contentsOf: chunk)
                    return true
                }
            }
            #expect(going)
        }
        try decompressor.finish()
        #expect(output == Self.text + Self.noise)
    }

    /// RFC 1952 §2.2: a gzip file is a series of members; `cat a.gz b.gz | gzip -d` gives both.
    @Test func concatenatedMembersAreOneStream() throws {
        let second = try GzipCodec.compress(Self.text, level: 1)
        #expect(try GzipCodec.decompress(Self.fixture + second) == Array(Self.fixtureText.utf8) + Self.text)
    }

    /// Bytes after the last member are read as the start of another: too few to be a header, it is truncated;
    /// more, they fail its header check. Either way the stream is refused (`gzip -d` ignores zero padding).
    @Test(arguments: [[0x00], [0x00, 0x00, 0x00, 0x00], Array("garbage".utf8), [0x1F]] as [[UInt8]])
    func trailingBytesAfterTheLastMemberAreRefused(trailing: [UInt8]) {
        #expect {
            try GzipCodec.decompress(Self.fixture + trailing)
        } throws: { error in
            switch error as? GzipError {
            case .corrupt("incorrect header check"): trailing.count > 2
            case .truncated: trailing.count <= 2
            default: false
            }
        }
    }

    @Test func truncatedStreamIsTruncated() throws {
        for length in [0, 1, 10, Self.fixture.count - 1] {
            #expect(throws: GzipError.truncated) { try GzipCodec.decompress(Array(Self.fixture.prefix(length))) }
        }
    }

    @Test func damagedStreamIsCorrupt() {
        var damaged = Self.fixture
        damaged[damaged.count - 5] ^= 0xFF  // the CRC-32
        #expect { try GzipCodec.decompress(damaged) } throws: { error in
            guard case GzipError.corrupt(let reason) = error else { return false }
            return reason == "incorrect data check"
        }
        #expect { try GzipCodec.decompress(Self.text) } throws: { error in
            guard case GzipError.corrupt(let reason) = error else { return false }
            return reason == "incorrect header check"
        }
    }

    /// A bomb: 64 MiB of zeros in about 64 KiB. With a limit of 1 MiB, the decompressor stops after the first
    /// piece past it, having handed on no more than the limit plus one piece.
    @Test func bombStopsAtTheLimit() throws {
        let bomb = try GzipCodec.compress([UInt8](repeating: 0, count: 64 << 20), level: 9)
        #expect(bomb.count < 100_000)
        #expect(throws: GzipError.tooLarge(limit: 1 << 20)) { try GzipCodec.decompress(bomb, limit: 1 << 20) }
        let decompressor = try GzipDecompressor()
        var handedOn = 0
        let finished = try bomb.withUnsafeBytes { bytes in
            try decompressor.decompress(bytes) { chunk in
                handedOn += chunk.count
                return handedOn <= 1 << 20
            }
        }
        #expect(!finished)
        #expect(handedOn <= (1 << 20) + GzipDecompressor.outputPieceBytes)
    }
}
