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

    /// The coding of a request body from its `Content-Encoding` fields (all of them, as one list): identity when
    /// there is none or each is `identity`, gzip when the one coding is `gzip` or `x-gzip` (any case).
    /// - Parameter headers: The request's headers.
    /// - Returns: The coding, or the field's value when it names any other coding, or more than one.
    static func ofRequestBody(_ headers: HTTPHeaders) -> Result<ContentCoding, UnsupportedContentCoding> {
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
    /// The weight of each coding listed (lowercased, `x-gzip` as `gzip`), `*` included.
    public private(set) var weights: [String: Int] = [:]

    /// Parses the value of an `Accept-Encoding` field.
    /// - Parameter value: The field value; an empty one allows identity only.
    public init(_ value: String) {
        self.init(elements: HTTPHeaders(dictionaryLiteral: ("Accept-Encoding", value)).listElements(named: "accept-encoding"))
    }

    private init(elements: [String]) {
        for element in elements {
            guard let (coding, weight) = Self.element(element) else { continue }
            let name = coding == "x-gzip" ? "gzip" : coding
            weights[name] = max(weights[name] ?? 0, weight)  // listed twice (gzip, x-gzip): the higher
        }
    }

    /// The field of a request, or `nil` when it has none (the client states no preference).
    /// - Parameter headers: The request's headers.
    public init?(of headers: HTTPHeaders) {
        guard headers.fields.contains(where: { $0.hasName("accept-encoding") }) else { return nil }
        self.init(elements: headers.listElements(named: "accept-encoding"))
    }

    /// The weight of `coding` in thousandths (0 = not acceptable): its own, else that of `*`, else 0 for gzip and
    /// 1 for identity (acceptable unless refused, RFC 9110 §12.5.3, but preferred least).
    public func weight(of coding: ContentCoding) -> Int {
        if let own = weights[coding.rawValue] { return own }
        if let any = weights["*"] { return any }
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

    /// One element: its coding, lowercased, and weight; `nil` when it breaks the grammar.
    private static func element(_ element: String) -> (String, Int)? {
        let parts = element.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
        let coding = parts[0].lowercased()
        guard !coding.isEmpty, coding.utf8.allSatisfy(isTokenCharacter) else { return nil }
        switch parts.count {
        case 1: return (coding, 1000)
        case 2:
            let parameter = parts[1]
            guard parameter.count >= 2, parameter.utf8.first.map(asciiLowercase) == UInt8(ascii: "q"),
                parameter.utf8.dropFirst().first == UInt8(ascii: "="), let weight = qvalue(parameter.dropFirst(2)[...])
            else { return nil }
            return (coding, weight)
        default: return nil
        }
    }

    /// A qvalue (`0` to `1` with up to three decimals) in thousandths, or `nil`.
    static func qvalue(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var decimals = bytes.dropFirst()
        if !decimals.isEmpty {
            guard decimals.removeFirst() == UInt8(ascii: "."), decimals.count <= 3,
                decimals.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            else { return nil }
        }
        var thousandths = Int(first - UInt8(ascii: "0")) * 1000
        for (position, digit) in decimals.enumerated() {
            thousandths += Int(digit - UInt8(ascii: "0")) * [100, 10, 1][position]
        }
        return thousandths <= 1000 ? thousandths : nil
    }
}
