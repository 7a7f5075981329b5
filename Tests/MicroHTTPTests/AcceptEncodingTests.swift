import MicroHTTP
import Testing

/// `Accept-Encoding` (RFC 9110 §12.5.3) and `Content-Encoding` as MicroHTTP reads them.
@Suite struct AcceptEncodingTests {
    /// A field value, the preferred coding, and whether identity is acceptable.
    @Test(arguments: [
        ("gzip", ContentCoding.gzip, true),
        ("GZIP", .gzip, true),
        ("x-gzip", .gzip, true),
        ("*", .gzip, true),
        ("gzip;q=0.001", .gzip, true),
        ("gzip;q=1.000", .gzip, true),
        ("gzip;Q=0.5", .gzip, true),
        ("gzip ;\tq=0.5", .gzip, true),
        ("gzip;q=0.5", .gzip, true),  // identity unlisted: acceptable, but preferred least
        ("gzip, identity;q=0.5", .gzip, true),
        ("gzip;q=0.5, identity;q=0.5", .gzip, true),  // a tie goes to gzip
        ("gzip;q=0.4, identity;q=0.5", .identity, true),
        ("gzip;q=0.5, identity", .identity, true),
        ("gzip, identity;q=0", .gzip, false),
        ("identity;q=0, *", .gzip, false),
        ("*;q=0, gzip", .gzip, false),
        ("*;q=0, identity", .identity, true),
        ("*;q=0", .identity, false),  // nothing acceptable: identity anyway
        ("gzip;q=0, identity;q=0", .identity, false),
        ("*, gzip;q=0", .identity, true),
        ("gzip;q=0", .identity, true),
        ("x-gzip;q=0.2, gzip;q=0", .gzip, true),  // the alias listed twice: the higher weight
        ("", .identity, true),
        (",, ,", .identity, true),
        ("identity", .identity, true),
        ("br, deflate, zstd", .identity, true),
        ("gzip;q=1.5", .identity, true),  // malformed elements are ignored
        ("gzip;q=0.1234", .identity, true),
        ("gzip;q=", .identity, true),
        ("gzip;q=.5", .identity, true),
        ("gzip;level=9", .identity, true),
        ("gzip;q=0.5;q=1", .identity, true),
        ("g zip", .identity, true),
        ("gzip;q=abc, br, *;q=0.3", .gzip, true),  // the rest of the field still counts
    ])
    func negotiates(value: String, preferred: ContentCoding, allowsIdentity: Bool) {
        let accepted = AcceptEncoding(value)
        #expect(accepted.preferred == preferred)
        #expect(accepted.allowsIdentity == allowsIdentity)
    }

    @Test func everyFieldCounts() {
        let headers = HTTPHeaders([.init(name: "accept-encoding", value: "br"), .init(name: "accept-encoding", value: "gzip;q=0.7")])
        let accepted = AcceptEncoding(of: headers)
        #expect(accepted?.weight(of: .gzip) == 700)
        #expect(accepted?.preferred == .gzip)
        #expect(AcceptEncoding(of: ["Content-Type": "application/json"]) == nil)
    }

    @Test(arguments: [("0", 0), ("1", 1000), ("0.5", 500), ("0.05", 50), ("0.123", 123), ("1.0", 1000), ("1.000", 1000)])
    func qvalues(text: String, thousandths: Int) {
        #expect(AcceptEncoding("gzip;q=\(text)").weight(of: .gzip) == thousandths)
    }
}
