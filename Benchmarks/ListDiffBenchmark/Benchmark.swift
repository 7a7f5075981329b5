import Foundation
import ListDiff
import TestSupport

/// An item of the benchmark: a string id and a content value.
struct BenchItem: Differentiable, Hashable, Sendable {
    var id: String
    var content: Int

    var differenceIdentifier: String { id }
    func isContentEqual(to source: BenchItem) -> Bool { content == source.content }
}

/// A ``BenchItem`` whose id is also numbered, as the service's parser numbers ids: the matching indexes an
/// array instead of hashing strings.
struct NumberedBenchItem: IdentityNumbered, Hashable, Sendable {
    var item: BenchItem
    var identityNumber: Int

    var differenceIdentifier: String { item.id }
    func isContentEqual(to source: NumberedBenchItem) -> Bool { item.isContentEqual(to: source.item) }

    /// Both lists with their ids numbered in order of first appearance, source first, each as one section: only
    /// the sectioned initializer matches by number (the flat one wraps its lists in a section of plain
    /// `Differentiable` elements, and hashes their ids), and the service's snapshots are sections.
    static func numberedSections(_ source: [BenchItem], _ target: [BenchItem])
        -> ([ArraySection<String, NumberedBenchItem>], [ArraySection<String, NumberedBenchItem>])
    {
        let (numberedSource, numberedTarget) = numbered(source, target)
        return ([ArraySection(model: "", elements: numberedSource)], [ArraySection(model: "", elements: numberedTarget)])
    }

    /// Both lists with their ids numbered in order of first appearance, source first.
    static func numbered(_ source: [BenchItem], _ target: [BenchItem]) -> ([NumberedBenchItem], [NumberedBenchItem]) {
        var numbers: [String: Int] = [:]
        func number(_ items: [BenchItem]) -> [NumberedBenchItem] {
            items.map { item in
                let number = numbers[item.id] ?? numbers.count
                numbers[item.id] = number
                return NumberedBenchItem(item: item, identityNumber: number)
            }
        }
        let numberedSource = number(source)
        return (numberedSource, number(target))
    }
}

/// The benchmark driver.
enum Benchmark {
    struct Case {
        var count: Int
        var deleted: Int
        var inserted: Int
        var shuffled: Int
        var name: String { "\(count)/\(deleted)/\(inserted)/\(shuffled)" }
    }

