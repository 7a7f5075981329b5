// The C callbacks libmicrohttpd calls on its worker threads. They are global functions (never
// closures written in main.swift, which Swift 6 would infer as @MainActor) and they copy every
// borrowed C buffer before returning.
//
// Per-request protocol (libmicrohttpd 0.9.75):
//   1. URI-log callback: request line parsed → allocate RequestState, becomes the request's con_cls.
//   2. Access handler, first call (upload_data NULL): head complete → copy method, headers, address;
//      answer 413 at once if Content-Length is over the limit (POST/PUT only, see below).
//   3. Access handler with size > 0: body chunk → append (or discard past the limit), consume it.
//   4. Access handler with size 0 after the head: body complete → call the app, queue its response.
//   5. Completion callback (always, also on client abort or daemon stop): release RequestState.

internal import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `MHD_OPTION_URI_LOG_CALLBACK`: creates the per-request state and returns it retained.
func microHTTPURILog(
    _ cls: UnsafeMutableRawPointer?,
    _ uri: UnsafePointer<CChar>?,
    _ connection: OpaquePointer?
) -> UnsafeMutableRawPointer? {
    guard let cls else { return nil }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let state = RequestState(target: uri.map { String(cString: $0) } ?? "/")
    context.inFlightRequests.add(1, ordering: .relaxed)
    return Unmanaged.passRetained(state).toOpaque()
}

/// `MHD_OPTION_NOTIFY_COMPLETED`: releases the per-request state exactly once.
func microHTTPRequestCompleted(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ termination: MHD_RequestTerminationCode
) {
    guard let cls, let requestContext, let raw = requestContext.pointee else { return }
    requestContext.pointee = nil
    Unmanaged<RequestState>.fromOpaque(raw).release()
    Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
        .inFlightRequests.subtract(1, ordering: .relaxed)
}

/// The access handler (`MHD_AccessHandlerCallback`).
func microHTTPAccessHandler(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?,
    _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let uploadDataSize, let requestContext else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()

    let state: RequestState
    if let raw = requestContext.pointee {
        state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    } else {
        // Defensive: the URI-log callback always runs first, but never rely on it for memory safety.
        state = RequestState(target: url.map { String(cString: $0) } ?? "/")
        context.inFlightRequests.add(1, ordering: .relaxed)
        requestContext.pointee = Unmanaged.passRetained(state).toOpaque()
    }

    switch state.phase {
    case .awaitingHead:
        return readHead(of: state, method: method, connection: connection, context: context)

    case .readingBody, .discardingBody:
        let size = uploadDataSize.pointee
        if size > 0 {
            uploadDataSize.pointee = 0
            return consumeChunk(uploadData, size: size, into: state, context: context)
        }
        // Last call: the whole request is in.
        if state.phase == .discardingBody {
            state.phase = .answered
            return queue(context.payloadTooLargeResponse, on: connection, forceClose: true)
        }
        state.phase = .answered
        let (path, query) = state.pathAndQuery
        let body = state.takeBody(zeroingPadding: context.bodyCapacityPadding)
        let isLarge = body.count >= ProcessMemory.largeRequestBytes
        var request = HTTPRequest(method: state.method, path: path, query: query, headers: state.headers, body: body)
        request.client = state.client
        let response = context.handler(request)
        let queued = queue(response, on: connection, forceClose: context.isShuttingDown.load(ordering: .relaxed))
        if isLarge { ProcessMemory.releaseFreeMemory() }
        return queued

    case .answered:
        // libmicrohttpd stops calling once a response is queued; swallow anything else.
        uploadDataSize.pointee = 0
        return .YES
    }
}

