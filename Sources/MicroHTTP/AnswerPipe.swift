internal import CMicroHTTPD
internal import Gzip
import Dispatch
import Synchronization

/// Carries a ``BodyStream``'s pieces from its writer thread to libmicrohttpd, which reads them through its
/// content-reader callback (``read(into:capacity:)``) as the socket takes them.
///
/// - **Back-pressure.** At most ``capacity`` bytes wait to be sent; the writer waits for room, so that a slow
///   client holds no more than that besides the writer's own state.
/// - **Nothing to send yet.** The reader suspends the connection and returns 0 (the pattern `microhttpd.h`
///   prescribes, instead of the busy loop a bare 0 causes); the writer's next piece, or its end, resumes it. Both
///   happen under the pipe's lock, so a resume always follows its suspend, and only a suspended connection
///   (which libmicrohttpd cannot free) is ever resumed.
/// - **The client gone.** libmicrohttpd's free callback (``readerGone()``) makes the writer's pieces drop at
///   once; at shutdown ``abandon()`` ends the answer before the daemon stops (the connection is resumed if it
///   waits, and never touched again).
/// - **Memory.** The request's reservation in the budget moves into the pipe and goes back when both the writer
///   has returned (its state is freed) and libmicrohttpd has let go of the answer.
/// - **gzip.** With a compressor, the writer thread compresses each piece before it is queued.
///
/// `@unchecked Sendable`: ``compressor`` and ``pending`` are used by the writer thread alone; everything else
/// is behind ``state``'s lock.
final class AnswerPipe: BodyPieceTarget, @unchecked Sendable {
    private struct State {
        var queue: [[UInt8]] = []
        /// Bytes of ``queue``'s first piece already read.
        var offset = 0
        var queuedBytes = 0
        /// An emptied piece kept for the writer's next one.
        var spare: [UInt8]?
        var writerDone = false
        var writerWaiting = false
        var readerSuspended = false
        var readerGone = false
        var abandoned = false
        var reserved: Int
    }

    /// The most bytes that wait to be sent before the writer waits.
    static let capacity = 4 * BodySink.pieceBytes

    private let connection: OpaquePointer
    private let budget: MemoryBudget
    private let registry: AnswerPipes
    private let state: Mutex<State>
    private let room = DispatchSemaphore(value: 0)
    private let compressor: GzipCompressor?
    private var pending: [UInt8] = []

    /// Creates the pipe of an answer to `connection`, holding `reserved` bytes of `budget` until both sides are
    /// done.
    init(
        connection: OpaquePointer, budget: MemoryBudget, reserved: Int, registry: AnswerPipes,
        compressor: GzipCompressor?
    ) {
        self.connection = connection
        self.budget = budget
        self.registry = registry
        self.compressor = compressor
        self.state = Mutex(State(reserved: reserved))
        if !registry.add(self) { abandon() }
    }

    // MARK: The writer's side

    func take(_ piece: inout [UInt8]) {
        guard let compressor else { return enqueue(&piece) }
        // withUnsafeBytes rethrows untyped errors: the outcome comes out as a Result.
        let outcome = piece.withUnsafeBytes { bytes in
            Result { () throws(GzipError) in try compressor.compress(bytes) { output in collect(output) } }
        }
        if case .failure = outcome { abandon() }  // zlib out of memory: the answer cannot be finished
        piece.removeAll(keepingCapacity: true)
    }

    var isOpen: Bool { state.withLock { !$0.readerGone && !$0.abandoned } }

    /// The writer has returned: queues what gzip still holds, lets the reader see the end, and gives the
    /// reservation back if libmicrohttpd is done too.
    func writerFinished() {
        if let compressor {
            do throws(GzipError) {
                try compressor.finish { output in collect(output) }
            } catch {
                abandon()
            }
            enqueue(&pending)
        }
        let released: Int? = state.withLock { state in
            state.writerDone = true
            resumeReader(&state)
            return state.readerGone ? takeReservation(&state) : nil
        }
        if let released { finish(releasing: released) }
    }

    /// Gathers gzip's output into pieces.
    private func collect(_ output: UnsafeRawBufferPointer) {
        pending.append(contentsOf: output)
        if pending.count >= BodySink.pieceBytes { enqueue(&pending) }
    }

