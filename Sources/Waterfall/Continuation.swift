/// The state a waterfall layout needs to continue where a page ended: the settings' fingerprint, the
/// index of the next item, whose turn it is (round robin), and where each column continues.
///
/// It is what a stateless service hands to the client as an opaque cursor (``bytes``, which the service
/// seals and encodes) and gets back with the next page's items. It never holds the items themselves, so
/// a page costs the same whatever its number.
public struct Continuation: Hashable, Sendable {
    /// The encoding version; bytes of another version are refused.
    public static let version: UInt8 = 1

    /// ``WaterfallGeometry/fingerprint`` of the settings the page was laid out with.
    public var fingerprint: UInt64
    /// The index (in the whole section) of the next item.
    public var nextIndex: Int
    /// The column whose turn is next (round robin); 0 otherwise.
    public var nextColumn: Int
    /// For each column, the y in pixels where its next item starts.
    public var columnHeights: [Int]

    /// Creates a continuation.
    public init(fingerprint: UInt64, nextIndex: Int, nextColumn: Int, columnHeights: [Int]) {
        self.fingerprint = fingerprint
        self.nextIndex = nextIndex
        self.nextColumn = nextColumn
        self.columnHeights = columnHeights
    }

    /// A compact binary form: version, fingerprint, then LEB128 integers.
    public var bytes: [UInt8] {
        var bytes = [Self.version]
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: fingerprint >> UInt64(shift))) }
        for value in [nextIndex, nextColumn, columnHeights.count] + columnHeights { LEB128.append(UInt64(value), to: &bytes) }
        return bytes
    }

    /// Reads the binary form.
    ///
    /// - Parameter bytes: What ``bytes`` produced.
    /// - Throws: ``WaterfallError/malformedContinuation(_:)`` for another version, a truncated or
    ///   overlong form, or values out of range.
    public init(bytes: [UInt8]) throws(WaterfallError) {
        guard bytes.first == Self.version else { throw .malformedContinuation(.unknownVersion) }
        guard bytes.count >= 9 else { throw .malformedContinuation(.truncated) }
        var fingerprint: UInt64 = 0
        for index in 0..<8 { fingerprint |= UInt64(bytes[1 + index]) << UInt64(8 * index) }
        var reader = VarintReader(bytes: bytes, position: 9)
        let nextIndex = try reader.next(limit: 1 << 40)
        let nextColumn = try reader.next(limit: UInt64(WaterfallGeometry.maximumColumnCount - 1))
        let count = try reader.next(limit: UInt64(WaterfallGeometry.maximumColumnCount))
        guard count >= 1, nextColumn < count else { throw .malformedContinuation(.columnCountOutOfRange) }
        var heights: [Int] = []
        for _ in 0..<count { heights.append(try reader.next(limit: 1 << 52)) }
        guard reader.isAtEnd else { throw .malformedContinuation(.trailingBytes) }
        self.init(fingerprint: fingerprint, nextIndex: nextIndex, nextColumn: nextColumn, columnHeights: heights)
    }
}

private struct VarintReader {
    let bytes: [UInt8]
    var position: Int

    var isAtEnd: Bool { position == bytes.count }

    mutating func next(limit: UInt64) throws(WaterfallError) -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count else { throw .malformedContinuation(.truncated) }
            let byte = bytes[position]
            position += 1
            guard shift < 63 else { throw .malformedContinuation(.integerTooLong) }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { break }
            shift += 7
        }
        guard value <= limit else { throw .malformedContinuation(.integerOutOfRange) }
        return Int(value)
    }
}
