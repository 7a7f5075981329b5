/// What an ``ElementTable`` records for one element identity while two snapshots are matched.
@usableFromInline
enum Claim: Equatable {
    /// No element with the identity was seen yet.
    case unclaimed
    /// The source element at this flat index has the identity.
    case source(Int)
    /// No source element has the identity, and the first target element with it is at this flat index.
    case target(Int)
}
