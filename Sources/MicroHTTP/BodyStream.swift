import Synchronization

/// A response body written while it is sent, for an answer many times larger than what it is written from:
/// the server then holds the writer's state and a few pieces, never the whole answer.
///
/// The server runs the writer on a thread of its own once the answer is ready to go, and sends each piece the
/// writer hands to its ``BodySink`` in order: with chunked transfer coding to an HTTP/1.1 client, and to an
/// HTTP/1.0 one until the connection closes (RFC 9112 §6.3). The writer waits while the pieces not yet sent fill
/// the sink (a client that reads slowly holds no more than that), and its pieces are discarded once the client
/// is gone. Clients of a handler that are not the server (a command, a test) take the body whole with
/// ``collect()``.
public final class BodyStream: Sendable, Hashable {
    private let write: @Sendable (BodySink) -> Void

    /// Creates a body written by `write`.
    ///
    /// - Parameter write: Writes the body into the sink, piece by piece, and returns when it is complete. It is
    ///   called once, on a thread where it may take its time; it must not write to the sink after it returns.
    public init(_ write: @escaping @Sendable (BodySink) -> Void) {
        self.write = write
    }

    /// Writes the body into `sink` (once).
    func write(into sink: BodySink) {
        write(sink)
    }

    /// The whole body, written on the calling thread. A stream is written once: call this or hand the
    /// response to the server, not both.
    public func collect() -> [UInt8] {
        let collector = BodyCollector()
        write(BodySink(collector))
        return collector.take()
    }

    public static func == (lhs: BodyStream, rhs: BodyStream) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Where a ``BodyStream``'s writer hands its body, piece by piece.
public struct BodySink: Sendable {
    private let target: any BodyPieceTarget

    init(_ target: any BodyPieceTarget) {
        self.target = target
    }

    /// The size of piece a writer should hand over at a time: large enough that handing it over costs little,
    /// small enough that a few held at once cost little.
    public static let pieceBytes = 64 * 1024

    /// Takes the bytes written so far, and leaves `piece` empty with room for the next piece. Waits while the
    /// pieces not yet sent fill the sink; once the client is gone, the bytes are dropped at once.
    ///
    /// - Parameter piece: The next bytes of the body (any count; an empty piece is ignored).
    public func send(_ piece: inout [UInt8]) {
        guard !piece.isEmpty else { return }
        target.take(&piece)
    }

    /// Whether the body is still wanted: `false` once the client is gone (a writer may then stop early).
    public var isOpen: Bool { target.isOpen }
}

/// What a ``BodySink`` hands its pieces to: the server's pipe to a connection, or a collector.
protocol BodyPieceTarget: AnyObject, Sendable {
    /// Takes `piece` (leaving it empty, with room for the next) or drops it when the body is no longer wanted.
    func take(_ piece: inout [UInt8])
    /// Whether the body is still wanted.
    var isOpen: Bool { get }
}

/// Gathers a body whole (``BodyStream/collect()``).
private final class BodyCollector: BodyPieceTarget {
    private let bytes = Mutex<[UInt8]>([])

    func take(_ piece: inout [UInt8]) {
        bytes.withLock { $0.append(contentsOf: piece) }
        piece.removeAll(keepingCapacity: true)
    }

    var isOpen: Bool { true }

    func take() -> [UInt8] {
        bytes.withLock { bytes in
            defer { bytes = [] }
            return bytes
        }
    }
}
