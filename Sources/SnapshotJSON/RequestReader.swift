internal import SimdJSON

/// Reads a body with a pooled ``SimdJSONParser`` and turns what it finds into Swift values or a ``RequestError``:
/// the body's padding, where a syntax error is, and the 422 for schema violations.
///
/// A `/diff` body is read in one walk (``DiffRequestSchema``), which validates every value, probes the items,
/// records the sections and decodes the options; its records are then numbered (``IDNumbering``) and built into
/// snapshots with every content comparison the diff needs decided (``SnapshotBuilder``).
enum RequestReader {
    static func read(_ body: [UInt8]) throws(RequestError) -> DiffRequest {
        try withPaddedBody(body) { padded, parser in readDiff(padded, body: body, parser: parser) }
    }

    /// Reads a whole body with `read`, given a reader at its value: what `read` returns, the violations of the
    /// rules every value follows (no repeated member names, exponents in range), each at its place in the walk,
    /// and the body with its padding (for reading parts of it again). The error that ends a walk outweighs what
    /// `read` found.
    static func read<Value>(
        _ body: [UInt8], _ read: (inout JSONReader) -> Value
    ) throws(RequestError) -> (value: Value, rules: RuleViolations, padded: [UInt8]) {
        try withPaddedBody(body) { padded, parser in
            var value: Value?
            var outcome: Result<(value: Value, rules: RuleViolations, padded: [UInt8]), RequestError>!
            parser.read(padded, 0 ..< padded.count, maximumViolations: DiffRequest.maximumViolationCount, { cursor in
                var reader = JSONReader(cursor)
                value = read(&reader)
            }, finished: { result in
                if let failure = failure(of: result.outcome, body: body) {
                    outcome = .failure(failure)
                    return
                }
                guard let value else { preconditionFailure("a walk that began reports its outcome") }
                let violations = result.violations.map { (violation($0), place: $0.place) }
                outcome = .success((value, RuleViolations(violations: violations, omitted: result.omittedViolations), padded))
            })
            return outcome.take()!
        }
    }

    /// Walks a `/diff` body (`padded`, with its padding as spare capacity; `body` as the client sent it, for
    /// locating errors) with ``DiffRequestSchema`` and builds the request, or the error.
    private static func readDiff(_ padded: [UInt8], body: [UInt8], parser: SimdJSONParser) -> Result<DiffRequest, RequestError> {
        // (Canonical encodings hold 32-bit places, and a body's may be a little longer than it: CanonicalEncoder.)
        guard CanonicalEncoder.maximumBytes(textLength: body.count) <= UInt32.max else {
            return .failure(.tooLarge(byteCount: body.count))
        }
        var walked: DiffRequestSchema.Walked?
        var request: Result<DiffRequest, RequestError>!
        parser.walk(
            padded, 0 ..< padded.count, probes: DiffRequestSchema.probeReservation(bodyLength: padded.count),
            maximumViolations: DiffRequest.maximumViolationCount, { walked = DiffRequestSchema.walk($0) }
        ) { result in request = build(walked.take(), result, padded: padded, body: body) }  // (moved, not copied)
        return request.take()!
    }

