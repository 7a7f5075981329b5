/// The position of an element in a sectioned list: a section index and an element index within it.
///
/// Which snapshot or intermediate state the indices refer to depends on the change that carries the path;
/// see ``Changeset`` and ``SequentialChange``.
///
/// Held in 8 bytes (a changeset holds a path or two per change, so a large diff holds millions): both indices are
/// below 2^31, as the diff's snapshots are.
public struct ElementPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    private var storedSection: Int32
    private var storedElement: Int32

    /// The section index.
    public var section: Int {
        get { Int(storedSection) }
        set { storedSection = Self.stored(newValue) }
    }

    /// The element index within the section.
    public var element: Int {
        get { Int(storedElement) }
        set { storedElement = Self.stored(newValue) }
    }

    /// Creates a path.
    ///
    /// - Parameters:
    ///   - element: The element index within the section.
    ///   - section: The section index.
    /// - Precondition: Both are in `0 ..< 2^31`.
    public init(element: Int, section: Int) {
        storedElement = Self.stored(element)
        storedSection = Self.stored(section)
    }

    private static func stored(_ index: Int) -> Int32 {
        guard let stored = Int32(exactly: index), stored >= 0 else { preconditionFailure("an index outside 0 ..< 2^31") }
        return stored
    }

    /// Orders paths by section, then by element.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.section, lhs.element) < (rhs.section, rhs.element)
    }

    /// `[section, element]`.
    public var description: String { "[\(section), \(element)]" }
}
