import ListDiff
import MicroHTTP
import SnapshotJSON

/// `POST /diff` as a pure function of the body: read the two snapshots, diff them, write the changeset.
///
/// The HTTP route and the `snapdiff diff` command both call ``respond(to:)``, so the command prints exactly
/// what the endpoint returns.
public enum DiffEndpoint {
    /// Answers a `/diff` request body.
    ///
    /// - Parameters:
    ///   - body: The request body (JSON). Reading is fastest when its capacity exceeds its count by
    ///     `DiffRequest.requiredPadding` bytes.
    ///   - cursors: Seals the cursors of requested layouts.
    ///   - statistics: Receives where the request spent its time (an answer written while it is sent has no
    ///     write time: it lasts as long as the client reads).
    ///   - streamingAbove: An answer that may be larger than this many bytes is written while it is sent
    ///     (``HTTPResponse/stream``), from the difference and what it names, which are many times smaller than
    ///     such an answer; by default every answer is written whole.
    /// - Returns: 200 with the changeset, or a problem (400, 413, 422).
    public static func respond(
        to body: [UInt8], cursors: CursorCodec = CursorCodec(), statistics: inout DiffStatistics,
        streamingAbove: Int = .max
    ) -> HTTPResponse {
        let headers: HTTPHeaders = ["Content-Type": "application/json"]
        switch answer(for: body, cursors: cursors, statistics: &statistics) {
        case .success(let answer) where answer.estimatedBytes > streamingAbove:
            let taken = TakenOnce(answer)
            return HTTPResponse(
                status: 200, headers: headers,
                stream: BodyStream { sink in
                    var writer = JSONWriter(pretty: taken.pretty, streamingTo: sink)
                    write(taken.take(), into: &writer)
                })
        case .success(let answer):
            return HTTPResponse(status: 200, headers: headers, body: written(answer, statistics: &statistics))
        case .failure(let problem):
            return problem.response(instance: "/diff")
        }
    }

    /// Answers a `/diff` request body (see ``respond(to:cursors:statistics:streamingAbove:)``), whole.
    public static func respond(to body: [UInt8], cursors: CursorCodec = CursorCodec()) -> HTTPResponse {
        var statistics = DiffStatistics()
        return respond(to: body, cursors: cursors, statistics: &statistics)
    }

    /// The response body for a request body, written whole, or the problem.
    public static func result(
        for body: [UInt8], cursors: CursorCodec = CursorCodec(), statistics: inout DiffStatistics
    ) -> Result<[UInt8], Problem> {
        answer(for: body, cursors: cursors, statistics: &statistics).map { written($0, statistics: &statistics) }
    }

    /// An answer computed and not yet written: what writing it reads, and a bound of its size.
    struct Answer {
        let options: DiffOptions
        let difference: SectionedDifference
        /// The request, kept only when the answer reads the snapshots' members (``DiffOptions/readsMembers``).
        let request: DiffRequest?
        let ids: SubjectIDs?
        let pages: [SectionLayouts.Page]
        let cursors: CursorCodec
        /// The bytes the answer may take, at most (the room its writer reserves).
        let estimatedBytes: Int
    }

    /// Reads the body, diffs the snapshots and lays out the sections; the answer is left to write.
    private static func answer(
        for body: [UInt8], cursors: CursorCodec, statistics: inout DiffStatistics
    ) -> Result<Answer, Problem> {
        let clock = ContinuousClock()
        var start = clock.now
        func lap() -> Duration {
            let now = clock.now
            defer { start = now }
            return start.duration(to: now)
        }
        let request: DiffRequest
        do {
            request = try parseDiffRequest(body)
        } catch {
            statistics.parse = lap()
            return .failure(error.problem)
        }
        statistics.parse = lap()
        let options = request.options
        let layouts = SectionLayouts(options.layouts)
        let policy = options.duplicates
        let difference: SectionedDifference
        do {
            difference = try SectionedDifference(
                from: request.old.sections, to: request.new.sections, duplicates: policy, reportLimits: .problem)
        } catch {
            statistics.compute = lap()
            return .failure(error.problem(old: request.old, new: request.new))
        }
        // Layouts are made before the answer is written, so that the old sections' layouts are gone before it
        // exists (a layout problem is still reported after a duplicate problem).
        var pages: [SectionLayouts.Page] = []
        if !layouts.isEmpty {
            switch layouts.pages(old: request.old, new: request.new, dropped: difference.droppedDuplicates) {
            case .success(let laidOut): pages = laidOut
            case .failure(let problem):
                statistics.compute = lap()
                return .failure(problem)
            }
        }
        statistics.changes = difference.counts.total
        // The ids keep no item (9 bytes an item, where an item is 32), so that the snapshots can go first.
        let ids = options.ids ? SubjectIDs(request, dropped: difference.droppedDuplicates) : nil
        // Up to ~1 KB of fixed part (counts and up to five stages of eight names), ~48 bytes a change per rendering
        // (~72 with ids) and ~128 bytes a laid-out item; a JSON Patch holds inserted items and sections whole: at
        // most the body's bytes.
        let layoutItems = layouts.isEmpty ? 0 : request.new.itemCount
        let perChange = (options.ids ? 72 : 48) * options.renderings.count * (options.pretty ? 2 : 1)
        let patchValues = options.renderings.contains(.jsonPatch) ? body.count : 0
        let estimatedBytes = 1024 + difference.counts.total * perChange + layoutItems * 128 + patchValues
        statistics.compute = lap()
        return .success(
            Answer(
                options: options, difference: difference, request: options.readsMembers ? request : nil, ids: ids,
                pages: pages, cursors: cursors, estimatedBytes: estimatedBytes))
    }

