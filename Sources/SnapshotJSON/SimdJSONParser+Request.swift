internal import CSimdJSON

// The walks over a request body and what they return: with `SimdJSONParser.swift`, the only code that sees a C
// type.

extension SimdJSONParser {
    /// Walks a `/diff` body (`padded`, with its padding as spare capacity; `body` as the client sent it, for
    /// locating errors) with ``DiffRequestSchema`` and builds the request, or the error.
    func readRequest(_ padded: [UInt8], body: [UInt8]) -> Result<DiffRequest, RequestError> {
        // (Canonical encodings hold 32-bit places, and a body's may be a little longer than it: CanonicalEncoder.)
        guard CanonicalEncoder.maximumBytes(textLength: body.count) <= UInt32.max else {
            return .failure(.tooLarge(byteCount: body.count))
        }
        return padded.withUnsafeBufferPointer { buffer in
            let (walked, result) = walk(padded, buffer)
            if let failure = failure(of: result, body: body) { return .failure(failure) }

            var violations = (0 ..< result.violationCount).map { violation(result.violations[$0], text: result) }
            var omitted = result.violationsOmitted
            let arena = ContentArena(walked.contents)
            var options = DiffOptions()
            var layouts: Range<Int>?
            if let span = walked.options {
                // Another parser: this one's result is still being read.
                var errors = FieldErrors()
                options = SimdJSONParser.withBorrowed {
                    $0.readValid(padded, span) { DiffOptions(decoding: $0, errors: &errors, layouts: &layouts) }
                }
                violations += errors.errors
                omitted += errors.count - errors.errors.count
            }
            guard violations.isEmpty && omitted == 0 else {
                return .failure(RequestReader.invalid(violations, omitted: omitted))
            }
            guard let oldRecord = walked.old, let newRecord = walked.new else {
                preconditionFailure("a request without violations has both snapshots")
            }
            if let layouts {
                // Listed like /layout's errors (up to FieldErrors.listedLimit), once the rest is valid.
                var errors = FieldErrors()
                options.layouts = SimdJSONParser.withBorrowed {
                    $0.readValid(padded, layouts) { SectionLayoutRequest.decodeList($0, errors: &errors) }
                }
                guard errors.isEmpty else { return .failure(.invalid(errors.errors, omitted: errors.count - errors.errors.count)) }
            }
            // Where sections lie is read only by the renderings that copy or compare their texts, and by layouts.
            let sectionPlaces = !options.readsMembers && options.layouts.isEmpty ? nil :
                UnsafeBufferPointer(start: result.sections, count: result.sectionCount).map {
                    RequestText.sectionPlace(offset: $0.textOffset, length: $0.textLength)
                }
            let text = RequestText(
                padded: padded, sectionPlaces: sectionPlaces,
                unescapedIDs: Array(UnsafeBufferPointer(start: result.idBytes, count: result.idByteCount)), arena: arena)
            let builder = SnapshotBuilder(result: result, input: buffer, text: text)
            let (old, new) = builder.snapshots(old: oldRecord, new: newRecord)
            return .success(DiffRequest(old: old, new: new, options: options))
        }
    }

    /// Walks `padded` (its padding as spare capacity; `buffer` its bytes) with ``DiffRequestSchema``: what the
    /// walk found, and the bridge's result (valid until the parser's next use).
    private func walk(_ padded: [UInt8], _ buffer: UnsafeBufferPointer<UInt8>) -> (DiffRequestSchema.Walked, CSimdJSON_Result) {
        var walked = DiffRequestSchema.Walked()
        let reserved = DiffRequestSchema.reservations(bodyLength: buffer.count)
        if CSimdJSON_CursorBegin(
            pointer, buffer.baseAddress, buffer.count, padded.capacity, reserved.items, reserved.sections, 0) != 0
        {
            walked = DiffRequestSchema.walk(RequestCursor(pointer: pointer, source: padded))
        }
        return (walked, CSimdJSON_CursorFinish(pointer).pointee)
    }

    /// The records a walk of `padded` (its padding as spare capacity) keeps, and its violations (listed and
    /// omitted); `nil` when the body is not valid JSON. For the tests of the records' bound.
    func recordCounts(walking padded: [UInt8]) -> (items: Int, sections: Int, violations: Int, omitted: Int)? {
        padded.withUnsafeBufferPointer { buffer in
            let result = walk(padded, buffer).1
            guard Int(result.status) == CSimdJSON_StatusOK else { return nil }
            return (result.itemCount, result.sectionCount, result.violationCount, result.violationsOmitted)
        }
    }

