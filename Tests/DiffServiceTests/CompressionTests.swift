@testable import DiffService
import Gzip
import MicroHTTP
import Testing
import TestSupport

/// Content codings over real sockets: gzip answers negotiated by Accept-Encoding (RFC 9110 §12.5.3), gzip
/// request bodies, and the refusals (415, 400, 413) with their headers.
@Suite struct CompressionTests {
    /// A `/diff` request whose changeset is a few tens of kilobytes (well above the threshold).
    static let largeRequest: [UInt8] = Array(
        diffBody(old: items(Array(0..<3000), content: { $0 }), new: items(Array(1000..<4000).reversed(), content: { $0 + 1 })).utf8)

    static func post(
        _ body: [UInt8], to service: RunningService, headers: [(String, String)] = []
    ) throws -> TestClient.Response {
        try service.connect().request(
            "POST", "/diff", headers: [("Content-Type", "application/json")] + headers, body: body)
    }

    /// What the request is answered without any coding, for byte-for-byte comparison.
    static func identityAnswer(to body: [UInt8], on service: RunningService) throws -> [UInt8] {
        let response = try post(body, to: service)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.header("Content-Encoding") == nil)
        return response.body
    }

    // MARK: Answers

    @Test func gzipAnswerDecodesToTheIdentityAnswer() throws {
        try withService { service in
            let plain = try Self.identityAnswer(to: Self.largeRequest, on: service)
            #expect(plain.count > 20_000)
            let response = try Self.post(Self.largeRequest, to: service, headers: [("Accept-Encoding", "gzip")])
            #expect(response.status == 200)
            #expect(response.header("Content-Encoding") == "gzip")
            #expect(response.header("Vary") == "Accept-Encoding")
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("Content-Length") == "\(response.body.count)")
            #expect(response.body.count < plain.count / 4)
            #expect(try GzipCodec.decompress(response.body) == plain)
        }
    }

    /// Each Accept-Encoding value and the coding of a large answer. Malformed elements are ignored; nothing
    /// acceptable means no coding (RFC 9110 §12.5.3 rather than 406).
    @Test(arguments: [
        (nil, nil), ("gzip", "gzip"), ("GZip", "gzip"), ("x-gzip", "gzip"), ("*", "gzip"), ("deflate, gzip;q=0.2, br", "gzip"),
        ("gzip;q=0.001", "gzip"), ("gzip;Q=1.000", "gzip"), ("gzip ; q=0.5", "gzip"), ("gzip, identity;q=0.5", "gzip"),
        ("gzip;q=0.5, identity;q=0.5", "gzip"), ("gzip;q=0.5", "gzip"), ("identity;q=0, *", "gzip"),
        ("", nil), ("identity", nil), ("gzip;q=0", nil), ("gzip;q=0.5, identity", nil), ("br, deflate", nil),
        ("*;q=0", nil), ("gzip;q=0, identity;q=0", nil), ("gzip;q=1.5", nil), ("gzip;q=0.1234", nil),
        ("gzip;level=9", nil), ("*, gzip;q=0", nil),
    ] as [(String?, String?)])
    func acceptEncodingChoosesTheCoding(acceptEncoding: String?, coding: String?) throws {
        try withService { service in
            let plain = try Self.identityAnswer(to: Self.largeRequest, on: service)
            let response = try Self.post(
                Self.largeRequest, to: service, headers: acceptEncoding.map { [("Accept-Encoding", $0)] } ?? [])
            #expect(response.status == 200)
            #expect(response.header("Content-Encoding") == coding)
            #expect(response.header("Vary") == "Accept-Encoding")
            let body = coding == nil ? response.body : try GzipCodec.decompress(response.body)
            #expect(body == plain)
        }
    }

    /// Under the threshold an answer goes as it is, unless identity is refused.
    @Test func smallAnswerIsGzippedOnlyWhenIdentityIsRefused() throws {
        try withService { service in
            let client = try service.connect()
            let small = try client.request("GET", "/healthz", headers: [("Accept-Encoding", "gzip")])
            #expect(small.header("Content-Encoding") == nil)
            #expect(small.header("Vary") == "Accept-Encoding")
            #expect(small.text == #"{"status":"ok"}"#)
            let refused = try client.request("GET", "/healthz", headers: [("Accept-Encoding", "gzip, identity;q=0")])
            #expect(refused.header("Content-Encoding") == "gzip")
            #expect(try GzipCodec.decompress(refused.body) == Array(#"{"status":"ok"}"#.utf8))
        }
    }

    /// Problems computed by the routes are answers like any other: gzipped when large enough (this 422 lists a
    /// thousand duplicate ids).
    @Test func largeProblemIsGzipped() throws {
        try withService { service in
            let body = Array(diffBody(old: items(Array(0..<1000) + Array(0..<1000)), new: items([1])).utf8)
            let plain = try Self.post(body, to: service)
            let response = try Self.post(body, to: service, headers: [("Accept-Encoding", "gzip")])
            #expect(response.status == 422)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.header("Content-Encoding") == "gzip")
            #expect(try GzipCodec.decompress(response.body) == plain.body)
        }
    }

    @Test func levelZeroNeverCompresses() throws {
        try withService(compressionLevel: 0) { service in
            let response = try Self.post(Self.largeRequest, to: service, headers: [("Accept-Encoding", "gzip")])
            #expect(response.status == 200)
            #expect(response.header("Content-Encoding") == nil)
            #expect(response.header("Vary") == nil)
        }
    }

    // MARK: Request bodies

    @Test(arguments: ["gzip", "x-gzip", "GZIP", "gzip, identity", "identity, gzip"])
    func gzipBodyIsDecoded(contentEncoding: String) throws {
        try withService { service in
            let plain = try Self.identityAnswer(to: Self.largeRequest, on: service)
            let response = try Self.post(
                try GzipCodec.compress(Self.largeRequest, level: 6), to: service, headers: [("Content-Encoding", contentEncoding)])
            #expect(response.status == 200, "\(response.text)")
            #expect(response.body == plain)
        }
    }

    /// The body split into two gzip members (RFC 1952 §2.2), as `cat a.gz b.gz` makes.
    @Test func concatenatedMembersAreOneBody() throws {
        try withService { service in
            let plain = try Self.identityAnswer(to: Self.largeRequest, on: service)
            let half = Self.largeRequest.count / 2
            let body = try GzipCodec.compress(Array(Self.largeRequest[..<half]), level: 1)
                + GzipCodec.compress(Array(Self.largeRequest[half...]), level: 9)
            let response = try Self.post(body, to: service, headers: [("Content-Encoding", "gzip")])
            #expect(response.status == 200, "\(response.text)")
            #expect(response.body == plain)
        }
    }

    @Test func identityContentEncodingIsNoCoding() throws {
        try withService { service in
            let plain = try Self.identityAnswer(to: Self.largeRequest, on: service)
            let response = try Self.post(Self.largeRequest, to: service, headers: [("Content-Encoding", "identity")])
            #expect(response.status == 200)
            #expect(response.body == plain)
        }
    }

    /// Any other coding is refused before the body is read, with the codings accepted (RFC 9110 §15.5.16).
    @Test(arguments: ["br", "deflate", "compress", "zstd", "gzip, br", "gzip, gzip", "gzip;level=1"])
    func otherCodingIsUnsupported(contentEncoding: String) throws {
        try withService { service in
            let client = try service.connect()
            let response = try client.request(
                "POST", "/diff", headers: [("Content-Type", "application/json"), ("Content-Encoding", contentEncoding)],
                body: Self.largeRequest)
            let problem = try expectProblem(response, .unsupportedContentCoding)
            #expect(response.header("Accept-Encoding") == "gzip")
            #expect(problem["detail"]?.string?.contains(contentEncoding) == true)
            #expect(response.header("Connection") == "close")
        }
    }

    @Test(arguments: [
        ("truncated", "ends before the end of its stream"), ("trailing garbage", "incorrect header check"),
        ("not gzip", "incorrect header check"), ("bad checksum", "incorrect data check"),
    ])
    func undecodableGzipIsBadRequest(damage: String, reason: String) throws {
        let gzip = try GzipCodec.compress(Self.largeRequest, level: 6)
        let body: [UInt8] =
            switch damage {
            case "truncated": Array(gzip.dropLast(10))
            case "trailing garbage": gzip + Array("garbage".utf8)
            case "not gzip": Self.largeRequest
            default: Array(gzip.dropLast(8)) + [0, 0, 0, 0] + Array(gzip.suffix(4))
            }
        try withService { service in
            let response = try Self.post(body, to: service, headers: [("Content-Encoding", "gzip")])
            let problem = try expectProblem(response, .undecodableContent)
            #expect(problem["detail"]?.string?.contains(reason) == true, "\(problem)")
        }
    }

    /// The body limit counts decoded bytes: exactly at the limit is diffed, one byte more is 413.
    @Test func limitCountsDecodedBytes() throws {
        try withService(maxBodyBytes: BodyLimitTests.limit) { service in
            let atLimit = try GzipCodec.compress(BodyLimitTests.body(ofSize: BodyLimitTests.limit), level: 6)
            let ok = try Self.post(atLimit, to: service, headers: [("Content-Encoding", "gzip")])
            #expect(ok.status == 200, "\(ok.text)")
            let over = try GzipCodec.compress(BodyLimitTests.body(ofSize: BodyLimitTests.limit + 1), level: 6)
            #expect(over.count < BodyLimitTests.limit / 10)
            let response = try Self.post(over, to: service, headers: [("Content-Encoding", "gzip")])
            let problem = try expectProblem(response, .contentTooLarge)
            #expect(problem["limit"] == .integer(BodyLimitTests.limit))
        }
    }

    /// A zip bomb: 512 MiB of zeros in about 512 KiB, under the limit as sent. Decoding stops at the 1 MiB limit with a 413; the budget's
    /// peak shows that no more than the largest request within the limit was ever reserved.
    @Test func zipBombIsContentTooLarge() throws {
        let bomb = try Self.bomb
        #expect(bomb.count < 600_000)
        try withService(maxBodyBytes: 1 << 20) { service in
            let response = try Self.post(bomb, to: service, headers: [("Content-Encoding", "gzip")])
            let problem = try expectProblem(response, .contentTooLarge)
            #expect(problem["limit"] == .integer(1 << 20))
            #expect(response.header("Connection") == "close")
            let budget = service.server.configuration.memoryBudget
            #expect(budget.peakReservedBytes <= RequestMemory.largest(maxBodyBytes: 1 << 20))
        }
    }

    /// 512 gzip members of 1 MiB of zeros each (RFC 1952 lets members follow one another): 512 MiB decoded,
    /// without ever holding it here.
    static var bomb: [UInt8] {
        get throws {
            let member = try GzipCodec.compress([UInt8](repeating: 0, count: 1 << 20), level: 9)
            return Array([[UInt8]](repeating: member, count: 512).joined())
        }
    }
}
