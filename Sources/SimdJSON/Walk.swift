internal import CSimdJSON

/// How a walk ended.
package enum WalkOutcome: Sendable, Equatable {
    /// The text is JSON (it may still carry violations).
    case parsed
    /// No JSON value: empty or whitespace only.
    case empty
    /// Not JSON: what simdjson found wrong, and where (an offset in the text walked; nil when simdjson has no
    /// place for it).
    case syntax(SyntaxError, offset: Int?)
    /// Not UTF-8 (the caller locates the first bad byte).
    case invalidUTF8
    /// Nested deeper than ``SimdJSONParser/maximumDepth``: the bracket that opens the level beyond.
    case tooDeep(offset: Int)
    /// Longer than simdjson accepts (4 GiB).
    case tooLarge
    /// Memory ran out.
    case outOfMemory

    /// What simdjson found wrong with a text that is not JSON.
    package enum SyntaxError: Sendable, Equatable {
        /// Bad object punctuation (member name, ':', ',' or '}').
        case object
        /// Bad array punctuation (',' or ']').
        case array
        /// A value cannot start here.
        case value
        /// A misspelt true, false or null.
        case literal
        /// A bad number (the offset is its first offending byte).
        case number
        /// A bad escape or a lone surrogate (the offset is the opening quote).
        case string
        /// A string that never closes (no offset).
        case unclosedString
        /// An unescaped U+0000…U+001F in a string (no offset).
        case controlCharacter
        /// Content after the document.
        case trailing
        /// The text ends inside an array or object.
        case incomplete
    }

    init(_ result: CSimdJSON_Result) {
        let offset = Int(result.errorOffset)
        switch Int(result.status) {
        case CSimdJSON_StatusOK: self = .parsed
        case CSimdJSON_StatusEmpty: self = .empty
        case CSimdJSON_StatusInvalidUTF8: self = .invalidUTF8
        case CSimdJSON_StatusTooDeep: self = .tooDeep(offset: offset)
        case CSimdJSON_StatusTooLarge: self = .tooLarge
        case CSimdJSON_StatusSyntax:
            let error: SyntaxError =
                switch Int(result.syntax) {
                case CSimdJSON_SyntaxObject: .object
                case CSimdJSON_SyntaxArray: .array
                case CSimdJSON_SyntaxLiteral: .literal
                case CSimdJSON_SyntaxNumber: .number
                case CSimdJSON_SyntaxString: .string
                case CSimdJSON_SyntaxUnclosedString: .unclosedString
                case CSimdJSON_SyntaxControlCharacter: .controlCharacter
                case CSimdJSON_SyntaxTrailing: .trailing
                case CSimdJSON_SyntaxIncomplete: .incomplete
                default: .value
                }
            self = .syntax(error, offset: offset >= 0 ? offset : nil)
        default: self = .outOfMemory
        }
    }
}

/// A valid-JSON value that breaks a rule of the walk (repeated member names, exponents out of range, the
/// objects and arrays its caller expected, required members) or one its caller recorded.
package struct WalkViolation: Sendable {
    /// Which rule.
    package enum Rule: Sendable, Equatable {
        case expectedObject
        case expectedArray
        /// A required member is missing (the path names it).
        case missingMember
        case duplicateMember
        case exponentOutOfRange
        /// The caller's own rule of this code (``JSONCursor/report(_:at:)``, or the violation code of a scalar
        /// read or a probe).
        case caller(UInt8)
    }

    /// One step of the path from the document's value.
    package enum PathStep: Sendable, Equatable {
        case member(String)
        case element(Int)
    }

    package let rule: Rule
    /// What was found instead (for ``Rule/expectedObject``, ``Rule/expectedArray`` and scalar reads).
    package let found: JSONValueKind
    package let path: [PathStep]
    /// The offending value's (or member name's) first byte in the source; nil when there is no single place.
    package let byteOffset: Int?
    /// Its place in the walk (``JSONCursor/place``): the order violations were met in.
    package let place: Int
}