    static func main(arguments: [String]) {
        var runs = 7
        if let flag = arguments.firstIndex(of: "--runs"), flag + 1 < arguments.count, let value = Int(arguments[flag + 1]) {
            runs = max(5, value)
        }
        let slowBaseline100k = arguments.contains("--collection-difference-100k")
        if arguments.contains("--once-100k") {
            // One diff of the 100k case and nothing else: for instruction counts under
            // `valgrind --tool=callgrind '--toggle-collect=*diffOnce*'`, which stay the same on a busy machine.
            var generator = SplitMix(seed: 100_000)
            let (source, target) = makeLists(Case(count: 100_000, deleted: 10_000, inserted: 10_000, shuffled: 2_000), using: &generator)
            withExtendedLifetime((source, target)) {  // (freeing the lists is not the diff's work)
                print("moves: \(diffOnce(source, target))")
            }
            return
        }
        printMachine(runs: runs)
        measureSmall(runs: runs)
        for recipe in [
            Case(count: 5_000, deleted: 1_000, inserted: 1_000, shuffled: 200),
            Case(count: 100_000, deleted: 10_000, inserted: 10_000, shuffled: 2_000),
        ] {
            var generator = SplitMix(seed: UInt64(recipe.count))
            let (source, target) = makeLists(recipe, using: &generator)
            print("\n## \(recipe.name) (N/DEL/INS/SHUF), string ids, one content Int per item")

            var result: SectionedDifference?
            let flat = measure(runs: runs) { result = try! SectionedDifference(from: source, to: target) }
            report("ListDiff, one section", flat, counts: result?.counts)

            let (numberedSource, numberedTarget) = NumberedBenchItem.numberedSections(source, target)
            let numbered = measure(runs: runs) { result = try! SectionedDifference(from: numberedSource, to: numberedTarget) }
            report("ListDiff, one section, numbered ids", numbered, counts: result?.counts)

            let (sourceSections, targetSections) = makeSections(recipe, count: 10, using: &generator)
            let sectioned = measure(runs: runs) {
                result = try! SectionedDifference(from: sourceSections, to: targetSections)
            }
            report("ListDiff, ten sections, recipe at 1/10 scale in each", sectioned, counts: result?.counts)

            var renderedCount = 0
            let staged = measure(runs: runs) {
                let difference = try! SectionedDifference(from: source, to: target)
                renderedCount = difference.staged.reduce(0) { $0 + $1.changeCount }
            }
            report("ListDiff, one section + staged rendering", staged, note: "\(renderedCount) changes rendered")
            let sequential = measure(runs: runs) {
                let difference = try! SectionedDifference(from: source, to: target)
                renderedCount = difference.sequential.count
            }
            report("ListDiff, one section + sequential rendering", sequential, note: "\(renderedCount) operations")

            var probes = 0
            let floor = measure(runs: runs) { probes = dictionaryFloor(source, target) }
            report("baseline: floor (Dictionary of source ids, probed by target ids)", floor, note: "\(probes) found")
            print(String(format: "  ratio one section / floor: %.2f", flat.median / floor.median))

            if recipe.count <= 5_000 || slowBaseline100k {
                var moves = 0
                let swiftRuns = recipe.count <= 5_000 ? runs : 1
                let swift = measure(runs: swiftRuns) {
                    let difference = target.difference(from: source).inferringMoves()
                    moves = difference.removals.filter { if case .remove(_, _, let to) = $0 { to != nil } else { false } }.count
                }
                report("baseline: Swift CollectionDifference + inferringMoves (\(swiftRuns) runs)", swift, note: "\(moves) moves")
                print(String(format: "  ratio one section / CollectionDifference: %.4f", flat.median / swift.median))
            }
        }
    }

    /// Small diffs, the size of a typical request, where a diff's fixed costs (allocating its twenty-odd
    /// arrays) weigh most: each run times 1,000 diffs, so its milliseconds are microseconds per diff.
    static func measureSmall(runs: Int) {
        let recipe = Case(count: 50, deleted: 5, inserted: 5, shuffled: 4)
        var generator = SplitMix(seed: UInt64(recipe.count))
        let (source, target) = makeLists(recipe, using: &generator)
        print("\n## \(recipe.name) (N/DEL/INS/SHUF), string ids, 1,000 diffs a run (ms a run = µs a diff)")
        var result: SectionedDifference?
        let flat = measure(runs: runs) {
            for _ in 0..<1_000 { result = try! SectionedDifference(from: source, to: target) }
        }
        report("ListDiff, one section", flat, counts: result?.counts)
        let (numberedSource, numberedTarget) = NumberedBenchItem.numberedSections(source, target)
        let numbered = measure(runs: runs) {
            for _ in 0..<1_000 { result = try! SectionedDifference(from: numberedSource, to: numberedTarget) }
        }
        report("ListDiff, one section, numbered ids", numbered, counts: result?.counts)
        var renderedCount = 0
        let staged = measure(runs: runs) {
            for _ in 0..<1_000 {
                let difference = try! SectionedDifference(from: source, to: target)
                renderedCount = difference.staged.reduce(0) { $0 + $1.changeCount }
            }
        }
        report("ListDiff, one section + staged rendering", staged, note: "\(renderedCount) changes rendered")
        let sequential = measure(runs: runs) {
            for _ in 0..<1_000 {
                let difference = try! SectionedDifference(from: source, to: target)
                renderedCount = difference.sequential.count
            }
        }
        report("ListDiff, one section + sequential rendering", sequential, note: "\(renderedCount) operations")
    }

