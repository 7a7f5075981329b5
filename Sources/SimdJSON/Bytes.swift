// The byte-level comparisons and hashing that the bytes walks read (texts, ids, member names) are compared and
// hashed by: kept here, with the module's other unsafe pointers, so that the modules above handle bytes only as
// arrays, slices and strings.

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

/// Whether two slices of byte arrays hold the same bytes.
///
/// - Complexity: O(*n*).
package func bytesEqual(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { x in b.withUnsafeBytes { y in bytesEqual(x, y) } }
}

/// Whether two strings have the same UTF-8 bytes (the same Unicode scalars, without normalisation), read in place
/// (a foreign string is copied).
package func utf8Equal(_ a: String, _ b: String) -> Bool {
    let inPlace = a.utf8.withContiguousStorageIfAvailable { x in
        b.utf8.withContiguousStorageIfAvailable { y in bytesEqual(UnsafeRawBufferPointer(x), UnsafeRawBufferPointer(y)) }
    }
    if let inPlace, let same = inPlace { return same }
    var a = a, b = b
    return a.withUTF8 { x in b.withUTF8 { y in bytesEqual(UnsafeRawBufferPointer(x), UnsafeRawBufferPointer(y)) } }
}

/// Feeds a string's UTF-8 bytes to `hasher`, read in place (a foreign string is copied).
package func combineUTF8(_ string: String, into hasher: inout Hasher) {
    let hashed: Void? = string.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    if hashed == nil {
        var copy = string
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
