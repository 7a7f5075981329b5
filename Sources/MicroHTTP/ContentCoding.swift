internal import Gzip

/// The content codings MicroHTTP reads in request bodies and writes in answers (RFC 9110 §8.4.1): gzip, and
/// identity, the absence of one.
public enum ContentCoding: String, Sendable, Hashable, CaseIterable {
    /// No coding.
    case identity
    /// gzip (RFC 1952); `x-gzip` is its alias (RFC 9110 §8.4.1.3).
    case gzip

    /// The value of `Accept-Encoding` on a 415 for a content coding: what request bodies may be coded with.
    public static let acceptedInRequests = "gzip"

    /// The memory the decoder of a gzip request body holds (zlib's state, its window and a piece of output):
    /// the server adds it to the request's reservation.
    public static let decoderBytes = GzipDecompressor.memoryBytes

    /// The most bytes one byte of a gzip body can decode to: deflate's largest ratio is 1032:1 (zlib's technical
    /// notes: a 258-byte match coded in two bits at best), and a gzip header and trailer decode to nothing.
    static let largestInflation = 1032

    /// The coding of a request body from its `Content-Encoding` fields (all of them, as one list): identity when
    /// there is none or each is `identity`, gzip when the one coding is `gzip` or `x-gzip` (any case).
    /// - Parameter headers: The request's headers.
    /// - Returns: The coding, or the field's value when it names any other coding, or more than one.
    static func ofRequestBody(_ headers: HTTPHeaders) -> Result<ContentCoding, UnsupportedContentCoding> {
        guard headers.fields.contains(where: { $0.hasName("content-encoding") }) else { return .success(.identity) }
        let codings = headers.listElements(named: "content-encoding").filter { $0.lowercased() != "identity" }
        guard let coding = codings.first else { return .success(.identity) }
        guard codings.count == 1, ["gzip", "x-gzip"].contains(coding.lowercased()) else {
            let value = headers.fields.filter { $0.hasName("content-encoding") }.map(\.value).joined(separator: ", ")
            return .failure(UnsupportedContentCoding(value: value))
        }
        return .success(.gzip)
    }
}

/// A request's `Content-Encoding` that is not gzip or identity.
struct UnsupportedContentCoding: Error {
    /// The field's value as sent.
    let value: String
}

/// What an `Accept-Encoding` request field allows (RFC 9110 §12.5.3), as weights in thousandths.
///
/// Codings are case-insensitive tokens; `x-gzip` counts as `gzip`; `*` stands for every coding the field does
/// not list. An element that breaks the grammar (`coding [ OWS ";" OWS "q=" qvalue ]`, a qvalue being 0 to 1
/// with at most three decimals) is ignored, and the rest of the field still counts.
public struct AcceptEncoding: Sendable, Hashable {
    /// The weights, in thousandths, of the codings that matter here as listed (`x-gzip` as `gzip`; the higher
    /// when one is listed twice), and of `*`; `nil` when not listed. Other codings are read and ignored.
    private var gzip: Int?, identity: Int?, any: Int?

    /// Parses the value of an `Accept-Encoding` field.
    /// - Parameter value: The field value; an empty one allows identity only.
    public init(_ value: String) {
        read(value)
    }

    /// The field of a request, or `nil` when it has none (the client states no preference).
    /// - Parameter headers: The request's headers.
    public init?(of headers: HTTPHeaders) {
        var listed = false
        for field in headers.fields where field.hasName("accept-encoding") {  // every field, as one list
            listed = true
            read(field.value)
        }
        guard listed else { return nil }
    }

    /// Reads every element of a value, in place as bytes: `Accept-Encoding` comes with most requests, and
    /// `String` and `Substring` splits cost thousands of instructions per field.
    private mutating func read(_ value: String) {
        var value = value
        value.withUTF8 { bytes in
            var start = 0
            for end in 0 ... bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: ",") {
                record(UnsafeBufferPointer(rebasing: bytes[start ..< end]))
                start = end + 1
            }
        }
    }

    /// Records one element, `coding [ OWS ";" OWS "q=" qvalue ]` with OWS around it, unless it breaks that grammar.
    private mutating func record(_ element: UnsafeBufferPointer<UInt8>) {
        var element = Self.trimmed(element[...])
        guard !element.isEmpty else { return }
        var weight = 1000
        if let semicolon = element.firstIndex(of: UInt8(ascii: ";")) {
            let parameter = Self.trimmed(element[(semicolon + 1)...])
            element = Self.trimmed(element[..<semicolon])
            guard parameter.count >= 2, asciiLowercase(parameter[parameter.startIndex]) == UInt8(ascii: "q"),
                parameter[parameter.startIndex + 1] == UInt8(ascii: "="),
                let q = Self.qvalue(parameter.dropFirst(2))
            else { return }
            weight = q
        }
        guard !element.isEmpty, element.allSatisfy(isTokenCharacter) else { return }
        func named(_ name: StaticString) -> Bool {
            let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            return element.elementsEqual(expected) { asciiLowercase($0) == $1 }
        }
        if named("gzip") || named("x-gzip") {
            gzip = max(gzip ?? 0, weight)
        } else if named("identity") {
            identity = max(identity ?? 0, weight)
        } else if named("*") {
            any = max(any ?? 0, weight)
        }
    }

    /// `bytes` without the spaces and tabs (OWS) at either end.
    private static func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        var bytes = bytes
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
        return bytes
    }

    /// The weight of `coding` in thousandths (0 = not acceptable): its own, else that of `*`, else 0 for gzip and
    /// 1 for identity (acceptable unless refused, RFC 9110 §12.5.3, but preferred least).
    public func weight(of coding: ContentCoding) -> Int {
        if let own = coding == .gzip ? gzip : identity { return own }
        if let any { return any }
        return coding == .identity ? 1 : 0
    }

    /// The coding to answer with: gzip when it is acceptable and weighs at least as much as identity, else
    /// identity (also when neither is acceptable: RFC 9110 §12.5.3 prefers an answer without coding to a 406).
    public var preferred: ContentCoding {
        let gzip = weight(of: .gzip)
        return gzip > 0 && gzip >= weight(of: .identity) ? .gzip : .identity
    }

    /// Whether an answer without coding is acceptable (not refused by `identity;q=0`, or `*;q=0` without
    /// identity listed).
    public var allowsIdentity: Bool { weight(of: .identity) > 0 }

    /// A qvalue (`0` to `1` with up to three decimals) in thousandths, or `nil`.
    private static func qvalue<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Int? {
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var decimals = bytes.dropFirst()
        if !decimals.isEmpty {
            guard decimals.first == UInt8(ascii: "."), decimals.count <= 4 else { return nil }
            decimals = decimals.dropFirst()
            guard decimals.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        }
        var thousandths = Int(first - UInt8(ascii: "0")) * 1000
        var scale = 100
        for digit in decimals {
            thousandths += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return thousandths <= 1000 ? thousandths : nil
    }
}
