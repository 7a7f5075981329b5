internal import CSimdJSON

/// A CSimdJSON parser borrowed from ``ParserPool`` (which owns it: the handle only names it).
struct ParserHandle {
    let pointer: OpaquePointer
}

extension ParserHandle {
    /// Bytes the parser keeps allocated between parses.
    var retainedBytes: Int { CSimdJSON_ParserRetainedBytes(pointer) }
}
