import DiffService
import Foundation
import Testing

/// What a run of the binary gave.
private struct Run {
    var status: Int32
    var output: String
    var error: String
}

/// The `snapdiff` binary SwiftPM built next to this test bundle.
private let binary: URL = {
    let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("snapdiff")
}()

/// Runs `snapdiff` with arguments and extra environment variables, optionally stopping it with SIGTERM once
/// its standard error contains `stopAfter`.
private func snapdiff(
    _ arguments: [String], environment: [String: String] = [:], stopAfter marker: String? = nil
) throws -> Run {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    var variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SNAPDIFF_") }
    variables.merge(environment) { $1 }
    process.environment = variables
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // A run that should end but does not (a server started by a check that let a bad value through, a marker
    // that never comes) is killed after a minute, so the test fails instead of hanging.
    let watchdog = DispatchWorkItem { [process] in
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
    defer { watchdog.cancel() }
    var errorText = Data()
    if let marker {
        while !String(decoding: errorText, as: UTF8.self).contains(marker) {
            let chunk = error.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            errorText += chunk
        }
        process.terminate()
    }
    let outputText = output.fileHandleForReading.readDataToEndOfFile()
    errorText += error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
        status: process.terminationStatus, output: String(decoding: outputText, as: UTF8.self),
        error: String(decoding: errorText, as: UTF8.self))
}

/// The command line's documented behaviour (issue 15), run as a user runs it. Each test has its own scratch
/// directory for the files it writes, removed when the test ends.
@Suite final class CommandLineTests {
    private let scratch: URL

