import ListDiff
import MicroHTTP
import SnapshotJSON
import Waterfall

/// `POST /layout` as a pure function of the body: waterfall frames for a page of items, and the cursor
/// that continues after it.
///
/// ```json
/// {"settings": {"containerWidth": 375, "scale": 3, "columns": 2, "columnSpacing": 8, "itemSpacing": 8},
///  "items": [{"id": "p1", "aspectRatio": 1.5}, {"id": "p2", "width": 800, "height": 1200}],
///  "pageSize": 50, "cursor": "…nextCursor of the previous page…"}
/// ```
public enum LayoutEndpoint {
    /// Answers a `/layout` request body.
    ///
    /// - Parameters:
    ///   - body: The request body (JSON).
    ///   - cursors: Seals and opens cursors.
    /// - Returns: 200 with the page, or a problem (400, 409, 413, 422).
    public static func respond(to body: [UInt8], cursors: CursorCodec) -> HTTPResponse {
        switch result(for: body, cursors: cursors) {
        case .success(let bytes):
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: bytes)
        case .failure(let problem):
            return problem.response(instance: "/layout")
        }
    }

    /// What a `/layout` body asks for, decoded: made before the layout so that the body's tree is freed before
    /// the frames and the answer are made.
    private struct Input {
        var errors = FieldErrors()
        var paths = WaterfallSettingPaths(settings: "settings", pageSize: "pageSize")
        var settings: WaterfallSettings?
        var pageSize: Int?
        var cursor: String?
        var pretty = false
        var ids: [WireID] = []
        /// The items, in order, laid out as they are when no error is listed. An item that did not decode (its
        /// errors are listed, so nothing is laid out) has a valid stand-in, which adds no violation of its own:
        /// optionals unwrapped into a second array would hold every item (about 100 bytes) twice.
        var items: [WaterfallItem] = []
    }

    /// Parses and decodes a body; field errors are left in the input.
    private static func decode(_ body: [UInt8]) throws(RequestError) -> Input {
        let document = try parseJSONDocument(body)
        var input = Input()
        var root = document.root
        var hasSettings = false
        root.members { reader, name in
            switch name {
            case "settings":
                hasSettings = true
                input.settings = WaterfallSettings.decode(&reader, paths: &input.paths, errors: &input.errors)
            case "pageSize": input.pageSize = input.errors.integer(&reader, "pageSize")
            case "cursor": input.cursor = input.errors.string(&reader, "cursor")
            case "pretty": input.pretty = input.errors.boolean(&reader, "pretty") ?? false
            case "items": break  // (read with the document)
            default:
                input.errors.add(JSONPath.member(name, of: ""), "unknown member; expected settings, items, pageSize, cursor or pretty")
                reader.skip()
            }
        }
        if !hasSettings { input.errors.add("settings", "missing required member") }
        if document.items == nil { input.errors.add("items", "missing required member") }
        let documentItems = document.items ?? []
        input.ids = documentItems.map(\.id)
        input.items.reserveCapacity(documentItems.count)
        for (index, item) in documentItems.enumerated() {
            input.items.append(
                WaterfallItem.decode(item.reader, path: itemPath(index), errors: &input.errors) ?? Self.standIn)
        }
        return input
    }

    /// The response body for a request body, or the problem.
    static func result(for body: [UInt8], cursors: CursorCodec) -> Result<[UInt8], Problem> {
        var input: Input
        do {
            input = try decode(body)
        } catch {
            return .failure(error.problem)
        }
        let paths = input.paths, pageSize = input.pageSize, items = input.items
        guard input.errors.isEmpty, let settings = input.settings else {
            // Out-of-range values are reported with the type errors, not after they are fixed.
            if let settings = input.settings {
                input.errors.add(WaterfallLayout.violations(of: settings, pageSize: pageSize), paths: paths, item: itemPath)
            }
            for (index, item) in items.enumerated() {
                input.errors.add(item.violations(index: index), paths: paths, item: itemPath)
            }
            return .failure(input.errors.problem)
        }
        if let problem = duplicateProblem(input.ids, path: itemPath, snapshot: nil) {
            return .failure(problem)
        }
        var continuation: Continuation?
        if let cursor = input.cursor {
            do {
                continuation = try cursors.open(cursor)
            } catch {
                return .failure(error.problem(path: "cursor"))
            }
        }
        let page: WaterfallPage
        do {
            page = try WaterfallLayout.layout(
                items, settings: settings, after: continuation, pageSize: pageSize)
        } catch {
            return .failure(error.problem(paths: paths, item: itemPath, cursor: "cursor"))
        }
        // ~80 bytes a frame plus the id twice (frame and column list): reserved once, since a buffer that doubles
        // holds its old and new copies at once (pages it never touches cost no memory).
        var writer = JSONWriter(pretty: input.pretty, capacity: 128 + page.items.count * (input.pretty ? 192 : 128))
        writer.beginObject()
        page.writeMembers(into: &writer, ids: input.ids, cursor: page.continuation.map(cursors.seal))
        writer.endObject()
        writer.finish()
        return .success(writer.bytes)
    }

    /// What stands for an item that did not decode: valid, so that it adds no violation to the item's own errors.
    private static let standIn = WaterfallItem(size: .aspectRatio(1))

    /// The path of the item at an index.
    private static func itemPath(_ index: Int) -> String { JSONPath.element(index, of: "items") }

    /// The 422 naming the ids given more than once (the first ``Problem/listedEntryLimit``, with the paths of
    /// their first occurrences) and their count; `nil` when ids are unique.
    ///
    /// - Complexity: O(*n*) expected; a set of the ids when they are unique, a table of their first positions
    ///   when some id repeats, and the positions of the listed ids only.
    static func duplicateProblem(_ ids: [WireID], path: (Int) -> String, snapshot: String?) -> Problem? {
        let repeated = RepeatedIdentifiers.find(in: ids, limits: .problem)  // in order of first occurrence
        let count = repeated.repeatedCount
        guard count > 0 else { return nil }
        var problem = Problem(
            .duplicateIDs,
            detail: "\(count == 1 ? "1 item id appears" : "\(count) item ids appear") more than once; every item needs its own id.")
        problem.duplicates = repeated.listed.map { id, positions, occurrences in
            var duplicate = Problem.Duplicate(
                snapshot: snapshot ?? "layout", kind: "item", writeID: { id.write(into: &$0) }, positions: positions,
                path: path)
            duplicate.occurrences = occurrences
            return duplicate
        }
        problem.duplicateCount = count
        return problem
    }
}
