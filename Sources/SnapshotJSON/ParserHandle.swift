internal import CSimdJSON

/// Owns one `CSimdJSON_Parser`.
///
/// `@unchecked Sendable`: the handle is used by one parse at a time; it moves between threads only through
/// ``ParserPool``'s mutex, which orders those uses.
final class ParserHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    init() {
        guard let pointer = CSimdJSON_ParserCreate() else { fatalError("out of memory") }
        self.pointer = pointer
    }

    deinit { CSimdJSON_ParserDestroy(pointer) }

    var retainedBytes: Int { CSimdJSON_ParserRetainedBytes(pointer) }
}
