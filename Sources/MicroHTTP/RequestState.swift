internal import Gzip

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the C callbacks keep for one request beside its ``RequestMachine``: the head, the body and the answer
/// as Swift values, and where the request arrived.
///
/// Created by the URI-log callback (retained, passed to C as the request's `con_cls`), released in the
/// completion callback.
///
/// `@unchecked Sendable`: it is touched by one thread at a time. The connection thread that owns the
/// connection uses it, except while the connection is suspended: then exactly one other thread (the compute
/// thread that took the job, or the thread that tells the admission decision) uses it, and gives it back
/// through `MHD_resume_connection`, whose mutex and wake-up order that thread's writes before the connection
/// thread's next access-handler call.
///
/// Its stored properties are `@exclusivity(unchecked)`: Swift checks at run time that no two accesses to a class's
/// property overlap within a thread, which cost the access handler about 20 checks a request (2,000
/// instructions). None can overlap here: the callbacks read and write them one statement at a time (the
/// machine's `handle` is pure, and no access is held across a call that could touch the state again). (Those
/// checks never covered other threads; what keeps threads apart is the hand-over above.)
final class RequestState: @unchecked Sendable {
    /// The request target exactly as sent (path and query, or an absolute URI).
    let target: String
    /// The target in origin form (path and query): ``target`` itself, or an absolute-form target's path and query.
    let originTarget: String
    /// Where the request is, and what it holds in the memory budget.
    @exclusivity(unchecked) var machine: RequestMachine
    /// The request method (empty until the head is complete).
    @exclusivity(unchecked) var method = ""
    /// The request headers (empty until the head is complete).
    @exclusivity(unchecked) var headers = HTTPHeaders()
    /// The body as received; a gzip body's decoded bytes once a compute thread has decoded it.
    @exclusivity(unchecked) var body: [UInt8] = []
    /// The answer computed (off the connection thread while it was suspended), until it is sent.
    @exclusivity(unchecked) var answer: HTTPResponse?
    /// Compresses an answer written while it is sent, when the client takes gzip (its memory joins the machine's
    /// ``RequestMachine/reserved`` with the answer).
    @exclusivity(unchecked) var streamCompressor: GzipCompressor?
    /// The connection the request arrived on (its deadline).
    @exclusivity(unchecked) var connection: ConnectionState?
    /// Where the target lay in libmicrohttpd's buffer when the request line was parsed (its first byte and the
    /// byte after its text), for the check that no NUL cut the request line short.
    @exclusivity(unchecked) var targetSpan: Range<UInt>?
    /// What the head's raw bytes after the request line showed when the request line was parsed (before
    /// libmicrohttpd overwrote their line ends), for the line-end checks.
    @exclusivity(unchecked) var rawHead: RequestHead.RawScan = .unseen

    /// A request whose line has just been parsed, to `target`, on a server with `limits`.
    init(target: String, limits: RequestMachine.Limits) {
        self.machine = RequestMachine(limits: limits)
        self.target = target
        self.originTarget = Self.originForm(of: target)
    }

    /// The target in origin form (RFC 9112 §3.2.1). A server must accept the absolute form (§3.2.2,
    /// `http://host:port/path?query`, what a client sends to a proxy): its scheme and authority are dropped (an
    /// origin server takes the host from them, not from `Host`, and has nothing else to do with it here), and an
    /// empty path is `/` (RFC 9110 §4.2.3). Any other target is kept as it is: the origin form, `*`, or a scheme
    /// other than http and https (which then names no resource of this server).
    static func originForm(of target: String) -> String {
        let bytes = target.utf8
        guard let first = bytes.first, first != UInt8(ascii: "/"), first != UInt8(ascii: "*") else { return target }
        for scheme in ["http://", "https://"] {
            guard bytes.count >= scheme.utf8.count,
                zip(bytes, scheme.utf8).allSatisfy({ asciiLowercase($0) == $1 })
            else { continue }
            let authorityStart = bytes.index(bytes.startIndex, offsetBy: scheme.utf8.count)
            let rest = bytes[authorityStart...]
            let end = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? bytes.endIndex
            let resource = String(target[end...])
            return resource.hasPrefix("/") ? resource : "/" + resource
        }
        return target
    }

