/// Where the matching records, for each element identity, the flat index of its element: the find-or-insert
/// table of ``Matching/match(source:sourceElements:target:targetElements:table:)``.
@usableFromInline
protocol ElementTable {
    associatedtype Element

    /// Stores `value` for `element`'s identity unless one is stored; returns what was stored before, or
    /// ``unclaimed``.
    mutating func claim(_ element: Element, _ value: Int) -> Int
}

/// Identities hashed into a dictionary: works for every ``Differentiable`` element.
@usableFromInline
struct HashedElementTable<Element: Differentiable>: ElementTable {
    @usableFromInline var storage: [Element.DifferenceIdentifier: Int]

    /// A table sized for the larger of two snapshots.
    @inlinable
    init(source: [[Element]], target: [[Element]]) {
        let count = max(source.reduce(0) { $0 + $1.count }, target.reduce(0) { $0 + $1.count })
        storage = Dictionary(minimumCapacity: count)
    }

    @inlinable @inline(__always)
    mutating func claim(_ element: Element, _ value: Int) -> Int {
        ListDiff.claim(&storage[element.differenceIdentifier, default: unclaimed], value)
    }
}

/// Identities as array slots, for elements that number them (``IdentityNumbered``).
@usableFromInline
struct NumberedElementTable<Element: IdentityNumbered>: ElementTable {
    @usableFromInline var slots: [Int]

    /// A table with one slot per number, or `nil` when an element is not numbered or the numbers are too sparse
    /// for an array (the largest above four times the elements, plus a margin).
    ///
    /// - Complexity: O(n + m) for n source and m target elements.
    @inlinable
    init?(source: [[Element]], target: [[Element]]) {
        // The largest number of a snapshot, or nil when an element has none, reading elements in place
        // (iterating would copy each one, retaining what it holds).
        func largestNumber(_ snapshot: [[Element]]) -> Int? {
            var largest = -1
            for section in snapshot {
                for index in section.indices {
                    let number = section[index].identityNumber
                    guard number >= 0 else { return nil }
                    largest = max(largest, number)
                }
            }
            return largest
        }
        guard let sourceLargest = largestNumber(source), let targetLargest = largestNumber(target) else { return nil }
        let largest = max(sourceLargest, targetLargest)
        let count = source.reduce(0) { $0 + $1.count } + target.reduce(0) { $0 + $1.count }
        guard largest < 4 * count + 64 else { return nil }
        slots = [Int](repeating: unclaimed, count: largest + 1)
    }

    @inlinable @inline(__always)
    mutating func claim(_ element: Element, _ value: Int) -> Int {
        ListDiff.claim(&slots[element.identityNumber], value)
    }
}