    /// Reads `padded[range]` (the whole body, or a value of it; the array holds its padding as spare capacity)
    /// with a cursor, calling `read` with a reader at its value: `read` reads what it needs, in document order,
    /// and the walk validates everything else (a value moved past unread is validated then). Returns what `read`
    /// returned, with the violations of the rules every value follows (no repeated member names, exponents in
    /// range), each at its place in the walk; or the error that ended the walk, which outweighs what `read` found.
    /// `body` is the whole body as the client sent it, for locating errors. Readers are valid only during `read`.
    func read<Value>(
        _ padded: [UInt8], _ range: Range<Int>, body: [UInt8], validated: Bool = false,
        _ read: (inout JSONReader) -> Value
    ) -> Result<(Value, RuleViolations), RequestError> {
        padded.withUnsafeBufferPointer { buffer in
            var value: Value?
            if CSimdJSON_CursorBegin(
                pointer, buffer.baseAddress.map { $0 + range.lowerBound }, range.count,
                padded.capacity - range.lowerBound, 0, 0, validated ? 1 : 0) != 0
            {
                let walk = JSONWalk(pointer: pointer, source: padded, base: range.lowerBound)
                var reader = JSONReader(walk)
                value = read(&reader)
                walk.end()
            }
            let result = CSimdJSON_CursorFinish(pointer).pointee
            if let failure = failure(of: result, body: body) { return .failure(failure) }
            guard let value else { preconditionFailure("a walk that began reports its outcome") }
            let violations = (0 ..< result.violationCount).map {
                (violation(result.violations[$0], text: result), place: Int(result.violations[$0].valueIndex))
            }
            return .success((value, RuleViolations(violations: violations, omitted: result.violationsOmitted)))
        }
    }

    /// Reads a value that a walk of the same bytes validated (see ``read(_:_:body:validated:_:)``): its
    /// violations were reported by that walk, and what the reader leaves unread is not checked again.
    func readValid<Value>(_ padded: [UInt8], _ range: Range<Int>, _ read: (inout JSONReader) -> Value) -> Value {
        switch self.read(padded, range, body: padded, validated: true, read) {
        case .success(let (value, _)): return value
        case .failure(let error): fatalError("a validated value of \(range.count) bytes did not parse again: \(error)")
        }
    }

    /// The parts of the number whose text is `source[range]`, or `nil` when it is not a number (a walk reading
    /// it then finds the syntax error).
    static func number(_ source: [UInt8], _ range: Range<Int>) -> JSONNumber? {
        let parts = source.withUnsafeBufferPointer { CSimdJSON_ParseNumber($0.baseAddress! + range.lowerBound, range.count) }
        guard parts.valid != 0 else { return nil }
        let integer = range.lowerBound + Int(parts.integerOffset), fraction = range.lowerBound + Int(parts.fractionOffset)
        return JSONNumber(exponent: parts.exponent, integerDigits: integer ..< integer + Int(parts.integerLength),
                          fractionDigits: fraction ..< fraction + Int(parts.fractionLength),
                          isNegative: parts.negative != 0, isInteger: parts.isInteger != 0,
                          isOutOfRange: parts.outOfRange != 0)
    }