    /// The path of the target in origin form (before the first `?`).
    var path: Substring {
        guard let mark = originTarget.utf8.firstIndex(of: UInt8(ascii: "?")) else { return originTarget[...] }
        return originTarget[..<mark]
    }

    /// The target in origin form split at the first `?`.
    var pathAndQuery: (path: String, query: String?) {
        guard let mark = originTarget.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (originTarget, nil) }
        let path = String(originTarget[..<mark])
        let query = String(originTarget[originTarget.utf8.index(after: mark)...])
        return (path, query)
    }

    /// How far into the body's reserved room its pages are mapped ahead of the bytes (see ``reserveBody(_:)``);
    /// -1 when the room is not mapped ahead (a small body, or all of it mapped).
    @exclusivity(unchecked) private var mappedBodyBytes = -1

    /// Reserves room for a body of `bytes` (its declared length, and any trailing capacity). Room of
    /// ``mappedAheadBodyBytes`` or more is a mapping of its own (glibc's mmap threshold, `ProcessMemory`): its pages
    /// are then mapped ahead of the chunks, ``mappingWindow`` at a time, by `madvise(MADV_POPULATE_WRITE)`, rather
    /// than by a page fault per 4 KiB as the chunks are copied in, which costs two fifths less (10.5 against 18.0 ms
    /// for a 29 MB body, BENCHMARKS.md). A window at a time, so that the connection thread's other connections wait
    /// for one window's mapping at most (about 0.4 ms), not for the whole body's. The memory budget holds these bytes
    /// by then. On a kernel without the call (before Linux 5.14) the pages fault in as before.
    ///
    /// Nothing is mapped here: the head reserves the room before the memory budget has granted the body, and the
    /// first window is mapped with the first chunk, which only a granted body receives.
    func reserveBody(_ bytes: Int) {
        body.reserveCapacity(bytes)
        mappedBodyBytes = bytes >= Self.mappedAheadBodyBytes ? 0 : -1
    }

    /// The smallest room ``reserveBody(_:)`` maps ahead: 4 MiB, glibc's mmap threshold as the server sets it.
    static let mappedAheadBodyBytes = 4 << 20
    /// How much of a body's room ``reserveBody(_:)`` maps at once.
    static let mappingWindow = 1 << 20

    /// Maps the body's room ahead through offset `end` and one ``mappingWindow`` beyond, when it is not yet.
    private func mapBodyRoom(through end: Int) {
        #if os(Linux)
        guard mappedBodyBytes >= 0, end >= mappedBodyBytes else { return }
        let capacity = body.capacity
        let target = min(capacity, end + Self.mappingWindow)
        let pageSize = Int(getpagesize())
        body.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // Whole pages only: a page the range shares with what lies before or after faults in as usual.
            let start = (Int(bitPattern: base) + mappedBodyBytes + pageSize - 1) / pageSize * pageSize
            let stop = (Int(bitPattern: base) + target) / pageSize * pageSize
            guard stop > start, let page = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(page, stop - start, MADV_POPULATE_WRITE)
        }
        mappedBodyBytes = target >= capacity ? -1 : target
        #endif
    }

    /// Appends a borrowed C chunk to the body (copied now; amortised linear growth).
    func appendBody(_ bytes: UnsafePointer<CChar>, count: Int) {
        mapBodyRoom(through: body.count + count)
        bytes.withMemoryRebound(to: UInt8.self, capacity: count) { start in
            body.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
        }
    }

    /// Moves the accumulated body out without copying it. When its spare capacity holds `trailing` bytes, they
    /// are set to zero first (written, then dropped from the count), so that a reader allowed to read past the
    /// end finds zeros there, not what an earlier allocation left.
    func takeBody(zeroingTrailing trailing: Int) -> [UInt8] {
        if trailing > 0 && body.capacity - body.count >= trailing {
            body.append(contentsOf: repeatElement(0, count: trailing))
            body.removeLast(trailing)
        }
        var taken: [UInt8] = []
        swap(&taken, &body)
        return taken
    }
}
