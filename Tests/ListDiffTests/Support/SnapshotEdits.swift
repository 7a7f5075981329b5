import ListDiff
import PropertyBased
import TestSupport

/// A random pair of snapshots: a source built from section sizes, and a target made from it by a script
/// of edits (deletions, insertions, moves within and across sections, updates, shuffles, of items and of
/// sections). Generated from plain integers so that PropertyBased can shrink a failing case.
struct SnapshotPair: Sendable, CustomStringConvertible {
    var source: Snapshot
    var target: Snapshot

    var description: String { "source: \(render(source))\ntarget: \(render(target))" }

    private func render(_ snapshot: Snapshot) -> String {
        snapshot.map { "\($0.model)\($0.elements)" }.joined(separator: " ")
    }

    /// A fixed pair, for pinned cases.
    init(source: Snapshot, target: Snapshot) {
        self.source = source
        self.target = target
    }

    /// Builds the pair.
    ///
    /// - Parameters:
    ///   - sizes: The source's section sizes.
    ///   - edits: Each edit as (kind, a, b); `a` and `b` pick positions modulo what exists.
    init(sizes: [Int], edits: [(Int, Int, Int)]) {
        var nextID = 0
        func fresh() -> Int {
            defer { nextID += 1 }
            return nextID
        }
        source = sizes.map { size in
            TestSection(model: Header(id: 1000 + fresh()), elements: (0..<size).map { _ in Item(id: fresh()) })
        }
        var sections = source
        var version = 0
        for (kind, a, b) in edits {
            version += 1
            let itemPaths = sections.indices.flatMap { s in sections[s].elements.indices.map { ElementPath.at(s, $0) } }
            switch kind {
            case 0 where !itemPaths.isEmpty:  // delete an item
                let path = itemPaths[a % itemPaths.count]
                sections[path.section].elements.remove(at: path.element)
            case 1 where !sections.isEmpty:  // insert a fresh item
                let s = a % sections.count
                sections[s].elements.insert(Item(id: fresh()), at: b % (sections[s].elements.count + 1))
            case 2 where !itemPaths.isEmpty:  // move an item within its section
                let path = itemPaths[a % itemPaths.count]
                let item = sections[path.section].elements.remove(at: path.element)
                sections[path.section].elements.insert(item, at: b % (sections[path.section].elements.count + 1))
            case 3 where !itemPaths.isEmpty:  // move an item to another section
                let path = itemPaths[a % itemPaths.count]
                let item = sections[path.section].elements.remove(at: path.element)
                let s = b % sections.count
                sections[s].elements.insert(item, at: (a / 7) % (sections[s].elements.count + 1))
            case 4 where !itemPaths.isEmpty:  // update an item
                let path = itemPaths[a % itemPaths.count]
                sections[path.section].elements[path.element].content = version
            case 5 where !sections.isEmpty:  // delete a section
                sections.remove(at: a % sections.count)
            case 6:  // insert a section, with fresh items or items taken from elsewhere
                var items = (0..<(b % 3)).map { _ in Item(id: fresh()) }
                if a % 2 == 1, !itemPaths.isEmpty {
                    let path = itemPaths[b % itemPaths.count]
                    items.append(sections[path.section].elements.remove(at: path.element))
                }
                sections.insert(
                    TestSection(model: Header(id: 1000 + fresh()), elements: items), at: a % (sections.count + 1))
            case 7 where !sections.isEmpty:  // move a section
                let moved = sections.remove(at: a % sections.count)
                sections.insert(moved, at: b % (sections.count + 1))
            case 8 where !sections.isEmpty:  // update a section's own content
                sections[a % sections.count].model.content = version
            case 9 where !sections.isEmpty:  // shuffle a section
                var generator = SplitMix(seed: UInt64(b))
                sections[a % sections.count].elements.shuffle(using: &generator)
            case 10 where sections.count > 1:  // swap two sections
                let (i, j) = (a % sections.count, b % sections.count)
                sections.swapAt(i, j)
            case 11 where !sections.isEmpty:  // insert a run of fresh items
                let s = a % sections.count
                let run = (0..<(1 + b % 6)).map { _ in Item(id: fresh()) }
                sections[s].elements.insert(contentsOf: run, at: (a / 7) % (sections[s].elements.count + 1))
            case 12 where !itemPaths.isEmpty:  // delete a run of items
                let path = itemPaths[a % itemPaths.count]
                let end = min(path.element + 1 + b % 6, sections[path.section].elements.count)
                sections[path.section].elements.removeSubrange(path.element..<end)
            case 13 where !itemPaths.isEmpty:  // update a run of items
                let path = itemPaths[a % itemPaths.count]
                let end = min(path.element + 1 + b % 6, sections[path.section].elements.count)
                for element in path.element..<end { sections[path.section].elements[element].content = version }
            default:
                continue
            }
        }
        target = sections
    }

    /// A generator of pairs: up to `maxSections` sections of up to `maxItems` items, up to `maxEdits` edits;
    /// with `runs`, edits also insert, delete and update runs of adjacent items.
    static func generator(maxSections: Int = 5, maxItems: Int = 7, maxEdits: Int = 14, runs: Bool = false)
        -> Generator<SnapshotPair, some Sequence & SendableMetatype>
    {
        zip(
            Gen.int(in: 0...maxItems).array(of: 0...maxSections),
            zip(Gen.int(in: 0...(runs ? 13 : 10)), Gen.int(in: 0...999), Gen.int(in: 0...999)).array(of: 0...maxEdits)
        ).map { sizes, edits in SnapshotPair(sizes: sizes, edits: edits) }
    }
}
