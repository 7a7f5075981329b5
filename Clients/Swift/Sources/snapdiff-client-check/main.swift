// snapdiff-client-check: calls every operation of a live snapdiff through the Swift client that
// swift-openapi-generator made from openapi.yaml, and checks each answer (run by scripts/client-check, which
// starts the server with --max-body-bytes 65536).
//
//     snapdiff-client-check [--spec openapi.yaml] http://127.0.0.1:PORT
//
// Every JSON answer is decoded by the generated client into the type the spec declares for its status, and
// must re-encode to the body the server sent, member for member (so a member the generator dropped fails);
// every error class comes back as the generated problem response with its problem type. Prints one PASS or
// FAIL line per check and exits 1 on any failure.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import SnapdiffClient

typealias Schemas = Components.Schemas

/// The body limit scripts/client-check starts the server with.
let bodyLimit = 65536

// MARK: - Command line

var arguments = Array(CommandLine.arguments.dropFirst())
var specPath: String?
if arguments.count >= 2, arguments[0] == "--spec" {
    specPath = arguments[1]
    arguments.removeFirst(2)
}
guard arguments.count == 1, let baseURL = URL(string: arguments[0]), baseURL.host != nil else {
    FileHandle.standardError.write(Data("usage: snapdiff-client-check [--spec openapi.yaml] http://HOST:PORT\n".utf8))
    exit(2)
}

// MARK: - Checks

struct Mismatch: Error, CustomStringConvertible {
    let description: String
}

func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw Mismatch(description: message()) }
}

func unwrap<Value>(_ value: Value?, _ message: @autoclosure () -> String) throws -> Value {
    guard let value else { throw Mismatch(description: message()) }
    return value
}

var failures: [String] = []

@MainActor
func check(_ name: String, _ body: @MainActor () async throws -> Void) async {
    do {
        try await body()
        print("PASS \(name)")
    } catch {
        failures.append(name)
        print("FAIL \(name): \(error)")
    }
}

/// A JSON value with every number as a Double, to compare a body with its re-encoding member for member. A
/// member whose value is null counts as absent: the generated types encode a nil optional by leaving it out.
enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self).filter { $0.value != .null }) }
    }

    init(bytes: some Sequence<UInt8>) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

/// What a check changes in its request before it is sent (to send what the typed client cannot: malformed
/// JSON, another media type), and the answer's body as it came, kept for the re-encoding comparison.
final class Exchange: @unchecked Sendable {
    @TaskLocal static var current: Exchange?

    let replacementBody: [UInt8]?
    let replacementContentType: String?
    private let lock = NSLock()
    private var received: [UInt8] = []

    init(replacementBody: [UInt8]? = nil, replacementContentType: String? = nil) {
        self.replacementBody = replacementBody
        self.replacementContentType = replacementContentType
    }

    var responseBody: [UInt8] {
        lock.withLock { received }
    }

    func record(_ body: [UInt8]) {
        lock.withLock { received = body }
    }
}

/// The bytes of a body (none without one).
func collect(_ body: HTTPBody?) async throws -> [UInt8] {
    guard let body else { return [] }
    return try await [UInt8](collecting: body, upTo: 16 << 20)
}

struct ExchangeMiddleware: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let exchange = Exchange.current else { return try await next(request, body, baseURL) }
        var request = request
        var body = body
        if let replacement = exchange.replacementBody {
            body = HTTPBody(replacement)
            request.headerFields[.contentLength] = String(replacement.count)
        }
        if let contentType = exchange.replacementContentType { request.headerFields[.contentType] = contentType }
        let (response, responseBody) = try await next(request, body, baseURL)
        let bytes = try await collect(responseBody)
        exchange.record(bytes)
        return (response, HTTPBody(bytes))
    }
}

let transport = URLSessionTransport()
let client = Client(serverURL: baseURL, transport: transport, middlewares: [ExchangeMiddleware()])

/// Runs `call` with the exchange's changes, and returns its decoded answer and the body as sent.
func exchange<Output>(
    _ exchange: Exchange = Exchange(), isolation: isolated (any Actor)? = #isolation,
    _ call: () async throws -> Output
) async throws -> (Output, [UInt8]) {
    let output = try await Exchange.$current.withValue(exchange) { try await call() }
    return (output, exchange.responseBody)
}

