extension Range<Int> {
    /// The first index of the range for which `isBefore` is false, given that it is true for a prefix of the range
    /// and false after (the upper bound when it is true throughout): a binary search of a sorted table.
    ///
    /// - Complexity: O(log *n*) calls of `isBefore` for *n* = `count`.
    func partitionPoint(_ isBefore: (Int) -> Bool) -> Int {
        var low = lowerBound, high = upperBound
        while low < high {
            let middle = low + (high - low) / 2
            if isBefore(middle) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