    /// The error of a parse that did not reach the schema, if any.
    private func failure(of result: CSimdJSON_Result, body: [UInt8]) -> RequestError? {
        let offset = Int(result.errorOffset)
        switch Int(result.status) {
        case CSimdJSON_StatusOK:
            return nil
        case CSimdJSON_StatusEmpty:
            return .emptyBody
        case CSimdJSON_StatusInvalidUTF8:
            return RequestReader.locatedFailure(reported: nil, body: body)
        case CSimdJSON_StatusTooDeep:
            return .tooDeep(limit: DiffRequest.maximumNestingDepth, byteOffset: offset)
        case CSimdJSON_StatusTooLarge:
            return .tooLarge(byteCount: body.count)
        case CSimdJSON_StatusSyntax:
            if let reported = Self.reportedProblem(Int(result.syntax), offset: offset, body: body) {
                return RequestReader.locatedFailure(reported: reported, body: body)
            }
            // A string error: the scan has its place (simdjson has none, or the opening quote); should it find
            // none, simdjson's.
            let quote = offset >= 0 && offset < body.count ? offset : body.count
            return RequestReader.locatedFailure(reported: nil, body: body, otherwise: .malformed(quote, "invalid string"))
        default:
            fatalError("out of memory while parsing a request of \(body.count) bytes")
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

    private func violation(_ record: CSimdJSON_Violation, text result: CSimdJSON_Result) -> Violation {
        let text = UnsafeBufferPointer(start: result.text, count: result.textLength)
        /// The path's steps, rendered by JSONPath.
        func path(_ offset: UInt64, _ count: UInt32) -> String {
            var path = "", at = Int(offset)
            let end = at + Int(count)
            func fixed(_ width: Int) -> Int {
                defer { at += width }
                return (0 ..< width).reduce(0) { $0 | Int(text[at + $1]) << (8 * $1) }
            }
            while at < end {
                at += 1
                if text[at - 1] == UInt8(ascii: "k") {
                    let length = fixed(4)
                    path = JSONPath.member(String(decoding: UnsafeBufferPointer(rebasing: text[at ..< at + length]), as: UTF8.self), of: path)
                    at += length
                } else {
                    path = JSONPath.element(fixed(8), of: path)
                }
            }
            return path
        }
        let found = Self.found(Int(record.found))
        let message: String =
            switch Int(record.kind) {
            case CSimdJSON_ViolationExpectedObject: "expected object, found \(found)"
            case CSimdJSON_ViolationExpectedArray: "expected array, found \(found)"
            case CSimdJSON_ViolationExpectedID: "expected string or integer, found \(found)"
            case CSimdJSON_ViolationMissingMember: "missing required member"
            case CSimdJSON_ViolationDuplicateMember: "duplicate member name"
            case CSimdJSON_ViolationExponentRange:
                "number exponent out of range (limit ±\(DiffRequest.maximumExponentMagnitude))"
            default: RequestCursor.rule(ofKind: record.kind)?.message ?? "invalid value"
            }
        return Violation(path: path(record.pathOffset, record.pathLength), message: message,
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

extension SimdJSONParser {
    /// Builds ``Snapshot`` values from the flat arrays of a successful CSimdJSON parse.
    struct SnapshotBuilder {
        private let sections: UnsafeBufferPointer<CSimdJSON_Section>
        private let items: UnsafeBufferPointer<CSimdJSON_Item>
        private let idBytes: UnsafeBufferPointer<UInt8>
        private let text: RequestText
        private let input: UnsafeBufferPointer<UInt8>
        private let idsNumbered: Bool

        /// The result and `input` (the bytes parsed) must stay valid, the parser unused, while the builder is used;
        /// `text` holds the parsed bytes, which the items' contents refer to, and the arena of the sections'
        /// contents.
        init(result: CSimdJSON_Result, input: UnsafeBufferPointer<UInt8>, text: RequestText) {
            sections = UnsafeBufferPointer(start: result.sections, count: result.sectionCount)
            items = UnsafeBufferPointer(start: result.items, count: result.itemCount)
            idBytes = UnsafeBufferPointer(start: result.idBytes, count: result.idByteCount)
            self.text = text
            self.input = input
            idsNumbered = result.idsNumbered != 0
        }

        /// Both snapshots of a request, with the content equality of their items decided (see
        /// ``WireItem/contentNumber``), so that the diff compares numbers rather than parsing again.
        ///
        /// The snapshot walked first is built first. An item of the second is compared now with its counterpart,
        /// the first item of its id in the first (the one the diff keeps): it takes that item's number when their
        /// contents are equal, and keeps its own otherwise. An item whose bytes repeat its counterpart's
        /// (`CSimdJSON_Item.repeatOf`) is that item again, id and content: it costs neither a new `String` nor a
        /// comparison. The later items of an id in the first snapshot, which the diff drops, are undecided.
        ///
        /// - Complexity: O(*n*) for *n* items, plus the comparison of each item whose text differs from its
        ///   counterpart's.
        func snapshots(
            old: DiffRequestSchema.SnapshotRecord, new: DiffRequestSchema.SnapshotRecord
        ) -> (old: Snapshot, new: Snapshot) {
            if old.firstSection <= new.firstSection {
                let (built, reference) = reference(to: snapshot(old, repeating: nil), old)
                return (built, snapshot(new, repeating: reference))
            }
            let (built, reference) = reference(to: snapshot(new, repeating: nil), new)
            return (snapshot(old, repeating: reference), built)
        }

        /// `built`, made from `record`, as the reference of the other snapshot, with the counterparts of the
        /// other's items (the first item of each id) found from the identity numbers of the parse; and `built`
        /// again, with the later items of an id undecided when ids are not numbered.
        ///
        /// The walk numbers ids from 0 in order of first appearance, the snapshot walked first first: its ids are
        /// all different exactly when its last item's number is its item count - 1, and each item's number is then
        /// its index. Only when an id repeats is a table of counterparts made.
        ///
        /// - Complexity: O(1) when the snapshot's ids are all different, else O(*n*) for its *n* items.
        private func reference(to built: Snapshot, _ record: DiffRequestSchema.SnapshotRecord) -> (Snapshot, Reference) {
            let first = firstItem(of: record)
            let count = built.itemCount
            if idsNumbered && (count == 0 || Int(items[first + count - 1].idNumber) == count - 1) {
                return (built, Reference(built, firstItem: first, counterparts: .numbers(count)))
            }
            // An id that repeats: its first item is the one the diff keeps (keepFirst; with reject, the request
            // is refused before any diff).
            var table = [Int32](repeating: Reference.absent, count: count)
            let numbered = idsNumbered && table.withUnsafeMutableBufferPointer { slots in
                for flat in slots.indices {
                    let slot = Int(items[first + flat].idNumber)
                    guard slot < slots.count else { return false }  // not numbered as the walk numbers them
                    if slots[slot] == Reference.absent { slots[slot] = Int32(flat) }
                }
                return true
            }
            if numbered { return (built, Reference(built, firstItem: first, counterparts: .table(table))) }
            // Ids not numbered (they collide in the parse's table far more than chance allows): by id, in a
            // dictionary whose hashing is seeded per process; a later item of an id is undecided.
            var byID: [WireID: Int32] = [:]
            var flat: Int32 = 0
            let sections = built.sections.map { section in
                section.replacingItems(section.items.map { item in
                    defer { flat += 1 }
                    if byID[item.id] == nil {
                        byID[item.id] = flat
                        return item
                    }
                    return item.undecided
                })
            }
            let marked = Snapshot(sections: sections, text: built.text, firstSection: built.firstSection)
            return (marked, Reference(marked, firstItem: first, counterparts: .byID(byID)))
        }

        /// A snapshot already built, whose items the other's repeat or are compared with.
        private struct Reference {
            let sections: [WireSection]
            /// The index among the snapshot's items of each section's first item, and the item count at the end
            /// (32-bit: a body holds fewer than 2^29 items, see ``WireItem``; 4 bytes a section of a snapshot of
            /// many).
            let starts: [UInt32]
            let firstItem: Int
            /// Where the counterpart of an identity number is.
            enum Counterparts {
                /// The item whose index is the number, if there is one: the snapshot's ids are all different.
                case numbers(Int)
                /// By identity number: the index of the first item with that id, or ``absent``.
                case table([Int32])
                /// By id (when ids are not numbered): the index of the first item with that id.
                case byID([WireID: Int32])
            }

            /// Where the counterpart of an identity number is.
            let counterparts: Counterparts

            /// No item of the snapshot has the id.
            static let absent: Int32 = -1

            init(_ snapshot: Snapshot, firstItem: Int, counterparts: Counterparts) {
                sections = snapshot.sections
                var starts: [UInt32] = []
                starts.reserveCapacity(sections.count + 1)
                var start: UInt32 = 0
                starts.append(start)
                for section in sections {
                    start += UInt32(section.items.count)
                    starts.append(start)
                }
                self.starts = starts
                self.firstItem = firstItem
                self.counterparts = counterparts
            }

            /// The built item for `repeatOf` (1 + an index in the parse's items), if it is the one at `index` of
            /// these.
            func item(_ repeatOf: UInt32, at index: Int) -> WireItem? {
                guard repeatOf != 0, Int(repeatOf) - 1 - firstItem == index else { return nil }
                return item(at: index)
            }

            /// The item at `index` among the snapshot's items.
            func item(at index: Int) -> WireItem {
                let (section, item) = place(of: index)
                return sections[section].items[item]
            }

            /// The content and content number of the item at `index` among the snapshot's items (without copying
            /// the whole item).
            func content(at index: Int) -> (content: ContentKey, number: Int) {
                let (section, item) = place(of: index)
                return (sections[section].items[item].content, sections[section].items[item].contentNumber)
            }

            /// The section of the item at `index` among the snapshot's items, and its index there.
            private func place(of index: Int) -> (section: Int, item: Int) {
                // The last section starting at or before `index` (binary search: snapshots may have many sections).
                var low = 0, high = sections.count - 1
                while low < high {
                    let middle = (low + high + 1) / 2
                    if Int(starts[middle]) <= index { low = middle } else { high = middle - 1 }
                }
                return (low, index - Int(starts[low]))
            }

            /// The index among the snapshot's items of the item the diff may match an item of the other snapshot
            /// whose identity number is `number` and whose id is `id()` with, or ``absent``.
            func counterpart(_ number: Int, id: () -> WireID) -> Int32 {
                switch counterparts {
                case .numbers(let count): number >= 0 && number < count ? Int32(number) : Self.absent
                case .table(let table): number >= 0 && number < table.count ? table[number] : Self.absent
                case .byID(let byID): byID[id()] ?? Self.absent
                }
            }
        }

        private func firstItem(of record: DiffRequestSchema.SnapshotRecord) -> Int {
            record.sectionCount == 0 ? items.count : record.firstItem
        }

        /// Builds a snapshot; the one walked first (without `reference`) marks the items whose id an earlier item
        /// of it has: those are undecided (``WireItem/contentNumber`` -1), since the diff keeps only the first item
        /// of an id (keepFirst; with reject the request is refused), and the other snapshot's items are decided
        /// against that one.
        private func snapshot(_ record: DiffRequestSchema.SnapshotRecord, repeating reference: Reference?) -> Snapshot {
            let first = record.firstSection
            var distinctIDs = 0  // the ids met so far: the parse numbers them in order of first appearance
            var firstItem = record.firstItem  // the section's: its items follow the previous section's
            return Snapshot(
                sections: sections[first ..< first + record.sectionCount].map { record in
                    defer { firstItem += Int(record.itemCount) }
                    return section(record, firstItem: firstItem, repeating: reference, distinctIDs: &distinctIDs)
                },
                text: text, firstSection: first)
        }

        /// The section of `record`, whose first item is `items[first]`.
        private func section(
            _ record: CSimdJSON_Section, firstItem first: Int, repeating reference: Reference?, distinctIDs: inout Int
        ) -> WireSection {
            var sectionItems: [WireItem] = []
            sectionItems.reserveCapacity(Int(record.itemCount))
            for index in first ..< first + Int(record.itemCount) {
                let item = items[index]
                let identityNumber = idsNumbered ? Int(item.idNumber) : -1
                var contentNumber = index
                var counterpart = Reference.absent
                if reference == nil && idsNumbered {
                    if identityNumber == distinctIDs {
                        distinctIDs += 1
                    } else {
                        contentNumber = -1  // a later item of an id
                    }
                }
                if let reference {
                    // The item of the other snapshot the diff will match this one with (see `snapshots`).
                    counterpart = reference.counterpart(identityNumber, id: { id(of: item) })
                    if counterpart >= 0, let repeated = reference.item(item.repeatOf, at: Int(counterpart)) {
                        sectionItems.append(repeated)  // the same bytes as its counterpart: that item again
                        continue
                    }
                }
                let textRange = Int(item.textOffset) ..< Int(item.textOffset) + Int(item.textLength)
                if counterpart >= 0, let other = reference?.content(at: Int(counterpart)) {
                    if ContentKey(text: text, offset: textRange.lowerBound, count: textRange.count) == other.content {
                        contentNumber = other.number
                    }
                }
                let (idKind, idPayload) = storedID(item)
                sectionItems.append(
                    WireItem(
                        text: text, textRange: textRange, idKind: idKind, idPayload: idPayload,
                        identityNumber: identityNumber, contentNumber: contentNumber))
            }
            // The parse's packing of the id is WireSection's (see ``WireItem/IDPlace``): the payload is taken as it is.
            let idKind: WireSection.IDKind =
                switch Int(record.idKind) {
                case CSimdJSON_IDInteger: .integer
                case CSimdJSON_IDString: record.idInInput != 0 ? .inBody : .unescaped
                default: .implicit
                }
            return WireSection(
                text: text, idKind: idKind, idPayload: Int64(bitPattern: record.id),
                contentOffset: Int(record.contentOffset), contentCount: Int(record.contentLength), items: sectionItems)
        }

        /// How an item's id is stored (see ``WireItem/IDKind``): an integer, or where its bytes lie, in the body
        /// or among the unescaped ids (which ``RequestText`` copies from the parse's).
        private func storedID(_ item: CSimdJSON_Item) -> (WireItem.IDKind, Int64) {
            // The parse's packing is WireItem's (see ``WireItem/IDPlace``): the payload is taken as it is.
            let kind: WireItem.IDKind =
                Int(item.idKind) == CSimdJSON_IDInteger ? .integer : item.idInInput != 0 ? .inBody : .unescaped
            return (kind, Int64(bitPattern: item.id))
        }

        /// An item's id, made now.
        private func id(of item: CSimdJSON_Item) -> WireID {
            if Int(item.idKind) == CSimdJSON_IDInteger { return .integer(Int64(bitPattern: item.id)) }
            let place = WireItem.IDPlace(payload: Int64(bitPattern: item.id))
            return idString(at: place.offset, count: place.count, inInput: item.idInInput != 0)
        }

        /// A string id whose bytes are the input's (written without escapes) or the parse's unescaped ids'.
        private func idString(at start: Int, count: Int, inInput: Bool) -> WireID {
            let bytes = inInput ? input : idBytes
            return .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< start + count]), as: UTF8.self))
        }
    }
}

/// Unescaped UTF-8 bytes a walk read (a member name, a string), valid while the walk lasts: compared as they lie,
/// without making a `String`.
struct WalkedBytes: Equatable {
    fileprivate let bytes: UnsafeBufferPointer<UInt8>