/// `value`, decoded from `body` by the generated client, re-encodes to `body`.
func expectReencodes<Value: Encodable>(_ value: Value, to body: [UInt8]) throws {
    let original = try JSONValue(bytes: body)
    let reencoded = try JSONValue(bytes: JSONEncoder().encode(value))
    try expect(reencoded == original, "\(Value.self) does not re-encode to the body:\n  \(reencoded)\n  \(original)")
}

/// The problem of an error answer: its type and status are the ones expected, and it re-encodes to the body.
func expectProblem(
    _ response: Components.Responses.Problem, body: [UInt8], status: Int, type: Schemas.Problem._TypePayload
) throws -> Schemas.Problem {
    let problem = try response.body.applicationProblemJson
    try expect(problem._type == type, "problem type \(problem._type.rawValue), expected \(type.rawValue)")
    try expect(problem.status == status, "problem status \(problem.status), expected \(status)")
    try expectReencodes(problem, to: body)
    return problem
}

/// A failure for an answer other than the one expected.
func unexpected(_ output: some Any) -> Mismatch {
    Mismatch(description: "unexpected answer: \(output)")
}

func item(_ id: Schemas.Id, _ members: [String: (any Sendable)?] = [:]) throws -> Schemas.Item {
    Schemas.Item(id: id, additionalProperties: try .init(unvalidatedValue: members))
}

// The README's example: staged and sequential renderings.
await check("POST /diff staged and sequential (the README's example)") {
    let request = Schemas.DiffRequest(
        old: .sections([.init(id: "news", items: [try item("n1"), try item("n2"), try item("n3")])]),
        new: .sections([.init(id: "news", items: [try item("n3"), try item("n2"), try item("n1", ["title": "Updated"])])]),
        options: .init(renderings: [.staged, .sequential]))
    let (output, body) = try await exchange { try await client.diff(body: .json(request)) }
    guard case .ok(let ok) = output else { throw unexpected(output) }
    let diff = try ok.body.json
    try expectReencodes(diff, to: body)
    try expect((diff.counts.elementMoved, diff.counts.elementUpdated) == (2, 1), "counts \(diff.counts)")
    let stages = diff.staged ?? []
    try expect(stages.count == 2, "\(stages.count) stages")
    try expect(stages[0].elementUpdated == [[0, 0]], "stage 1 \(stages[0])")
    try expect(stages[1].elementMoved == [[[0, 2], [0, 0]], [[0, 0], [0, 2]]], "stage 2 \(stages[1])")
    let operations = diff.sequential ?? []
    guard operations.count == 3, case .moveElement(let first) = operations[0], case .moveElement = operations[1],
        case .updateElement(let update) = operations[2]
    else { throw Mismatch(description: "sequential \(operations)") }
    try expect(first.from == [0, 2] && first.to == [0, 0], "first move \(first)")
    try expect(update.path == [0, 2], "update \(update)")
}

// Every sequential operation decodes as its own case.
await check("POST /diff sequential: all eight operations, each its own case") {
    let request = Schemas.DiffRequest(
        old: .sections([
            .init(id: "a", items: [try item(1), try item(2)]), .init(id: "b", items: [try item(3)]),
            .init(id: "c", items: [try item(4), try item(5)], additionalProperties: try .init(unvalidatedValue: ["title": "C"])),
            .init(id: "d", items: [try item(6)]),
        ]),
        new: .sections([
            .init(id: "c", items: [try item(5), try item(4)], additionalProperties: try .init(unvalidatedValue: ["title": "C2"])),
            .init(id: "e", items: [try item(7)]),
            .init(id: "a", items: [try item(1, ["x": true]), try item(8)]),
            .init(id: "d", items: []),
        ]),
        options: .init(renderings: [.sequential]))
    let (output, body) = try await exchange { try await client.diff(body: .json(request)) }
    guard case .ok(let ok) = output else { throw unexpected(output) }
    let diff = try ok.body.json
    try expectReencodes(diff, to: body)
    try expect(diff.staged == nil, "staged sent although not asked for")
    var kinds = Set<String>()
    for operation in diff.sequential ?? [] {
        switch operation {
        case .removeSection(let change): kinds.insert(change.op.rawValue)
        case .removeElement(let change): kinds.insert(change.op.rawValue)
        case .moveSection(let change): kinds.insert(change.op.rawValue)
        case .insertSection(let change): kinds.insert(change.op.rawValue)
        case .moveElement(let change): kinds.insert(change.op.rawValue)
        case .insertElement(let change): kinds.insert(change.op.rawValue)
        case .updateElement(let change): kinds.insert(change.op.rawValue)
        case .updateSection(let change): kinds.insert(change.op.rawValue)
        }
    }
    let every: Set = [
        "removeSection", "removeElement", "moveSection", "insertSection", "moveElement", "insertElement",
        "updateElement", "updateSection",
    ]
    try expect(kinds == every, "operations \(kinds.sorted())")
}

