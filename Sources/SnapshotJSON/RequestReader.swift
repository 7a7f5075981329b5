internal import CSimdJSON

/// Runs CSimdJSON over a body and turns its flat result into Swift values or a ``RequestError``.
enum RequestReader {
    static func read(_ body: [UInt8]) throws(RequestError) -> DiffRequest {
        try withPaddedBody(body) { padded, handle in read(padded, body: body, handle: handle) }
    }

    /// Reads a document whose root is an object: its canonical encoding, and its "items" if any.
    static func readDocument(_ body: [UInt8]) throws(RequestError) -> JSONDocument {
        try withPaddedBody(body) { padded, handle in
            padded.withUnsafeBufferPointer { buffer in
                let result = CSimdJSON_ParseDocument(handle.pointer, buffer.baseAddress, buffer.count, padded.capacity).pointee
                if let failure = failure(of: result, body: body) { return .failure(failure) }
                let violations = (0 ..< result.violationCount).map { violation(result.violations[$0], text: result) }
                guard violations.isEmpty, result.hasDocument != 0 else {
                    return .failure(invalid(violations, omitted: result.violationsOmitted))
                }
                let arena = ContentArena(takingFrom: handle.pointer, count: Int(result.arenaLength))
                let root = CanonicalReader(Array(arena.bytes(at: Int(result.documentOffset), count: Int(result.documentLength))))
                let builder = SnapshotBuilder(result: result, input: buffer, arena: arena, text: nil)
                let items = result.newSnapshot.present != 0 ? builder.snapshot(result.newSnapshot).sections[0].items : nil
                return .success(JSONDocument(root: root, items: items))
            }
        }
    }

    /// Calls `read` with the body, followed by the padding simdjson may read as spare capacity (copying the
    /// body only when its spare capacity is too small), and a pooled parser.
    private static func withPaddedBody<Value>(
        _ body: [UInt8], _ read: ([UInt8], ParserHandle) -> Result<Value, RequestError>
    ) throws(RequestError) -> Value {
        guard !body.isEmpty else { throw .emptyBody }
        let handle = ParserPool.shared.borrow()
        defer { ParserPool.shared.recycle(handle) }
        let padding = DiffRequest.requiredPadding
        // The array's spare capacity is allocated memory: simdjson may read it, never write it. It must not start
        // with a stray token (see CSimdJSON_PaddingIsInert), else a document that ends early could be read on
        // into it; MicroHTTP zeroes its bodies' padding, other callers' bodies are copied when it is not inert.
        if body.capacity - body.count >= padding,
           body.withUnsafeBufferPointer({ CSimdJSON_PaddingIsInert($0.baseAddress, $0.count) != 0 }) {
            return try read(body, handle).get()
        }
        var padded: [UInt8] = []
        padded.reserveCapacity(body.count + padding)
        padded.append(contentsOf: body)
        padded.append(contentsOf: repeatElement(0, count: padding))  // written, then dropped from the count:
        padded.removeLast(padding)                                    // the spare capacity holds zeros
        return try read(padded, handle).get()
    }

    private static func read(_ padded: [UInt8], body: [UInt8], handle: ParserHandle) -> Result<DiffRequest, RequestError> {
        padded.withUnsafeBufferPointer { buffer in
            let result = CSimdJSON_Parse(handle.pointer, buffer.baseAddress, buffer.count, padded.capacity).pointee
            if let failure = failure(of: result, body: body) { return .failure(failure) }

            var violations = (0 ..< result.violationCount).map { violation(result.violations[$0], text: result) }
            let arena = ContentArena(takingFrom: handle.pointer, count: Int(result.arenaLength))
            var options = DiffOptions()
            var layouts: CanonicalReader?
            if result.hasOptions != 0 {
                let bytes = arena.bytes(at: Int(result.optionsOffset), count: Int(result.optionsLength))
                var reader = CanonicalReader(Array(bytes))
                options = DiffOptions(decoding: &reader, violations: &violations, layouts: &layouts)
            }
            guard violations.isEmpty else {
                return .failure(invalid(violations, omitted: result.violationsOmitted))
            }
            if let layouts {
                // Listed like /layout's errors (up to FieldErrors.listedLimit), once the rest is valid.
                var errors = FieldErrors()
                options.layouts = SectionLayoutRequest.decodeList(layouts, errors: &errors)
                guard errors.isEmpty else { return .failure(.invalid(errors.errors, omitted: errors.count - errors.errors.count)) }
            }
            let builder = SnapshotBuilder(result: result, input: buffer, arena: arena, text: RequestText(padded: padded))
            let (old, new) = builder.snapshots(old: result.oldSnapshot, new: result.newSnapshot)
            return .success(DiffRequest(old: old, new: new, options: options))
        }
    }

