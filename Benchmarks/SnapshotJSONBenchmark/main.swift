// Measures parseDiffRequest against Foundation's JSONSerialization on a generated ~25 MB request.
// Run: swift run -c release snapshotjson-bench [items-per-snapshot] [runs] [--no-baseline]
import Foundation
import SnapshotJSON

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let skipBaseline = CommandLine.arguments.contains("--no-baseline")
let itemsPerSnapshot = arguments.first ?? 100_000
let runs = max(5, arguments.dropFirst().first ?? 7)

let body = RequestGenerator(itemsPerSnapshot: itemsPerSnapshot).body()
let megabytes = Double(body.count) / 1_000_000
print("input: \(itemsPerSnapshot) items per snapshot, \(body.count) bytes (\(String(format: "%.1f", megabytes)) MB), \(runs) runs")
print("machine: \(Machine.cpuModel), \(ProcessInfo.processInfo.activeProcessorCount) cores")

func measure(_ label: String, _ work: () throws -> Void) rethrows {
    var seconds: [Double] = []
    for _ in 0 ..< runs {
        let start = ContinuousClock.now
        try work()
        let elapsed = ContinuousClock.now - start
        seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    seconds.sort()
    let median = seconds[seconds.count / 2], best = seconds[0]
    print(label.padding(toLength: 42, withPad: " ", startingAt: 0)
          + String(format: "median %7.1f MB/s (%6.1f ms)   best %7.1f MB/s (%6.1f ms)",
                   megabytes / median, median * 1000, megabytes / best, best * 1000))
}

var padded = body
padded.reserveCapacity(body.count + DiffRequest.requiredPadding)
var checksum = 0
let residentBefore = Machine.peakResidentMegabytes
try measure("parseDiffRequest (padded body, in place)") {
    let request = try parseDiffRequest(padded)
    checksum &+= request.old.itemCount + request.new.itemCount
}
let residentAfter = Machine.peakResidentMegabytes
print("peak RSS: \(residentBefore) MB before parsing (generator + 2 copies of the body), "
      + "\(residentAfter) MB after (+\(residentAfter - residentBefore) MB for a parse and its result)")
let unpadded = Array(body)  // exact capacity: parseDiffRequest copies it
try measure("parseDiffRequest (unpadded body, copied)") {
    let request = try parseDiffRequest(unpadded.capacity > unpadded.count + 63 ? Array(unpadded) : unpadded)
    checksum &+= request.old.itemCount
}

let data = Data(body)
if !skipBaseline { try measure("JSONSerialization.jsonObject (baseline)") {
    let object = try JSONSerialization.jsonObject(with: data)
    checksum &+= (object as? [String: Any])?.count ?? 0
}
print("peak RSS after JSONSerialization: \(Machine.peakResidentMegabytes) MB") }
print("checksum \(checksum)")