    init() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("snapdiff-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// A file named `name` holding `text`, in the test's scratch directory.
    private func file(_ name: String, _ text: String) throws -> String {
        let url = scratch.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func versionPrintsTheReleaseVersion() throws {
        let run = try snapdiff(["--version"])
        #expect(run.status == 0)
        #expect(run.output == "\(ServiceInfo.version)\n")
    }

    @Test func mistypedSubcommandNamesTheSubcommands() throws {
        let run = try snapdiff(["dif", "a.json", "b.json"])
        #expect(run.status == 64)
        #expect(run.error.contains("unknown subcommand 'dif'"), "\(run.error)")
        #expect(run.error.contains("serve, diff, healthcheck"))
        #expect(!run.error.contains("--max-body-bytes"), "not serve's usage")
    }

    @Test(arguments: [
        (["serve", "--port", "99999"], [:], "port 99999"),
        (["serve", "--threads", "0"], [:], "--threads 0 (env SNAPDIFF_THREADS) is not in 1…"),
        (["serve"], ["SNAPDIFF_CONNECTION_TIMEOUT": "0"], "--connection-timeout 0 (env SNAPDIFF_CONNECTION_TIMEOUT) is not in 1…"),
        (["serve", "--memory-budget", "0"], [:], "--memory-budget 0 (env SNAPDIFF_MEMORY_BUDGET) is not in 1…"),
        (["serve"], ["SNAPDIFF_PORT": "abc"], "SNAPDIFF_PORT=abc"),
        (["serve", "--log-level", "loud"], [:], "log level loud"),
        (["serve"], ["SNAPDIFF_CURSOR_KEY": "0123456789abcdef,short"], "cursor key 2 of 2 has 5 characters"),
        (["serve"], ["SNAPDIFF_CURSOR_KEY": "0123456789abcdef,"], "cursor key 2 of 2 has 0 characters"),
        (["serve", "--cors-allow-origin", "https://app.example.com/"], [:],
         #"--cors-allow-origin (env SNAPDIFF_CORS_ALLOW_ORIGIN): "https://app.example.com/" has a path"#),
        (["serve"], ["SNAPDIFF_CORS_ALLOW_ORIGIN": "*,https://app.example.com"], #""*" is *, which must stand alone"#),
        (["serve", "--port", "8080", "--probe-port", "8080"], [:],
         "--probe-port 8080 (env SNAPDIFF_PROBE_PORT) is the service's --port"),
        (["serve"], ["SNAPDIFF_PROBE_PORT": "70000"], "--probe-port 70000 (env SNAPDIFF_PROBE_PORT) is not in 0…65535"),
        (["serve"], ["SNAPDIFF_PROBE_PORT": "x"], "SNAPDIFF_PROBE_PORT=x is not an integer"),
    ])
    func badFlagsPrintTheSubcommandsUsage(arguments: [String], environment: [String: String], message: String) throws {
        let run = try snapdiff(arguments, environment: environment)
        #expect(run.status == 64)
        #expect(run.error.contains(message), "\(run.error)")
        #expect(run.error.contains("Usage: snapdiff serve"), "\(run.error)")
    }

    @Test func logLevelIsCaseInsensitive() throws {
        let run = try snapdiff(
            ["serve", "--port", "0", "--log-level", "INFO", "--shutdown-grace", "0"], stopAfter: "\"level\":\"info\"")
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("\"level\":\"info\""), "\(run.error)")
    }

    @Test func withoutACursorKeyServeWarnsThatCursorsStayOnThisProcess() throws {
        let run = try snapdiff(["serve", "--port", "0", "--shutdown-grace", "0"], stopAfter: "SNAPDIFF_CURSOR_KEY is not set")
        #expect(run.status == 0, "\(run.error)")
        let line = run.error.split(separator: "\n").first { $0.contains("SNAPDIFF_CURSOR_KEY is not set") }
        #expect(line?.contains("\"level\":\"warning\"") == true, "\(run.error)")
        #expect(line?.contains("only on this process") == true, "\(run.error)")
    }

    @Test func withACursorKeyListServeDoesNotWarn() throws {
        let run = try snapdiff(
            ["serve", "--port", "0", "--shutdown-grace", "0"],
            environment: ["SNAPDIFF_CURSOR_KEY": "the-new-key-0123456789,the-old-key-0123456789"], stopAfter: "\"listening\"")
        #expect(run.status == 0, "\(run.error)")
        #expect(!run.error.contains("SNAPDIFF_CURSOR_KEY is not set"), "\(run.error)")
        #expect(!run.error.contains("example key"), "\(run.error)")
    }

    /// The README's example key is accepted (its examples need it) with a warning that it is public.
    @Test func theReadmesExampleKeyIsAcceptedWithAWarning() throws {
        let run = try snapdiff(
            ["serve", "--port", "0", "--shutdown-grace", "0"],
            environment: ["SNAPDIFF_CURSOR_KEY": "a-secret-of-our-own-0123456789,readme-example-key-not-a-secret"],
            stopAfter: "\"listening\"")
        #expect(run.status == 0, "\(run.error)")
        let line = run.error.split(separator: "\n").first { $0.contains("example key") }
        #expect(line?.contains("\"level\":\"warning\"") == true, "\(run.error)")
        #expect(line?.contains("key 2 of 2") == true, "\(run.error)")
        #expect(line?.contains("forge") == true, "\(run.error)")
    }

    @Test func serveLogsTheProbePortItListensOn() throws {
        let run = try snapdiff(
            ["serve", "--port", "0", "--shutdown-grace", "0"], environment: ["SNAPDIFF_PROBE_PORT": "0"],
            stopAfter: "\"listening\"")
        #expect(run.status == 0, "\(run.error)")
        let line = try #require(run.error.split(separator: "\n").first { $0.contains("\"listening\"") })
        let port = line.firstRange(of: "\"probe_port\":").map { line[$0.upperBound...].prefix { $0.isNumber } }  // a number
        #expect(port.flatMap { Int($0) }.map { $0 > 0 } == true, "\(line)")
    }

    @Test func serveHelpDocumentsCursorKeyRotation() throws {
        let run = try snapdiff(["serve", "--help"])
        #expect(run.output.contains("SNAPDIFF_CURSOR_KEY"))
        #expect(run.output.contains("new,old"), "\(run.output)")
        #expect(run.output.contains("random key"), "\(run.output)")
    }

    @Test func serveHelpListsEveryRoute() throws {
        let run = try snapdiff(["serve", "--help"])
        #expect(run.status == 0)
        for route in ["/diff", "/layout", "/healthz", "/readyz", "/metrics", "/openapi.yaml"] {
            #expect(run.output.contains(route), "\(route) missing from \(run.output)")
        }
    }

    @Test func missingFileExitsOneWithItsReason() throws {
        let existing = try file("new.json", #"{"items": []}"#)
        let missing = existing.replacingOccurrences(of: "new.json", with: "absent.json")
        let run = try snapdiff(["diff", missing, existing])
        #expect(run.status == 1)
        #expect(run.error == "snapdiff: cannot read \(missing): No such file or directory\n", "\(run.error)")
    }

    @Test func malformedFileNoteIsInTheUsersFile() throws {
        let old = try file("old.json", #"{"items": []}"#)
        let new = try file("new.json", "{\"items\": [\n  {\"id\": 1},\n]}\n")
        let run = try snapdiff(["diff", old, new])
        #expect(run.status == 1)
        #expect(run.error == "snapdiff: \(new) line 3, column 1: expected a JSON value\n", "\(run.error)")
        #expect(run.output.contains(#""line":3,"column":1"#), "\(run.output)")
    }

    @Test func emptyFileNoteNamesTheFile() throws {
        let old = try file("old.json", "")
        let new = try file("new.json", #"{"items": []}"#)
        let run = try snapdiff(["diff", old, new])
        #expect(run.status == 1)
        #expect(run.error == "snapdiff: \(old) is empty; expected a JSON object\n", "\(run.error)")
    }

    @Test(arguments: [
        (["--sequential"], #"{"renderings": ["sequential"]}"#),
        (["--ranges", "--ids"], #"{"renderings": ["ranges"], "ids": true}"#),
        (["--sequential", "--ranges"], #"{"renderings": ["sequential", "ranges"]}"#),
    ])
    func validFilesDiffAsTheEndpointDoes(flags: [String], options: String) throws {
        let old = try file("old.json", #"{"items": [{"id": 1}, {"id": 2}]}"#)
        let new = try file("new.json", #"{"items": [{"id": 2}, {"id": 1}, {"id": 3}, {"id": 4}]}"#)
        let run = try snapdiff(["diff", old, new] + flags)
        #expect(run.status == 0, "\(run.error)")
        let body = #"{"old": {"items": [{"id": 1}, {"id": 2}]}, "new": {"items": [{"id": 2}, {"id": 1}, {"id": 3}, {"id": 4}]}, "options": \#(options)}"#
        #expect(run.output == String(decoding: DiffEndpoint.respond(to: Array(body.utf8)).body, as: UTF8.self) + "\n")
    }

    @Test func jsonPatchAndChangedMembersFlagsAskForThem() throws {
        let old = try file("old.json", #"{"items": [{"id": 1, "v": 1}, {"id": 2}]}"#)
        let new = try file("new.json", #"{"items": [{"id": 2}, {"id": 1, "v": 2}]}"#)
        let run = try snapdiff(["diff", old, new, "--json-patch", "--changed-members"])
        #expect(run.status == 0, "\(run.error)")
        let body = #"{"old": {"items": [{"id": 1, "v": 1}, {"id": 2}]}, "new": {"items": [{"id": 2}, {"id": 1, "v": 2}]}, "options": {"renderings": ["jsonPatch"], "changedMembers": true}}"#
        #expect(run.output == String(decoding: DiffEndpoint.respond(to: Array(body.utf8)).body, as: UTF8.self) + "\n")
        #expect(run.output.contains(#"{"op":"replace","path":"/items/1/v","value":2}"#), "\(run.output)")
    }
}
