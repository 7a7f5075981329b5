import SnapshotJSON

/// A page's ids as JSON text, one after the other, and where each ends: about 10 bytes for an id of a few
/// characters, where a ``WireID`` takes 24. How `/layout` and the layouts of `/diff` keep a page's ids until
/// they are written.
struct WrittenIDs {
    private var text: [UInt8] = []
    private var ends: [UInt32] = []
    /// The bytes of the ids together.
    var length: Int { text.count }

    /// The ids written as ``WireID/write(into:)`` writes them; `nil` unless that takes less memory than the
    /// ids (once freed, their array comes back to the system, but a long string id's own object stays in the
    /// heap's free lists, so ids of more than a dozen bytes are better kept), or when their text passes 4 GiB.
    ///
    /// - Complexity: O(n + b) for n ids whose string ids have b UTF-8 bytes.
    init?(_ ids: some Collection<WireID>) {
        var length = 0  // (escapes aside)
        for id in ids {
            switch id {
            case .string(let string): length += string.utf8.count + 2
            case .integer(let integer): length += String(integer).utf8.count
            }
        }
        guard length + MemoryLayout<UInt32>.stride * ids.count < MemoryLayout<WireID>.stride * ids.count else {
            return nil
        }
        text.reserveCapacity(length)
        ends.reserveCapacity(ids.count)
        for id in ids {
            switch id {
            case .string(let string): JSONString.appendQuoted(string, to: &text)
            case .integer(let integer): text.append(contentsOf: String(integer).utf8)
            }
            guard let end = UInt32(exactly: text.count) else { return nil }
            ends.append(end)
        }
    }

    /// Writes the id at an offset, as one value.
    func write(_ offset: Int, into writer: inout JSONWriter) {
        let start = offset == 0 ? 0 : Int(ends[offset - 1])
        writer.json(text[start..<Int(ends[offset])])
    }
}
