import ListDiff

/// An element of the test snapshots: an id and a content value.
struct Item: Differentiable, Hashable, Sendable, CustomStringConvertible {
    var id: Int
    var content: Int = 0

    var differenceIdentifier: Int { id }
    func isContentEqual(to source: Item) -> Bool { content == source.content }
    var description: String { content == 0 ? "\(id)" : "\(id)'\(content)" }
}

/// A section model of the test snapshots: an id and a content value (a header title, say).
struct Header: Differentiable, Hashable, Sendable, CustomStringConvertible {
    var id: Int
    var content: Int = 0

    var differenceIdentifier: Int { id }
    func isContentEqual(to source: Header) -> Bool { content == source.content }
    var description: String { content == 0 ? "S\(id)" : "S\(id)'\(content)" }
}

typealias TestSection = ArraySection<Header, Item>
typealias Snapshot = [TestSection]

/// Builds a section from a header id and item ids (all contents 0).
func section(_ id: Int, _ items: [Int]) -> TestSection {
    TestSection(model: Header(id: id), elements: items.map { Item(id: $0) })
}

extension ElementPath {
    /// `path(section, element)`, shorter to read in expectations.
    static func at(_ section: Int, _ element: Int) -> ElementPath { ElementPath(element: element, section: section) }
}
