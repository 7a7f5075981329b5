import ListDiff

/// Turns positions in a snapshot whose dropped duplicates are left out (the positions of every rendering) into
/// positions in the snapshot as the client sent it (``DuplicatePolicy/keepFirst`` drops repeated ids).
///
/// It keeps only what was dropped, in the ascending order the diff reports it, and finds a kept position's sent
/// one by binary search: no table of every kept index (which cost 8 bytes a kept item of each section that lost
/// some), and nothing of the snapshot itself.
struct SentPositions {
    /// The sent indices of the dropped sections, ascending.
    private let droppedSections: [Int]
    /// The sent paths of the dropped elements of kept sections, ascending (by section, then element).
    private let droppedElements: [ElementPath]

    /// - Parameter dropped: What the diff dropped from the snapshot (``SectionedDifference/droppedDuplicates``),
    ///   sorted as it reports it.
    /// - Complexity: O(1).
    init(dropped: DroppedDuplicates.Positions) {
        droppedSections = dropped.sections
        droppedElements = dropped.elements
    }

    /// The sent index of the kept section at `index`.
    ///
    /// - Complexity: O(log *d*) for *d* dropped sections; O(1) when none was.
    func section(_ index: Int) -> Int {
        guard !droppedSections.isEmpty else { return index }
        return Self.sentIndex(ofKept: index, droppedAt: droppedSections.indices) { droppedSections[$0] }
    }

    /// The sent section and element index of the kept element at `path`.
    ///
    /// - Complexity: O(log *d*) for *d* dropped sections and elements; O(1) when none was.
    func element(_ path: ElementPath) -> (section: Int, element: Int) {
        let section = section(path.section)
        guard !droppedElements.isEmpty else { return (section, path.element) }  // nothing dropped: no search per id
        // The section's dropped elements, then the kept element's place among them.
        let first = droppedElements.indices.partitionPoint { droppedElements[$0].section < section }
        let end = (first ..< droppedElements.endIndex).partitionPoint { droppedElements[$0].section <= section }
        let element = Self.sentIndex(ofKept: path.element, droppedAt: first ..< end) { droppedElements[$0].element }
        return (section, element)
    }

    /// The sent index of the `kept`-th kept position of a list whose dropped positions are `sent(i)` for `i` in
    /// `dropped`, ascending.
    ///
    /// The dropped position at `i` has `sent(i) - (i - dropped.lowerBound)` kept ones before it, a count that
    /// never decreases with `i`; it precedes the kept position exactly when that count is at most `kept`. The
    /// answer is `kept` plus the number of dropped positions that precede it.
    ///
    /// - Complexity: O(log *d*) for *d* = `dropped.count`.
    private static func sentIndex(ofKept kept: Int, droppedAt dropped: Range<Int>, _ sent: (Int) -> Int) -> Int {
        let before = dropped.partitionPoint { sent($0) - ($0 - dropped.lowerBound) <= kept }
        return kept + (before - dropped.lowerBound)
    }
}
