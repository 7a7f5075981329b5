/// One side of a diff request: an ordered list of sections.
///
/// Written either as `{"sections": [{"id": …, "items": […]}, …]}` or, for a one-section list, as
/// `{"items": […]}`, which becomes a single section with id ``SectionID/implicit``.
public struct Snapshot: Hashable, Sendable {
    /// The sections, in order.
    public let sections: [WireSection]
    /// Where the snapshot was read from: a `/diff` body and the request member (`"old"` or `"new"`) holding it.
    private let origin: (text: RequestText, member: String)?

    init(sections: [WireSection], text: RequestText?, member: String) {
        self.sections = sections
        origin = text.map { ($0, member) }
    }

    /// Whether both snapshots have equal sections (where they were written is not compared).
    public static func == (lhs: Snapshot, rhs: Snapshot) -> Bool { lhs.sections == rhs.sections }

    /// Feeds the sections to `hasher` (consistent with ``==(_:_:)``).
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) { hasher.combine(sections) }

    /// Each section as the client wrote it (its whole object, `items` included), in order, when the snapshot was
    /// read from a `/diff` body as `{"sections": [...]}`; `nil` otherwise.
    ///
    /// - Complexity: O(*n*) in the body's length: the body is read again (only renderings that copy sections
    ///   whole ask for this).
    public func sectionTexts() -> [JSONText]? {
        guard let origin, !isBareItemList,
              let sections = origin.text.document.member(origin.member)?.member("sections")
        else { return nil }
        return sections.children(canonical: false).map { JSONText(text: origin.text, range: $0.value) }
    }

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
