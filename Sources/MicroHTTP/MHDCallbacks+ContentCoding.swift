// Content codings at the edge (RFC 9110 §8.4): a gzip request body is decoded as its chunks arrive, and an answer
// is gzipped when the request's Accept-Encoding prefers it. Both keep the memory budget's invariant: a gzip body
// reserves what its decoding can hold before it is read (and waits for that room as a body of known size waits
// for its own), its work once it is decoded, and a compression runs only once the budget has given it room for
// zlib's state and the compressed copy.

internal import Gzip

/// Decodes a chunk of a gzip body into the request's body.
///
/// The decoded body may not pass ``ServerContext/maxBodyBytes``: decoding stops at the first piece that would
/// pass it (a zip bomb is never inflated further, and is refused 413). The request reserved what its decoding can
/// hold before the body was read (``ServerContext/decodingBytes(compressedBytes:)``), so a piece is kept without
/// asking the budget again, and a body thrown away costs the budget no more than that; the body's capacity never
/// passes the reservation.
///
/// - Returns: `nil` while the body is acceptable, else why it is thrown away.
func decode(
    _ data: UnsafePointer<CChar>, size: Int, with decoder: GzipDecompressor, into state: RequestState,
    context: ServerContext
) -> RequestState.DiscardReason? {
    var stopped: RequestState.DiscardReason?
    do throws(GzipError) {
        _ = try decoder.decompress(UnsafeRawBufferPointer(start: data, count: size)) { piece in
            let length = state.body.count + piece.count
            guard length <= context.maxBodyBytes else {
                stopped = .refused(.contentTooLarge(limit: context.maxBodyBytes))
                return false
            }
            // Within the reservation by construction; checked, so that the budget's invariant never rests on
            // the ratio alone.
            let holding = length + context.reservedTrailingCapacity + state.decoderBytes
            if holding > state.reserved {
                guard context.budget.tryReserve(holding - state.reserved) else {
                    state.refusedBytes = holding
                    stopped = .overBudget
                    return false
                }
                state.reserved = holding
            }
            if length > state.body.capacity {
                // Doubling, as append would, but never past what the reservation holds for the body.
                let cap = state.reserved - state.decoderBytes
                state.body.reserveCapacity(max(length + context.reservedTrailingCapacity, min(cap, 2 * state.body.capacity)))
            }
            state.body.append(contentsOf: piece)
            return true
        }
    } catch {
        return .refused(.undecodableContent(error.description))
    }
    return stopped
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
        state.reserved += GzipCompressor.memoryBytes
        state.streamCompressor = compressor
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
