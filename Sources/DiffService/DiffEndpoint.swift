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
    public static func respond(to body: [UInt8], cursors: CursorCodec = CursorCodec()) -> HTTPResponse {
        switch result(for: body, cursors: cursors) {
        case .success(let bytes):
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: bytes)
        case .failure(let problem):
            return problem.response(instance: "/diff")
        }
    }

    /// The response body for a request body, or the problem.
    public static func result(for body: [UInt8], cursors: CursorCodec = CursorCodec()) -> Result<[UInt8], Problem> {
        let request: DiffRequest
        do {
            request = try parseDiffRequest(body)
        } catch {
            return .failure(error.problem)
        }
        let options = request.options
        var errors = FieldErrors()
        let layouts = SectionLayouts(options.layouts, errors: &errors)
        guard errors.isEmpty else { return .failure(errors.problem) }
        let policy: DuplicatePolicy = options.duplicates == .keepFirst ? .keepFirst : .reject
        let difference: SectionedDifference
        do {
            difference = try SectionedDifference(from: request.old.sections, to: request.new.sections, duplicates: policy)
        } catch {
            return .failure(error.problem(old: request.old, new: request.new))
        }
        var writer = JSONWriter(pretty: options.pretty, capacity: 64 + difference.counts.total * 24)
        writer.beginObject()
        let renderings = Set(options.renderings.map { $0 == .staged ? Rendering.staged : Rendering.sequential })
        difference.writeMembers(into: &writer, renderings: renderings, reportDropped: policy == .keepFirst)
        if !layouts.isEmpty,
            let problem = layouts.write(
                old: request.old, new: request.new, dropped: difference.droppedDuplicates, cursors: cursors, into: &writer)
        {
            return .failure(problem)
        }
        writer.endObject()
        writer.finish()
        return .success(writer.bytes)
    }
}