    /// Queues `piece`, waiting for room; leaves `piece` empty with room for the next one.
    private func enqueue(_ piece: inout [UInt8]) {
        guard !piece.isEmpty else { return }
        while true {
            let outcome: Bool? = state.withLock { state in
                if state.readerGone || state.abandoned { return false }
                if state.queuedBytes >= Self.capacity {
                    state.writerWaiting = true
                    return nil
                }
                state.queuedBytes += piece.count
                var next = state.spare ?? []
                state.spare = nil
                swap(&next, &piece)
                state.queue.append(next)
                resumeReader(&state)
                return true
            }
            guard let queued = outcome else {
                room.wait()
                continue
            }
            if !queued { piece.removeAll(keepingCapacity: true) }
            if piece.capacity < BodySink.pieceBytes { piece.reserveCapacity(BodySink.pieceBytes) }
            return
        }
    }

    /// Resumes the connection if it waits for bytes (under the lock: see the type's notes).
    private func resumeReader(_ state: inout State) {
        guard state.readerSuspended else { return }
        state.readerSuspended = false
        MHD_resume_connection(connection)
    }

    // MARK: libmicrohttpd's side

    /// `MHD_ContentReaderCallback`: copies up to `capacity` bytes into `buffer`; 0 after suspending the
    /// connection when nothing is ready; -1 at the end; -2 when the answer was abandoned (libmicrohttpd then
    /// closes the connection, and the client sees the body cut short).
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        let (count, wakeWriter): (Int, Bool) = state.withLock { state in
            if state.abandoned { return (-2, false) }  // MHD_CONTENT_READER_END_WITH_ERROR
            guard !state.queue.isEmpty else {
                if state.writerDone { return (-1, false) }  // MHD_CONTENT_READER_END_OF_STREAM
                state.readerSuspended = true
                MHD_suspend_connection(connection)
                return (0, false)
            }
            // As many queued pieces as fit: each call is one chunk on the wire, so a piece's tail does not go alone.
            var count = 0
            while count < capacity, !state.queue.isEmpty {
                let taken = min(capacity - count, state.queue[0].count - state.offset)
                state.queue[0].withUnsafeBytes { piece in
                    (buffer + count).copyMemory(from: piece.baseAddress! + state.offset, byteCount: taken)
                }
                count += taken
                state.offset += taken
                if state.offset == state.queue[0].count {
                    var emptied = state.queue.removeFirst()
                    state.offset = 0
                    emptied.removeAll(keepingCapacity: true)
                    state.spare = emptied
                }
            }
            state.queuedBytes -= count
            let wake = state.writerWaiting && state.queuedBytes < Self.capacity
            if wake { state.writerWaiting = false }
            return (count, wake)
        }
        if wakeWriter { room.signal() }
        return count
    }

    /// libmicrohttpd has freed the answer (sent, the client gone, or the daemon stopped): the writer's pieces
    /// drop from now on.
    func readerGone() {
        let (released, wakeWriter): (Int?, Bool) = state.withLock { state in
            state.readerGone = true
            state.queue = []
            state.spare = nil
            state.queuedBytes = 0
            let wake = state.writerWaiting
            state.writerWaiting = false
            return (state.writerDone ? takeReservation(&state) : nil, wake)
        }
        if wakeWriter { room.signal() }
        if let released { finish(releasing: released) }
    }

    /// Ends the answer where it stands: the reader's next call closes the connection, a waiting connection is
    /// resumed now, and the connection is never touched again. For shutdown, before the daemon stops.
    func abandon() {
        let wakeWriter: Bool = state.withLock { state in
            guard !state.abandoned else { return false }
            resumeReader(&state)
            state.abandoned = true
            let wake = state.writerWaiting
            state.writerWaiting = false
            return wake
        }
        if wakeWriter { room.signal() }
    }

    private func takeReservation(_ state: inout State) -> Int {
        defer { state.reserved = 0 }
        return state.reserved
    }

    private func finish(releasing bytes: Int) {
        budget.release(bytes)
        registry.remove(self)
    }
}

/// The answers being written while they are sent, so that shutdown can end them before the daemon stops.
final class AnswerPipes: Sendable {
    private struct State {
        var pipes: [ObjectIdentifier: AnswerPipe] = [:]
        var closed = false
    }

    private let state = Mutex(State())

    /// Registers `pipe`; `false` once ``abandonAll()`` has run (the pipe must then end at once).
    fileprivate func add(_ pipe: AnswerPipe) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.pipes[ObjectIdentifier(pipe)] = pipe
            return true
        }
    }

    fileprivate func remove(_ pipe: AnswerPipe) {
        _ = state.withLock { $0.pipes.removeValue(forKey: ObjectIdentifier(pipe)) }
    }

    /// Answers being written now.
    var count: Int { state.withLock { $0.pipes.count } }

    /// Ends every answer still being written, and every one started later: afterwards no writer resumes a
    /// connection.
    func abandonAll() {
        let pipes = state.withLock { state in
            state.closed = true
            return Array(state.pipes.values)
        }
        for pipe in pipes { pipe.abandon() }
    }
}