    /// The diff that `--once-100k` counts: its own function, for callgrind's `--toggle-collect=*diffOnce*`.
    @inline(never)
    static func diffOnce(_ source: [BenchItem], _ target: [BenchItem]) -> Int {
        try! SectionedDifference(from: source, to: target).counts.elementMoved
    }

    /// DifferenceKit's recipe with deterministic UUID-like ids.
    static func makeLists(_ recipe: Case, using generator: inout SplitMix) -> ([BenchItem], [BenchItem]) {
        func fresh() -> BenchItem { BenchItem(id: uuidString(&generator), content: Int(generator.next() % 1000)) }
        let source = (0..<recipe.count).map { _ in fresh() }
        var target = source
        target.removeSubrange((2 * recipe.deleted)..<(3 * recipe.deleted))
        target.insert(contentsOf: (0..<recipe.inserted).map { _ in fresh() }, at: 3 * recipe.deleted)
        var head = Array(target[0..<recipe.shuffled])
        head.shuffle(using: &generator)
        target.replaceSubrange(0..<recipe.shuffled, with: head)
        return (source, target)
    }

    static func uuidString(_ generator: inout SplitMix) -> String {
        let high = generator.next()
        let low = generator.next()
        let hex = String(high, radix: 16).leftPadded(16) + String(low, radix: 16).leftPadded(16)
        let characters = Array(hex.uppercased())
        return String(characters[0..<8]) + "-" + String(characters[8..<12]) + "-" + String(characters[12..<16]) + "-"
            + String(characters[16..<20]) + "-" + String(characters[20..<32])
    }

    /// Ten sections, each built with the recipe at a tenth of the scale.
    static func makeSections(_ recipe: Case, count: Int, using generator: inout SplitMix)
        -> ([ArraySection<String, BenchItem>], [ArraySection<String, BenchItem>])
    {
        let part = Case(
            count: recipe.count / count, deleted: recipe.deleted / count, inserted: recipe.inserted / count,
            shuffled: recipe.shuffled / count)
        var sources: [ArraySection<String, BenchItem>] = []
        var targets: [ArraySection<String, BenchItem>] = []
        for index in 0..<count {
            let (source, target) = makeLists(part, using: &generator)
            sources.append(ArraySection(model: "section-\(index)", elements: source))
            targets.append(ArraySection(model: "section-\(index)", elements: target))
        }
        return (sources, targets)
    }

    /// The least any identity-based diff must do: hash every source id into a table and look up every target id.
    static func dictionaryFloor(_ source: [BenchItem], _ target: [BenchItem]) -> Int {
        var table = [String: Int](minimumCapacity: source.count)
        for (index, item) in source.enumerated() { table[item.id] = index }
        var found = 0
        for item in target where table[item.id] != nil { found += 1 }
        return found
    }

    struct Timing {
        var median: Double
        var minimum: Double
    }

    static func measure(runs: Int, _ body: () -> Void) -> Timing {
        body()  // warm-up
        var seconds: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<runs {
            let elapsed = clock.measure(body)
            seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        seconds.sort()
        return Timing(median: seconds[seconds.count / 2], minimum: seconds[0])
    }

    static func report(_ name: String, _ timing: Timing, counts: ChangeCounts? = nil, note: String? = nil) {
        let label = name.padding(toLength: 72, withPad: " ", startingAt: 0)
        var line = label + String(format: " median %8.3f ms  min %8.3f ms", timing.median * 1000, timing.minimum * 1000)
        if let counts {
            line += "  [deleted \(counts.elementDeleted), inserted \(counts.elementInserted), moved \(counts.elementMoved), updated \(counts.elementUpdated)]"
        }
        if let note { line += "  [\(note)]" }
        print(line)
    }

    static func printMachine(runs: Int) {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?
            .trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        print("# listdiff-benchmark")
        print("machine: \(model), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB")
        print("runs per case: \(runs) (after one warm-up); times are wall-clock, release build")
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