    /// Whether both hold the same bytes.
    static func == (a: WalkedBytes, b: WalkedBytes) -> Bool {
        guard a.bytes.count == b.bytes.count else { return false }
        for index in a.bytes.indices where a.bytes[index] != b.bytes[index] { return false }
        return true
    }

    /// Whether the bytes are `literal`'s.
    static func == (bytes: WalkedBytes, literal: StaticString) -> Bool {
        literal.withUTF8Buffer { bytes == WalkedBytes(bytes: $0) }
    }

    /// A copy of the bytes.
    var array: [UInt8] { Array(bytes) }
}

/// A member name a ``RequestCursor`` read: its unescaped UTF-8 bytes (valid while the walk lasts) and where its
/// opening quote is.
struct MemberName {
    let bytes: WalkedBytes
    /// The offset of the name's opening quote in the body.
    let offset: Int

    /// Whether the name is `literal`.
    static func == (name: MemberName, literal: StaticString) -> Bool { name.bytes == literal }
}

/// A walk over a body that its caller steers, one value at a time (CSimdJSON's cursor): a schema in Swift
/// (``DiffRequestSchema``) decides which members each object has and what breaks it; the bridge validates every
/// value, keeps the path, probes arrays of objects into item records and records the violations at their places,
/// in document order.
///
/// Every value the cursor stands on must be read or skipped before it moves on. After a fatal error (syntax,
/// nesting, memory) every step does nothing and answers as at an end; the walk's outcome says what happened.
struct RequestCursor {
    fileprivate let pointer: OpaquePointer
    /// The body walked, with its padding as spare capacity.
    fileprivate let source: [UInt8]

