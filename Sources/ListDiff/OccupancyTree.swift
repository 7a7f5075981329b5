/// A Fenwick tree of occupied slots on a line: counts the occupied slots before a slot in O(log n).
///
/// The sequential renderer gives every value an old slot and, if it moves, a new slot, laid out so that
/// the occupied slots in order always spell the list as the moves so far have left it; a value's index is
/// then the number of occupied slots before its slot.
struct OccupancyTree {
    private var tree: [Int]

    /// Creates a tree over `occupied.count` slots.
    ///
    /// - Complexity: O(n).
    init(occupied: [Bool]) {
        tree = [Int](repeatElement(0, count: occupied.count + 1))
        for (slot, isOccupied) in occupied.enumerated() {
            let node = slot + 1
            tree[node] += isOccupied ? 1 : 0
            let parent = node + (node & -node)
            if parent < tree.count { tree[parent] += tree[node] }
        }
        _checkInvariants()
    }

    /// The number of occupied slots in `0..<slot`.
    ///
    /// - Complexity: O(log n).
    func occupied(before slot: Int) -> Int {
        var sum = 0
        var node = slot
        while node > 0 {
            sum += tree[node]
            node &= node - 1
        }
        return sum
    }

    /// Adds `delta` (1 to occupy, -1 to vacate) at `slot`.
    ///
    /// - Complexity: O(log n).
    mutating func add(_ delta: Int, at slot: Int) {
        var node = slot + 1
        while node < tree.count {
            tree[node] += delta
            node += node & -node
        }
    }

    #if LISTDIFF_INTERNAL_CHECKS
        /// Traps unless every slot is occupied at most once: the tree's counts are those of a line of 0s and 1s.
        ///
        /// - Complexity: O(n log n).
        func _checkInvariants() {
            precondition(tree.first == 0, "the unused root holds \(tree[0])")
            for slot in 0..<(tree.count - 1) {
                let count = occupied(before: slot + 1) - occupied(before: slot)
                precondition(count == 0 || count == 1, "slot \(slot) occupied \(count) times")
            }
        }
    #else
        /// Does nothing unless `LISTDIFF_INTERNAL_CHECKS` is defined.
        @inline(__always)
        func _checkInvariants() {}
    #endif
}
