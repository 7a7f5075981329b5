/// Where a value's JSON text lies in a request body: an item's or a section's object as the client wrote it.
struct SourceText: Sendable {
    /// The body.
    let text: RequestText
    /// The value's bytes in it.
    let range: Range<Int>

    /// The value's bytes, sharing the body's storage.
    var bytes: ArraySlice<UInt8> { text.slice(range) }

    /// The members of the object (the value must be one), in the order written; value ranges are the body's.
    func members() -> [ObjectMember] { text.members(at: range.lowerBound, count: range.count) }
}

extension RequestText {
    /// The bytes at `range`, sharing the body's storage.
    func slice(_ range: Range<Int>) -> ArraySlice<UInt8> { slice(at: range.lowerBound, count: range.count) }
}
