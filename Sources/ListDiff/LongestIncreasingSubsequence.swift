/// Marks a longest strictly increasing subsequence of `values` that, among all longest ones, contains the
/// most positions marked in `preferred`.
///
/// The diff keeps the elements of such a subsequence in place and moves the others, so the number of moves
/// is minimal; preferring the positions whose "move" would not change their index keeps a client from
/// seeing an element moved to where it already stands (DifferenceKit #65).
///
/// - Parameters:
///   - values: Distinct values in `0..<domain`.
///   - domain: An upper bound (exclusive) of the values.
///   - preferred: Positions to keep when there is a choice; same count as `values`.
/// - Returns: For each position, whether it belongs to the chosen subsequence.
/// - Complexity: O(k log d) time and O(k + d) memory for k values below d; O(k) when the values are
///   already increasing.
func preferredLongestIncreasingSubsequence(of values: [Int], domain: Int, preferred: [Bool]) -> [Bool] {
    let count = values.count
    if zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) {
        return [Bool](repeatElement(true, count: count))
    }
    // A prefix-maximum Fenwick tree over values: for each value v, the best score of an increasing
    // subsequence ending at a value ≤ v, and the position that ends it. A score is length·(count+1) plus the
    // number of preferred positions, so comparing scores compares length first, then preference.
    let unit = count + 1
    var bestScore = [Int](repeatElement(0, count: domain + 1))
    var bestEnd = [Int](repeatElement(-1, count: domain + 1))
    var predecessor = [Int](repeatElement(-1, count: count))
    var overallScore = 0
    var overallEnd = -1
    for (position, value) in values.enumerated() {
        var score = 0
        var end = -1
        var node = value  // Query values < value: Fenwick positions 1...value.
        while node > 0 {
            if bestScore[node] > score {
                score = bestScore[node]
                end = bestEnd[node]
            }
            node &= node - 1
        }
        predecessor[position] = end
        score += unit + (preferred[position] ? 1 : 0)
        if score > overallScore {
            overallScore = score
            overallEnd = position
        }
        node = value + 1
        while node <= domain {
            if score > bestScore[node] {
                bestScore[node] = score
                bestEnd[node] = position
            }
            node += node & -node
        }
    }
    var kept = [Bool](repeatElement(false, count: count))
    var position = overallEnd
    while position >= 0 {
        kept[position] = true
        position = predecessor[position]
    }
    return kept
}