// Ranges and ids: every range kind decodes as its own case, and ids come back as the ids sent.
await check("POST /diff ranges with ids: each range its own case, ids beside every entry") {
    let request = Schemas.DiffRequest(
        old: .sections([
            .init(id: "a", items: [try item(1), try item(2), try item(3)]), .init(id: "b", items: []),
            .init(id: "c", items: [try item(4)], additionalProperties: try .init(unvalidatedValue: ["title": "C"])),
        ]),
        new: .sections([
            .init(id: "c", items: [try item(4, ["x": 1])], additionalProperties: try .init(unvalidatedValue: ["title": "C2"])),
            .init(id: "e", items: []),
            .init(id: "a", items: [try item(3), try item(8), try item(9)]),
        ]),
        options: .init(renderings: [.staged, .sequential, .ranges], ids: true))
    let (output, body) = try await exchange { try await client.diff(body: .json(request)) }
    guard case .ok(let ok) = output else { throw unexpected(output) }
    let diff = try ok.body.json
    try expectReencodes(diff, to: body)
    try expect((diff.staged ?? []).allSatisfy { $0.ids != nil }, "a stage without ids")
    var kinds = Set<String>()
    var ids: [Schemas.Id?] = []
    for range in diff.ranges ?? [] {
        switch range {
        case .removeSections(let change): kinds.insert(change.op.rawValue); ids += (change.ids ?? []).map(\.id)
        case .removeElements(let change): kinds.insert(change.op.rawValue); ids += change.ids ?? []
        case .moveSection(let change): kinds.insert(change.op.rawValue); ids.append(change.id?.id)
        case .insertSections(let change): kinds.insert(change.op.rawValue); ids += (change.ids ?? []).map(\.id)
        case .moveElement(let change): kinds.insert(change.op.rawValue); ids.append(change.id)
        case .insertElements(let change): kinds.insert(change.op.rawValue); ids += change.ids ?? []
        case .updateElements(let change): kinds.insert(change.op.rawValue); ids += change.ids ?? []
        case .updateSections(let change): kinds.insert(change.op.rawValue); ids += (change.ids ?? []).map(\.id)
        }
    }
    let every: Set = [
        "removeSections", "removeElements", "moveSection", "insertSections", "insertElements", "updateElements",
        "updateSections",
    ]
    try expect(kinds == every, "ranges \(kinds.sorted())")
    try expect(ids == ["b", 1, 2, "a", "e", 8, 9, 4, "c"], "ids \(ids)")
}

let settings = Schemas.LayoutSettings(
    containerWidth: 375, scale: 3, columns: 2, columnSpacing: 8, itemSpacing: 8)

// Layouts in /diff: a named section, paged, with a full-width item (column null); then a bare item list.
await check("POST /diff with layouts (named section, full-width item, pageSize)") {
    let request = Schemas.DiffRequest(
        old: .sections([.init(id: "photos", items: [try item("p1", ["aspectRatio": 1])])]),
        new: .sections([.init(id: "photos", items: [
            try item("banner", ["fixedHeight": 40, "fullWidth": true]), try item("p1", ["aspectRatio": 1]),
            try item(2, ["width": 800, "height": 1200]),
        ])]),
        options: .init(layouts: [.init(section: "photos", settings: settings, pageSize: 2)]))
    let (output, body) = try await exchange { try await client.diff(body: .json(request)) }
    guard case .ok(let ok) = output else { throw unexpected(output) }
    let diff = try ok.body.json
    try expectReencodes(diff, to: body)
    guard let layouts = diff.layouts, layouts.count == 1 else { throw Mismatch(description: "layouts \(diff.layouts as Any)") }
    let page = layouts[0].value1, extra = layouts[0].value2
    try expect(extra.section == "photos", "section \(extra.section as Any)")
    try expect(page.items.map(\.id) == ["banner", "p1"], "items \(page.items)")
    try expect(page.items.map(\.column) == [nil, 0], "columns \(page.items.map(\.column))")
    try expect(extra.changedFrames == ["p1"], "changedFrames \(extra.changedFrames)")
    try expect(page.nextCursor?.isEmpty == false, "no nextCursor")
}

