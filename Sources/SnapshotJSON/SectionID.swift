/// The id of a section: the one written on the wire, or the implicit id of a bare `{"items": [...]}` list.
public enum SectionID: Hashable, Sendable {
    /// The single section of a snapshot written as `{"items": [...]}`. Its content is the empty object.
    case implicit
    /// A section id written as `"id"` in a `"sections"` entry.
    case explicit(WireID)
}
