/// The error thrown when a snapshot repeats a section id, or an element id anywhere in the snapshot, under
/// ``DuplicatePolicy/reject``.
///
/// It lists **every** duplicated id of both snapshots, each with all the positions it stands at (input
/// positions, ascending), not just the first conflict.
public struct DuplicateIdentifiersError<SectionID: Hashable & Sendable, ElementID: Hashable & Sendable>: Error {
    /// Repeated section ids: source snapshot first, each snapshot's ids in order of first position.
    public var sections: [DuplicateIdentifier<SectionID, Int>]

    /// Repeated element ids: source snapshot first, each snapshot's ids in order of first position.
    public var elements: [DuplicateIdentifier<ElementID, ElementPath>]

    /// Creates the error.
    public init(sections: [DuplicateIdentifier<SectionID, Int>], elements: [DuplicateIdentifier<ElementID, ElementPath>]) {
        self.sections = sections
        self.elements = elements
    }
}

extension DuplicateIdentifiersError: Equatable {}