await check("POST /diff with a layout of a bare item list (section null)") {
    let request = Schemas.DiffRequest(
        old: .items([try item(1, ["aspectRatio": 1])]),
        new: .items([try item(2, ["aspectRatio": 2]), try item(1, ["aspectRatio": 1])]),
        options: .init(layouts: [.init(settings: settings)]))
    let (output, body) = try await exchange { try await client.diff(body: .json(request)) }
    guard case .ok(let ok) = output else { throw unexpected(output) }
    let diff = try ok.body.json
    try expectReencodes(diff, to: body)
    let layout = try unwrap(diff.layouts?.first, "no layouts")
    try expect(layout.value2.section == nil, "section \(layout.value2.section as Any)")
    try expect(layout.value1.items.map(\.id) == [2, 1], "items \(layout.value1.items)")
}

// /layout: the README's two pages through the cursor.
var firstCursor: String?
await check("POST /layout: two pages through the cursor (the README's example)") {
    let first = Schemas.LayoutRequest(
        settings: settings,
        items: [.init(id: "p1", aspectRatio: 1.5), .init(id: "p2", width: 800, height: 1200),
                .init(id: "p3", aspectRatio: 1, extraHeight: 24)],
        pageSize: 2)
    let (output, body) = try await exchange { try await client.layout(body: .json(first)) }
    guard case .ok(let ok) = output else { throw unexpected(output) }
    let page = try ok.body.json
    try expectReencodes(page, to: body)
    try expect(page.items.map(\.id) == ["p1", "p2"] && page.items.map(\.column) == [0, 1], "first page \(page.items)")
    try expect(page.columnHeights == [122, 275], "columnHeights \(page.columnHeights)")
    firstCursor = page.nextCursor
    let second = Schemas.LayoutRequest(
        settings: settings,
        items: [.init(id: "p3", aspectRatio: 1, extraHeight: 24), .init(id: "footer", fixedHeight: 10, fullWidth: true)],
        cursor: page.nextCursor)
    let (nextOutput, nextBody) = try await exchange { try await client.layout(body: .json(second)) }
    guard case .ok(let nextOK) = nextOutput else { throw unexpected(nextOutput) }
    let next = try nextOK.body.json
    try expectReencodes(next, to: nextBody)
    try expect(next.firstIndex == 2, "firstIndex \(next.firstIndex)")
    try expect(next.items.count == 2, "\(next.items.count) items")
    try expect(next.items[0].id == "p3" && next.items[0].column == 0 && next.items[0].frame.y == 130, "p3 \(next.items[0])")
    try expect(next.items[1].column == nil && next.items[1].frame.x == 0, "footer \(next.items[1])")
    try expect(next.columns == [["p3"], []], "columns \(next.columns)")
}

// The operations routes.
await check("GET /healthz, /readyz, /, /metrics and /openapi.yaml") {
    guard case .ok(let health) = try await client.health(), try health.body.json.status == .ok else {
        throw Mismatch(description: "healthz")
    }
    guard case .ok(let ready) = try await client.ready(), try ready.body.json.status == .ready else {
        throw Mismatch(description: "readyz")
    }
    let (indexOutput, indexBody) = try await exchange { try await client.index() }
    guard case .ok(let index) = indexOutput else { throw unexpected(indexOutput) }
    let about = try index.body.json
    try expectReencodes(about, to: indexBody)
    try expect(about.name == "snapdiff" && about.links.additionalProperties["diff"] == "/diff", "index \(about)")
    guard case .ok(let metrics) = try await client.metrics() else { throw Mismatch(description: "metrics") }
    let exposition = try await String(collecting: try metrics.body.plainText, upTo: 16 << 20)
    try expect(exposition.contains("snapdiff_http_requests_total{"), "no request counter in /metrics")
    guard case .ok(let document) = try await client.openapi() else { throw Mismatch(description: "openapi.yaml") }
    let yaml = try await [UInt8](collecting: try document.body.yaml, upTo: 16 << 20)
    try expect(yaml.starts(with: Array("openapi: 3.1".utf8)), "GET /openapi.yaml is not OpenAPI 3.1")
    if let specPath {
        let file = try [UInt8](Data(contentsOf: URL(fileURLWithPath: specPath)))
        try expect(yaml == file, "GET /openapi.yaml differs from \(specPath)")
    }
}