    /// The request a walk of `padded` (its padding as spare capacity; `body` as the client sent it) found, or
    /// the error.
    private static func build(
        _ walked: DiffRequestSchema.Walked?, _ result: WalkResult, padded: [UInt8], body: [UInt8]
    ) -> Result<DiffRequest, RequestError> {
        if let failure = failure(of: result.outcome, body: body) { return .failure(failure) }
        guard let walked else { preconditionFailure("a walk that began reports its outcome") }
        var violations = result.violations.map(violation)
        violations += walked.optionErrors.listed
        let omitted = result.omittedViolations + walked.optionErrors.omittedCount
        guard violations.isEmpty && omitted == 0 else { return .failure(invalid(violations, omitted: omitted)) }
        guard let oldRecord = walked.old, let newRecord = walked.new else {
            preconditionFailure("a request without violations has both snapshots")
        }
        // Listed like /layout's errors, once the rest is valid.
        guard walked.layoutErrors.isEmpty else { return .failure(walked.layoutErrors.error) }
        let options = walked.options
        // Where sections lie is read only by the renderings that copy or compare their texts, and by layouts.
        let sectionPlaces = !options.readsMembers && options.layouts.isEmpty ? nil :
            walked.sections.map { RequestText.sectionPlace(offset: $0.textOffset, length: $0.textLength) }
        let text = RequestText(
            padded: padded, sectionPlaces: sectionPlaces, unescapedIDs: result.unescaped,
            arena: ContentArena(walked.contents))
        IDNumbering.number(result.probes, text: padded, unescaped: result.unescaped)
        let builder = SnapshotBuilder(
            sections: walked.sections, probes: result.probes, text: text)
        let (old, new) = builder.snapshots(old: oldRecord, new: newRecord)
        return .success(DiffRequest(old: old, new: new, options: options))
    }

    /// The records a walk of `padded` (its padding as spare capacity) keeps, and its violations (listed and
    /// omitted); `nil` when the body is not valid JSON. For the tests of the records' bound.
    static func recordCounts(walking padded: [UInt8]) -> (items: Int, sections: Int, violations: Int, omitted: Int)? {
        SimdJSONParser.withBorrowed { parser in
            var walked: DiffRequestSchema.Walked?
            var counts: (items: Int, sections: Int, violations: Int, omitted: Int)?
            parser.walk(
                padded, 0 ..< padded.count, probes: DiffRequestSchema.probeReservation(bodyLength: padded.count),
                maximumViolations: DiffRequest.maximumViolationCount, { walked = DiffRequestSchema.walk($0) }
            ) { result in
                guard result.outcome == .parsed, let walked else { return }
                counts = (result.probes.count, walked.sections.count, result.violations.count, result.omittedViolations)
            }
            return counts
        }
    }

    /// Calls `read` with the body, followed by the padding simdjson may read as spare capacity (copying the
    /// body only when its spare capacity is too small), and a pooled parser.
    private static func withPaddedBody<Value>(
        _ body: [UInt8], _ read: ([UInt8], SimdJSONParser) -> Result<Value, RequestError>
    ) throws(RequestError) -> Value {
        guard !body.isEmpty else { throw .emptyBody }
        let parser = SimdJSONParser.borrow()
        defer { parser.recycle() }
        // The array's spare capacity is allocated memory: simdjson may read it, never write it. It must not start
        // with a stray token (see SimdJSONParser.paddingIsInert), else a document that ends early could be read on
        // into it; MicroHTTP zeroes its bodies' padding, other callers' bodies are copied when it is not inert.
        if SimdJSONParser.isPadded(body) { return try read(body, parser).get() }
        var padded: [UInt8] = []
        padded.reserveCapacity(body.count + DiffRequest.requiredPadding)
        padded.append(contentsOf: body)
        padded.append(contentsOf: repeatElement(0, count: DiffRequest.requiredPadding))  // written, then dropped
        padded.removeLast(DiffRequest.requiredPadding)                                   // from the count: the
        return try read(padded, parser).get()                                            // spare capacity holds 0s
    }

    /// The error of a walk that did not reach the schema, if any.
    private static func failure(of outcome: WalkOutcome, body: [UInt8]) -> RequestError? {
        switch outcome {
        case .parsed:
            return nil
        case .empty:
            return .emptyBody
        case .invalidUTF8:
            return locatedFailure(reported: nil, body: body)
        case .tooDeep(let offset):
            return .tooDeep(limit: DiffRequest.maximumNestingDepth, byteOffset: offset)
        case .tooLarge:
            return .tooLarge(byteCount: body.count)
        case .syntax(let error, let offset):
            if let reported = reportedProblem(error, offset: offset, body: body) {
                return locatedFailure(reported: reported, body: body)
            }
            // A string error: the scan has its place (simdjson has none, or the opening quote); should it find
            // none, simdjson's.
            let quote = offset.map { $0 < body.count ? $0 : body.count } ?? body.count
            return locatedFailure(reported: nil, body: body, otherwise: .malformed(quote, "invalid string"))
        case .outOfMemory:
            fatalError("out of memory while parsing a request of \(body.count) bytes")
        }
    }