    /// The length of the body walked.
    var bodyLength: Int { source.count }

    /// The kind of the document's value.
    struct Found {
        fileprivate let code: UInt8
        var isObject: Bool { Int(code) == CSimdJSON_FoundObject }
        /// Nothing: the walk ended before the value could be read.
        var isNothing: Bool { Int(code) == CSimdJSON_FoundNothing }
    }

    /// An id read (a string or an integer), or none (missing or invalid).
    struct ID {
        fileprivate let read: CSimdJSON_ID
    }

    /// A place in the walk's records: how many sections and probed items came before.
    typealias RecordCounts = (sections: Int, items: Int)

    /// Stands on the document's value and returns its kind (a scalar one is validated at once; an array is to be
    /// skipped, see ``reportNotObject(_:)``).
    func root() -> Found { Found(code: CSimdJSON_CursorRoot(pointer, nil)) }

    /// Whether the value is an object (or, when `object` is false, an array); if not, records that it should be
    /// and skips it.
    func expect(object: Bool) -> Bool { CSimdJSON_CursorExpect(pointer, object ? 1 : 0) != 0 }

    /// Enters the object or array (``expect(object:)`` said it is one); returns the offset of its bracket.
    @discardableResult
    func enter() -> Int { Int(CSimdJSON_CursorEnter(pointer, 0)) }

