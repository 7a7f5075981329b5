internal import CZlib

/// Compresses one gzip member (RFC 1952) whose data arrives in pieces, handing the output on in pieces of at
/// most ``outputPieceBytes``: ``compress(_:into:)`` for each piece of the data, then ``finish(into:)`` once.
///
/// The output of all the calls, concatenated, is one member, which ``GzipDecompressor`` and `gzip -d` read back
/// as the data. ``GzipCodec/compress(_:level:)`` is this compressor given the whole data at once.
///
/// Not thread-safe: one thread at a time uses a compressor.
public final class GzipCompressor {
    /// The memory a compressor holds: zlib's deflate state (``GzipCodec/compressorBytes``) and the output
    /// piece, rounded up.
    public static let memoryBytes = GzipCodec.compressorBytes + outputPieceBytes

    /// The largest piece of output handed to a sink at once.
    public static let outputPieceBytes = 32 * 1024

    /// The most input bytes given to zlib at once (`avail_in` and `avail_out` are 32-bit).
    private static let zlibPieceBytes = 1 << 30

    private let stream = ZStream()
    /// The output piece, allocated by the first ``compress(_:into:)`` or ``finish(into:)``
    /// (``GzipCodec/compress(_:level:)`` writes straight into its result instead).
    private var piece: UnsafeMutableRawBufferPointer?
    /// ``finish(into:)`` was called, or a call threw: the compressor takes no more input.
    private var ended = false

    /// Creates a compressor for one gzip member.
    /// - Parameter level: A level in ``GzipCodec/levels`` (1 the fastest, 9 the smallest).
    /// - Throws: ``GzipError/invalidLevel(_:)``, or ``GzipError/outOfMemory``.
    public init(level: Int) throws(GzipError) {
        // Every property has its value already, so deinit runs if this throws: deflateEnd of a stream that
        // deflateInit did not set up is a no-op (Z_STREAM_ERROR), and there is no piece yet.
        guard GzipCodec.levels.contains(level) else { throw .invalidLevel(level) }
        guard CZlib_deflateInitGzip(stream.pointer, Int32(level)) == Z_OK else { throw .outOfMemory }
    }

    deinit {
        deflateEnd(stream.pointer)
        piece?.deallocate()
    }

    /// Compresses the next bytes of the data, handing each piece of output to `sink` (which must copy it: the
    /// piece is reused). The output may lag the input (zlib holds back what it has not yet matched, `Z_NO_FLUSH`),
    /// and may be none: ``finish(into:)`` hands on the rest.
    /// - Parameters:
    ///   - input: The next bytes of the data (borrowed for the call only), of any length; empty is allowed.
    ///   - sink: Takes a piece of output: never empty, at most ``outputPieceBytes``.
    /// - Throws: ``GzipError/outOfMemory`` when zlib fails (deflate allocates nothing after ``init(level:)``, so
    ///   this is not expected); the compressor is then unusable.
    /// - Precondition: ``finish(into:)`` has not been called, and no earlier call threw.
    public func compress(_ input: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) -> Void) throws(GzipError) {
        let piece = outputPiece()
        try deflate(input, flush: Z_NO_FLUSH, space: { piece }, wrote: sink)
    }

    /// Ends the member: hands the rest of the output, with the gzip trailer (CRC-32 and length), to `sink`.
    /// Without any data before, the member is that of empty data (20 bytes).
    /// - Parameter sink: Takes a piece of output: never empty, at most ``outputPieceBytes``.
    /// - Throws: ``GzipError/outOfMemory`` when zlib fails (not expected, as in ``compress(_:into:)``).
    /// - Precondition: ``finish(into:)`` has not been called, and no earlier call threw.
    public func finish(into sink: (UnsafeRawBufferPointer) -> Void) throws(GzipError) {
        let piece = outputPiece()
        try deflate(UnsafeRawBufferPointer(start: nil, count: 0), flush: Z_FINISH, space: { piece }, wrote: sink)
    }

    /// Compresses the whole data and ends the member, writing the output straight into `buffer` (no piece).
    /// - Returns: The bytes written.
    /// - Throws: ``GzipError/outOfMemory`` when zlib fails or `buffer` is too small for the member (with
    ///   ``GzipCodec/compressedBound(_:)`` bytes it is not).
    func compressWhole(_ input: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer) throws(GzipError)
        -> Int
    {
        var count = 0
        let space = { UnsafeMutableRawBufferPointer(rebasing: buffer[count...]) }
        try deflate(input, flush: Z_FINISH, space: space, wrote: { count += $0.count })
        return count
    }

    private func outputPiece() -> UnsafeMutableRawBufferPointer {
        if let piece { return piece }
        let made = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.outputPieceBytes, alignment: 1)
        piece = made
        return made
    }

    /// Runs deflate over `input` (at most ``zlibPieceBytes`` at a time), and with `flush` on its last bytes:
    /// with `Z_NO_FLUSH` until zlib has taken all of it, with `Z_FINISH` until the member has ended. Each call
    /// writes into the space `space()` gives then, and what it wrote there goes to `wrote`.
    private func deflate(
        _ input: UnsafeRawBufferPointer, flush: Int32, space: () -> UnsafeMutableRawBufferPointer,
        wrote: (UnsafeRawBufferPointer) -> Void
    ) throws(GzipError) {
        precondition(!ended, "GzipCompressor used after finish(into:) or after an error")
        if flush == Z_FINISH { ended = true }
        let z = stream.pointer
        defer { z.pointee.next_in = nil }  // the input is borrowed for this call only
        let start = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var offset = 0
        while true {
            let given = min(input.count - offset, Self.zlibPieceBytes)
            z.pointee.next_in = start.map { UnsafeMutablePointer(mutating: $0 + offset) }
            z.pointee.avail_in = UInt32(given)
            let output = space()
            let room = min(output.count, Self.zlibPieceBytes)
            z.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
            z.pointee.avail_out = UInt32(room)
            let code = CZlib.deflate(z, offset + given == input.count ? flush : Z_NO_FLUSH)
            let taken = given - Int(z.pointee.avail_in)
            let produced = room - Int(z.pointee.avail_out)
            offset += taken
            if produced > 0 { wrote(UnsafeRawBufferPointer(start: output.baseAddress, count: produced)) }
            switch code {
            case Z_STREAM_END:
                return  // Z_FINISH only: the trailer is out
            case Z_OK, Z_BUF_ERROR:
                // With room left, deflate has taken all it was given (zlib's manual); Z_BUF_ERROR is no
                // progress possible, which with room and nothing left to take is the end of a Z_NO_FLUSH call.
                if flush == Z_NO_FLUSH && offset == input.count && z.pointee.avail_out != 0 { return }
                guard taken > 0 || produced > 0 else {
                    ended = true
                    throw .outOfMemory  // no room to write to (a buffer below compressedBound)
                }
            default:
                // Z_STREAM_ERROR: the stream's state is inconsistent (deflate allocates nothing after init).
                ended = true
                throw .outOfMemory
            }
        }
    }
}
