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
    /// - Returns: 200 with the changeset, or a problem (400, 413, 422).
    ///   - statistics: Receives where the request spent its time.
    public static func respond(
        to body: [UInt8], cursors: CursorCodec = CursorCodec(), statistics: inout DiffStatistics
    ) -> HTTPResponse {
        switch result(for: body, cursors: cursors, statistics: &statistics) {
        case .success(let bytes):
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: bytes)
        case .failure(let problem):
            return problem.response(instance: "/diff")
        }
    }

    /// Answers a `/diff` request body (see ``respond(to:cursors:statistics:)``).
    public static func respond(to body: [UInt8], cursors: CursorCodec = CursorCodec()) -> HTTPResponse {
        var statistics = DiffStatistics()
        return respond(to: body, cursors: cursors, statistics: &statistics)
    }

    /// The response body for a request body, or the problem.
    public static func result(
        for body: [UInt8], cursors: CursorCodec = CursorCodec(), statistics: inout DiffStatistics
    ) -> Result<[UInt8], Problem> {
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
        statistics.compute = lap()
        defer { statistics.write = lap() }
        // Room for the fixed part (counts and up to five stages of eight names: ~1 KB), up to ~48 bytes a change per
        // rendering (~72 with ids) and ~128 bytes a laid-out item, so that the answer is written without growing the
        // buffer: a buffer that doubles holds its old and new copies at once (pages it never touches cost no memory).
        let layoutItems = layouts.isEmpty ? 0 : request.new.itemCount
        let perChange = (options.ids ? 72 : 48) * options.renderings.count * (options.pretty ? 2 : 1)
        // A JSON Patch holds inserted items and sections whole: at most the body's bytes.
        let patchValues = options.renderings.contains(.jsonPatch) ? body.count : 0
        var writer = JSONWriter(
            pretty: options.pretty,
            capacity: 1024 + difference.counts.total * perChange + layoutItems * 128 + patchValues)
        statistics.changes = difference.counts.total
        // The ids keep no item (9 bytes an item, where an item is 32), so that the snapshots can go first.
        let ids = options.ids ? SubjectIDs(request, dropped: difference.droppedDuplicates) : nil
        writer.beginObject()
        if options.readsMembers {
            // The snapshots and the difference are handed over, so that they are freed before the layouts (the
            // answer's last member) are written: the answer is then mostly written, and its peak holds less.
            writeChanges(of: consume difference, in: consume request, ids: ids, options: options, into: &writer)
        } else {
            _ = consume request  // nothing below reads the snapshots: they are freed before the answer is written
            difference.writeMembers(
                into: &writer, renderings: options.renderings, reportDropped: options.duplicates == .keepFirst, ids: ids)
        }
        if !layouts.isEmpty { SectionLayouts.write(pages, cursors: cursors, into: &writer) }
        writer.endObject()
        writer.finish()
        return .success(writer.bytes)
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
