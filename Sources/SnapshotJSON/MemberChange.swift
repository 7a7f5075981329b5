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

}