// HEAD on every GET path (the GET's head, no body) and OPTIONS on every path (204 with Allow).
await check("HEAD on every GET path, OPTIONS on every path") {
    let heads: [(String, () async throws -> Components.Responses.Head?)] = [
        ("/", { if case .ok(let head) = try await client.headIndex() { head } else { nil } }),
        ("/healthz", { if case .ok(let head) = try await client.headHealth() { head } else { nil } }),
        ("/readyz", { if case .ok(let head) = try await client.headReady() { head } else { nil } }),
        ("/metrics", { if case .ok(let head) = try await client.headMetrics() { head } else { nil } }),
        ("/openapi.yaml", { if case .ok(let head) = try await client.headOpenAPI() { head } else { nil } }),
    ]
    for (path, call) in heads {
        let head = try unwrap(try await call(), "HEAD \(path) is not 200")
        try expect((head.headers.contentLength ?? 0) > 0, "HEAD \(path) without Content-Length")
    }
    let options: [(String, String, () async throws -> Components.Responses.Options?)] = [
        ("/", "GET, HEAD, OPTIONS", { if case .noContent(let answer) = try await client.optionsIndex() { answer } else { nil } }),
        ("/diff", "POST, OPTIONS", { if case .noContent(let answer) = try await client.optionsDiff() { answer } else { nil } }),
        ("/layout", "POST, OPTIONS", { if case .noContent(let answer) = try await client.optionsLayout() { answer } else { nil } }),
        ("/healthz", "GET, HEAD, OPTIONS", { if case .noContent(let answer) = try await client.optionsHealth() { answer } else { nil } }),
        ("/readyz", "GET, HEAD, OPTIONS", { if case .noContent(let answer) = try await client.optionsReady() { answer } else { nil } }),
        ("/metrics", "GET, HEAD, OPTIONS", { if case .noContent(let answer) = try await client.optionsMetrics() { answer } else { nil } }),
        ("/openapi.yaml", "GET, HEAD, OPTIONS", {
            if case .noContent(let answer) = try await client.optionsOpenAPI() { answer } else { nil }
        }),
    ]
    for (path, allow, call) in options {
        let answer = try unwrap(try await call(), "OPTIONS \(path) is not 204")
        try expect(answer.headers.allow == allow, "OPTIONS \(path): Allow \(answer.headers.allow)")
    }
}

// Each error class, decoded by the generated client as the operation's problem response (or, for a path or
// method no operation has, by the generated Problem type).
await check("400 malformed-json") {
    let malformed = Exchange(replacementBody: Array("{\"old\": {\"items\": []},\n \"new\": {\"items\": [1,,2]}}".utf8))
    let (output, body) = try await exchange(malformed) {
        try await client.diff(body: .json(.init(old: .items([]), new: .items([]))))
    }
    guard case .badRequest(let response) = output else { throw unexpected(output) }
    let problem = try expectProblem(response, body: body, status: 400, type: .malformedJSON)
    try expect(problem.line == 2 && problem.column == 22, "line \(problem.line as Any) column \(problem.column as Any)")
}

/// A request no operation of the client makes, through the same transport; its problem decoded as Problem.
func rawProblem(_ method: HTTPRequest.Method, _ path: String, status: Int, type: Schemas.Problem._TypePayload)
    async throws -> (HTTPResponse, Schemas.Problem)
{
    let request = HTTPRequest(method: method, scheme: nil, authority: nil, path: path)
    let (response, responseBody) = try await transport.send(request, body: nil, baseURL: baseURL, operationID: "raw")
    let body = try await collect(responseBody)
    try expect(response.status.code == status, "status \(response.status.code), expected \(status)")
    try expect(response.headerFields[.contentType]?.hasPrefix("application/problem+json") == true,
               "Content-Type \(response.headerFields[.contentType] ?? "none")")
    let problem = try JSONDecoder().decode(Schemas.Problem.self, from: Data(body))
    try expect(problem._type == type && problem.status == status, "problem \(problem)")
    try expectReencodes(problem, to: body)
    return (response, problem)
}

