/// A move of one section or element from a source position to a target position.
public struct Move<Position: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible {
    /// Where the moved value stands before the move.
    public var source: Position

    /// Where the moved value stands after the move.
    public var target: Position

    /// Creates a move.
    ///
    /// - Parameters:
    ///   - source: Where the value stands before the move.
    ///   - target: Where it stands after the move.
    public init(source: Position, target: Position) {
        self.source = source
        self.target = target
    }

    /// `source → target`.
    public var description: String { "\(source) → \(target)" }
}
