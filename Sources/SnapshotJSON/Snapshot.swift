/// One side of a diff request: an ordered list of sections.
///
/// Written either as `{"sections": [{"id": …, "items": […]}, …]}` or, for a one-section list, as
/// `{"items": […]}`, which becomes a single section with id ``SectionID/implicit``.
public struct Snapshot: Hashable, Sendable {
    /// The sections, in order.
    public let sections: [WireSection]
    /// The `/diff` body the snapshot was read from, if any.
    let text: RequestText?
    /// The position of the first section among the body's (``RequestText/section(_:)``).
    let firstSection: Int

    init(sections: [WireSection], text: RequestText?, firstSection: Int) {
        self.sections = sections
        self.text = text
        self.firstSection = firstSection
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
    /// - Precondition: The request asks for a JSON Patch or the changed members (the parse keeps where sections
    ///   lie only then).
    public var sectionTexts: [JSONText]? {
        guard text != nil, !isBareItemList else { return nil }
        return sections.indices.map { sectionText($0)! }
    }

    /// The section at `index` as the client wrote it (its whole object, `items` included), when the snapshot was
    /// read from a `/diff` body as `{"sections": [...]}`; `nil` otherwise.
    ///
    /// - Precondition: `index` is a section's, and the request asks for a JSON Patch or the changed members (the
    ///   parse keeps where sections lie only then).
    /// - Complexity: O(1).
    public func sectionText(_ index: Int) -> JSONText? {
        guard let text, !isBareItemList else { return nil }
        precondition(index >= 0 && index < sections.count, "section index out of range")
        return JSONText(text: text, range: text.section(firstSection + index))
    }

    /// Reads the items of the section at `index` in one walk of the object that holds them (the section's own,
    /// or the snapshot's for a bare item list), calling `body` with a reader at each item (valid during the call;
    /// see ``JSONReader``) and its index in the section.
    ///
    /// A section's items cannot be found from the items alone: an item whose bytes repeat its counterpart's in the
    /// other snapshot refers to that one's text (``WireItem/json``).
    ///
    /// - Parameters:
    ///   - index: The section's index in ``sections``.
    ///   - body: Called for each item in order, with a reader at its object and its index in the section.
    /// - Precondition: `index` is a section's, and the snapshot was read from a `/diff` body whose request asks
    ///   for layouts, a JSON Patch or the changed members (the parse keeps where sections lie only then).
    /// - Complexity: O(*n*) in the object's length (it is parsed again), besides what `body` does.
    public func readItems(ofSection index: Int, _ body: (inout JSONReader, Int) -> Void) {
        guard let text else { preconditionFailure("a snapshot not read from a body has no item texts") }
        precondition(index >= 0 && index < sections.count, "section index out of range")
        JSONText(text: text, range: text.section(firstSection + index)).read { reader in
            reader.members { reader, name in
                if name == "items" { reader.elements(body) }  // (the other members are moved past)
            }
        }
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
