/// A value of a `/diff` request as the client wrote it: an item's or a section's object, or a member's value.
public struct JSONText: Sendable {
    /// The body.
    let text: RequestText
    /// The value's bytes in it.
    let range: Range<Int>

    /// The value's bytes, exactly as sent (sharing the body's storage).
    public var bytes: ArraySlice<UInt8> { text.slice(range) }

    /// Reads the value with `read`, given a reader at it (valid during the call; see ``JSONReader``), and returns
    /// what `read` returns.
    ///
    /// - Complexity: O(*n*) in the value's length (it is parsed again), besides what `read` does.
    public func read<Value>(_ read: (inout JSONReader) -> Value) -> Value { text.read(range, read) }

    /// The members of the object, or the elements of the array, in the order written; the members named in
    /// `uncanonical` without their encoding.
    func children(canonical: Bool, uncanonical: [String] = []) -> [JSONChild] {
        read { reader in
            var children: [JSONChild] = []
            func read(_ name: String, _ value: inout JSONReader) {
                var encoder = CanonicalEncoder()
                let encoded = canonical && !uncanonical.contains { $0.utf8.elementsEqual(name.utf8) }  // (bytewise, as JSON)
                let text = encoded ? value.readSpan { encoder.append(&$0) } : value.skipText()
                children.append(JSONChild(name: name, value: text, canonical: encoder.bytes))
            }
            if reader.kind == .array {
                reader.elements { element, _ in read("", &element) }
            } else {
                reader.members { member, name in read(name, &member) }
            }
            return children
        }
    }

    /// The top-level members whose values differ between the object `old` and this one (two objects of one
    /// request), leaving out those named in `ignored`: this object's members in the order written, then the ones
    /// it no longer has, in `old`'s order.
    ///
    /// - Complexity: O(*n* + *m*) in the objects' lengths (each is read once and its values canonicalised).
    public func memberChanges(from old: JSONText, ignoring ignored: Set<String> = []) -> [MemberChange] {
        // Names are compared by their UTF-8 bytes, as JSON compares them: Swift's String equality would take "é"
        // and "e\u{301}" (two members of one object) for one name.
        let ignoredNames = Set(ignored.map { Array($0.utf8) })
        let skipped = Array(ignored)  // read, not canonicalised (a section's items)
        let oldMembers = old.children(canonical: true, uncanonical: skipped).filter { !ignoredNames.contains(Array($0.name.utf8)) }
        let newMembers = children(canonical: true, uncanonical: skipped).filter { !ignoredNames.contains(Array($0.name.utf8)) }
        // Member names are unique in a validated object.
        let oldValues = Dictionary(uniqueKeysWithValues: oldMembers.map { (Array($0.name.utf8), $0.canonical) })
        var changes: [MemberChange] = []
        for member in newMembers {
            guard let previous = oldValues[Array(member.name.utf8)] else {
                changes.append(MemberChange(name: member.name, kind: .added, value: text.slice(member.value)))
                continue
            }
            if previous != member.canonical {
                changes.append(MemberChange(name: member.name, kind: .replaced, value: text.slice(member.value)))
            }
        }
        let newNames = Set(newMembers.map { Array($0.name.utf8) })
        for member in oldMembers where !newNames.contains(Array(member.name.utf8)) {
            changes.append(MemberChange(name: member.name, kind: .removed, value: nil))
        }
        return changes
    }
}

extension RequestText {
    /// The bytes at `range`, sharing the body's storage.
    func slice(_ range: Range<Int>) -> ArraySlice<UInt8> { slice(at: range.lowerBound, count: range.count) }
}
