import ListDiff

/// Minimum move counts found by trying every subset, independent of the engine's algorithm.
enum BruteForce {
    /// The fewest moves for one list, and among the choices with that many, the fewest "moves" whose
    /// source index equals their target index.
    ///
    /// - Parameters:
    ///   - oldPositions: For each value that may stay, in final order, its old position.
    ///   - inPlace: For each such value, whether its index before the moves equals its final index.
    /// - Returns: `nil` when there are too many values to try every subset.
    static func fewestMoves(oldPositions: [Int], inPlace: [Bool]) -> (moves: Int, inPlaceMoves: Int)? {
        let count = oldPositions.count
        guard count <= 14 else { return nil }
        var best = (kept: -1, inPlaceMoves: Int.max)
        for mask in 0..<(1 << count) {
            let chosen = (0..<count).filter { mask & (1 << $0) != 0 }
            guard zip(chosen, chosen.dropFirst()).allSatisfy({ oldPositions[$0] < oldPositions[$1] }) else { continue }
            let inPlaceMoves = (0..<count).filter { mask & (1 << $0) == 0 && inPlace[$0] }.count
            if chosen.count > best.kept || (chosen.count == best.kept && inPlaceMoves < best.inPlaceMoves) {
                best = (chosen.count, inPlaceMoves)
            }
        }
        return (count - best.kept, best.inPlaceMoves)
    }

    /// The fewest section moves of a pair (and the fewest in-place ones among those).
    static func sectionMoves(_ pair: SnapshotPair) -> (moves: Int, inPlaceMoves: Int)? {
        let targetIDs = Set(pair.target.map(\.model.id))
        let survivorsInOldOrder = pair.source.map(\.model.id).filter { targetIDs.contains($0) }
        var oldPositions: [Int] = []
        var inPlace: [Bool] = []
        for (index, section) in pair.target.enumerated() {
            guard let old = survivorsInOldOrder.firstIndex(of: section.model.id) else { continue }
            oldPositions.append(old)
            inPlace.append(old == index)
        }
        return fewestMoves(oldPositions: oldPositions, inPlace: inPlace)
    }

    /// The fewest element moves of a pair (and the fewest in-place ones among those).
    static func elementMoves(_ pair: SnapshotPair) -> (moves: Int, inPlaceMoves: Int)? {
        let sourceSectionIDs = Set(pair.source.map(\.model.id))
        let targetSectionIDs = Set(pair.target.map(\.model.id))
        var targetSectionOf: [Int: Int] = [:]
        for section in pair.target { for item in section.elements { targetSectionOf[item.id] = section.model.id } }
        var sourceSectionOf: [Int: Int] = [:]
        var indexAfterDeletions: [Int: Int] = [:]
        for section in pair.source {
            var compact = 0
            for item in section.elements {
                sourceSectionOf[item.id] = section.model.id
                if let to = targetSectionOf[item.id], sourceSectionIDs.contains(to) {
                    indexAfterDeletions[item.id] = compact
                    compact += 1
                }
            }
        }
        var total = (moves: 0, inPlaceMoves: 0)
        for section in pair.target where sourceSectionIDs.contains(section.model.id) {
            var oldPositions: [Int] = []
            var inPlace: [Bool] = []
            for (index, item) in section.elements.enumerated() {
                guard let from = sourceSectionOf[item.id], targetSectionIDs.contains(from) else { continue }
                if from == section.model.id {
                    oldPositions.append(indexAfterDeletions[item.id]!)
                    inPlace.append(indexAfterDeletions[item.id]! == index)
                } else {
                    total.moves += 1
                }
            }
            guard let best = fewestMoves(oldPositions: oldPositions, inPlace: inPlace) else { return nil }
            total.moves += best.moves
            total.inPlaceMoves += best.inPlaceMoves
        }
        return total
    }
}