/// An object a walk probed: where its text lies, its member's scalar and that scalar's hash, and the earlier
/// probe whose very bytes it repeats, if any.
///
/// Public, not package, as ``ProbeTable`` is: its readers are inlined into the modules that read every probe.
public struct JSONProbe {
    @inlinable
    init(text: Range<Int>, member: JSONScalar, memberHash: UInt32, repeatOf: Int?) {
        self.text = text
        self.member = member
        self.memberHash = memberHash
        self.repeatOf = repeatOf
    }

    /// Where the object's text lies in the source.
    public let text: Range<Int>
    /// The scalar of the probed member.
    public let member: JSONScalar
    /// The scalar's hash with the probe's seed: of an integer's value, of a string's unescaped bytes (equal
    /// scalars have equal hashes; 0 for none). MurmurHash3's mixing: inputs crafted to collide whatever the seed
    /// exist, so a table keyed by it must bound its probes. Once the table is numbered
    /// (``ProbeTable/numberMembers(text:unescaped:)``), the scalar's number instead (``memberNumber``).
    public let memberHash: UInt32

    /// The number of the member's scalar, once the table is numbered (``ProbeTable/numberMembers(text:unescaped:)``).
    @inlinable
    public var memberNumber: Int { Int(memberHash) }
    /// The index of the earlier probe whose very bytes this one repeats (``JSONCursor/repeatFrom(_:)``), if any.
    public let repeatOf: Int?
}

/// The objects a walk probed (``JSONCursor/probeEach(member:accepting:violation:seed:)``), in the order met: valid
/// until the parser's next walk, so read within the walk's `finished` step.
///
/// Its records are read at fixed offsets (checked against the C layout when the table is made), so that reading
/// one is inlined into the modules that read every probe of a request. For that the type is public, not package:
/// Swift 6.3 does not make the `@inlinable` members of a package type available to other modules (they stay
/// calls, about 37 instructions a probe), while those of a public type are. (Public, it is visible to importers of
/// the package's library products that import SimdJSON; it is valid only within a walk, and nothing public
/// makes one.)
public struct ProbeTable {
    @usableFromInline let records: UnsafeRawBufferPointer

    // The byte offsets of a record's fields (`CSimdJSON_Probe`), and its size. (Computed: a stored static
    // property is initialised lazily, through a call that keeps the readers from being inlined.)
    @inlinable static var memberOffset: Int { 0 }
    @inlinable static var textOffsetOffset: Int { 8 }
    @inlinable static var textLengthOffset: Int { 12 }
    @inlinable static var repeatOfOffset: Int { 16 }
    @inlinable static var memberHashOffset: Int { 20 }
    @inlinable static var memberKindOffset: Int { 27 }
    @inlinable static var memberInInputOffset: Int { 28 }
    @inlinable static var stride: Int { 32 }

    init(_ result: CSimdJSON_Result) {
        precondition(
            MemoryLayout<CSimdJSON_Probe>.stride == Self.stride
                && MemoryLayout<CSimdJSON_Probe>.offset(of: \.member) == Self.memberOffset
                && MemoryLayout<CSimdJSON_Probe>.offset(of: \.textOffset) == Self.textOffsetOffset
                && MemoryLayout<CSimdJSON_Probe>.offset(of: \.textLength) == Self.textLengthOffset
                && MemoryLayout<CSimdJSON_Probe>.offset(of: \.repeatOf) == Self.repeatOfOffset
                && MemoryLayout<CSimdJSON_Probe>.offset(of: \.memberHash) == Self.memberHashOffset
                && MemoryLayout<CSimdJSON_Probe>.offset(of: \.memberKind) == Self.memberKindOffset
                && MemoryLayout<CSimdJSON_Probe>.offset(of: \.memberInInput) == Self.memberInInputOffset,
            "CSimdJSON_Probe's layout is not the one ProbeTable reads")
        records = UnsafeRawBufferPointer(start: result.probes, count: result.probeCount * Self.stride)
    }

    /// How many objects were probed.
    @inlinable
    public var count: Int { records.count / Self.stride }