await check("404 not-found") {
    _ = try await rawProblem(.get, "/nope", status: 404, type: .notFound)
}

await check("405 method-not-allowed") {
    let (response, problem) = try await rawProblem(.get, "/diff", status: 405, type: .methodNotAllowed)
    try expect(response.headerFields[.allow] == "POST, OPTIONS", "Allow \(response.headerFields[.allow] ?? "none")")
    try expect(problem.instance == "/diff", "instance \(problem.instance as Any)")
}

await check("409 cursor-mismatch (a cursor from other settings)") {
    let cursor = try unwrap(firstCursor, "no cursor from the /layout check")
    var other = settings
    other.columns = 3
    let (output, body) = try await exchange {
        try await client.layout(body: .json(.init(settings: other, items: [], cursor: cursor)))
    }
    guard case .conflict(let response) = output else { throw unexpected(output) }
    _ = try expectProblem(response, body: body, status: 409, type: .cursorMismatch)
}

await check("413 content-too-large") {
    let many = try (0..<7000).map { try item(.case2($0)) }
    let (output, body) = try await exchange { try await client.diff(body: .json(.init(old: .items(many), new: .items([])))) }
    guard case .contentTooLarge(let response) = output else { throw unexpected(output) }
    let problem = try expectProblem(response, body: body, status: 413, type: .contentTooLarge)
    try expect(problem.limit == bodyLimit, "limit \(problem.limit as Any)")
}

await check("415 unsupported-media-type") {
    let (output, body) = try await exchange(Exchange(replacementContentType: "text/plain")) {
        try await client.diff(body: .json(.init(old: .items([]), new: .items([]))))
    }
    guard case .unsupportedMediaType(let response) = output else { throw unexpected(output) }
    _ = try expectProblem(response, body: body, status: 415, type: .unsupportedMediaType)
}

await check("422 duplicate-ids") {
    let (output, body) = try await exchange {
        try await client.diff(body: .json(.init(old: .items([try item(7), try item(7)]), new: .items([try item("7")]))))
    }
    guard case .unprocessableContent(let response) = output else { throw unexpected(output) }
    let problem = try expectProblem(response, body: body, status: 422, type: .duplicateIDs)
    let duplicates = problem.duplicates ?? []
    try expect(duplicates.count == 1, "duplicates \(duplicates)")
    try expect(duplicates[0].snapshot == .old && duplicates[0].kind == .item && duplicates[0].id == 7,
               "duplicate \(duplicates[0])")
    try expect(duplicates[0].paths == ["old.items[0]", "old.items[1]"], "paths \(duplicates[0].paths)")
}

await check("422 invalid-request with field errors (/layout and /diff)") {
    let (output, body) = try await exchange {
        try await client.layout(body: .json(.init(settings: settings, items: [.init(id: "a", aspectRatio: 1), .init(id: "b")])))
    }
    guard case .unprocessableContent(let response) = output else { throw unexpected(output) }
    let problem = try expectProblem(response, body: body, status: 422, type: .invalidRequest)
    try expect(problem.errors?.map(\.path) == ["items[1]"], "errors \(problem.errors as Any)")
    let (diffOutput, diffBody) = try await exchange {
        try await client.diff(body: .json(.init(
            old: .items([]), new: .items([]), options: .init(layouts: [.init(section: 5, settings: settings)]))))
    }
    guard case .unprocessableContent(let diffResponse) = diffOutput else { throw unexpected(diffOutput) }
    let diffProblem = try expectProblem(diffResponse, body: diffBody, status: 422, type: .invalidRequest)
    try expect(diffProblem.errors?.map(\.path) == ["options.layouts[0].section"], "errors \(diffProblem.errors as Any)")
}

print("swift client check: \(failures.isEmpty ? "all passed" : "\(failures.count) failed")")
exit(failures.isEmpty ? 0 : 1)
