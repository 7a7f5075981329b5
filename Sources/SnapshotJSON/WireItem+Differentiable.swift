import ListDiff

// The wire types are diffed directly by ListDiff: an item's identity is its `id`, its content the canonical form
// of every other member (so content equality is exact, not a hash guess). `WireItem` numbers its identity and
// content under ListDiff's own names (`identityNumber`, `contentNumber`).

extension WireItem: IdentityNumbered {
    /// The item's `id`.
    public var differenceIdentifier: WireID { id }

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
