import ListDiff

// The wire types are diffed directly by ListDiff: an item's identity is its `id`, its content every other member
// (deep JSON equality, decided by the reader before the diff as a content number). `WireItem` numbers its identity and content
// under ListDiff's own names (`identityNumber`, `contentNumber`).

extension WireItem: IdentityNumbered {
    /// The item's `id`.
    public var differenceIdentifier: WireID { id }

    /// Whether every member other than `id` is deeply equal, as the reader decided it (``contentNumber``).
    ///
    /// Content numbers are meaningful only between the items of **one** request (one `parseDiffRequest`), as the
    /// diff compares them: items read from two different bodies must be compared by ``content`` instead.
    ///
    /// - Complexity: O(1).
    public func isContentEqual(to source: WireItem) -> Bool { contentNumber == source.contentNumber }
}

extension WireSection: DifferentiableSection {
    /// The section's `id` (the implicit one for a bare item list).
    public var differenceIdentifier: SectionID { id }

    /// Whether every member other than `id` and `items` is deeply equal.
    public func isContentEqual(to source: WireSection) -> Bool { content == source.content }

    /// The section's items.
    public var elements: [WireItem] { items }
}
