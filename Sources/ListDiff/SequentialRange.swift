/// One operation of a range changeset: a sequential operation, or a run of adjacent sequential removals,
/// insertions or updates merged into one, as RecyclerView's `notifyItemRange*` calls expect.
///
/// Like ``SequentialChange``, every index refers to the list **as left by all previous operations**, and a run
/// stays within one section. Each case stands for the sequential operations ``changes`` lists, in that order:
///
/// | case | means | expands to |
/// |---|---|---|
/// | `removeSections(r)` | remove the sections at `r` | `removeSection` at `r.upperBound − 1`, …, `r.lowerBound` |
/// | `insertSections(r)` | insert the target's sections so that they stand at `r` | `insertSection` at `r.lowerBound`, … |
/// | `updateSections(r)` | the sections at `r` have new content of their own | `updateSection` at `r.lowerBound`, … |
/// | `removeElements(r, section: s)` | remove the elements at `r` of section `s` | `removeElement` descending |
/// | `insertElements(r, section: s)` | insert the target's elements so that they stand at `r` of section `s` | ascending |
/// | `updateElements(r, section: s)` | the elements at `r` of section `s` have new content | ascending |
/// | `moveSection`, `moveElement` | as in ``SequentialChange``: moves are never merged | the move |
///
/// Removals expand in descending order, so each one's index is still the element's index before the run.
public enum SequentialRange: Hashable, Sendable, CustomStringConvertible {
    /// Remove the sections at these indices.
    case removeSections(Range<Int>)
    /// Insert the target snapshot's sections (with all their elements) so that they stand at these indices.
    case insertSections(Range<Int>)
    /// Move the section at `source` so that it stands at `target` afterwards.
    case moveSection(Move<Int>)
    /// The sections at these indices (their final indices) have new content of their own.
    case updateSections(Range<Int>)
    /// Remove the elements at these indices of the section.
    case removeElements(Range<Int>, section: Int)
    /// Insert the target snapshot's elements so that they stand at these indices of the section.
    case insertElements(Range<Int>, section: Int)
    /// Move the element at `source` so that it stands at `target` afterwards, possibly in another section.
    case moveElement(Move<ElementPath>)
    /// The elements at these indices (their final indices) of the section have new content.
    case updateElements(Range<Int>, section: Int)

    /// How many sequential operations the range stands for: its indices' count, or 1 for a move.
    public var count: Int {
        switch self {
        case .removeSections(let range), .insertSections(let range), .updateSections(let range),
            .removeElements(let range, _), .insertElements(let range, _), .updateElements(let range, _):
            range.count
        case .moveSection, .moveElement:
            1
        }
    }

    /// The sequential operations the range stands for, in the order they apply (removals descending).
    ///
    /// - Complexity: O(``count``).
    public var changes: [SequentialChange] {
        switch self {
        case .removeSections(let range): range.reversed().map(SequentialChange.removeSection)
        case .insertSections(let range): range.map(SequentialChange.insertSection)
        case .updateSections(let range): range.map(SequentialChange.updateSection)
        case .moveSection(let move): [.moveSection(move)]
        case .removeElements(let range, let section):
            range.reversed().map { .removeElement(ElementPath(element: $0, section: section)) }
        case .insertElements(let range, let section):
            range.map { .insertElement(ElementPath(element: $0, section: section)) }
        case .updateElements(let range, let section):
            range.map { .updateElement(ElementPath(element: $0, section: section)) }
        case .moveElement(let move): [.moveElement(move)]
        }
    }

    /// The one-operation range of a sequential operation.
    ///
    /// - Parameter change: The operation.
    public init(_ change: SequentialChange) {
        switch change {
        case .removeSection(let index): self = .removeSections(index..<index + 1)
        case .insertSection(let index): self = .insertSections(index..<index + 1)
        case .moveSection(let move): self = .moveSection(move)
        case .updateSection(let index): self = .updateSections(index..<index + 1)
        case .removeElement(let path): self = .removeElements(path.element..<path.element + 1, section: path.section)
        case .insertElement(let path): self = .insertElements(path.element..<path.element + 1, section: path.section)
        case .moveElement(let move): self = .moveElement(move)
        case .updateElement(let path): self = .updateElements(path.element..<path.element + 1, section: path.section)
        }
    }

    /// The range extended by the sequential operation that follows it, when that operation continues the run:
    /// a removal just before a removal run (`r.lowerBound − 1`), an insertion or update just after an insertion
    /// or update run (`r.upperBound`), of the same kind and section. `nil` otherwise (and always for moves).
    ///
    /// - Parameter next: The operation applied right after the range.
    /// - Returns: The longer range, whose ``changes`` are this range's followed by `next`.
    public func extended(by next: SequentialChange) -> SequentialRange? {
        switch (self, next) {
        case (.removeSections(let range), .removeSection(let index)) where index == range.lowerBound - 1:
            .removeSections(index..<range.upperBound)
        case (.insertSections(let range), .insertSection(let index)) where index == range.upperBound:
            .insertSections(range.lowerBound..<index + 1)
        case (.updateSections(let range), .updateSection(let index)) where index == range.upperBound:
            .updateSections(range.lowerBound..<index + 1)
        case (.removeElements(let range, let section), .removeElement(let path))
        where path.section == section && path.element == range.lowerBound - 1:
            .removeElements(path.element..<range.upperBound, section: section)
        case (.insertElements(let range, let section), .insertElement(let path))
        where path.section == section && path.element == range.upperBound:
            .insertElements(range.lowerBound..<path.element + 1, section: section)
        case (.updateElements(let range, let section), .updateElement(let path))
        where path.section == section && path.element == range.upperBound:
            .updateElements(range.lowerBound..<path.element + 1, section: section)
        default:
            nil
        }
    }

    /// A short textual form such as `insertElements 5..<1005 in 0`.
    public var description: String {
        switch self {
        case .removeSections(let range): "removeSections \(range)"
        case .insertSections(let range): "insertSections \(range)"
        case .moveSection(let move): "moveSection \(move)"
        case .updateSections(let range): "updateSections \(range)"
        case .removeElements(let range, let section): "removeElements \(range) in \(section)"
        case .insertElements(let range, let section): "insertElements \(range) in \(section)"
        case .moveElement(let move): "moveElement \(move)"
        case .updateElements(let range, let section): "updateElements \(range) in \(section)"
        }
    }
}
