/// A top-level member whose value differs between the old and the new version of an item or a section: what a
/// DiffUtil change payload, a UIKit reconfigure or a partial re-render needs, and what a JSON Patch `add`,
/// `replace` or `remove` of one member says.
public struct MemberChange: Hashable, Sendable {
    /// How the member changed.
    public enum Kind: Hashable, Sendable {
        /// The new version has the member; the old one does not.
        case added
        /// The old version has the member; the new one does not.
        case removed
        /// Both have the member, with values that are not deeply equal (see ``ContentKey``).
        case replaced
    }

    /// The member's name, unescaped.
    public let name: String
    /// How it changed.
    public let kind: Kind
    /// The member's value in the new version, as the JSON text the client sent; `nil` when it was removed.
    public let value: ArraySlice<UInt8>?

    /// The changes that turn the members of the object `old` into those of `new` (both JSON texts of a request
    /// body), leaving out the members named in `ignored`: the new version's members in the order written,
    /// then the removed ones in the old version's order.
    ///
    /// - Complexity: O(*n* + *m*) in the objects' lengths (each is read once and its values canonicalised).
    static func changes(from old: SourceText, to new: SourceText, ignoring ignored: Set<String>) -> [MemberChange] {
        let oldMembers = old.members().filter { !ignored.contains($0.name) }
        let newMembers = new.members().filter { !ignored.contains($0.name) }
        // Member names are unique in a validated object.
        let oldValues = Dictionary(uniqueKeysWithValues: oldMembers.map { ($0.name, $0.canonical) })
        var changes: [MemberChange] = []
        for member in newMembers {
            guard let previous = oldValues[member.name] else {
                changes.append(MemberChange(name: member.name, kind: .added, value: new.text.slice(member.value)))
                continue
            }
            if previous != member.canonical {
                changes.append(MemberChange(name: member.name, kind: .replaced, value: new.text.slice(member.value)))
            }
        }
        let newNames = Set(newMembers.map(\.name))
        for member in oldMembers where !newNames.contains(member.name) {
            changes.append(MemberChange(name: member.name, kind: .removed, value: nil))
        }
        return changes
    }
}
