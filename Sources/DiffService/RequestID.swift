import Synchronization

/// Request ids: the client's `X-Request-ID` when it is a sane token, else a fresh one.
enum RequestID {
    /// The client's id, if it has 1 to 128 characters among ASCII letters, digits and `-_.:`.
    static func accept(_ header: String?) -> String? {
        guard let header, (1...128).contains(header.utf8.count) else { return nil }
        let allowed = header.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: ":"):
                true
            default: false
            }
        }
        return allowed ? header : nil
    }

    /// 64 random bits drawn once per process: they tell replicas (and restarts) apart.
    private static let process: UInt64 = .random(in: .min ... .max)
    /// Requests numbered so far by this process.
    private static let counter = Atomic<UInt64>(0)

    /// 32 lowercase hexadecimal digits, unique per process and, with overwhelming probability, across
    /// processes: the process's random prefix, then the request's number scrambled by a bijection (so that
    /// consecutive ids do not look alike). No system call per request (`getrandom` was two).
    static func generate() -> String {
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let (prefix, suffix) = (process, scramble(number))
        // Written straight into the string's storage (no array to copy from and free).
        return String(unsafeUninitializedCapacity: 32) { text in
            for index in 0 ..< 32 {
                let word = index < 16 ? prefix : suffix
                let nibble = UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * (index % 16))) & 0xF
                text[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return 32
        }
    }

    /// SplitMix64's finaliser: a bijection on 64-bit values.
    static func scramble(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
