/// A member of an object or an element of an array, read by ``JSONText/children(canonical:uncanonical:)``.
struct JSONChild {
    /// The member's name, unescaped; empty for an element.
    let name: String
    /// Where the value's JSON text lies in the bytes read.
    let value: Range<Int>
    /// The value's canonical encoding, when asked for: two values are deeply equal exactly when their encodings are.
    let canonical: [UInt8]
}