    /// The index of the earlier probe whose very bytes probe `index` repeats, if any.
    @inline(__always)
    func repeatOf(at index: Int) -> Int? {
        let repeatOf = records.loadUnaligned(fromByteOffset: index * Self.stride + Self.repeatOfOffset, as: UInt32.self)
        return repeatOf == 0 ? nil : Int(repeatOf) - 1
    }

    /// The hash of probe `index`'s member scalar (before ``numberMembers(text:unescaped:)``).
    @inline(__always)
    func memberHash(at index: Int) -> UInt32 {
        records.loadUnaligned(fromByteOffset: index * Self.stride + Self.memberHashOffset, as: UInt32.self)
    }

    /// The number of probe `index`'s member scalar (after ``numberMembers(text:unescaped:)``, which wrote it).
    @inline(__always)
    func memberNumber(at index: Int) -> UInt32 { memberHash(at: index) }

    /// Writes `number` over probe `index`'s hash. (The records are the walk's result, which only its reader uses
    /// until the parser's next walk.)
    @inline(__always)
    func setMemberNumber(_ number: UInt32, at index: Int) {
        UnsafeMutableRawPointer(mutating: records.baseAddress!)
            .storeBytes(of: number, toByteOffset: index * Self.stride + Self.memberHashOffset, as: UInt32.self)
    }

    /// Probe `index`'s member scalar.
    @inline(__always)
    func member(at index: Int) -> JSONScalar {
        let base = index * Self.stride
        return JSONScalar(
            packed: records.loadUnaligned(fromByteOffset: base + Self.memberOffset, as: UInt64.self),
            code: records[base + Self.memberKindOffset], inInput: records[base + Self.memberInInputOffset] != 0)
    }

    /// Probe `index`.
    @inlinable @inline(__always)
    public subscript(index: Int) -> JSONProbe {
        assert(index >= 0 && index < count, "probe index out of range")  // (the walk's own indices)
        let base = index * Self.stride
        let textOffset = Int(records.loadUnaligned(fromByteOffset: base + Self.textOffsetOffset, as: UInt32.self))
        let textLength = Int(records.loadUnaligned(fromByteOffset: base + Self.textLengthOffset, as: UInt32.self))
        let repeatOf = records.loadUnaligned(fromByteOffset: base + Self.repeatOfOffset, as: UInt32.self)
        return JSONProbe(
            text: Range(uncheckedBounds: (textOffset, textOffset + textLength)),
            member: JSONScalar(
                packed: records.loadUnaligned(fromByteOffset: base + Self.memberOffset, as: UInt64.self),
                code: records[base + Self.memberKindOffset], inInput: records[base + Self.memberInInputOffset] != 0),
            memberHash: records.loadUnaligned(fromByteOffset: base + Self.memberHashOffset, as: UInt32.self),
            repeatOf: repeatOf == 0 ? nil : Int(repeatOf) - 1)
    }
}

