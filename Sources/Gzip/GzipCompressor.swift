internal import CZlib

/// Compresses one gzip member (RFC 1952) whose data arrives in pieces, handing the output on in pieces of at
/// most ``outputPieceBytes``: ``compress(_:into:)`` for each piece of the data, then ``finish(into:)`` once.
///
/// The output of all the calls, concatenated, is the member: the same bytes ``GzipCodec/compress(_:level:)``
/// makes of the whole data at the same level, however the data was split.
///
/// Not thread-safe: one thread at a time uses a compressor.
public final class GzipCompressor {
    /// The memory a compressor holds: zlib's deflate state (``GzipCodec/compressorBytes``) and the output
    /// piece, rounded up.
    public static let memoryBytes = GzipCodec.compressorBytes + outputPieceBytes

    /// The largest piece of output handed to a sink at once.
    public static let outputPieceBytes = 32 * 1024

    /// The most input bytes given to zlib at once (`avail_in` is 32-bit).
    private static let inputPieceBytes = 1 << 30

    private let stream = ZStream()
    private let piece = UnsafeMutablePointer<UInt8>.allocate(capacity: outputPieceBytes)
    /// ``finish(into:)`` was called (or a call failed): the compressor takes no more input.
    private var ended = false

    /// Creates a compressor for one gzip member.
    /// - Parameter level: A level in ``GzipCodec/levels`` (1 the fastest, 9 the smallest).
    /// - Throws: ``GzipError/invalidLevel(_:)``, or ``GzipError/outOfMemory``.
    public init(level: Int) throws(GzipError) {
        guard GzipCodec.levels.contains(level) else {
            piece.deallocate()
            throw .invalidLevel(level)
        }
        guard CZlib_deflateInitGzip(stream.pointer, Int32(level)) == Z_OK else {
            piece.deallocate()
            throw .outOfMemory
        }
    }

    deinit {
        deflateEnd(stream.pointer)
        piece.deallocate()
    }

    /// Compresses the next bytes of the data, handing each piece of output to `sink` (which must copy it: the
    /// piece is reused). The output may lag the input (zlib keeps up to a window of it for matches), and may
    /// be none: ``finish(into:)`` hands on the rest.
    /// - Parameters:
    ///   - input: The next bytes of the data (borrowed for the call only), of any length (empty is allowed).
    ///   - sink: Takes a piece of output, at most ``outputPieceBytes`` and never empty.
    /// - Throws: ``GzipError/outOfMemory`` when zlib fails (its state is allocated by ``init(level:)``, so this
    ///   is not expected); the compressor is then unusable.
    /// - Precondition: ``finish(into:)`` has not been called, and no earlier call threw.
    public func compress(_ input: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) -> Void) throws(GzipError) {
        precondition(!ended, "GzipCompressor.compress after finish (or after an error)")
        guard let start = input.baseAddress?.assumingMemoryBound(to: UInt8.self), !input.isEmpty else { return }
        var offset = 0
        while offset < input.count {
            let given = min(input.count - offset, Self.inputPieceBytes)
            stream.pointer.pointee.next_in = UnsafeMutablePointer(mutating: start + offset)
            stream.pointer.pointee.avail_in = UInt32(given)
            try deflateAll(flush: Z_NO_FLUSH, into: sink)
            assert(stream.pointer.pointee.avail_in == 0, "deflate left input with room left in its output")
            offset += given
        }
        stream.pointer.pointee.next_in = nil  // the input is borrowed for this call only
    }

    /// Ends the member: compresses what zlib still holds and hands the rest of the output, with the gzip
    /// trailer (CRC-32 and length), to `sink`. Without any ``compress(_:into:)`` before, the member is that of
    /// empty data (20 bytes).
    /// - Parameter sink: Takes a piece of output, at most ``outputPieceBytes`` and never empty.
    /// - Throws: ``GzipError/outOfMemory`` when zlib fails (not expected, as in ``compress(_:into:)``).
    /// - Precondition: ``finish(into:)`` has not been called, and no earlier call threw.
    public func finish(into sink: (UnsafeRawBufferPointer) -> Void) throws(GzipError) {
        precondition(!ended, "GzipCompressor.finish called twice (or after an error)")
        ended = true
        stream.pointer.pointee.next_in = nil
        stream.pointer.pointee.avail_in = 0
        try deflateAll(flush: Z_FINISH, into: sink)
    }

    /// Runs deflate on the input set in the stream until it has all been taken (`Z_NO_FLUSH`) or the member has
    /// ended (`Z_FINISH`), handing on each piece of output.
    private func deflateAll(flush: Int32, into sink: (UnsafeRawBufferPointer) -> Void) throws(GzipError) {
        let z = stream.pointer
        while true {
            z.pointee.next_out = piece
            z.pointee.avail_out = UInt32(Self.outputPieceBytes)
            let code = deflate(z, flush)
            let produced = Self.outputPieceBytes - Int(z.pointee.avail_out)
            if produced > 0 { sink(UnsafeRawBufferPointer(start: piece, count: produced)) }
            switch code {
            case Z_STREAM_END:
                return  // only with Z_FINISH: the trailer is out
            case Z_OK, Z_BUF_ERROR:
                // Z_BUF_ERROR is no progress possible: nothing left to take and nothing to flush.
                // With room left in the piece, deflate has taken all the input (zlib's manual); with Z_FINISH
                // it returns Z_STREAM_END once the member is out.
                if flush == Z_NO_FLUSH && z.pointee.avail_out != 0 { return }
                if code == Z_BUF_ERROR && produced == 0 {
                    ended = true
                    throw .outOfMemory
                }
            default:
                // Z_STREAM_ERROR: the stream's state is inconsistent (deflate allocates nothing after init).
                ended = true
                throw .outOfMemory
            }
        }
    }
}
