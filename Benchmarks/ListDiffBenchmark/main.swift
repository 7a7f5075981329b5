// A release-build benchmark of the ListDiff engine on DifferenceKit's recipe (DOMAIN.md §4):
// source = N fresh UUID strings; target = source with DEL removed at offset 2·DEL, INS fresh ones inserted
// at offset 3·DEL, then the first SHUF shuffled. Each item carries a content value.
//
//     swift run -c release listdiff-benchmark [--runs N] [--collection-difference-100k]
//
// A small case comes first (50 items, 1,000 diffs a run: a diff's fixed costs). It prints the machine, the
// median and minimum of each case over the runs, the change counts, and two baselines measured in the same
// run: the floor (one Dictionary of the source ids probed with every target id) and Swift's
// CollectionDifference with inferringMoves().

import Foundation
import ListDiff

Benchmark.main(arguments: CommandLine.arguments)
