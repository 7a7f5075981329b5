/// Where the matching records, for each element identity, the flat index of its element: the find-or-insert
/// table of ``Matching/match(source:sourceElements:target:targetElements:table:)``.
///
/// Elements are named by their section's array and index (and their flat index), never passed by value:
/// passing one copies it, retaining what it holds.
@usableFromInline
protocol ElementTable {
    associatedtype Element

    /// A table for matching `source` against `target`, or `nil` when this kind of table cannot hold them (the
    /// caller then hashes).
    init?(source: [[Element]], target: [[Element]])

    /// Records the source element `elements[index]`, whose flat index is `flat`, unless an element with its
    /// identity is recorded; returns what was recorded before (``Claim/unclaimed`` the first time).
    mutating func claimSource(_ elements: [Element], _ index: Int, flat: Int) -> Claim

    /// Looks up the target element `elements[index]`, whose flat index is `flat`: returns the source element
    /// with its identity, or the earlier target element with its identity, or ``Claim/unclaimed`` (and records
    /// it); and whether that source element is known to have the same contents without comparing them (see
    /// ``IdentityNumbered/contentNumber``).
    mutating func claimTarget(_ elements: [Element], _ index: Int, flat: Int) -> (found: Claim, sameContent: Bool)

    /// Traps unless the table holds what matching `sourceCount` source and `targetCount` target elements
    /// without a repeated id leaves: see ``SectionedDifference/_checkInvariants()``.
    func _checkInvariants(sourceCount: Int, targetCount: Int)
}

/// Identities hashed into a dictionary: works for every ``Differentiable`` element.
@usableFromInline
struct HashedElementTable<Element: Differentiable>: ElementTable {
    @usableFromInline var storage: [Element.DifferenceIdentifier: ClaimSlot]

    /// A table sized for the larger of two snapshots.
    @inlinable
    init(source: [[Element]], target: [[Element]]) {
        let count = max(source.reduce(0) { $0 + $1.count }, target.reduce(0) { $0 + $1.count })
        storage = Dictionary(minimumCapacity: count)
    }

    @inlinable @inline(__always)
    mutating func claimSource(_ elements: [Element], _ index: Int, flat: Int) -> Claim {
        storage[elements[index].differenceIdentifier, default: ClaimSlot(.unclaimed)].claim(.source(flat))
    }

    @inlinable @inline(__always)
    mutating func claimTarget(_ elements: [Element], _ index: Int, flat: Int) -> (found: Claim, sameContent: Bool) {
        (storage[elements[index].differenceIdentifier, default: ClaimSlot(.unclaimed)].claim(.target(flat)), false)
    }
}

/// Identities as array slots, for elements that number them (``IdentityNumbered``).
@usableFromInline
struct NumberedElementTable<Element: IdentityNumbered>: ElementTable {
    /// An element's numbers, read once: 8 bytes (a table holds one per element of both snapshots).
    @usableFromInline
    struct Numbers {
        @usableFromInline var identity: Int32
        /// The content number, or -1 when it has none or it does not fit (the contents are then compared).
        @usableFromInline var content: Int32

        @inlinable init(identity: Int32, content: Int) {
            self.identity = identity
            self.content = Int32(exactly: content) ?? -1
        }
    }

    @usableFromInline var slots: [ClaimSlot]
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
                    guard let identity = Int32(exactly: section[index].identityNumber), identity >= 0 else { return nil }
                    largest = max(largest, Int(identity))
                    numbers.append(Numbers(identity: identity, content: section[index].contentNumber))
                }
            }
            return (numbers, largest)
        }
        guard let sourceNumbers = numbers(source), let targetNumbers = numbers(target) else { return nil }
        let largest = max(sourceNumbers.largest, targetNumbers.largest)
        guard largest < 4 * (sourceNumbers.numbers.count + targetNumbers.numbers.count) + 64 else { return nil }
        slots = [ClaimSlot](repeatElement(ClaimSlot(.unclaimed), count: largest + 1))
        self.source = sourceNumbers.numbers
        self.target = targetNumbers.numbers
    }

    @inlinable @inline(__always)
    mutating func claimSource(_ elements: [Element], _ index: Int, flat: Int) -> Claim {
        slots[Int(source[flat].identity)].claim(.source(flat))
    }

    @inlinable @inline(__always)
    mutating func claimTarget(_ elements: [Element], _ index: Int, flat: Int) -> (found: Claim, sameContent: Bool) {
        let numbers = target[flat]
        let found = slots[Int(numbers.identity)].claim(.target(flat))
        guard case .source(let sourceFlat) = found else { return (found, false) }
        return (found, numbers.content >= 0 && numbers.content == source[sourceFlat].content)
    }
}
