/// FNV-1a, 64 bits: a hash that is the same in every process, unlike `Hasher`, so that a continuation made
/// by one replica is recognised by another.
struct Fingerprint {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func combine(_ word: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { combine(byte: UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }

    mutating func combine(string: String) {
        for byte in string.utf8 { combine(byte: byte) }
        combine(byte: 0)
    }

    private mutating func combine(byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
}
