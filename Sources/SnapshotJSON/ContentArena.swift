/// The canonical content encodings of one parsed request's sections (``CanonicalEncoder``), shared by their
/// ``ContentKey``s.
final class ContentArena: Sendable {
    private let storage: [UInt8]

    init(_ bytes: [UInt8]) {
        storage = bytes
    }

    /// The bytes at `offset ..< offset + count`.
    func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8> {
        precondition(offset >= 0 && count >= 0 && offset + count <= storage.count, "range outside the arena")
        return storage[offset ..< offset + count]
    }
}
