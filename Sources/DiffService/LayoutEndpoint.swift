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

    /// What a `/layout` body asks for, decoded: made before the layout (nothing of the body's walks is kept
    /// but the ids and the measured items).
    private struct Input {
        /// The values that did not decode; with the values out of range when there is one.
        var errors = Violations()
        /// The values out of range (settings, page size, items) of a body that decoded: answered after the
        /// repeated ids and the cursor, as the engine would.
        var violations = Violations()
        var paths = WaterfallSettingPaths(settings: "settings", pageSize: "pageSize")
        var settings: WaterfallSettings?
        var pageSize: Int?
        var cursor: String?
        var pretty = false
        var ids: [WireID] = []
        /// The geometry of the settings, when they are valid.
        var geometry: WaterfallGeometry?
        /// The page's items (the first `pageSize`), measured, when every value is valid: 16 bytes an item where a
        /// decoded ``WaterfallItem`` is 96. (A first walk that met the items before `pageSize` measured them all,
        /// then kept the page's.)
        var measured: [MeasuredItem] = []
    }

    /// Parses and decodes a body; field errors and values out of range are left in the input.
    ///
    /// One walk reads the root's members and the items' ids. When the settings come before the items (as the
    /// examples write them), it decodes and measures the items too; otherwise a second walk reads the items'
    /// objects once the settings are known. A last walk only lists values out of range.
    private static func decode(_ body: [UInt8]) throws(RequestError) -> Input {
        var input = Input()
        var hasSettings = false
        // The items decoded by the first walk, and their errors: listed after the root's, as a second walk's are.
        var walkMeasuring: ItemMeasuring?
        var walkErrors = Violations()
        let document = try JSONDocument.read(body, members: { name, reader in
            switch name {
            case "settings":
                hasSettings = true
                input.settings = WaterfallSettings.decode(&reader, paths: &input.paths, errors: &input.errors)
            case "pageSize": input.pageSize = input.errors.integer(&reader, "pageSize")
            case "cursor": input.cursor = input.errors.string(&reader, "cursor")
            case "pretty": input.pretty = input.errors.boolean(&reader, "pretty") ?? false
            default:
                input.errors.add(.unknownMember(in: .layoutRequest), at: JSONPath.member(name, of: ""))
                reader.skip()
            }
        }, item: { index, item, otherMember in
            guard hasSettings else { return false }
            if walkMeasuring == nil {  // (the page's length is known here only when pageSize came first)
                // A measured item's text is at least `{"id":0,"fixedHeight":1}` and a comma, 25 bytes (an item
                // that is not valid stops the measuring): room for a 25th of the body's bytes is reserved.
                walkMeasuring = ItemMeasuring(
                    geometry: geometry(of: input), pageLength: input.pageSize, maximumItemCount: body.count / 25 + 1)
            }
            let decoded = WaterfallItem.decode(item, path: itemPath(index), errors: &walkErrors, otherMember: otherMember)
            _ = walkMeasuring?.add(decoded)
            return true
        })
        if !hasSettings { input.errors.add(.missingMember, at: "settings") }
        if document.items == nil { input.errors.add(.missingMember, at: "items") }
        input.ids = document.items?.ids ?? []  // (shared with the document, not copied)
        input.geometry = input.settings.flatMap { try? WaterfallGeometry($0) }
        // Each item is measured as it is decoded, while every value met is valid; an item beyond the page is
        // only checked. An invalid value stops the measuring: its violations are listed afterwards.
        var valid = geometry(of: input) != nil
        if let items = document.items {
            let pageLength = min(input.pageSize ?? items.count, items.count)
            var measuring: ItemMeasuring
            if var walked = walkMeasuring {
                walked.keepPage(pageLength)
                measuring = walked
                input.errors.add(contentsOf: walkErrors)
            } else {
                measuring = ItemMeasuring(geometry: geometry(of: input), pageLength: pageLength, maximumItemCount: items.count)
                items.forEach { index, item in
                    _ = measuring.add(WaterfallItem.decode(item, path: itemPath(index), errors: &input.errors))
                }
            }
            valid = valid && measuring.isValid
            input.measured = measuring.measured
        }
        if !input.errors.isEmpty || input.settings == nil {
            // Out-of-range values are reported with the type errors, not after they are fixed.
            addViolations(of: input, items: document.items, to: &input.errors)
        } else if !valid {
            addViolations(of: input, items: document.items, to: &input.violations)
        }
        if !valid { input.measured = [] }
        return input
    }

    /// The geometry items are measured for: the settings', when they and the page size (if given yet) are valid.
    private static func geometry(of input: Input) -> WaterfallGeometry? {
        guard (input.pageSize ?? 1) >= 1 else { return nil }
        return input.geometry ?? input.settings.flatMap { try? WaterfallGeometry($0) }
    }

    /// Records the values of a body out of range: the settings' and the page size's, then each item's (an item
    /// that did not decode has none), decoded again from the document.
    private static func addViolations(of input: Input, items: JSONDocument.Items?, to errors: inout Violations) {
        if let settings = input.settings {
            errors.add(WaterfallLayout.violations(of: settings, pageSize: input.pageSize), paths: input.paths, item: itemPath)
        }
        var decodingErrors = Violations()  // (recorded already)
        guard let items else { return }
        items.forEach { index, item in
            guard let decoded = WaterfallItem.decode(item, path: itemPath(index), errors: &decodingErrors) else { return }
            errors.add(decoded.violations(index: index), paths: input.paths, item: itemPath)
        }
    }

    /// The response body for a request body, or the problem.
    static func result(for body: [UInt8], cursors: CursorCodec) -> Result<[UInt8], Problem> {
        var input: Input
        do {
            input = try decode(body)
        } catch {
            return .failure(error.problem)
        }
        guard input.errors.isEmpty, input.settings != nil else { return .failure(input.errors.problem) }
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
        guard input.violations.isEmpty, let geometry = input.geometry else { return .failure(input.violations.problem) }
        let page: WaterfallPage
        do {
            page = try WaterfallLayout.layout(input.measured, geometry: geometry, after: continuation, pageSize: input.pageSize)
        } catch {
            return .failure(error.problem(paths: input.paths, item: itemPath, cursor: "cursor"))
        }
        input.measured = []  // (freed before the answer is written)
        let written = WrittenIDs(input.ids[..<page.items.count])
        if written != nil { input.ids = [] }
        let idsLength = written?.length ?? input.ids[..<page.items.count].reduce(0) { $0 + $1.writtenLengthBound }
        let cursor = page.continuation.map(cursors.seal)
        var writer = JSONWriter(
            pretty: input.pretty, capacity: page.answerCapacity(idsLength: idsLength, pretty: input.pretty))
        writer.beginObject()
        if let written {  // (the page given up: its items go once written)
            (consume page).writeMembers(into: &writer, cursor: cursor) { offset, writer in written.write(offset, into: &writer) }
        } else {
            (consume page).writeMembers(into: &writer, cursor: cursor) { offset, writer in input.ids[offset].write(into: &writer) }
        }
        writer.endObject()
        writer.finish()
        return .success(writer.bytes)
    }

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

extension WireID {
    /// At least the bytes of the id as JSON: an integer's 20 at most, a string's bytes quoted, 6 for a control
    /// character (`\u001f`), 2 for a quote or a backslash.
    ///
    /// - Complexity: O(*n*) in the length of a string id.
    fileprivate var writtenLengthBound: Int {
        switch self {
        case .integer: return 20
        case .string(let string):
            let span = string.utf8.span
            var length = 2
            for index in span.indices {
                let byte = span[index]
                length += byte < 0x20 ? 6 : byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") ? 2 : 1
            }
            return length
        }
    }
}
