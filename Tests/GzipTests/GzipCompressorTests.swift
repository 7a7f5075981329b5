import Foundation
import Gzip
import Testing
import TestSupport

/// The streaming compressor: any split of any data, at any level, is one gzip member that zlib, our
/// decompressor and the gzip tool read back as the data; the pieces it hands on; the edges.
@Suite struct GzipCompressorTests {
    /// One generated case: the data, how it is split, the level.
    struct Case: CustomStringConvertible {
        var seed: UInt64
        var data: [UInt8]
        /// Piece lengths summing to `data.count`; some are 0.
        var pieces: [Int]
        var level: Int

        var description: String { "seed \(seed): \(data.count) bytes in \(pieces.count) pieces at level \(level)" }

        /// Up to 300 KB of runs of compressible text, repeated bytes and random bytes, split at random (empty
        /// pieces, single bytes, a few KB, tens of KB, the rest).
        init(seed: UInt64) {
            self.seed = seed
            var random = SplitMix(seed: seed)
            let count = Int.random(in: 0...300_000, using: &random)
            let words = Array(#"{"id":"item-12","title":"Photo number 12","likes":42,"width":800},"#.utf8)
            data = []
            data.reserveCapacity(count)
            while data.count < count {
                let run = min(Int.random(in: 1...20_000, using: &random), count - data.count)
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    let offset = Int.random(in: 0..<words.count, using: &random)
                    data += (0..<run).map { words[($0 + offset) % words.count] }
                case 1: data += repeatElement(UInt8.random(in: 0...255, using: &random), count: run)
                default: data += (0..<run).map { _ in UInt8.random(in: 0...255, using: &random) }
                }
            }
            pieces = []
            var left = count
            repeat {
                let size =
                    switch Int.random(in: 0..<6, using: &random) {
                    case 0: 0
                    case 1: 1
                    case 2: Int.random(in: 2...4096, using: &random)
                    case 3: Int.random(in: 4097...70_000, using: &random)
                    case 4: left
                    default: Int.random(in: 0...left, using: &random)
                    }
                let piece = min(size, left)
                pieces.append(piece)
                left -= piece
            } while left > 0
            level = Int.random(in: GzipCodec.levels, using: &random)
        }
    }

    /// The output of a compressor given `pieces` of `data`: the pieces handed to the sink, each checked.
    static func compressed(_ data: [UInt8], in pieces: [Int], level: Int) throws -> [[UInt8]] {
        let compressor = try GzipCompressor(level: level)
        var output: [[UInt8]] = []
        let sink = { (piece: UnsafeRawBufferPointer) in
            #expect(!piece.isEmpty)
            #expect(piece.count <= GzipCompressor.outputPieceBytes)
            output.append(Array(piece))
        }
        var start = 0
        for length in pieces {
            try data[start..<start + length].withUnsafeBytes { try compressor.compress($0, into: sink) }
            start += length
        }
        #expect(start == data.count)
        try compressor.finish(into: sink)
        return output
    }

    /// The member, fed to a ``GzipDecompressor`` in the pieces the compressor handed on.
    static func streamDecompressed(_ pieces: [[UInt8]]) throws -> [UInt8] {
        let decompressor = try GzipDecompressor()
        var output: [UInt8] = []
        for piece in pieces {
            let going = try piece.withUnsafeBytes { bytes in
                try decompressor.decompress(bytes) { chunk in
                    output.append(contentsOf: chunk)
                    return true
                }
            }
            #expect(going)
        }
        try decompressor.finish()
        return output
    }

    /// `gzip -dc` of `member`, or nil without a gzip tool on this machine.
    static func gzipTool(decompressing member: [UInt8]) throws -> [UInt8]? {
        guard let tool = gzipPath else { return nil }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gzip-compressor-\(UUID().uuidString).gz")
        try Data(member).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-dc", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return [UInt8](data)
    }

    static let gzipPath = ["/usr/bin/gzip", "/bin/gzip"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// 200 seeded cases: the member reads back as the data through zlib whole and our decompressor in pieces,
    /// and is the same bytes as `GzipCodec.compress` of the whole data at that level.
    @Test(arguments: 0..<200 as Range<UInt64>)
    func anySplitRoundTrips(seed: UInt64) throws {
        let test = Case(seed: seed)
        let pieces = try Self.compressed(test.data, in: test.pieces, level: test.level)
        let member = Array(pieces.joined())
        #expect(Array(member.prefix(3)) == [0x1F, 0x8B, 0x08], "\(test)")
        #expect(member.count <= GzipCodec.compressedBound(test.data.count), "\(test)")
        #expect(try GzipCodec.decompress(member) == test.data, "\(test)")
        #expect(try Self.streamDecompressed(pieces) == test.data, "\(test)")
        #expect(try GzipCodec.compress(test.data, level: test.level) == member, "\(test)")
    }

    /// A few of the cases, and the empty member, through another implementation: the gzip tool.
    @Test(.enabled(if: gzipPath != nil, "no gzip tool on this machine"), arguments: [0, 1, 2, 3, 5, 8, 13] as [UInt64])
    func gzipToolReadsTheMember(seed: UInt64) throws {
        let test = Case(seed: seed)
        let member = Array(try Self.compressed(test.data, in: test.pieces, level: test.level).joined())
        #expect(try Self.gzipTool(decompressing: member) == test.data, "\(test)")
    }

    /// `finish` alone, or after empty pieces, gives the member of empty data: a 10-byte header, an empty final
    /// block, a CRC-32 and a length of 0.
    @Test(arguments: GzipCodec.levels)
    func emptyDataIsAnEmptyMember(level: Int) throws {
        for pieces in [[], [0], [0, 0, 0]] as [[Int]] {
            let member = Array(try Self.compressed([], in: pieces, level: level).joined())
            #expect(member.count == 20)
            #expect(Array(member.suffix(8)) == [UInt8](repeating: 0, count: 8))
            #expect(try GzipCodec.decompress(member) == [])
            #expect(member == (try GzipCodec.compress([], level: level)))
            if Self.gzipPath != nil { #expect(try Self.gzipTool(decompressing: member) == []) }
        }
    }

    @Test(arguments: [0, 10, -1, Int.min, Int.max])
    func levelOutsideOneToNineIsRefused(level: Int) {
        #expect(throws: GzipError.invalidLevel(level)) { try GzipCompressor(level: level) }
    }

    /// Random bytes do not compress: 1 MB in one call comes out in full pieces of `outputPieceBytes` (and the
    /// rest), none larger.
    @Test func outputPiecesAreAtMostOutputPieceBytes() throws {
        var random = SplitMix(seed: 42)
        let data = (0..<1_000_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let pieces = try Self.compressed(data, in: [data.count], level: 1)
        #expect(pieces.allSatisfy { $0.count <= GzipCompressor.outputPieceBytes })
        #expect(pieces.filter { $0.count == GzipCompressor.outputPieceBytes }.count >= 25)
        #expect(try GzipCodec.decompress(Array(pieces.joined())) == data)
    }

    @Test func memoryCountsTheDeflateStateAndThePiece() {
        #expect(GzipCompressor.memoryBytes >= GzipCodec.compressorBytes + GzipCompressor.outputPieceBytes)
    }
}
