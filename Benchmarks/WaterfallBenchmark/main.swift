// A release-build benchmark of the Waterfall engine:
//
//     swift run -c release waterfall-benchmark [--runs N]
//
// It lays out 100,000 items at once for each strategy, then one page of 50 items continuing from a
// continuation taken after page 1, page 100 and page 1,999: the three must cost the same (a page never
// re-lays out earlier pages). It prints the machine, the median and minimum over the runs.

import Foundation
import Waterfall

let runs: Int = {
    guard let flag = CommandLine.arguments.firstIndex(of: "--runs"), flag + 1 < CommandLine.arguments.count,
        let value = Int(CommandLine.arguments[flag + 1])
    else { return 7 }
    return max(5, value)
}()

/// A deterministic mix of photos: aspect ratios, model sizes, captions and an occasional full-width item.
func items(_ count: Int) -> [WaterfallItem] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
    return (0..<count).map { index in
        let size: ItemSize = index % 3 == 0
            ? .size(width: ExactDecimal(Int(600 + next() % 900)), height: ExactDecimal(Int(600 + next() % 900)))
            : .aspectRatio(ExactDecimal(0.5 + Double(next() % 150) / 100))
        return WaterfallItem(size: size, extraHeight: ExactDecimal(Int(next() % 3) * 12), isFullWidth: index % 500 == 499)
    }
}

func measure(runs: Int = runs, _ body: () throws -> Void) rethrows -> (median: Double, minimum: Double) {
    try body()
    var seconds: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let start = clock.now
        try body()
        let elapsed = start.duration(to: clock.now)
        seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }
    seconds.sort()
    return (seconds[seconds.count / 2], seconds[0])
}

func report(_ name: String, _ timing: (median: Double, minimum: Double), unit: Double = 1000, suffix: String = "ms") {
    print(
        name.padding(toLength: 60, withPad: " ", startingAt: 0)
            + String(format: " median %9.3f %@  min %9.3f %@", timing.median * unit, suffix, timing.minimum * unit, suffix))
}

let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?
    .trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
print("# waterfall-benchmark")
print("machine: \(model), \(ProcessInfo.processInfo.activeProcessorCount) cores; \(runs) runs after one warm-up; release build")

let all = items(100_000)
var settings = WaterfallSettings(
    containerWidth: 390, scale: 3, columns: .count(3), columnSpacing: 8, itemSpacing: 8,
    insets: EdgeInsets(top: 8, leading: 12, bottom: 8, trailing: 12))
print("\n## 100,000 items at once, 3 columns (every 500th full width)")
for strategy in LayoutStrategy.allCases {
    settings.strategy = strategy
    var placed = 0
    let timing = try measure { placed = try WaterfallLayout.layout(all, settings: settings).items.count }
    report("\(strategy.rawValue) (\(placed) placed)", timing)
}

print("\n## one page of 50 items continuing from a continuation (shortestColumn)")
settings.strategy = .shortestColumn
let pageSize = 50
var continuations: [Int: Continuation] = [:]
var continuation: Continuation?
for page in 0..<1999 {
    let start = page * pageSize
    continuation = try WaterfallLayout.layout(
        Array(all[start..<(start + pageSize)]), settings: settings, after: continuation).continuation
    if [0, 99, 1998].contains(page) { continuations[page + 1] = continuation }
}
for page in [1, 100, 1999] {
    let start = page * pageSize
    let pageItems = Array(all[start..<min(all.count, start + pageSize)])
    let from = continuations[page]
    let timing = try measure {
        _ = try WaterfallLayout.layout(pageItems, settings: settings, after: from)
    }
    report("page \(page + 1) (items \(start)…\(start + pageItems.count - 1))", timing, unit: 1e6, suffix: "µs")
}
