import ListDiff
import SnapshotJSON

// The wire types of SnapshotJSON are diffed directly by ListDiff: an item's identity is its `id`, its content
// the canonical form of every other member (so content equality is exact, not a hash guess).

extension WireItem: IdentityNumbered {
    /// The item's `id`.
    public var differenceIdentifier: WireID { id }

    /// The number the parse gave the item's `id`, shared by every item of the request with that id (or -1).
    public var identityNumber: Int { idNumber }

    /// The number the parse gave the item's text: items written with the same bytes share it (or -1).
    public var contentNumber: Int { textNumber }

    /// Whether every member other than `id` is deeply equal.
    public func isContentEqual(to source: WireItem) -> Bool { content == source.content }
}

extension WireSection: DifferentiableSection {
    /// The section's `id` (the implicit one for a bare item list).
    public var differenceIdentifier: SectionID { id }

    /// Whether every member other than `id` and `items` is deeply equal.
    public func isContentEqual(to source: WireSection) -> Bool { content == source.content }

    /// The section's items.
    public var elements: [WireItem] { items }
}
