internal import CZlib

/// gzip (RFC 1952) through zlib: whole-buffer compression and streaming decompression (``GzipDecompressor``).
///
/// The one Swift owner of `CZlib`; no pointer of zlib's leaves this module.
public enum GzipCodec {
    /// The compression levels: 1 is the fastest, 9 the smallest.
    public static let levels = 1...9

    /// The version of the zlib linked, e.g. `"1.2.13"`.
    public static var libraryVersion: String { String(cString: zlibVersion()) }

    /// The memory a compression holds besides its input and output: zlib's deflate state with the largest
    /// window and the default `memLevel` 8 (128 KiB of window and 128 KiB of hash chains, by zlib's own
    /// formula, and about 6 KiB of the rest), rounded up.
    public static let compressorBytes = 272 * 1024

    /// The most bytes ``compress(_:level:)`` can return for `count` input bytes (zlib's `deflateBound` for the
    /// gzip wrapper, with a margin for the pieces an input over 1 GiB is fed in).
    /// - Complexity: O(1).
    public static func compressedBound(_ count: Int) -> Int {
        // deflateBound: stored blocks cost 5 bytes per 16 KiB block at worst, plus the 18-byte gzip wrapper.
        count + (count >> 12) + (count >> 14) + (count >> 25) + 64
    }

    /// `bytes` compressed into one gzip member.
    /// - Parameters:
    ///   - bytes: The data.
    ///   - level: A level in ``levels``.
    /// - Throws: ``GzipError/invalidLevel(_:)``, or ``GzipError/outOfMemory``.
    /// - Returns: The gzip member, at most ``compressedBound(_:)`` bytes.
    public static func compress(_ bytes: [UInt8], level: Int) throws(GzipError) -> [UInt8] {
        let compressor = try GzipCompressor(level: level)
        var failure: GzipError?
        // Straight into the result, which compressedBound leaves room for (no output piece, no copy).
        let output = [UInt8](unsafeUninitializedCapacity: compressedBound(bytes.count)) { buffer, count in
            bytes.withUnsafeBytes { input in
                do throws(GzipError) {
                    count = try compressor.compressWhole(input, into: UnsafeMutableRawBufferPointer(buffer))
                } catch {
                    failure = error
                }
            }
        }
        if let failure { throw failure }
        return output
    }

    /// `bytes`, one or more gzip members, decompressed.
    /// - Parameters:
    ///   - bytes: The gzip data.
    ///   - limit: The most bytes the result may have.
    /// - Throws: ``GzipError/corrupt(_:)``, ``GzipError/truncated``, ``GzipError/tooLarge(limit:)`` (as soon as
    ///   the output would pass `limit`), or ``GzipError/outOfMemory``.
    public static func decompress(_ bytes: [UInt8], limit: Int = .max) throws(GzipError) -> [UInt8] {
        let decompressor = try GzipDecompressor()
        var output: [UInt8] = []
        // withUnsafeBytes rethrows untyped errors: the outcome comes out as a Result.
        let outcome = bytes.withUnsafeBytes { input in
            Result { () throws(GzipError) in
                try decompressor.decompress(input) { piece in
                    guard piece.count <= limit - output.count else { return false }
                    output.append(contentsOf: piece)
                    return true
                }
            }
        }
        guard try outcome.get() else { throw .tooLarge(limit: limit) }
        try decompressor.finish()
        return output
    }
}

/// A `z_stream` at a fixed address (zlib keeps a pointer to it in its state), zeroed so that zlib uses its own
/// allocator.
final class ZStream {
    let pointer: UnsafeMutablePointer<z_stream>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: z_stream())
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    /// zlib's message for the last error, or `fallback`.
    func message(or fallback: String) -> String {
        pointer.pointee.msg.map { String(cString: $0) } ?? fallback
    }
}