    /// Where and what simdjson's syntax error is, when it says more than the scan: nothing for string errors
    /// (simdjson has no position for most of them, and only the opening quote for bad escapes).
    private static func reportedProblem(_ error: WalkOutcome.SyntaxError, offset: Int?, body: [UInt8]) -> SyntaxProblem? {
        switch error {
        case .string, .unclosedString, .controlCharacter:
            return nil
        default:
            // simdjson has no location past the last token.
            guard let offset, offset < body.count else { return .malformed(body.count, SyntaxProblem.Message.endOfInput) }
            let message =
                switch error {
                case .object: SyntaxProblem.Message.object
                case .array: SyntaxProblem.Message.array
                case .literal: SyntaxProblem.Message.literal
                case .number: SyntaxProblem.Message.number
                case .trailing: SyntaxProblem.Message.trailing
                case .incomplete: "unclosed array or object"
                default: SyntaxProblem.Message.value
                }
            return .malformed(offset, message)
        }
    }

    /// A violation a walk recorded, with its path and message.
    static func violation(_ walked: WalkViolation) -> Violation {
        let path = walked.path.reduce("") { path, step in
            switch step {
            case .member(let name): JSONPath.member(name, of: path)
            case .element(let index): JSONPath.element(index, of: path)
            }
        }
        let rule = ViolationRule.walk(walked.rule, found: walked.found)
        assert(rule != nil, "a walk recorded \(walked.rule), which no rule is")
        return Violation(rule ?? .invalidValue, at: path, byteOffset: walked.byteOffset)
    }

    /// The error of a body simdjson rejected as not JSON or not UTF-8, at the earliest of: the place simdjson
    /// reported (`reported`, if any), the first syntax problem of a scan that follows the structure (simdjson
    /// stops at the first error its stages meet, and its first stage checks UTF-8, pairs quotes and finds
    /// control characters before any structure is read), and the first invalid UTF-8. On a tie, invalid UTF-8
    /// wins, then simdjson's message. `otherwise` stands when none of them finds anything.
    static func locatedFailure(
        reported: SyntaxProblem?, body: [UInt8], otherwise: SyntaxProblem? = nil
    ) -> RequestError {
        var problem = SourceLocator.firstSyntaxProblem(in: body, maximumDepth: DiffRequest.maximumNestingDepth)
        if let reported, reported.offset <= problem?.offset ?? .max { problem = reported }
        let invalidUTF8 = SourceLocator.firstInvalidUTF8(in: body)
        guard let problem = problem ?? otherwise, invalidUTF8 == body.count || problem.offset < invalidUTF8 else {
            return .invalidUTF8(byteOffset: invalidUTF8)
        }
        switch problem.kind {
        case .tooDeep:
            return .tooDeep(limit: DiffRequest.maximumNestingDepth, byteOffset: problem.offset)
        case .malformed(let message):
            let (line, column) = SourceLocator.lineAndColumn(of: problem.offset, in: body)
            return .malformedJSON(message: message, byteOffset: problem.offset, line: line, column: column)
        }
    }

    /// The 422 error for `violations`, listing at most ``DiffRequest/maximumViolationCount`` and counting the rest.
    static func invalid(_ violations: [Violation], omitted: Int) -> RequestError {
        let listed = Array(violations.prefix(DiffRequest.maximumViolationCount))
        return .invalid(listed, omitted: omitted + violations.count - listed.count)
    }
}
