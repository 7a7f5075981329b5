/// Reads a body with a pooled ``SimdJSONParser`` and turns what it finds into Swift values or a
/// ``RequestError``: the body's padding, where a syntax error is, and the 422 for schema violations.
enum RequestReader {
    static func read(_ body: [UInt8]) throws(RequestError) -> DiffRequest {
        try withPaddedBody(body) { padded, parser in parser.readRequest(padded, body: body) }
    }

    /// Reads a whole body with `read`, given a reader at its value (see ``SimdJSONParser/read(_:_:body:validated:_:)``):
    /// what `read` returns, the violations of the rules every value follows, and the body with its padding (for
    /// reading parts of it again).
    static func read<Value>(
        _ body: [UInt8], _ read: (inout JSONReader) -> Value
    ) throws(RequestError) -> (value: Value, rules: RuleViolations, padded: [UInt8]) {
        try withPaddedBody(body) { padded, parser in
            parser.read(padded, 0 ..< padded.count, body: body, read).map { ($0.0, $0.1, padded) }
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
        let padding = DiffRequest.requiredPadding
        // The array's spare capacity is allocated memory: simdjson may read it, never write it. It must not start
        // with a stray token (see SimdJSONParser.paddingIsInert), else a document that ends early could be read on
        // into it; MicroHTTP zeroes its bodies' padding, other callers' bodies are copied when it is not inert.
        if body.capacity - body.count >= padding,
           body.withUnsafeBufferPointer(SimdJSONParser.paddingIsInert) {
            return try read(body, parser).get()
        }
        var padded: [UInt8] = []
        padded.reserveCapacity(body.count + padding)
        padded.append(contentsOf: body)
        padded.append(contentsOf: repeatElement(0, count: padding))  // written, then dropped from the count:
        padded.removeLast(padding)                                    // the spare capacity holds zeros
        return try read(padded, parser).get()
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
