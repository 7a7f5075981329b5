extension DiffOptions {
    /// A form of changeset the client can apply.
    public enum Rendering: String, Hashable, Sendable, CaseIterable {
        /// UIKit / DifferenceKit batches: up to five stages, each safe as one batch update.
        case staged
        /// DiffUtil-style operations, each index relative to the list left by the previous ones.
        case sequential
        /// The sequential operations with runs of adjacent removals, insertions or updates merged (RecyclerView's
        /// `notifyItemRange*`).
        case ranges
        /// RFC 6902 JSON Patch operations that turn the old snapshot, as the JSON document sent, into the new one.
        case jsonPatch
    }
}