/// What a walk ended with: its outcome, its violations (the first its cap lets it list, and how many more), the
/// objects it probed and the unescaped bytes of the strings it read as scalars. Valid until the parser's next
/// walk.
package struct WalkResult {
    package let outcome: WalkOutcome
    package let violations: [WalkViolation]
    package let omittedViolations: Int
    package let probes: ProbeTable
    /// The unescaped bytes of the strings read as scalars that were written with escapes
    /// (``JSONScalar/Kind/stringUnescaped``).
    package let unescaped: [UInt8]

    init(_ result: CSimdJSON_Result, base: Int) {
        outcome = WalkOutcome(result)
        omittedViolations = result.violationsOmitted
        probes = ProbeTable(result)
        unescaped = Array(UnsafeBufferPointer(start: result.unescaped, count: result.unescapedCount))
        let text = UnsafeBufferPointer(start: result.text, count: result.textLength)
        violations = UnsafeBufferPointer(start: result.violations, count: result.violationCount).map { record in
            let rule: WalkViolation.Rule =
                switch Int(record.kind) {
                case CSimdJSON_ViolationExpectedObject: .expectedObject
                case CSimdJSON_ViolationExpectedArray: .expectedArray
                case CSimdJSON_ViolationMissingMember: .missingMember
                case CSimdJSON_ViolationDuplicateMember: .duplicateMember
                case CSimdJSON_ViolationExponentRange: .exponentOutOfRange
                default: .caller(record.kind &- UInt8(CSimdJSON_ViolationCallerFirst))
                }
            return WalkViolation(
                rule: rule, found: JSONValueKind(code: record.found),
                path: Self.path(text, Int(record.pathOffset), Int(record.pathLength)),
                byteOffset: record.byteOffset < 0 ? nil : base + Int(record.byteOffset), place: Int(record.valueIndex))
        }
    }

    /// The steps of a path the walk wrote into `text` at `offset`: per step, 'k', a 4-byte length and a member
    /// name's bytes, or 'i' and an 8-byte array index (little-endian).
    private static func path(_ text: UnsafeBufferPointer<UInt8>, _ offset: Int, _ count: Int) -> [WalkViolation.PathStep] {
        var steps: [WalkViolation.PathStep] = []
        var at = offset
        let end = offset + count
        func fixed(_ width: Int) -> Int {
            defer { at += width }
            return (0 ..< width).reduce(0) { $0 | Int(text[at + $1]) << (8 * $1) }
        }
        while at < end {
            at += 1
            if text[at - 1] == UInt8(ascii: "k") {
                let length = fixed(4)
                steps.append(.member(String(decoding: UnsafeBufferPointer(rebasing: text[at ..< at + length]), as: UTF8.self)))
                at += length
            } else {
                steps.append(.element(fixed(8)))
            }
        }
        return steps
    }
}

extension SimdJSONParser {
    /// Walks `source[range]` (the array holds its padding as spare capacity) with a cursor that `steer` moves
    /// (not called when the walk ended before it could begin: an empty text, or a fatal error at once), then
    /// calls `finished` with what the walk ended with (valid only during the call). (Not generic: a generic
    /// function of this module is not specialised for its callers in others.)
    ///
    /// - Parameters:
    ///   - probes: The most probe records the text can hold without a violation, reserved at once for a large
    ///     text.
    ///   - maximumViolations: Violations listed at most; later ones are only counted.
    ///   - validated: The text was validated by an earlier walk: what the cursor moves past unread is not
    ///     checked again.
    package func walk(
        _ source: [UInt8], _ range: Range<Int>, probes: Int = 0, maximumViolations: Int, validated: Bool = false,
        _ steer: (JSONCursor) -> Void, finished: (WalkResult) -> Void
    ) {
        precondition(range.lowerBound >= 0 && range.upperBound <= source.count, "range outside the source")
        precondition(source.capacity - range.upperBound >= Self.padding, "the source needs its padding")
        source.withUnsafeBufferPointer { buffer in
            if CSimdJSON_CursorBegin(
                pointer, buffer.baseAddress.map { $0 + range.lowerBound }, range.count, source.capacity - range.lowerBound,
                probes, maximumViolations, validated ? 1 : 0) != 0
            {
                steer(JSONCursor(pointer: pointer, source: source, base: range.lowerBound))
            }
            finished(WalkResult(CSimdJSON_CursorFinish(pointer).pointee, base: range.lowerBound))
        }
    }

    /// Reads `source[range]` with `read`, given a cursor standing on its value (``JSONCursor/root()``); the
    /// document is then validated to its end. See ``walk(_:_:probes:maximumViolations:validated:_:finished:)``.
    package func read(
        _ source: [UInt8], _ range: Range<Int>, maximumViolations: Int, validated: Bool = false,
        _ read: (JSONCursor) -> Void, finished: (WalkResult) -> Void
    ) {
        walk(source, range, maximumViolations: maximumViolations, validated: validated, { cursor in
            cursor.root()
            read(cursor)
            cursor.end()
        }, finished: finished)
    }
}
