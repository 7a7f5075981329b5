/// One side of a diff request: an ordered list of sections.
///
/// Written either as `{"sections": [{"id": …, "items": […]}, …]}` or, for a one-section list, as
/// `{"items": […]}`, which becomes a single section with id ``SectionID/implicit``.
public struct Snapshot: Hashable, Sendable {
    /// The sections, in order.
    public let sections: [WireSection]

    /// Whether the snapshot was written in the bare `{"items": [...]}` form.
    public var isBareItemList: Bool {
        sections.count == 1 && sections[0].id == .implicit
    }

    /// The number of items over all sections.
    ///
    /// - Complexity: O(*s*) in the number of sections.
    public var itemCount: Int {
        sections.reduce(0) { $0 + $1.items.count }
    }
}
