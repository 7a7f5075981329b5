internal import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a request's head out of libmicrohttpd and checks its framing strictly (RFC 9112), before any body
/// byte is read.
///
/// libmicrohttpd 0.9.75 without `MHD_OPTION_STRICT_FOR_CLIENT` keeps a name with whitespace before the colon
/// (`Content-Length : 5` becomes a field named `Content-Length `), uses the first of several
/// `Content-Length` fields, ignores a `Transfer-Encoding` beside `Content-Length`, truncates a value at a NUL,
/// appends an obs-fold continuation to the field's *name*, and keeps a bare CR inside a value. Its strict
/// option does not help: level 1 adds only a Host check whose 400 it sends with two header blocks, and the
/// space-before-colon check of 0.9.75 runs only at level -1. So the head is checked here, on the first
/// access-handler call, which sees every field.
///
/// Besides the fields' text, libmicrohttpd's 0.9.75 layout is checked: it parses the head in place in its read
/// buffer, overwriting each line end (and each field's colon) with NUL, and hands out pointers into that
/// buffer. So between the end of one field's value and the next field's name there must be exactly the
/// overwritten line end (two NULs, CR LF), and between a name and its value only the colon and spaces. A value
/// cut short by a NUL leaves its rest in that gap; a folded field's name is moved out of the buffer. Both
/// show, and both are refused. The layout check runs only on libmicrohttpd 0.9.75, whose layout it knows.
///
/// Line ends must be CR LF. libmicrohttpd 0.9.75 also ends a line at a bare LF, and it takes a line that starts
/// with `:` (an empty field name, once it has overwritten the colon with NUL) or with a NUL for the head's empty
/// line: it then ends the head there and reads the head's remaining lines as a new request (a second answer on
/// the connection, or a smuggled request). In its buffer `LF ":" CR LF` then looks like `CR LF CR LF`, so the
/// line ends are read where they are still as sent: when the request line has been parsed (the URI-log
/// callback), the rest of the head, as far as it has arrived in the same memory page, is scanned (see
/// ``scanRaw(target:)``); a bare LF or a NUL there is refused, and so is a head that libmicrohttpd ended
/// anywhere but at its first empty line. A head not seen whole then is checked by the layout alone, which
/// shows a bare LF between fields and in most forms of the head's end; its answer closes the connection
/// (``closesAfterAnswer(_:)``), so that lines libmicrohttpd may have left over are never read as a request.
///
/// A class only so that libmicrohttpd's field iterator can reach it through a pointer; it is made by
/// ``read(_:method:version:target:targetSpan:rawHead:)`` and read by the access handler's first call, whose
/// statements touch its properties one at a time (the field iterator only inside `MHD_get_connection_values_n`):
/// they are `@exclusivity(unchecked)`, since no two accesses ever overlap (the run-time check of each access cost
/// more than most checks of the head).
final class RequestHead {
    /// The fields, names lowercased, values without surrounding whitespace.
    @exclusivity(unchecked) var headers = HTTPHeaders()
    /// The first framing error found.
    @exclusivity(unchecked) private(set) var violation: String?
    /// How many fields frame the message: `Host`, `Content-Length` and `Transfer-Encoding` (counted once, for
    /// the checks and for the server's reading of the body).
    @exclusivity(unchecked) private(set) var hostFields = 0, contentLengthFields = 0, transferEncodingFields = 0
    /// The value of the first `Content-Length` field, as sent.
    @exclusivity(unchecked) private(set) var contentLength: String?

    /// Where the previous line's text ended (the version, then each value), for the layout check.
    @exclusivity(unchecked) private var previousEnd: UnsafeRawPointer?
    /// The previous field's name as sent, in libmicrohttpd's buffer (`nil` while the previous line is the
    /// request line); read only during ``read(_:method:version:target:targetSpan:rawHead:)``. A message names it, and
    /// is written only when a check fails: most heads pass, and building its text for every field cost more
    /// than the checks.
    @exclusivity(unchecked) private var previousName: UnsafeRawBufferPointer?
    private let checksLayout: Bool

