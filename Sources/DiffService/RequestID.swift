/// Request ids: the client's `X-Request-ID` when it is a sane token, else a fresh random one.
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

    /// 128 random bits as 32 lowercase hexadecimal digits.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let words = [generator.next() as UInt64, generator.next() as UInt64]
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(32)
        for word in words {
            for shift in stride(from: 60, through: 0, by: -4) { text.append(digits[Int(word >> UInt64(shift) & 0xF)]) }
        }
        return String(decoding: text, as: UTF8.self)
    }
}