    /// Stands on the next member of the object entered last, or returns `nil` at its end (and leaves it).
    func nextMember() -> MemberName? {
        var name: UnsafePointer<UInt8>?
        var length = 0
        var offset: Int64 = 0
        guard CSimdJSON_CursorNextMember(pointer, &name, &length, &offset, nil) != 0 else { return nil }
        return MemberName(bytes: WalkedBytes(bytes: UnsafeBufferPointer(start: name, count: length)), offset: Int(offset))
    }

    /// Stands on the next element of the array entered last; false at its end (and leaves it).
    func nextElement() -> Bool { CSimdJSON_CursorNextElement(pointer, nil) != 0 }

    /// Validates the value and moves past it.
    func skip() { CSimdJSON_CursorSkip(pointer) }

    /// Reads the value as an id (recording a violation when it is not a string or an integer).
    func readID() -> ID { ID(read: CSimdJSON_CursorReadID(pointer)) }

    /// Reads the value as an array of items, each an object with its id in member `idMember`, and records them;
    /// returns how many it recorded.
    func probeEach(idMember: StaticString) -> Int {
        idMember.withUTF8Buffer { name in
            Int(CSimdJSON_CursorProbeEach(
                pointer, UnsafeRawPointer(name.baseAddress)?.assumingMemoryBound(to: CChar.self), name.count))
        }
    }

    /// Validates the value and returns where its text lies in the body.
    func span() -> Range<Int> {
        var offset: UInt64 = 0
        let length = CSimdJSON_CursorSpan(pointer, &offset)
        return Int(offset) ..< Int(offset) + Int(length)
    }

    /// Checks that nothing follows the document's value.
    func requireEnd() { CSimdJSON_CursorRequireEnd(pointer) }

    /// The offset just past the object or array that starts at `start` and was just left.
    func endOfLeft(_ start: Int) -> Int { Int(CSimdJSON_CursorEndOfLeft(pointer, Int64(start))) }

    /// Starts a group of records (a snapshot); the first group ended is the reference of the next: an item of
    /// it whose bytes repeat one of the first is recorded as that one, without being read again.
    func beginGroup() -> RecordCounts {
        var sections = 0, items = 0
        CSimdJSON_CursorBeginGroup(pointer, &sections, &items)
        return (sections, items)
    }

    /// Ends a group; returns the count of sections so far.
    func endGroup() -> Int { CSimdJSON_CursorEndGroup(pointer) }

    /// Adds the member the cursor stands on, named `name`, to the object `encoder` writes (reading its value).
    func encodeMember(_ name: MemberName, into encoder: inout CanonicalEncoder) {
        var reader = JSONReader(JSONWalk(standingOn: pointer, source: source))
        encoder.appendMember(name.bytes.array, nameOffset: name.offset, &reader)
    }