    /// Whether the linked libmicrohttpd is the one whose in-place layout the checks know.
    static let layoutIsKnown: Bool = MHD_get_version().map { String(cString: $0) } == "0.9.75"

    /// The memory page's size.
    static let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))

    /// What the head's bytes after the request line showed when the request line had just been parsed.
    enum RawScan: Equatable {
        /// Not seen up to the head's end: not arrived yet, beyond the memory page of the request line's end,
        /// or not scanned (another libmicrohttpd, a request line the other checks refuse).
        case unseen
        /// Every line ended in CR LF, and the head's empty line ended right before this address.
        case end(UInt)
        /// A bare LF or a NUL byte, at this address, before any empty line.
        case flaw(String, at: UInt)
    }

    /// Whether the answer to a request whose head `scan` did not see whole closes the connection (on
    /// libmicrohttpd 0.9.75). Its line ends were checked in libmicrohttpd's buffer only, where a line of just `:`
    /// between a bare LF and CR LF looks like the head's end (`LF ":" CR LF` like `CR LF CR LF`): if
    /// libmicrohttpd ended the head there, the head's remaining lines are in its buffer, and it would read them
    /// as the next request. Closing after the answer leaves them unread. Such heads arrived in more than one
    /// piece after the request line, or reach past its memory page (about 4 KiB).
    static func closesAfterAnswer(_ scan: RawScan) -> Bool {
        layoutIsKnown && scan == .unseen
    }

    /// Scans the head's raw bytes after the request line, in libmicrohttpd 0.9.75's read buffer, when the
    /// URI-log callback receives the target (`target`, in that buffer). libmicrohttpd has then overwritten
    /// only the request line (its two spaces and its line end, with NUL); the bytes after it are as received,
    /// and the buffer holds zeros past them (its memory pool is zeroed when made and when reset between
    /// requests). Reads only within the memory page of the request line's last byte.
    static func scanRaw(target: UnsafePointer<CChar>) -> RawScan {
        guard layoutIsKnown else { return .unseen }
        // libmicrohttpd accepted the version: exactly `HTTP/d.d`, right before the line end. A target cut at a
        // NUL does not reach it (the request-line check refuses that).
        let version = UnsafeRawPointer(target) + strlen(target) + 1
        guard UnsafeRawBufferPointer(start: version, count: 5).elementsEqual("HTTP/".utf8),
            version.load(fromByteOffset: 8, as: UInt8.self) == 0
        else { return .unseen }
        let lineEnd = version + 8
        let address = UInt(bitPattern: lineEnd)
        let count = Int(((address & ~(pageSize - 1)) + pageSize) - address)
        let bytes = UnsafeRawBufferPointer(start: lineEnd, count: count)
        // The request line's end: two NULs for CR LF, one for a bare LF, then the next line's first byte.
        var index = 0
        while index < count && bytes[index] == 0 { index += 1 }
        guard index < count else { return .unseen }
        let base = UInt(bitPattern: lineEnd)
        if index == 1 { return .flaw("the request line ends in a bare LF (line ends must be CR LF)", at: base) }
        if index > 2 { return .flaw("the request head contains a NUL byte", at: base + 2) }
        var lineStart = index
        while index < count {
            switch bytes[index] {
            case 0x0A:
                guard index > lineStart, bytes[index - 1] == 0x0D else {
                    return .flaw("the request head has a line ending in a bare LF (line ends must be CR LF)", at: base + UInt(index))
                }
                if index - 1 == lineStart { return .end(base + UInt(index) + 1) }
                lineStart = index + 1
            case 0:
                // A NUL with more bytes after it arrived as sent; zeros to the page's end may be the buffer's.
                guard bytes[(index + 1)...].contains(where: { $0 != 0 }) else { return .unseen }
                return .flaw("the request head contains a NUL byte", at: base + UInt(index))
            default:
                break
            }
            index += 1
        }
        return .unseen
    }

    private init(version: UnsafePointer<CChar>?) {
        checksLayout = Self.layoutIsKnown && version != nil
        if let version { previousEnd = UnsafeRawPointer(version) + strlen(version) }
    }

    /// Reads and checks the head of the connection's current request.
    ///
    /// - Parameters:
    ///   - connection: The connection, in its first access-handler call.
    ///   - method: The method pointer the handler received (the head's first byte in libmicrohttpd's buffer).
    ///   - version: The version pointer the handler received.
    ///   - target: The request target as sent.
    ///   - targetSpan: Where the target lay in the buffer when the request line was parsed.
    ///   - rawHead: What ``scanRaw(target:)`` found then.
    static func read(
        _ connection: OpaquePointer, method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?, target: String,
        targetSpan: Range<UInt>?, rawHead: RawScan = .unseen
    ) -> RequestHead {
        let head = RequestHead(version: version)
        // The request line: the method, one overwritten space, the target, one overwritten space, the version.
        // A NUL inside one of them shortens its text and leaves a longer gap.
        if head.checksLayout, let method, let version, let targetSpan,
            UInt(bitPattern: method) + UInt(strlen(method)) + 1 != targetSpan.lowerBound
                || targetSpan.upperBound + 1 != UInt(bitPattern: version)
        {
            head.violation = "the request line contains a NUL byte or an extra space"
        }
        // The method is a token (RFC 9112 §3.1): libmicrohttpd takes everything before the first space, so a
        // line that starts with a tab or a control byte would reach the routes as a method of its own.
        if head.violation == nil, let method,
            method.pointee == 0 || !UnsafeRawBufferPointer(start: method, count: strlen(method)).allSatisfy(isTokenCharacter)
        {
            head.violation = "the request method is not a token"
        }
        // The line ends as sent, when the whole head had arrived with its request line: libmicrohttpd's head
        // must end at the first empty line, and a flaw before its end was received as sent.
        if head.checksLayout, head.violation == nil, let method {
            let headEnd = UInt(bitPattern: method) + UInt(CMicroHTTPD_head_size(connection))
            switch rawHead {
            case .unseen: break
            case .end(let end) where end == headEnd: break
            case .flaw(let flaw, let at) where at < headEnd: head.violation = flaw
            case .end, .flaw:
                // libmicrohttpd ended the head before its empty line: at a line it took for one.
                head.violation = "the request head has a header line with an empty field name"
            }
        }
        let pointer = Unmanaged.passUnretained(head).toOpaque()
        // Without an iterator, libmicrohttpd counts the fields: room for all of them at once.
        head.headers.reserveCapacity(Int(MHD_get_connection_values_n(connection, .HEADER_KIND, nil, nil)))
        _ = MHD_get_connection_values_n(connection, .HEADER_KIND, collectField, pointer)
        if head.checksLayout, head.violation == nil, let method, let end = head.previousEnd {
            let headEnd = UnsafeRawPointer(method) + CMicroHTTPD_head_size(connection)
            // The last line end, then the empty line: CR LF CR LF, four NULs (fewer hold a bare LF).
            if let flaw = lineEndFlaw(from: end, to: headEnd, expected: 4) {
                head.violation = "\(line(after: head.previousName)) \(flaw)"
            }
        }
        head.previousName = nil
        head.countFramingFields()
        if head.violation == nil { head.violation = frameViolation(target: target, version: version, head: head) }
        return head
    }

    /// Whether the request line whose target starts at `target` begins with `HEAD ` (read in libmicrohttpd
    /// 0.9.75's buffer, where the space after the method is a NUL now), before the access handler learns the
    /// method. Reads only within the memory page of the target's first byte (a method that starts on the page
    /// before counts as not HEAD). The method starts the line: the byte before it, when on that page, is a NUL
    /// (a line before it ends in NULs; a pool that libmicrohttpd could not map is allocated, and the allocator's
    /// size field ends in a zero byte), else the method starts the page. Any other byte belongs to the method:
    /// `4HEAD` and tab `HEAD` are other methods, whose answers have a body.
    static func isHead(target: UnsafePointer<CChar>) -> Bool {
        let address = UInt(bitPattern: target)
        let pageStart = address & ~(UInt(sysconf(Int32(_SC_PAGESIZE))) - 1)
        guard layoutIsKnown, address >= pageStart + 5, let method = UnsafeRawPointer(bitPattern: address - 5) else {
            return false
        }
        guard UnsafeRawBufferPointer(start: method, count: 5).elementsEqual("HEAD\0".utf8) else { return false }
        return address == pageStart + 5 || method.load(fromByteOffset: -1, as: UInt8.self) == 0
    }

    /// `MHD_KeyValueIteratorN`: one field, in the order sent.
    private static let collectField: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
        guard let cls, let key else { return .YES }
        let head = Unmanaged<RequestHead>.fromOpaque(cls).takeUnretainedValue()
        let name = UnsafeRawBufferPointer(start: key, count: keySize)
        let text = value.map { UnsafeRawBufferPointer(start: $0, count: valueSize) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
        if head.violation == nil { head.violation = head.fieldViolation(name: name, value: text, valuePointer: value) }
        head.headers.append(
            HTTPHeaders.Field(
                name: string(of: name, lowercased: true),
                value: string(of: UnsafeRawBufferPointer(rebasing: trimmed(text)), lowercased: false)))
        return .YES
    }

    /// The text of `bytes` (invalid UTF-8 repaired, as `String(decoding:as:)` does), with ASCII capitals
    /// lowercased when asked: one copy of C's bytes (a lazily mapped or generic collection is read a byte at a time).
    private static func string(of bytes: UnsafeRawBufferPointer, lowercased: Bool) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: bytes)
            if lowercased { for index in buffer.indices { buffer[index] = asciiLowercase(buffer[index]) } }
            return bytes.count
        }
    }

    /// A field name fit for a message: its first 64 bytes, anything but printable ASCII as `?`.
    private static func printable(_ name: UnsafeRawBufferPointer) -> String {
        String(decoding: name.prefix(64).map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    /// The line after which a field named `name` came, for messages: the request line when `name` is `nil`.
    private static func line(after name: UnsafeRawBufferPointer?) -> String {
        name.map { "the header field \(printable($0))" } ?? "the request line"
    }

    /// What is wrong with one field, if anything.
    private func fieldViolation(
        name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, valuePointer: UnsafePointer<CChar>?
    ) -> String? {
        guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else {
            return "the header field name \"\(Self.printable(name))\" is not a token (whitespace before the colon?)"
        }
        if let control = value.first(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            let what = control == 0x0D ? "a bare CR" : control == 0x0A ? "a bare LF" : "a control character"
            return "the header field \(Self.printable(name)) contains \(what)"
        }
        guard checksLayout, let start = name.baseAddress, let previous = previousEnd else { return nil }
        let previousName = self.previousName
        defer {
            previousEnd = valuePointer.map { UnsafeRawPointer($0) + value.count }
            self.previousName = name
        }
        // The name, its colon (a NUL now), then only spaces or tabs up to the value.
        // (Checked first: a folded field's name was moved away from its line, so the gap before it is wrong too.)
        guard let valuePointer else { return nil }
        let colon = start + name.count
        let gap = UnsafeRawPointer(valuePointer) - colon
        guard colon.load(as: UInt8.self) == 0, (1...65536).contains(gap),
            UnsafeRawBufferPointer(start: colon + 1, count: gap - 1).allSatisfy({ $0 == 0x20 || $0 == 0x09 })
        else {
            return previousName.map { "the header field after \(Self.printable($0)) is folded across lines (obs-fold)" }
                ?? "the first header field is folded across lines (obs-fold)"
        }
        // The previous line's end: two NULs (CR LF) right before this name; one is a bare LF, a longer gap
        // holds the rest of a line cut at a NUL.
        if let flaw = Self.lineEndFlaw(from: previous, to: start, expected: 2) {
            return "\(Self.line(after: previousName)) \(flaw)"
        }
        return nil
    }

    /// What is wrong with the overwritten line ends from `from` up to `to`, if anything: `expected` NULs are CR
    /// LF ends; fewer NULs hold a bare LF, anything else a NUL byte sent.
    private static func lineEndFlaw(from: UnsafeRawPointer, to: UnsafeRawPointer, expected: Int) -> String? {
        let gap = to - from
        guard (1...expected).contains(gap), UnsafeRawBufferPointer(start: from, count: gap).allSatisfy({ $0 == 0 })
        else { return "contains a NUL byte" }
        return gap < expected ? "ends in a bare LF (line ends must be CR LF)" : nil
    }

    /// Counts the fields that frame the message, in one pass (names are lowercase).
    private func countFramingFields() {
        for field in headers.fields {
            switch field.name {
            case "host": hostFields += 1
            case "content-length":
                contentLengthFields += 1
                if contentLength == nil { contentLength = field.value }
            case "transfer-encoding": transferEncodingFields += 1
            default: break
            }
        }
    }

    /// The framing rules of RFC 9112 over the whole head (Host, Content-Length, Transfer-Encoding) and the
    /// target.
    private static func frameViolation(target: String, version: UnsafePointer<CChar>?, head: RequestHead) -> String? {
        if let bad = target.utf8.first(where: { $0 <= 0x20 || $0 >= 0x7F }) {
            return bad == 0x20 ? "the request target contains a space" : "the request target contains a control or non-ASCII byte"
        }
        let (hosts, lengths, encodings) = (head.hostFields, head.contentLengthFields, head.transferEncodingFields)
        let isHTTP11 = version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false
        if isHTTP11 && hosts == 0 { return "an HTTP/1.1 request needs a Host header field" }
        if hosts > 1 { return "the request has \(hosts) Host header fields; send one" }
        if lengths > 1 { return "the request has \(lengths) Content-Length header fields; send one" }
        if let length = head.contentLength, length.isEmpty || !length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            return "Content-Length must be one decimal number"
        }
        guard encodings > 0 else { return nil }
        if lengths > 0 { return "the request has both Transfer-Encoding and Content-Length" }
        if !isHTTP11 {
            return "Transfer-Encoding is not allowed in an \(version.map { String(cString: $0) } ?? "") request"
        }
        return nil
    }

    /// The transfer codings named by the request's `Transfer-Encoding` fields, lowercased, in order.
    var transferCodings: [String] {
        headers.listElements(named: "transfer-encoding").map { $0.lowercased() }
    }

    /// How the server answers a request that declares a body with `Transfer-Encoding` (already checked to
    /// come without `Content-Length`, in HTTP/1.1): chunked request bodies are refused (411: libmicrohttpd
    /// 0.9.75's chunked decoder accepts bare LF line ends, answers a long chunk extension with 500 and chunk
    /// syntax errors with HTML), other codings are not implemented (501), and chunked twice is malformed.
    /// - Returns: `nil` without `Transfer-Encoding`.
    func transferCodingRefusal() -> HTTPServer.Refusal? {
        guard transferEncodingFields > 0 else { return nil }
        let codings = transferCodings
        if let unknown = codings.first(where: { $0 != "chunked" }) { return .transferCodingNotImplemented(unknown) }
        if codings.count > 1 { return .malformed("the chunked transfer coding is applied more than once") }
        if codings.isEmpty { return .malformed("Transfer-Encoding names no transfer coding") }
        return .lengthRequired
    }
}

/// Whether a byte may appear in a token (RFC 9110 §5.6.2).
func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        return true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
        UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
        return true  // (a switch: searching a string of them cost ~200 instructions per hyphen of a name)
    default:
        return false
    }
}

/// The bytes without leading and trailing spaces and tabs.
private func trimmed(_ bytes: UnsafeRawBufferPointer) -> Slice<UnsafeRawBufferPointer> {
    var start = bytes.startIndex
    var end = bytes.endIndex
    while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
    while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
    return bytes[start..<end]
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var utf8 = Substring(self).utf8[...]
        while let first = utf8.first, first == 0x20 || first == 0x09 { utf8 = utf8.dropFirst() }
        while let last = utf8.last, last == 0x20 || last == 0x09 { utf8 = utf8.dropLast() }
        return String(Substring(utf8))
    }
}
