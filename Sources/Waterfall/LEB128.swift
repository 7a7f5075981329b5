/// The one LEB128 varint writer: seven bits a byte, least significant first, the high bit set on every byte but
/// the last. A continuation's binary form (``Continuation/bytes``) and the request reader's canonical content
/// encodings use it.
public enum LEB128 {
    /// Appends `value` to `bytes` (1 to 10 bytes).
    ///
    /// - Complexity: O(log₁₂₈ `value`).
    public static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// The number of bytes ``append(_:to:)`` writes for `value`.
    public static func count(_ value: UInt64) -> Int {
        max(1, (64 - value.leadingZeroBitCount + 6) / 7)
    }
}
