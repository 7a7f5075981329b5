/// The error thrown when a snapshot repeats a section id, or an element id anywhere in the snapshot, under
/// ``DuplicatePolicy/reject``.
///
/// By default it lists **every** duplicated id of both snapshots, each with all the positions it stands at (input
/// positions, ascending), not just the first conflict. Under ``DuplicateReportLimits`` it lists the first ones in
/// the same order — repeated section ids (source, then target), then repeated element ids (source, then target),
/// each snapshot's in order of first position — with their first positions; ``repeatedCount`` and each entry's
/// ``DuplicateIdentifier/occurrences`` still count them all.
public struct DuplicateIdentifiersError<SectionID: Hashable & Sendable, ElementID: Hashable & Sendable>: Error {
    /// Repeated section ids: source snapshot first, each snapshot's ids in order of first position.
    public var sections: [DuplicateIdentifier<SectionID, Int>]

    /// Repeated element ids: source snapshot first, each snapshot's ids in order of first position.
    public var elements: [DuplicateIdentifier<ElementID, ElementPath>]

    /// How many ids repeat in all (section ids and element ids of both snapshots): at least
    /// `sections.count + elements.count`, more when the report was limited.
    public var repeatedCount: Int

    /// Creates the error listing every repeated id.
    public init(sections: [DuplicateIdentifier<SectionID, Int>], elements: [DuplicateIdentifier<ElementID, ElementPath>]) {
        self.init(sections: sections, elements: elements, repeatedCount: sections.count + elements.count)
    }

    /// Creates the error listing the first repeated ids.
    ///
    /// - Parameters:
    ///   - sections: The listed repeated section ids.
    ///   - elements: The listed repeated element ids.
    ///   - repeatedCount: How many ids repeat in all (at least `sections.count + elements.count`).
    public init(
        sections: [DuplicateIdentifier<SectionID, Int>], elements: [DuplicateIdentifier<ElementID, ElementPath>],
        repeatedCount: Int
    ) {
        precondition(repeatedCount >= sections.count + elements.count, "fewer repeated ids than listed")
        self.sections = sections
        self.elements = elements
        self.repeatedCount = repeatedCount
    }
}

extension DuplicateIdentifiersError: Equatable {}
