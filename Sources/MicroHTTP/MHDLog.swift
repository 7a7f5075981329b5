internal import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `MHD_OPTION_EXTERNAL_LOGGER`: every message libmicrohttpd logs (`MHD_USE_ERROR_LOG`).
///
/// libmicrohttpd answers a few requests on its own, without calling the access handler, and says so here,
/// on the connection's thread, just before it queues the answer: "Error processing request (HTTP response
/// code is N …)". Those answers are reported to ``HTTPServer/Configuration/libraryMessage`` with their status,
/// so that they are logged and counted.
///
/// One of them is malformed in 0.9.75: the answer to an invalid or overflowing `Content-Length`
/// (`abc`, `+5`, `-1`, `5, 5`, 2^64) goes out with two status lines and two header blocks. Its first message
/// ("Failed to parse `Content-Length' header" or "Too large value of 'Content-Length' header") comes while the
/// connection's head is complete and no answer is queued yet; among the connections of this thread exactly one
/// is in that state, and the handler has not been called for it. MicroHTTP then writes its own answer on that
/// connection's socket (400 or 413 problem+json, `Connection: close`) and closes the sending side, so that
/// libmicrohttpd's broken answer fails to go out and the connection closes.
func microHTTPLog(_ cls: UnsafeMutableRawPointer?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) {
    guard let cls, let format, let arguments else { return }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    var message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    while message.last?.isNewline == true { message.removeLast() }

    let malformedLength = message.hasPrefix("Failed to parse `Content-Length'")
    let overflowingLength = message.hasPrefix("Too large value of 'Content-Length'")
    if malformedLength || overflowingLength {
        let refusal: HTTPServer.Refusal =
            overflowingLength
            ? .contentTooLarge(limit: context.maxBodyBytes) : .malformed("Content-Length must be one decimal number")
        if replaceLibraryAnswer(with: refusal, context: context) {
            context.replacedAnswerThreads.withLock { _ = $0.insert(UInt(bitPattern: Int(bitPattern: pthread_self()))) }
        }
        context.libraryMessage(message, nil)
        return
    }
    let prefix = "Error processing request (HTTP response code is "
    if message.hasPrefix(prefix) {
        let replaced = context.replacedAnswerThreads.withLock {
            $0.remove(UInt(bitPattern: Int(bitPattern: pthread_self()))) != nil
        }
        let status = Int(message.dropFirst(prefix.count).prefix { $0.isNumber })
        context.libraryMessage(message, replaced ? nil : status)
        return
    }
    context.libraryMessage(message, nil)
}

/// Writes the answer to `refusal` on the one connection of this thread whose complete head libmicrohttpd is
/// about to answer itself; `false` when there is not exactly one such connection (libmicrohttpd's answer then
/// stands).
private func replaceLibraryAnswer(with refusal: HTTPServer.Refusal, context: ServerContext) -> Bool {
    let candidates = context.janitor.connectionsOfCurrentThread().filter { state in
        let pointer = state.connection.pointer
        return state.guarded.withLock { $0.awaitingHead && !$0.cut && !$0.closed }
            && CMicroHTTPD_head_received(pointer) != 0 && CMicroHTTPD_has_response(pointer) == 0
    }
    guard candidates.count == 1, let state = candidates.first else { return false }
    return state.guarded.withLock { guarded in
        guard !guarded.cut, !guarded.closed else { return false }  // the janitor answered it meanwhile
        guarded.cut = true
        guarded.deadline = nil
        guarded.closeAt = ContinuousClock.now.advanced(by: ConnectionJanitor.closeGrace)
        // The handler never saw the request; its request line told whether it is a HEAD, whose answer has no body.
        let response = context.refusal(refusal, method: guarded.method, path: guarded.path, headers: guarded.headers)
        ConnectionState.writeFinalAnswer(response, on: state.socket, withoutBody: guarded.method == "HEAD")
        return true
    }
}