    /// The error of a parse that did not reach the schema, if any.
    private static func failure(of result: CSimdJSON_Result, body: [UInt8]) -> RequestError? {
        let offset = Int(result.errorOffset)
        switch Int(result.status) {
        case CSimdJSON_StatusOK:
            return nil
        case CSimdJSON_StatusEmpty:
            return .emptyBody
        case CSimdJSON_StatusInvalidUTF8:
            return locatedFailure(reported: nil, body: body)
        case CSimdJSON_StatusTooDeep:
            return .tooDeep(limit: DiffRequest.maximumNestingDepth, byteOffset: offset)
        case CSimdJSON_StatusTooLarge:
            return .tooLarge(byteCount: body.count)
        case CSimdJSON_StatusSyntax:
            if let reported = reportedProblem(Int(result.syntax), offset: offset, body: body) {
                return locatedFailure(reported: reported, body: body)
            }
            // A string error: the scan has its place (simdjson has none, or the opening quote); should it find
            // none, simdjson's.
            let quote = offset >= 0 && offset < body.count ? offset : body.count
            return locatedFailure(reported: nil, body: body, otherwise: .malformed(quote, "invalid string"))
        default:
            fatalError("out of memory while parsing a request of \(body.count) bytes")
        }
    }

    /// The error of a body simdjson rejected as not JSON or not UTF-8, at the earliest of: the place simdjson
    /// reported (`reported`, if any), the first syntax problem of a scan that follows the structure (simdjson
    /// stops at the first error its stages meet, and its first stage checks UTF-8, pairs quotes and finds
    /// control characters before any structure is read), and the first invalid UTF-8. On a tie, invalid UTF-8
    /// wins, then simdjson's message. `otherwise` stands when none of them finds anything.
    private static func locatedFailure(
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

    /// Where and what simdjson's syntax error is, when it says more than the scan: nothing for string errors
    /// (simdjson has no position for most of them, and only the opening quote for bad escapes).
    private static func reportedProblem(_ syntax: Int, offset: Int, body: [UInt8]) -> SyntaxProblem? {
        switch syntax {
        case CSimdJSON_SyntaxString, CSimdJSON_SyntaxUnclosedString, CSimdJSON_SyntaxControlCharacter:
            return nil
        default:
            // simdjson has no location past the last token.
            guard offset >= 0, offset < body.count else { return .malformed(body.count, "unexpected end of input") }
            let message =
                switch syntax {
                case CSimdJSON_SyntaxObject: "expected a member name, ':', ',' or '}' in object"
                case CSimdJSON_SyntaxArray: "expected a value, ',' or ']' in array"
                case CSimdJSON_SyntaxLiteral: "invalid literal; expected true, false or null"
                case CSimdJSON_SyntaxNumber: "invalid number"
                case CSimdJSON_SyntaxTrailing: "unexpected content after the JSON document"
                case CSimdJSON_SyntaxIncomplete: "unclosed array or object"
                default: "expected a JSON value"
                }
            return .malformed(offset, message)
        }
    }

    /// The 422 error for `violations`, listing at most ``DiffRequest/maximumViolationCount`` and counting the rest.
    private static func invalid(_ violations: [Violation], omitted: Int) -> RequestError {
        let listed = Array(violations.prefix(DiffRequest.maximumViolationCount))
        return .invalid(listed, omitted: omitted + violations.count - listed.count)
    }

    private static func violation(_ record: CSimdJSON_Violation, text result: CSimdJSON_Result) -> Violation {
        let text = UnsafeBufferPointer(start: result.text, count: result.textLength)
        func string(_ offset: UInt64, _ count: UInt32) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: text[Int(offset) ..< Int(offset) + Int(count)]), as: UTF8.self)
        }
        let found = Self.found(Int(record.found))
        let message: String =
            switch Int(record.kind) {
            case CSimdJSON_ViolationExpectedObject: "expected object, found \(found)"
            case CSimdJSON_ViolationExpectedArray: "expected array, found \(found)"
            case CSimdJSON_ViolationExpectedID: "expected string or integer, found \(found)"
            case CSimdJSON_ViolationMissingMember: "missing required member"
            case CSimdJSON_ViolationUnknownRequestMember: "unknown member; expected \"old\", \"new\" or \"options\""
            case CSimdJSON_ViolationUnknownSnapshotMember: "unknown member; expected \"sections\" or \"items\""
            case CSimdJSON_ViolationDuplicateMember: "duplicate member name"
            case CSimdJSON_ViolationSectionsAndItems: "has both \"sections\" and \"items\"; expected one of them"
            case CSimdJSON_ViolationExponentRange:
                "number exponent out of range (limit ±\(DiffRequest.maximumExponentMagnitude))"
            default: "invalid value"
            }
        return Violation(path: string(record.pathOffset, record.pathLength), message: message,
                         byteOffset: record.byteOffset < 0 ? nil : Int(record.byteOffset))
    }

    private static func found(_ found: Int) -> String {
        switch found {
        case CSimdJSON_FoundObject: "object"
        case CSimdJSON_FoundArray: "array"
        case CSimdJSON_FoundString: "string"
        case CSimdJSON_FoundNumber: "number"
        case CSimdJSON_FoundFractionalNumber: "number with a fraction or an exponent"
        case CSimdJSON_FoundIntegerOutOfRange: "integer outside the 64-bit range"
        case CSimdJSON_FoundBoolean: "boolean"
        case CSimdJSON_FoundNull: "null"
        default: "nothing"
        }
    }
}