    /// Records a section with its id (if any), its item count, its text (the object that holds its items: its
    /// own, or a bare item list's snapshot) and where its content's encoding lies, while the walk has found no
    /// violation; returns whether it was recorded.
    func addSection(id: ID?, itemCount: Int, text: Range<Int>, content: Range<Int>) -> Bool {
        var record = CSimdJSON_Section()
        if let id {
            record.id = id.read.packed
            record.idKind = id.read.kind
            record.idInInput = id.read.inInput
        }
        record.itemCount = UInt32(itemCount)  // (fewer than 2^29 items: see WireItem)
        record.textOffset = UInt32(text.lowerBound)
        record.textLength = UInt32(text.count)
        // (Under 4 GiB: readRequest refuses a body whose contents could reach that, before the walk.)
        record.contentOffset = UInt32(truncatingIfNeeded: content.lowerBound)
        record.contentLength = UInt32(truncatingIfNeeded: content.count)
        return CSimdJSON_CursorAddSection(pointer, record) != 0
    }

    /// Validates the document's value, of kind `found`, and records that it is not an object.
    func reportNotObject(_ found: Found) {
        if Int(found.code) == CSimdJSON_FoundArray {  // (a scalar document is validated to its end at once)
            skip()
            requireEnd()
        }
        CSimdJSON_CursorViolation(pointer, UInt8(CSimdJSON_ViolationExpectedObject), found.code, 0, nil, 0)
    }

    /// Records that the object just left has no member `name`.
    func reportMissing(_ name: StaticString) {
        name.withUTF8Buffer { bytes in
            CSimdJSON_CursorViolation(
                pointer, UInt8(CSimdJSON_ViolationMissingMember), UInt8(CSimdJSON_FoundNothing), -1,
                UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self), bytes.count)
        }
    }

    /// Records that the member `name` was given before in its object, and skips its value.
    func reportRepeated(_ name: MemberName) {
        CSimdJSON_CursorViolation(
            pointer, UInt8(CSimdJSON_ViolationDuplicateMember), UInt8(CSimdJSON_FoundNothing), Int64(name.offset), nil, 0)
        skip()
    }

    /// Records that a member of the object just left, named `name` at byte `offset`, repeats an earlier member's
    /// name (its path ends with it).
    func reportRepeated(_ name: [UInt8], at offset: Int) {
        let terminated = name + [0]  // (never a null pointer, which would mean no name: "" is one)
        terminated.withUnsafeBufferPointer { bytes in
            CSimdJSON_CursorViolation(
                pointer, UInt8(CSimdJSON_ViolationDuplicateMember), UInt8(CSimdJSON_FoundNothing), Int64(offset),
                UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self), name.count)
        }
    }

    /// Records `count` more repeated member names, beyond those the walk lists (it lists
    /// ``SimdJSONParser/maximumViolations`` at most, and only counts the rest).
    func countRepeated(_ count: Int) {
        for _ in 0 ..< count {
            CSimdJSON_CursorViolation(
                pointer, UInt8(CSimdJSON_ViolationDuplicateMember), UInt8(CSimdJSON_FoundNothing), -1, nil, 0)
        }
    }

    /// Records that the value breaks `rule` at byte `offset` (at the member name, for a member).
    func report(_ rule: DiffRequestSchema.Rule, at offset: Int) {
        CSimdJSON_CursorViolation(
            pointer, UInt8(CSimdJSON_ViolationCallerFirst) + rule.rawValue, UInt8(CSimdJSON_FoundNothing),
            Int64(offset), nil, 0)
    }

    /// The rule of a violation a walk recorded with ``report(_:at:)``, if it is one.
    fileprivate static func rule(ofKind kind: UInt8) -> DiffRequestSchema.Rule? {
        kind < UInt8(CSimdJSON_ViolationCallerFirst) ? nil
            : DiffRequestSchema.Rule(rawValue: kind - UInt8(CSimdJSON_ViolationCallerFirst))
    }
}

/// One walk over a JSON text with the bridge's cursor, shared by the ``JSONReader``s of the text: the value the
/// cursor stands on (its kind, text and place) and the steps that read it, skip it, or move into it.
///
/// A class because every reader of one walk moves the same cursor; used by one thread, within the read that
/// made it (``SimdJSONParser/read(_:_:body:validated:_:)``).
final class JSONWalk {
    private let pointer: OpaquePointer
    /// The bytes the text is read from, and where the text starts in them.
    let source: [UInt8]
    let base: Int
    /// The description of the value the cursor stands on, written by the cursor's moves. (Behind a pointer: as a
    /// stored property passed `inout` to C, every move would cost a dynamic exclusivity check.)
    private let standing = UnsafeMutablePointer<CSimdJSON_Standing>.allocate(capacity: 1)
    /// Whether the document's value is an object or an array (to be followed by nothing but whitespace); a
    /// scalar one is validated at once, and only its kind is known (its readers read nothing).
    private var rootIsContainer = false
    /// The walk is over (its parser given back): every step does nothing.
    private var isOver = false

