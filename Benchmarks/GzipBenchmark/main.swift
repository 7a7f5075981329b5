// What gzip costs and saves on a /diff request and its changeset:
//
//     python3 Benchmarks/service/make_requests.py /tmp/req && swift run -c release gzip-benchmark /tmp/req/medium.json
//
// Answers the request in process (ServiceRouter, no HTTP), then compresses the request and the changeset at
// levels 1, 6 and 9 and decompresses them, each `runs` times (default 9). Prints the sizes and ratios, and the
// CPU time (this thread's, not the wall clock: the machine is shared) per MB of uncompressed data, median and
// minimum.

import DiffService
import Foundation
import Gzip
import MicroHTTP

let path = CommandLine.arguments.dropFirst().first ?? "/tmp/req/medium.json"
let runs = CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 9
guard let data = FileManager.default.contents(atPath: path) else {
    print("no request at \(path); make one with: python3 Benchmarks/service/make_requests.py /tmp/req")
    exit(1)
}
let request = [UInt8](data)
let answer = ServiceRouter().respond(
    to: HTTPRequest(method: "POST", path: "/diff", headers: ["Content-Type": "application/json"], body: request))
guard answer.status == 200 else {
    print("the request was answered \(answer.status): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
    exit(1)
}

/// This thread's CPU time, in seconds.
func cpuSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Median and minimum CPU milliseconds per MB (10^6 bytes) of `bytes` over `runs` runs of `work`.
func cost(per bytes: Int, _ work: () throws -> Void) rethrows -> String {
    var perMB: [Double] = []
    for _ in 0..<runs {
        let start = cpuSeconds()
        try work()
        perMB.append((cpuSeconds() - start) * 1000 / (Double(bytes) / 1e6))
    }
    perMB.sort()
    return String(format: "%.2f (min %.2f)", perMB[perMB.count / 2], perMB[0])
}

let process = ProcessInfo.processInfo
print("\(process.activeProcessorCount) cores, \(process.physicalMemory >> 30) GiB, \(process.operatingSystemVersionString), zlib \(GzipCodec.libraryVersion)")
print("\(path): request \(request.count) bytes, changeset \(answer.body.count) bytes; CPU ms per MB, median of \(runs)")
print("| data | level | gzipped bytes | ratio | compress ms/MB | decompress ms/MB |")
print("|---|---|---|---|---|---|")
for (name, bytes) in [("request", request), ("changeset", answer.body)] {
    for level in [1, 6, 9] {
        let compressed = try GzipCodec.compress(bytes, level: level)
        let roundTrip = try GzipCodec.decompress(compressed)
        precondition(roundTrip == bytes)
        let compressing = try cost(per: bytes.count) { _ = try GzipCodec.compress(bytes, level: level) }
        let decompressing = try cost(per: bytes.count) { _ = try GzipCodec.decompress(compressed) }
        let ratio = String(format: "%.2f×", Double(bytes.count) / Double(compressed.count))
        print("| \(name) | \(level) | \(compressed.count) | \(ratio) | \(compressing) | \(decompressing) |")
    }
}
