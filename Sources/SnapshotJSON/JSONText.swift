/// A value of a `/diff` request as the client wrote it: an item's or a section's object, or a member's value.
public struct JSONText: Sendable {
    /// The body.
    let text: RequestText
    /// The value's bytes in it.
    let range: Range<Int>

    /// The value's bytes, exactly as sent (sharing the body's storage).
    public var bytes: ArraySlice<UInt8> { text.slice(range) }

    /// The members of the object, or the elements of the array, in the order written; the members named in
    /// `uncanonical` without their encoding.
    func children(canonical: Bool, uncanonical: [String] = []) -> [JSONChild] {
        text.children(at: range.lowerBound, count: range.count, canonical: canonical, uncanonical: uncanonical)
    }

    /// The top-level members whose values differ between the object `old` and this one (two objects of one
    /// request), leaving out those named in `ignored`: this object's members in the order written, then the ones
    /// it no longer has, in `old`'s order.
    ///
    /// - Complexity: O(*n* + *m*) in the objects' lengths (each is read once and its values canonicalised).
    public func memberChanges(from old: JSONText, ignoring ignored: Set<String> = []) -> [MemberChange] {
        let skipped = Array(ignored)  // read, not canonicalised (a section's items)
        let oldMembers = old.children(canonical: true, uncanonical: skipped).filter { !ignored.contains($0.name) }
        let newMembers = children(canonical: true, uncanonical: skipped).filter { !ignored.contains($0.name) }
        // Member names are unique in a validated object.
        let oldValues = Dictionary(uniqueKeysWithValues: oldMembers.map { ($0.name, $0.canonical) })
        var changes: [MemberChange] = []
        for member in newMembers {
            guard let previous = oldValues[member.name] else {
                changes.append(MemberChange(name: member.name, kind: .added, value: text.slice(member.value)))
                continue
            }
            if previous != member.canonical {
                changes.append(MemberChange(name: member.name, kind: .replaced, value: text.slice(member.value)))
            }
        }
        let newNames = Set(newMembers.map(\.name))
        for member in oldMembers where !newNames.contains(member.name) {
            changes.append(MemberChange(name: member.name, kind: .removed, value: nil))
        }
        return changes
    }
}

extension RequestText {
    /// The bytes at `range`, sharing the body's storage.
    func slice(_ range: Range<Int>) -> ArraySlice<UInt8> { slice(at: range.lowerBound, count: range.count) }
}