    /// The answer written whole, into a buffer reserved at its bound (a buffer that doubles holds its old and new
    /// copies at once; pages it never touches cost no memory).
    private static func written(_ answer: consuming Answer, statistics: inout DiffStatistics) -> [UInt8] {
        let clock = ContinuousClock()
        let start = clock.now
        defer { statistics.write = start.duration(to: clock.now) }
        var writer = JSONWriter(pretty: answer.options.pretty, capacity: answer.estimatedBytes)
        write(consume answer, into: &writer)
        return writer.bytes
    }

    /// Writes the answer. It owns the answer, so that each part is freed as soon as it is written: the snapshots
    /// (when kept) once the updated members are found, the difference before the layouts (the answer's last
    /// member).
    private static func write(_ answer: consuming Answer, into writer: inout JSONWriter) {
        let options = answer.options, ids = answer.ids, cursors = answer.cursors
        var difference = Optional(answer.difference), request = answer.request, pages = answer.pages
        _ = consume answer
        writer.beginObject()
        if let request = request.take() {
            writeChanges(of: difference.take()!, in: request, ids: ids, options: options, into: &writer)
        } else {
            difference.take()!.writeMembers(
                into: &writer, renderings: options.renderings, reportDropped: options.duplicates == .keepFirst,
                ids: ids)
        }
        if !options.layouts.isEmpty { SectionLayouts.write(pages, cursors: cursors, into: &writer) }
        pages = []
        writer.endObject()
        writer.finish()
    }

    /// Writes the answer's members that describe the changes: the renderings, `jsonPatch` and `changedMembers`
    /// as `options` ask.
    ///
    /// It owns the request, so that the snapshots are freed as soon as the updated members are found: the patch
    /// then reads only where the new snapshot's items and sections lie (``SnapshotTexts``, 8 bytes an item where
    /// an item is 32) and whether the old one was a bare list.
    private static func writeChanges(
        of difference: SectionedDifference, in request: consuming DiffRequest, ids: SubjectIDs?, options: DiffOptions,
        into writer: inout JSONWriter
    ) {
        difference.writeMembers(
            into: &writer, renderings: options.renderings, reportDropped: options.duplicates == .keepFirst, ids: ids)
        let updated = UpdatedMembers(difference, old: request.old, new: request.new)
        let patchTexts = options.renderings.contains(.jsonPatch) ? SnapshotTexts(request.new) : nil
        let oldIsBareItemList = request.old.isBareItemList
        _ = consume request  // the snapshots are freed here
        if let patchTexts {
            writer.key("jsonPatch")
            difference.writeJSONPatch(
                oldIsBareItemList: oldIsBareItemList, new: patchTexts, updated: updated, into: &writer)
        }
        if options.changedMembers {
            writer.key("changedMembers")
            updated.write(into: &writer)
        }
    }
}

/// An answer handed to the thread that writes it while it is sent, and taken out by it.
///
/// `@unchecked Sendable`: created on the thread that computed the answer, then used only by the one thread that
/// writes the body (``BodyStream`` writes once), which the server starts after this is stored.
private final class TakenOnce: @unchecked Sendable {
    private var answer: DiffEndpoint.Answer?
    let pretty: Bool

    init(_ answer: DiffEndpoint.Answer) {
        self.answer = answer
        pretty = answer.options.pretty
    }

    func take() -> DiffEndpoint.Answer { answer.take()! }
}
