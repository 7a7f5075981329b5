/// A form in which `POST /diff` returns the change.
public enum Rendering: String, Hashable, Sendable, CaseIterable {
    /// Up to five stages, each one safe UIKit batch update (DifferenceKit's names and order).
    case staged
    /// A flat list of operations, each index in the state the previous ones left (RecyclerView, DiffUtil).
    case sequential
}
