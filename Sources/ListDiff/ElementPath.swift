/// The position of an element in a sectioned list: a section index and an element index within it.
///
/// Which snapshot or intermediate state the indices refer to depends on the change that carries the path;
/// see ``Changeset`` and ``SequentialChange``.
public struct ElementPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The section index.
    public var section: Int

    /// The element index within the section.
    public var element: Int

    /// Creates a path.
    ///
    /// - Parameters:
    ///   - element: The element index within the section.
    ///   - section: The section index.
    public init(element: Int, section: Int) {
        self.element = element
        self.section = section
    }

    /// Orders paths by section, then by element.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.section, lhs.element) < (rhs.section, rhs.element)
    }

    /// `[section, element]`.
    public var description: String { "[\(section), \(element)]" }
}
