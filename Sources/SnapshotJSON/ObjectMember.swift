/// A member of an object, read by ``SimdJSONParser/members(of:_:)``.
struct ObjectMember {
    /// The member's name, unescaped.
    let name: String
    /// Where the value's JSON text lies in the bytes read.
    let value: Range<Int>
    /// The value's canonical encoding: two values are deeply equal exactly when their encodings are.
    let canonical: [UInt8]
}
