import DiffService
import Foundation
import MicroHTTP
import Testing

/// Every committed fuzzing input — the seeds and minimized corpus in `Fuzz/corpus` and the crash
/// reproducers in `Fuzz/regressions` — answered by both endpoints without a server error, as
/// `scripts/fuzz` checks them (HARDENING.md): a 200 with a JSON object, or a 4xx problem.
@Suite struct FuzzRegressionTests {
    private static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The inputs of one folder of `Fuzz/`, by file name; none when the folder does not exist.
    private static func inputs(in folder: String) -> [String] {
        let url = fuzzFolder.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(folder)/\($0)" }
    }

    /// The bytes of a file. (Not `Data(contentsOf:)`: on an empty file it leaks a 4 KiB buffer, which
    /// LeakSanitizer reports under `swift test --sanitize=address`.)
    private static func contents(of path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw CocoaError(.fileReadNoSuchFile) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                if count < 0 { throw CocoaError(.fileReadUnknown) }
                return bytes
            }
            bytes += chunk[..<count]
        }
    }

    static let allInputs = inputs(in: "corpus") + inputs(in: "regressions")

    @Test func corpusIsPresent() {
        #expect(Self.allInputs.count >= 20, "expected the committed seeds in \(Self.fuzzFolder.path)/corpus")
    }

    @Test(arguments: allInputs)
    func answersWithoutServerError(_ input: String) throws {
        let body = try Self.contents(of: Self.fuzzFolder.appendingPathComponent(input).path)
        let cursors = CursorCodec(secret: "readme-example-key-not-a-secret")  // the fuzz target's: the corpus' cursors open
        for (route, response) in [
            ("/diff", DiffEndpoint.respond(to: body, cursors: cursors)),
            ("/layout", LayoutEndpoint.respond(to: body, cursors: cursors)),
        ] {
            #expect(response.status == 200 || (400..<500).contains(response.status), "\(route): \(response.status)")
            let answer = try JSON(parsing: response.body)
            if response.status == 200 {
                #expect(response.headers["Content-Type"] == "application/json", "\(route)")
            } else {
                #expect(response.headers["Content-Type"] == "application/problem+json", "\(route)")
                #expect(answer["status"] == .integer(response.status), "\(route)")
                #expect(answer["instance"] == .string(route), "\(route)")
                #expect(answer["type"]?.string != nil && answer["detail"]?.string != nil, "\(route)")
            }
            #expect(!answer.keys.isEmpty, "\(route): the body is a non-empty JSON object")
        }
    }
}