    fileprivate init(pointer: OpaquePointer, source: [UInt8], base: Int) {
        self.pointer = pointer
        self.source = source
        self.base = base
        standing.initialize(to: CSimdJSON_Standing())
        rootIsContainer = Self.isContainer(CSimdJSON_CursorRoot(pointer, standing))
    }

    /// A walk of the value a ``RequestCursor`` stands on, within the cursor's own walk of `source` (which goes on
    /// once the value is read).
    fileprivate init(standingOn pointer: OpaquePointer, source: [UInt8]) {
        self.pointer = pointer
        self.source = source
        base = 0
        standing.initialize(to: CSimdJSON_Standing())
        CSimdJSON_CursorDescribe(pointer, standing)
        rootIsContainer = true
    }

    deinit { standing.deallocate() }

    private static func isContainer(_ kind: UInt8) -> Bool {
        Int(kind) == CSimdJSON_FoundObject || Int(kind) == CSimdJSON_FoundArray
    }

    /// The kind of the value the cursor stands on.
    var kind: JSONReader.Kind {
        switch Int(standing.pointee.kind) {
        case CSimdJSON_FoundObject: .object
        case CSimdJSON_FoundArray: .array
        case CSimdJSON_FoundString: .string
        case CSimdJSON_FoundBoolean: .boolean
        case CSimdJSON_FoundNull, CSimdJSON_FoundNothing: .null  // (nothing: the walk ended, its error outweighs)
        default: .number
        }
    }

    /// The first byte of the value's text in ``source``.
    var offset: Int { base + Int(standing.pointee.offset) }
    /// The value's place in the walk: how many values and member names came before it.
    var place: Int { Int(standing.pointee.place) }

    /// The number the cursor stands on, if it is a number (its text is parsed again).
    var number: JSONNumber? {
        guard kind == .number, isReadable else { return nil }
        return SimdJSONParser.number(source, scalarText)
    }

    /// Whether the cursor stands on a value it can read: not a scalar document (validated at once).
    var isReadable: Bool { rootIsContainer && !isOver }

    /// Where the text of the scalar the cursor stands on lies in ``source`` (a string's with its quotes).
    var scalarText: Range<Int> { offset ..< offset + Int(standing.pointee.length) }

    /// Moves past the value (validating it in a walk of unvalidated text; nothing when it was read already).
    func skip() {
        guard !isOver else { return }
        CSimdJSON_CursorSkip(pointer)
    }

    /// Reads the string the cursor stands on.
    func readString() -> String {
        String(decoding: readStringBytes().bytes, as: UTF8.self)
    }

    /// Reads the string the cursor stands on: its unescaped bytes.
    func readStringBytes() -> WalkedBytes {
        var bytes: UnsafePointer<UInt8>?
        var length = 0
        if isReadable { CSimdJSON_CursorReadString(pointer, &bytes, &length) }
        return WalkedBytes(bytes: UnsafeBufferPointer(start: bytes, count: length))
    }

    /// Validates the value, moves past it and returns where its text lies in ``source``.
    func skipText() -> Range<Int> {
        guard !isOver else { return base ..< base }
        var start: UInt64 = 0
        let length = CSimdJSON_CursorSpan(pointer, &start)
        return base + Int(start) ..< base + Int(start) + Int(length)
    }

    /// The offset in ``source`` just past the object or array whose text starts at `start` and was just left.
    func endOfLeft(_ start: Int) -> Int {
        guard !isOver else { return start }
        return base + Int(CSimdJSON_CursorEndOfLeft(pointer, Int64(start - base)))
    }

    /// Enters the object or array the cursor stands on (an object's repeated member names are violations).
    func enter() {
        guard !isOver else { return }
        CSimdJSON_CursorEnter(pointer, 1)
    }

    /// Stands on the next member of the object entered last, or returns `nil` at its end (and leaves it).
    func nextMember() -> String? {
        nextMemberBytes().map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// Stands on the next member of the object entered last and returns its name's bytes, or returns `nil` at its
    /// end (and leaves it).
    func nextMemberBytes() -> WalkedBytes? {
        guard !isOver else { return nil }
        var name: UnsafePointer<UInt8>?
        var length = 0
        var offset: Int64 = 0
        guard CSimdJSON_CursorNextMember(pointer, &name, &length, &offset, standing) != 0 else { return nil }
        return WalkedBytes(bytes: UnsafeBufferPointer(start: name, count: length))
    }

    /// Stands on the next element of the array entered last; false at its end (and leaves it).
    func nextElement() -> Bool { !isOver && CSimdJSON_CursorNextElement(pointer, standing) != 0 }

    /// Ends the walk of the document: the root is read (or validated now), and nothing follows it.
    fileprivate func end() {
        defer { isOver = true }
        guard rootIsContainer else { return }  // (a scalar document is validated to its end at once)
        skip()
        CSimdJSON_CursorRequireEnd(pointer)
    }
}
