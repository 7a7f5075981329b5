// Content codings at the edge (RFC 9110 §8.4): a gzip request body is decoded once whole, and an answer
// is gzipped when the request's Accept-Encoding prefers it. Both keep the memory budget's invariant: a gzip body
// reserves itself and what its decoding can hold before it is read (and waits for that room as a body of known
// size waits for its own), is decoded whole on the decoding pool, its work is reserved once it is decoded, and a
// compression runs only once the budget has given it room for zlib's state and the compressed copy.

internal import Gzip

/// Decodes a whole gzip body (on a decoding thread), within what the request reserved for it at its head
/// (``ServerContext/decodingBytes(compressedBytes:)`` beside the body as sent).
///
/// The decoded body may not pass ``ServerContext/maxBodyBytes``: decoding stops at the first piece that would
/// pass it (a zip bomb is never inflated further, and is refused 413). The body's capacity never passes what
/// the reservation holds for it.
///
/// - Parameter compressed: The body as sent; freed as soon as it is decoded.
/// - Returns: The decoded body (empty unless it decoded), and how the decoding ended for the request's
///   ``RequestMachine`` (which then makes its reservation what the decoded body holds).
func decodeBody(
    _ compressed: consuming [UInt8], context: ServerContext
) -> (body: [UInt8], outcome: RequestMachine.Decoding) {
    let compressedBytes = compressed.count
    let bound = context.decodingBytes(compressedBytes: compressedBytes) - ContentCoding.decoderBytes
    var decoded: [UInt8] = []
    var stopped: RequestMachine.Decoding?
    do throws(GzipError) {
        let decoder = try GzipDecompressor()
        var failure: GzipError?
        compressed.withUnsafeBytes { input in
            do throws(GzipError) {
                _ = try decoder.decompress(input) { piece in
                    let length = decoded.count + piece.count
                    guard length <= context.maxBodyBytes else {
                        stopped = .refused(.contentTooLarge(limit: context.maxBodyBytes))
                        return false
                    }
                    guard length + context.reservedTrailingCapacity <= bound else {
                        // Past deflate's ratio: not gzip as zlib writes it; never held outside the reservation.
                        stopped = .overBudget(needed: compressedBytes + length + context.reservedTrailingCapacity)
                        return false
                    }
                    if length > decoded.capacity {
                        // Doubling, as append would, but never past what the reservation holds.
                        let doubled = min(bound, 2 * decoded.capacity)
                        decoded.reserveCapacity(max(length + context.reservedTrailingCapacity, doubled))
                    }
                    decoded.append(contentsOf: piece)
                    return true
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        if stopped == nil { try decoder.finish() }
    } catch .outOfMemory {
        stopped = .overBudget(needed: compressedBytes + bound + ContentCoding.decoderBytes)
    } catch {
        stopped = .refused(.undecodableContent(error.description))
    }
    _ = consume compressed
    if let stopped { return ([], stopped) }
    return (decoded, .decoded(bytes: decoded.count, capacity: decoded.capacity))
}

/// The handler's answer in the coding the request prefers: marked `Vary: Accept-Encoding`, and gzipped when the
/// request's `Accept-Encoding` prefers gzip (``AcceptEncoding/preferred``), the body has at least
/// ``ServerContext/compressionThreshold`` bytes (or identity is refused), the memory budget has room for the
/// compression now, and the result is smaller. Without a compression level, the answer as it is.
///
/// When no coding is acceptable (`identity;q=0` with gzip refused), the answer goes without one: RFC 9110
/// §12.5.3 prefers that to a 406.
func encode(_ response: consuming HTTPResponse, for state: RequestState, context: ServerContext) -> HTTPResponse {
    // Consumed, so that adding Vary changes the handler's own headers rather than a copy of them.
    var response = response
    guard context.compressionLevel > 0 else { return response }
    // One pass over the handler's fields: an answer it coded itself stays as it is; its first Vary is kept.
    var vary: String?
    for field in response.headers {
        if field.hasName("content-encoding") { return response }
        if vary == nil && field.hasName("vary") { vary = field.value }
    }
    if let vary {
        if !vary.lowercased().contains("accept-encoding") {
            response.headers.replaceOrAdd(name: "Vary", value: vary + ", Accept-Encoding")
        }
    } else {
        response.headers.add(name: "Vary", value: "Accept-Encoding")
    }
    guard let accepted = AcceptEncoding(of: state.headers), accepted.preferred == .gzip else { return response }
    if response.stream != nil {
        // Written while it is sent (and large): each piece is compressed on the writer's thread, by a compressor
        // whose memory joins the request's reservation; no room now: the answer goes as it is.
        guard context.budget.tryReserve(GzipCompressor.memoryBytes) else { return response }
        guard let compressor = try? GzipCompressor(level: context.compressionLevel) else {
            context.budget.release(GzipCompressor.memoryBytes)
            return response
        }
        state.streamCompressor = compressor  // (its memory joins the reservation with the answer's size)
        response.headers.replaceOrAdd(name: "Content-Encoding", value: ContentCoding.gzip.rawValue)
        return response
    }
    guard !response.body.isEmpty, response.body.count >= context.compressionThreshold || !accepted.allowsIdentity
    else { return response }
    // zlib's state and the compressed copy, beside the answer the request's reservation already covers; no
    // room now: the answer goes as it is (compression is never worth a wait).
    let extra = GzipCodec.compressorBytes + GzipCodec.compressedBound(response.body.count)
    guard context.budget.tryReserve(extra) else { return response }
    defer { context.budget.release(extra) }
    guard let compressed = try? GzipCodec.compress(response.body, level: context.compressionLevel),
        compressed.count < response.body.count || !accepted.allowsIdentity
    else { return response }
    response.body = compressed
    response.headers.replaceOrAdd(name: "Content-Encoding", value: ContentCoding.gzip.rawValue)
    return response
}
