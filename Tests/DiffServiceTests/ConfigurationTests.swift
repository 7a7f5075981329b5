@testable import DiffService
import MicroHTTP
import Testing

/// The one configuration validation: each setting against the HTTP layer's range, with a typed error naming it.
@Suite struct ConfigurationTests {
    @Test func defaultsAreValid() throws {
        try ServiceConfiguration().validate()
    }

    @Test(arguments: [
        (ServiceConfiguration.Setting.port, 70000, 0...65535),
        (.threads, 0, 1...Int(UInt32.max)),
        (.connectionTimeout, 0, 1...Int(UInt32.max)),
        (.sendTimeout, 0, 1...Int(UInt32.max)),
        (.shutdownGracePeriod, -2, 0...Int.max),
        (.computeQueueLimit, -1, 0...Int.max),
        (.memoryBudget, 0, 1...Int.max),
        // Review counter-examples: a body limit of 0 (every POST would get 413), connection limits that overflowed
        // the default budget's arithmetic before they were checked, a body limit whose estimate overflowed.
        (.maxBodyBytes, 0, 1...(1 << 40)),
        (.maxBodyBytes, Int.max, 1...(1 << 40)),
        (.connectionLimit, Int.max, 1...Int(UInt32.max)),
        (.connectionLimit, Int.min, 1...Int(UInt32.max)),
        (.compressionLevel, 10, 0...9),
        (.compressionLevel, -1, 0...9),
        (.compressionThreshold, -1, 0...Int.max),
    ])
    func validationNamesTheSettingAndItsRange(setting: ServiceConfiguration.Setting, value: Int, allowed: ClosedRange<Int>) {
        var configuration = ServiceConfiguration()
        switch setting {
        case .port: configuration.port = value
        case .threads: configuration.threads = value
        case .connectionTimeout: configuration.connectionTimeout = .seconds(value)
        case .sendTimeout: configuration.sendTimeout = .seconds(value)
        case .shutdownGracePeriod: configuration.shutdownGracePeriod = .seconds(value)
        case .computeQueueLimit: configuration.computeQueueLimit = value
        case .memoryBudget: configuration.memoryBudget = value
        case .maxBodyBytes: configuration.maxBodyBytes = value
        case .connectionLimit: configuration.connectionLimit = value
        case .compressionLevel: configuration.compressionLevel = value
        case .compressionThreshold: configuration.compressionThreshold = value
        default: Issue.record("\(setting) is not set by this test")
        }
        #expect(allowed == setting.allowed)
        #expect(throws: ServiceConfiguration.Invalid.outOfRange(setting, value: value, allowed: allowed)) {
            try configuration.validate()
        }
    }

    /// A negative fraction of a second is below the range, not rounded up into it.
    @Test func aNegativeFractionOfASecondIsOutOfRange() {
        var configuration = ServiceConfiguration()
        configuration.shutdownGracePeriod = .milliseconds(-500)
        #expect(throws: ServiceConfiguration.Invalid.outOfRange(.shutdownGracePeriod, value: -1, allowed: 0...Int.max)) {
            try configuration.validate()
        }
    }

    /// The largest budget is sized without overflow, and holds the default body limit.
    @Test func theLargestBudgetIsValid() throws {
        var configuration = ServiceConfiguration()
        configuration.memoryBudget = Int.max
        try configuration.validate()
        #expect(ServiceConfiguration.largestBody(budget: Int.max) == ServiceConfiguration.Setting.maxBodyBytes.allowed.upperBound)
    }

    /// The memory reserved for a request comes from its route in the one route table.
    @Test func eachRouteReservesItsOwnMemory() {
        let fixed = RequestMemory.fixedBytes
        #expect(RequestMemory.estimate(method: "POST", path: "/diff", bodyBytes: 1000) == fixed + 14_000)
        // Above 4 MiB the large-body factor, but never less than the largest small body's.
        let small = RequestMemory.smallBodyBytes
        #expect(RequestMemory.estimate(method: "POST", path: "/diff", bodyBytes: small + 1) == fixed + 14 * small)
        #expect(RequestMemory.estimate(method: "POST", path: "/diff", bodyBytes: 16 << 20) == fixed + 160 << 20)
        #expect(RequestMemory.estimate(method: "POST", path: "/layout", bodyBytes: 1000) == fixed + 10_000)
        #expect(RequestMemory.estimate(method: "GET", path: "/openapi.yaml", bodyBytes: 0) == fixed + OpenAPIDocument.bytes.count)
        #expect(RequestMemory.estimate(method: "GET", path: "/nowhere", bodyBytes: 10) == fixed + 10)
        #expect(RequestMemory.estimate(method: "OPTIONS", path: "/diff", bodyBytes: 1000) == fixed + 1000)
        #expect(RequestMemory.estimate(method: "HEAD", path: "/openapi.yaml", bodyBytes: 0) == fixed + OpenAPIDocument.bytes.count)
        // The largest of every route's: /diff's (14x a body of at most 4 MiB) at any real body limit, the largest
        // fixed answer's (the OpenAPI document or the playground's script) for tiny ones; with the state of a gzip
        // body's decoder.
        let decoder = ContentCoding.decoderBytes
        #expect(RequestMemory.largest(maxBodyBytes: 1 << 20) == fixed + 14 << 20 + decoder)
        let largestFixedAnswer = [OpenAPIDocument.bytes, PlaygroundPage.html.bytes, PlaygroundPage.script.bytes,
                                  PlaygroundPage.styleSheet.bytes].map(\.count).max()!
        #expect(RequestMemory.largest(maxBodyBytes: 0) == fixed + largestFixedAnswer + decoder)
    }

    /// Every compression level is valid, 0 (none) included.
    @Test(arguments: 0...9)
    func compressionLevelsAreValid(level: Int) throws {
        var configuration = ServiceConfiguration()
        configuration.compressionLevel = level
        try configuration.validate()
    }

    @Test func aShortCursorSecretIsNamedByItsPosition() {
        var configuration = ServiceConfiguration()
        configuration.cursorSecrets = ["0123456789abcdef", "short"]
        #expect(throws: ServiceConfiguration.Invalid.cursorSecretTooShort(position: 2, count: 2, length: 5)) {
            try configuration.validate()
        }
    }

    @Test(arguments: [
        ("", "", CORSPolicy.OriginDefect.empty),
        ("https://a.example,,https://b.example", "", .empty),
        ("*,https://app.example.com", "*", .wildcardAmongOrigins),
        ("app.example.com", "app.example.com", .notAnOrigin),
        ("https://", "https://", .notAnOrigin),
        ("https://app example.com", "https://app example.com", .notAnOrigin),
        ("https://app.example.com:99999", "https://app.example.com:99999", .notAnOrigin),
        ("https://app.example.com:", "https://app.example.com:", .notAnOrigin),
        ("https://[::1", "https://[::1", .notAnOrigin),
        ("https://app.example.com/", "https://app.example.com/", .hasPath),
        ("https://app.example.com/app", "https://app.example.com/app", .hasPath),
        ("https://app.example.com:443", "https://app.example.com:443", .defaultPort(443)),
        ("http://localhost:80", "http://localhost:80", .defaultPort(80)),
        ("null", "null", .opaque),
    ])
    func aCORSOriginListNamesItsFirstEntryThatIsNoOrigin(list: String, entry: String, defect: CORSPolicy.OriginDefect) {
        #expect(throws: ServiceConfiguration.Invalid.invalidCORSOrigin(entry, defect)) { try CORSPolicy(parsing: list) }
    }

    @Test(arguments: [
        ("*", CORSPolicy.AllowedOrigins.any),
        (" https://app.example.com , http://localhost:5173", .only(["https://app.example.com", "http://localhost:5173"])),
        ("HTTPS://App.Example.com", .only(["https://app.example.com"])),
        ("http://[::1]:8080,http://127.0.0.1:3000", .only(["http://[::1]:8080", "http://127.0.0.1:3000"])),
        ("https://app.example.com:8443", .only(["https://app.example.com:8443"])),
    ])
    func aCORSOriginListParses(list: String, origins: CORSPolicy.AllowedOrigins) throws {
        #expect(try CORSPolicy(parsing: list).allowedOrigins == origins)
    }

    /// A policy built in code is checked by the one validation too.
    @Test func validationChecksTheCORSOrigins() {
        var configuration = ServiceConfiguration()
        configuration.cors = CORSPolicy(allowedOrigins: .only(["https://app.example.com/"]))
        #expect(throws: ServiceConfiguration.Invalid.invalidCORSOrigin("https://app.example.com/", .hasPath)) {
            try configuration.validate()
        }
        configuration.cors = CORSPolicy(allowedOrigins: .only([]))
        #expect(throws: ServiceConfiguration.Invalid.invalidCORSOrigin("", .empty)) { try configuration.validate() }
    }

    /// The server's own check is the same table: a configuration the service accepts, the HTTP layer accepts.
    @Test func theHTTPLayerChecksTheSameRanges() {
        for setting in HTTPServer.Configuration.Setting.allCases {
            #expect(setting.allowed.contains(HTTPServer.Configuration().value(of: setting)), "\(setting)")
        }
    }
}
