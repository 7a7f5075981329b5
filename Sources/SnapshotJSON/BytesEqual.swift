/// Whether two byte ranges hold the same bytes (eight at a time).
///
/// - Complexity: O(*n*).
func bytesEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    let count = a.count
    var offset = 0
    while offset + 8 <= count {
        if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
            return false
        }
        offset += 8
    }
    while offset < count {
        if a[offset] != b[offset] { return false }
        offset += 1
    }
    return true
}
