internal import CZlib

/// Decompresses a gzip stream that arrives in pieces, handing the output on in pieces of at most
/// ``outputPieceBytes``, so that a caller can stop it as soon as the output passes a limit (a zip bomb is never
/// inflated past it).
///
/// Concatenated gzip members are one stream, as RFC 1952 §2.2 and `gzip -d` have it; anything after the last
/// member that is not another member (trailing garbage, zero padding) is ``GzipError/corrupt(_:)``.
///
/// Not thread-safe: one thread at a time uses a decompressor.
public final class GzipDecompressor {
    /// The largest piece of output handed to the sink at once.
    public static let outputPieceBytes = 32 * 1024

    /// The memory a decompressor holds: zlib's inflate state (about 7 KiB), its 32 KiB window and the output
    /// piece, rounded up.
    public static let memoryBytes = 80 * 1024

    private let stream = ZStream()
    private let piece = UnsafeMutablePointer<UInt8>.allocate(capacity: outputPieceBytes)
    /// A member ended and no byte of another has been read.
    private var betweenMembers = false
    /// Members decompressed to their end.
    private var members = 0

    /// Creates a decompressor for a gzip stream (RFC 1952; not zlib's or raw deflate).
    /// - Throws: ``GzipError/outOfMemory``.
    public init() throws(GzipError) {
        // On failure deinit still runs (every property is set): it frees the piece, and inflateEnd of a stream
        // whose init failed does nothing.
        guard CZlib_inflateInitGzip(stream.pointer) == Z_OK else { throw .outOfMemory }
    }

    deinit {
        inflateEnd(stream.pointer)
        piece.deallocate()
    }

    /// Decompresses the next bytes of the stream, handing each piece of output to `sink` (which must copy it:
    /// the piece is reused).
    /// - Parameters:
    ///   - input: The next bytes of the gzip stream (borrowed for the call only).
    ///   - sink: Takes a piece of output; returns `false` to stop.
    /// - Returns: `false` when `sink` stopped the decompression (the decompressor must then be dropped).
    /// - Throws: ``GzipError/corrupt(_:)`` when the bytes are not (the rest of) a gzip stream, or
    ///   ``GzipError/outOfMemory``.
    public func decompress(
        _ input: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) -> Bool
    ) throws(GzipError) -> Bool {
        let z = stream.pointer
        let start = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var offset = 0
        var outputFull = false
        repeat {
            if betweenMembers {
                guard offset < input.count else { break }
                // More bytes after a member: another member begins (or garbage, which its header check finds).
                inflateReset(z)
                betweenMembers = false
            }
            let given = min(input.count - offset, 1 << 30)
            z.pointee.next_in = start.map { UnsafeMutablePointer(mutating: $0 + offset) }
            z.pointee.avail_in = UInt32(given)
            z.pointee.next_out = piece
            z.pointee.avail_out = UInt32(Self.outputPieceBytes)
            let code = inflate(z, Z_NO_FLUSH)
            offset += given - Int(z.pointee.avail_in)
            let produced = Self.outputPieceBytes - Int(z.pointee.avail_out)
            outputFull = produced == Self.outputPieceBytes
            if produced > 0 && !sink(UnsafeRawBufferPointer(start: piece, count: produced)) { return false }
            switch code {
            case Z_OK: break
            case Z_STREAM_END:
                betweenMembers = true
                members += 1
            case Z_BUF_ERROR: return true  // no progress: every byte given is consumed
            case Z_MEM_ERROR: throw .outOfMemory
            default: throw .corrupt(stream.message(or: "zlib error \(code)"))
            }
        } while offset < input.count || outputFull
        return true
    }

    /// Checks that the stream ended at the end of a member.
    /// - Throws: ``GzipError/truncated`` when it ended inside one, or before any.
    public func finish() throws(GzipError) {
        guard betweenMembers && members > 0 else { throw .truncated }
    }
}