/// First access-handler call: copies the head out of C and decides whether the body is acceptable.
private func readHead(
    of state: RequestState,
    method: UnsafePointer<CChar>?,
    connection: OpaquePointer,
    context: ServerContext
) -> MHD_Result {
    state.method = method.map { String(cString: $0) } ?? ""
    let statePointer = Unmanaged.passUnretained(state).toOpaque()
    _ = MHD_get_connection_values_n(connection, .HEADER_KIND, microHTTPCollectHeader, statePointer)
    if let info = CMicroHTTPD_get_connection_info(connection, .CONNECTION_INFO_CLIENT_ADDRESS),
       let address = info.pointee.client_addr {
        state.client = ClientAddress(copying: address)
    }

    guard let declared = state.headers["content-length"].flatMap({ Int($0) }) else {
        state.phase = .readingBody  // no body, or chunked: checked as it arrives
        return .YES
    }
    guard declared > context.maxBodyBytes else {
        state.body.reserveCapacity(declared + context.bodyCapacityPadding)
        state.phase = .readingBody
        return .YES
    }
    // libmicrohttpd 0.9.75 only skips the unread body of an early answer for POST and PUT
    // (it then closes the connection, and sends no `100 Continue`). For other methods read
    // and discard the body, then answer.
    if state.method == "POST" || state.method == "PUT" {
        state.phase = .answered
        return queue(context.payloadTooLargeResponse, on: connection, forceClose: true)
    }
    state.phase = .discardingBody
    return .YES
}

/// A body chunk: append it, or discard it once past the limit; cut the connection if a client
/// keeps sending far past the limit.
private func consumeChunk(
    _ data: UnsafePointer<CChar>?,
    size: Int,
    into state: RequestState,
    context: ServerContext
) -> MHD_Result {
    if state.phase == .readingBody {
        if state.body.count + size <= context.maxBodyBytes, let data {
            state.appendBody(data, count: size)
            return .YES
        }
        state.phase = .discardingBody
        state.discardedBytes = state.body.count
        state.body = []
    }
    state.discardedBytes += size
    // Returning NO makes libmicrohttpd close the connection without a response.
    return state.discardedBytes - context.maxBodyBytes > context.overflowDrainLimit ? .NO : .YES
}

/// `MHD_KeyValueIteratorN` collecting request headers into the RequestState passed as `cls`,
/// lowercasing names.
private func microHTTPCollectHeader(
    _ cls: UnsafeMutableRawPointer?,
    _ kind: MHD_ValueKind,
    _ key: UnsafePointer<CChar>?,
    _ keySize: Int,
    _ value: UnsafePointer<CChar>?,
    _ valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let state = Unmanaged<RequestState>.fromOpaque(cls).takeUnretainedValue()
    let name = String(unsafeUninitializedCapacity: keySize) { buffer in
        key.withMemoryRebound(to: UInt8.self, capacity: keySize) { source in
            for index in 0..<keySize { buffer[index] = asciiLowercase(source[index]) }
        }
        return keySize
    }
    let text: String
    if let value {
        text = value.withMemoryRebound(to: UInt8.self, capacity: valueSize) { source in
            String(decoding: UnsafeBufferPointer(start: source, count: valueSize), as: UTF8.self)
        }
    } else {
        text = ""
    }
    state.headers.append(HTTPHeaders.Field(name: name, value: text))
    return .YES
}

/// Copies `response` into a libmicrohttpd response, queues it and destroys our reference.
/// - Parameter forceClose: Adds `Connection: close` (shutdown, 413).
/// - Returns: `.NO` when libmicrohttpd could not allocate or queue (it then closes the connection).
private func queue(_ response: HTTPResponse, on connection: OpaquePointer, forceClose: Bool) -> MHD_Result {
    let created = response.body.withUnsafeBytes { bytes in
        // MUST_COPY: libmicrohttpd copies the bytes before this returns; the pointer is not kept.
        MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let mhdResponse = created else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }
    for field in response.headers {
        if field.hasName("content-length") { continue }  // libmicrohttpd computes it
        if forceClose && field.hasName("connection") { continue }
        // (withCString reads a native string's own NUL-terminated bytes; passing the strings directly made a
        // C-string array of each.)
        _ = field.name.withCString { name in
            field.value.withCString { value in MHD_add_response_header(mhdResponse, name, value) }
        }
    }
    if forceClose {
        // libmicrohttpd sees this header, sends it, and closes the connection after the response.
        _ = MHD_add_response_header(mhdResponse, "Connection", "close")
    }
    let status = UInt32(clamping: response.status)
    return MHD_queue_response(connection, (100...999).contains(status) ? status : 500, mhdResponse)
}
