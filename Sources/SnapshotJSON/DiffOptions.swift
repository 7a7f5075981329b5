import ListDiff

/// The `"options"` member of a diff request; every field has a default.
///
/// Decoded in `DiffOptions+Decoding.swift`; add a member there (and here) to extend it.
public struct DiffOptions: Hashable, Sendable {
    /// The changeset renderings to return, in request order, without repeats; never empty.
    /// `"renderings"`, default `["staged"]`.
    public var renderings: [Rendering]
    /// What to do with repeated ids. `"duplicates"`: `"reject"` (the default) or `"keepFirst"`.
    public var duplicates: DuplicatePolicy
    /// Whether to indent the response. `"pretty"`, default `false`.
    public var pretty: Bool
    /// Whether every entry of the renderings names its item's or section's id. `"ids"`, default `false`.
    public var ids: Bool
    /// Whether to list, for every updated item and section, the top-level members whose values differ.
    /// `"changedMembers"`, default `false`.
    public var changedMembers = false

    /// Whether the answer compares or copies members of the snapshots (`jsonPatch` or `changedMembers`): only
    /// then does the reader keep where each section lies in the body, and the snapshots outlive the renderings.
    public var readsMembers: Bool { changedMembers || renderings.contains(.jsonPatch) }
    /// The per-section waterfall layouts to answer with. `"layouts"`, default none.
    public var layouts: [SectionLayoutRequest]

    /// Creates options; the defaults are those of a request without `"options"`.
    ///
    /// - Parameters:
    ///   - renderings: The renderings to return; must not be empty.
    ///   - duplicates: What to do with repeated ids.
    ///   - pretty: Whether to indent the response.
    ///   - ids: Whether every entry of the renderings names its item's or section's id.
    public init(
        renderings: [Rendering] = [.staged], duplicates: DuplicatePolicy = .reject, pretty: Bool = false, ids: Bool = false
    ) {
        precondition(!renderings.isEmpty, "at least one rendering")
        self.renderings = renderings
        self.duplicates = duplicates
        self.pretty = pretty
        self.ids = ids
        self.layouts = []
    }
}
