/// Where the matching records, for each element identity, the flat index of its element: the find-or-insert
/// table of ``Matching/match(source:sourceElements:target:targetElements:table:)``.
///
/// Elements are named by their section's array and index (and their flat index), never passed by value:
/// passing one copies it, retaining what it holds.
@usableFromInline
protocol ElementTable {
    associatedtype Element

    /// Records the source element `elements[index]`, whose flat index is `flat`, unless an element with its
    /// identity is recorded; returns what was recorded before, or ``unclaimed``.
    mutating func claimSource(_ elements: [Element], _ index: Int, flat: Int) -> Int

    /// Looks up the target element `elements[index]`, whose flat index is `flat`: returns the flat index of
    /// the source element with its identity, or what an earlier target element with its identity recorded
    /// (`-2 - flat`), or ``unclaimed`` (and records it); and whether that source element is known to have the
    /// same contents without comparing them (see ``IdentityNumbered/contentNumber``).
    mutating func claimTarget(_ elements: [Element], _ index: Int, flat: Int) -> (found: Int, sameContent: Bool)
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
    mutating func claimSource(_ elements: [Element], _ index: Int, flat: Int) -> Int {
        ListDiff.claim(&storage[elements[index].differenceIdentifier, default: unclaimed], flat)
    }

    @inlinable @inline(__always)
    mutating func claimTarget(_ elements: [Element], _ index: Int, flat: Int) -> (found: Int, sameContent: Bool) {
        (ListDiff.claim(&storage[elements[index].differenceIdentifier, default: unclaimed], -2 - flat), false)
    }
}

/// Identities as array slots, for elements that number them (``IdentityNumbered``).
@usableFromInline
struct NumberedElementTable<Element: IdentityNumbered>: ElementTable {
    /// An element's numbers, read once.
    @usableFromInline
    struct Numbers {
        @usableFromInline var identity: Int
        @usableFromInline var content: Int

        @inlinable init(identity: Int, content: Int) {
            self.identity = identity
            self.content = content
        }
    }

    @usableFromInline var slots: [Int]
    /// The numbers of each source and target element, by flat index.
    @usableFromInline let source: [Numbers], target: [Numbers]

    /// A table with one slot per number, or `nil` when an element is not numbered or the numbers are too sparse
    /// for an array (the largest above four times the elements, plus a margin).
    ///
    /// - Complexity: O(n + m) for n source and m target elements.
    @inlinable
    init?(source: [[Element]], target: [[Element]]) {
        // A snapshot's numbers by flat index, and the largest identity number; nil when an element has none.
        // Elements are read in place (iterating would copy each one, retaining what it holds).
        func numbers(_ snapshot: [[Element]]) -> (numbers: [Numbers], largest: Int)? {
            var numbers: [Numbers] = []
            numbers.reserveCapacity(snapshot.reduce(0) { $0 + $1.count })
            var largest = -1
            for section in snapshot {
                for index in section.indices {
                    let identity = section[index].identityNumber
                    guard identity >= 0 else { return nil }
                    largest = max(largest, identity)
                    numbers.append(Numbers(identity: identity, content: section[index].contentNumber))
                }
            }
            return (numbers, largest)
        }
        guard let sourceNumbers = numbers(source), let targetNumbers = numbers(target) else { return nil }
        let largest = max(sourceNumbers.largest, targetNumbers.largest)
        guard largest < 4 * (sourceNumbers.numbers.count + targetNumbers.numbers.count) + 64 else { return nil }
        slots = [Int](repeating: unclaimed, count: largest + 1)
        self.source = sourceNumbers.numbers
        self.target = targetNumbers.numbers
    }

    @inlinable @inline(__always)
    mutating func claimSource(_ elements: [Element], _ index: Int, flat: Int) -> Int {
        ListDiff.claim(&slots[source[flat].identity], flat)
    }

    @inlinable @inline(__always)
    mutating func claimTarget(_ elements: [Element], _ index: Int, flat: Int) -> (found: Int, sameContent: Bool) {
        let numbers = target[flat]
        let found = ListDiff.claim(&slots[numbers.identity], -2 - flat)
        return (found, found >= 0 && numbers.content >= 0 && numbers.content == source[found].content)
    }
}
