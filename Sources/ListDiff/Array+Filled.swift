extension Array {
    /// `count` copies of `value`, like `init(repeating:count:)`, which however looks its storage class up in the
    /// runtime's metadata cache on every call (about 400 instructions: more than filling most arrays of a diff,
    /// which allocates about twenty).
    @inlinable
    init(filledWith value: Element, count: Int) {
        self.init(repeatElement(value, count: count))
    }
}
