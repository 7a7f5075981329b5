/// Lays out the slots of one list (a section's elements, or the sections themselves) for sequential moves.
///
/// The list starts as its *members* (the values it holds before any move, in order). Some members are
/// *anchors* (they stay); the *arrivals* are the values that move into the list, each to be placed right
/// after the anchor that precedes it in the final order (or at the head). The layout is: the head run of
/// arrival slots, then for each member its slot followed by the run of arrivals anchored on it. Once every
/// moving value has left its member slot for its arrival slot, the occupied slots spell the final order.
struct SlotLayout {
    /// The slot of each member, in member order.
    var memberSlots: [Int] = []
    /// The slot of each arrival, in arrival order.
    var arrivalSlots: [Int] = []
    /// One past the last slot of the list.
    var end: Int

    /// Lays out a list whose slots start at `base`.
    ///
    /// - Parameters:
    ///   - base: The first slot of the list.
    ///   - memberCount: The number of members.
    ///   - arrivalAnchors: For each arrival in final order, the member it follows, or -1 for the head.
    /// - Complexity: O(members + arrivals).
    init(base: Int, memberCount: Int, arrivalAnchors: [Int]) {
        var runLength = [Int](repeatElement(0, count: memberCount + 1))
        for anchor in arrivalAnchors { runLength[anchor + 1] += 1 }
        var runStart = [Int](repeatElement(0, count: memberCount + 1))
        var slot = base
        runStart[0] = slot
        slot += runLength[0]
        memberSlots.reserveCapacity(memberCount)
        for member in 0..<memberCount {
            memberSlots.append(slot)
            slot += 1
            runStart[member + 1] = slot
            slot += runLength[member + 1]
        }
        end = slot
        arrivalSlots.reserveCapacity(arrivalAnchors.count)
        for anchor in arrivalAnchors {
            arrivalSlots.append(runStart[anchor + 1])
            runStart[anchor + 1] += 1
        }
        _checkInvariants(base: base, arrivalAnchors: arrivalAnchors)
    }

    #if LISTDIFF_INTERNAL_CHECKS
        /// Traps unless the members' and arrivals' slots fill `base..<end`, each slot once, in order, and each
        /// arrival lies between its anchor's slot and the next member's.
        ///
        /// - Complexity: O(members + arrivals).
        func _checkInvariants(base: Int, arrivalAnchors: [Int]) {
            precondition(arrivalSlots.count == arrivalAnchors.count, "arrival slots are not one per arrival")
            precondition(memberSlots.count + arrivalSlots.count == end - base, "slots left empty")
            var used = [Bool](repeatElement(false, count: end - base))
            for slot in memberSlots + arrivalSlots {
                precondition(slot >= base && slot < end && !used[slot - base], "slot \(slot) out of the list or used twice")
                used[slot - base] = true
            }
            precondition(zip(memberSlots, memberSlots.dropFirst()).allSatisfy(<), "members out of order")
            precondition(zip(arrivalSlots, arrivalSlots.dropFirst()).allSatisfy(<), "arrivals out of order")
            for (slot, anchor) in zip(arrivalSlots, arrivalAnchors) {
                let after = anchor < 0 ? base - 1 : memberSlots[anchor]
                let before = anchor + 1 < memberSlots.count ? memberSlots[anchor + 1] : end
                precondition(after < slot && slot < before, "arrival slot \(slot) away from its anchor \(anchor)")
            }
        }
    #else
        /// Does nothing unless `LISTDIFF_INTERNAL_CHECKS` is defined.
        @inline(__always)
        func _checkInvariants(base: Int, arrivalAnchors: [Int]) {}
    #endif
}
