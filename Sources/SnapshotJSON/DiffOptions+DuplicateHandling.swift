extension DiffOptions {
    /// What the diff does when a snapshot repeats a section id, or an item id anywhere.
    public enum DuplicateHandling: String, Hashable, Sendable, CaseIterable {
        /// Reject the request, naming every repeated id and where it stands.
        case reject
        /// Keep the first occurrence of each id and drop the later ones.
        case keepFirst
    }
}
