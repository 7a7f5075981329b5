/// The canonical content encodings of one parsed request, in one buffer handed over by CSimdJSON.
///
/// `@unchecked Sendable`: the bytes are written before `init` and never again, and freed exactly once, in
/// `deinit`, when no ``ContentKey`` refers to them any more.
final class ContentArena: @unchecked Sendable {
    private let base: UnsafeMutablePointer<UInt8>?
    let count: Int

    /// Takes ownership of the arena of the parser's last parse.
    init(takingFrom parser: SimdJSONParser, count: Int) {
        base = parser.takeArena()
        self.count = count
    }

    deinit { SimdJSONParser.freeArena(base) }

    /// The bytes at `offset ..< offset + count`.
    func bytes(at offset: Int, count: Int) -> UnsafeRawBufferPointer {
        precondition(offset >= 0 && count >= 0 && offset + count <= self.count, "range outside the arena")
        guard let base else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: base + offset, count: count)
    }
}
