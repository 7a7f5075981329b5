// In-process cost of answering POST /diff (read, diff, write), without HTTP:
//
//     python3 Benchmarks/service/make_requests.py /tmp && swift run -c release diffservice-benchmark /tmp
//
//     valgrind --tool=callgrind .build/release/diffservice-benchmark /tmp --profile 500   (instruction counts)
//
// Prints µs per small (~10 KB) request and ms per large (~25 MB) request, median and minimum.

import DiffService
import Foundation
import ListDiff
import Logging
import MicroHTTP
import SnapshotJSON

let directory = CommandLine.arguments.dropFirst().first { !$0.hasPrefix("--") } ?? "/tmp"
let smallOnly = CommandLine.arguments.contains("--small-only")

/// Peak and current resident memory of this process, in MiB.
func memory() -> String {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    func field(_ name: String) -> Int {
        Int(status.split(separator: "\n").first { $0.hasPrefix(name) }?.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return "RSS \(field("VmRSS:") / 1024) MiB, peak \(field("VmHWM:") / 1024) MiB"
}

if CommandLine.arguments.contains("--memory") {
    let body = load("large.json")
    print("body \(body.count / 1_048_576) MiB loaded: \(memory())")
    let request = try! parseDiffRequest(body)
    print("parsed: \(memory())")
    let difference = try! SectionedDifference(from: request.old.sections, to: request.new.sections)
    print("diffed: \(memory())")
    let staged = difference.staged
    print("staged (\(staged.count) stages): \(memory())")
    let response = DiffEndpoint.respond(to: body)
    print("whole endpoint again (\(response.body.count) bytes out): \(memory())")
    exit(0)
}

func load(_ name: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: "\(directory)/\(name)") else {
        fatalError("no \(directory)/\(name): run Benchmarks/service/make_requests.py \(directory) first")
    }
    var bytes = [UInt8]()
    bytes.reserveCapacity(data.count + 64)  // as the server reads bodies: with simdjson's padding
    bytes.append(contentsOf: data)
    return bytes
}

func measure(repeats: Int, runs: Int = 7, _ body: () -> Void) -> (median: Double, minimum: Double) {
    body()
    var seconds: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let start = clock.now
        for _ in 0..<repeats { body() }
        let elapsed = start.duration(to: clock.now)
        seconds.append((Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18) / Double(repeats))
    }
    seconds.sort()
    return (seconds[seconds.count / 2], seconds[0])
}

let small = load("small.json")
var status = 0
let profiling = CommandLine.arguments.contains("--profile")
let smallTiming = measure(repeats: profiling ? 1 : 2000, runs: profiling ? 1 : 7) { status = DiffEndpoint.respond(to: small).status }
print(String(format: "small (%d bytes): median %.1f µs  min %.1f µs  (status %d)", small.count, smallTiming.median * 1e6, smallTiming.minimum * 1e6, status))
// The whole service as a worker thread runs it, HTTP aside: routing, Content-Type check, request id, metrics,
// the log call (at the benchmark's level, error, as Benchmarks/service/run.sh runs the server).
var quiet = Logger(label: "benchmark")
quiet.logLevel = .error
let service = ServiceRouter(logger: quiet)
let request = HTTPRequest(
    method: "POST", path: "/diff",
    headers: ["host": "127.0.0.1:18180", "content-type": "application/json", "content-length": "\(small.count)"],
    body: small)
if let flag = CommandLine.arguments.firstIndex(of: "--profile"), let count = Int(CommandLine.arguments[flag + 1]) {
    // A fixed amount of work for a profiler: `valgrind --tool=callgrind … --profile 500` counts instructions.
    for _ in 0..<count { status = service.respond(to: request).status }
    print("profiled \(count) requests through ServiceRouter.respond (status \(status))")
    exit(0)
}
let serviceTiming = measure(repeats: 2000) { status = service.respond(to: request).status }
print(String(format: "small through ServiceRouter.respond: median %.1f µs  min %.1f µs  (status %d)", serviceTiming.median * 1e6, serviceTiming.minimum * 1e6, status))
if smallOnly { exit(0) }
let large = load("large.json")
let largeTiming = measure(repeats: 1, runs: 5) { status = DiffEndpoint.respond(to: large).status }
print(String(format: "large (%d bytes): median %.1f ms  min %.1f ms  (status %d)", large.count, largeTiming.median * 1e3, largeTiming.minimum * 1e3, status))
