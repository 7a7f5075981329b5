/// What became of a target-snapshot element, as the renderings report it.
enum ElementFate: UInt8, Sendable {
    /// In an inserted section: covered by the section insertion, not listed.
    case coveredBySectionInsert
    /// New, or coming from a deleted section: an element insertion.
    case inserted
    /// Kept in place: same section, part of the kept increasing subsequence.
    case stays
    /// Moved: within its section out of the kept subsequence, or from another surviving section.
    case moved
}
