/// What a difference does when a snapshot holds the same section id twice, or the same element id twice
/// anywhere in the snapshot (element ids are global, as in UIKit's diffable data source).
public enum DuplicatePolicy: Hashable, Sendable {
    /// Throw a ``DuplicateIdentifiersError`` that names every duplicated id, the snapshot and every position.
    /// The default: UIKit crashes on duplicates, so a client should learn about them.
    case reject

    /// Keep the first occurrence of every id and drop the later ones before diffing.
    ///
    /// A section dropped this way is dropped with all its elements; among the sections kept, an element whose
    /// id already appeared earlier (in any kept section) is dropped. The difference's indices then refer to the
    /// snapshots **without** the dropped values, and ``SectionedDifference/droppedDuplicates`` lists what was
    /// dropped, in input positions, so a client can drop the same values from its own data.
    case keepFirst
}
