internal import CSimdJSON

/// The kind of a JSON value a walk met, or what it found instead of what its caller expected (numbers are told
/// apart where a violation names them).
package enum JSONValueKind: Sendable {
    case object, array, string, number, boolean, null
    /// A number written with a fraction or an exponent, where an integer was expected.
    case fractionalNumber
    /// An integer outside the 64-bit range, where one within it was expected.
    case integerOutOfRange
    /// No value: the walk ended (its error outweighs), or a missing member.
    case nothing

    init(code: UInt8) {
        switch Int(code) {
        case CSimdJSON_FoundObject: self = .object
        case CSimdJSON_FoundArray: self = .array
        case CSimdJSON_FoundString: self = .string
        case CSimdJSON_FoundNumber: self = .number
        case CSimdJSON_FoundFractionalNumber: self = .fractionalNumber
        case CSimdJSON_FoundIntegerOutOfRange: self = .integerOutOfRange
        case CSimdJSON_FoundBoolean: self = .boolean
        case CSimdJSON_FoundNull: self = .null
        default: self = .nothing
        }
    }
}

/// The kinds of scalar a read accepts (a string; an integer written without fraction or exponent within Int64).
package struct AcceptedScalars: OptionSet, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let string = AcceptedScalars(rawValue: UInt8(CSimdJSON_AcceptString))
    package static let integer = AcceptedScalars(rawValue: UInt8(CSimdJSON_AcceptInteger))
}

/// A scalar a walk read (``JSONCursor/readScalar(accepting:violation:)``, a probed member): an integer, or where
/// a string's UTF-8 bytes lie, packed in 64 bits.
///
/// Public, not package, as ``ProbeTable`` is: its readers are inlined into the modules that read every probe.
public struct JSONScalar: Sendable {
    /// How the scalar is held.
    public enum Kind: Sendable {
        /// None: missing, or of a kind not accepted.
        case none
        /// An integer: ``packed`` is its value.
        case integer
        /// A string written without escapes: its bytes are the text's, at ``place``.
        case stringInText
        /// A string written with escapes: its unescaped bytes are the walk's (``WalkResult/unescaped``), at
        /// ``place``.
        case stringUnescaped
    }

    public let kind: Kind
    /// The integer's value, or the string's place: the offset in the low 32 bits, the length in the high 32.
    public let packed: Int64

    /// The scalar of kind code `code` (`CSimdJSON_Scalar*`: 2 an integer, 1 a string, else none).
    @inlinable
    init(packed: UInt64, code: UInt8, inInput: Bool) {
        self.packed = Int64(bitPattern: packed)
        switch code {
        case 2: kind = .integer
        case 1: kind = inInput ? .stringInText : .stringUnescaped
        default: kind = .none
        }
    }

    init(packed: UInt64, kind: UInt8, inInput: UInt8) {
        assert(CSimdJSON_ScalarInteger == 2 && CSimdJSON_ScalarString == 1, "the scalar kinds' codes")
        self.init(packed: packed, code: kind, inInput: inInput != 0)
    }

    /// Where a string's bytes lie (in the text or the unescaped bytes, per ``kind``).
    @inlinable
    package var place: Range<Int> {
        let offset = Int(UInt32(truncatingIfNeeded: packed))
        return offset ..< offset + Int(UInt64(bitPattern: packed) >> 32)
    }
}

/// Unescaped UTF-8 bytes a walk read (a member name, a string), valid while the walk lasts: compared as they lie,
/// without making a `String`.
///
/// Public, not package, as ``ProbeTable`` is: its comparisons are inlined into the schemas' readers.
public struct WalkedBytes: Equatable {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>

    @usableFromInline
    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Whether both hold the same bytes.
    @inlinable
    public static func == (a: WalkedBytes, b: WalkedBytes) -> Bool {
        guard a.bytes.count == b.bytes.count else { return false }
        for index in a.bytes.indices where a.bytes[index] != b.bytes[index] { return false }
        return true
    }

    /// Whether the bytes are `literal`'s.
    @inlinable
    public static func == (bytes: WalkedBytes, literal: StaticString) -> Bool {
        literal.withUTF8Buffer { bytes == WalkedBytes(bytes: $0) }
    }

    /// A copy of the bytes.
    package var array: [UInt8] { Array(bytes) }

    /// The bytes as a string.
    package var string: String { String(decoding: bytes, as: UTF8.self) }
}

/// A member name a cursor read: its unescaped UTF-8 bytes (valid while the walk lasts) and where its opening
/// quote is.
///
/// Public, not package, as ``ProbeTable`` is: its comparisons are inlined into the schemas' readers.
public struct MemberName {
    public let bytes: WalkedBytes
    /// The offset of the name's opening quote in the text walked.
    package let offset: Int

    /// Whether the name is `literal`.
    @inlinable
    public static func == (name: MemberName, literal: StaticString) -> Bool { name.bytes == literal }
}

/// A walk over a JSON text with simdjson's On-Demand iterator that its caller steers, one value at a time: into
/// objects and arrays, member by member and element by element, reading strings and scalars, probing arrays of
/// objects (``probeEach(member:accepting:violation:seed:)``) and recording the violations the caller finds at the
/// path where it stands. The walk validates every value: one moved past unread is validated then (but in a walk
/// of validated text, which checks nothing it has not to read).
///
/// Every value the cursor stands on must be read, skipped or entered before it moves on. After a fatal error
/// (syntax, nesting, memory) every step does nothing and answers as at an end; ``SimdJSONParser/walk`` reports
/// what happened.
///
/// A value that points at its walk's state in the parser (``CSimdJSON_CursorState``), so that every copy, in
/// every reader of one walk, moves the same cursor (and a walk allocates no object for it); used by one thread,
/// within the walk that made it.
package struct JSONCursor {
    private let pointer: OpaquePointer
    /// The bytes the text is read from (with its padding as spare capacity), and where the text starts in them.
    package let source: [UInt8]
    package let base: Int
    /// The parser's record of the walk for this cursor: the description of the value the cursor stands on,
    /// written by the cursor's moves, and the cursor's flags.
    private let state: UnsafeMutablePointer<CSimdJSON_CursorState>
    /// The description (the state's first member).
    private let standing: UnsafeMutablePointer<CSimdJSON_Standing>

    init(pointer: OpaquePointer, source: [UInt8], base: Int) {
        self.pointer = pointer
        self.source = source
        self.base = base
        state = CSimdJSON_CursorStateOf(pointer)
        state.initialize(to: CSimdJSON_CursorState())
        standing = UnsafeMutableRawPointer(state).assumingMemoryBound(to: CSimdJSON_Standing.self)
    }

    /// Whether the document's value is an object or an array (to be followed by nothing but whitespace); a
    /// scalar one is validated at once, and only its kind is known (its readers read nothing).
    private var rootIsContainer: Bool {
        get { state.pointee.rootIsContainer != 0 }
        nonmutating set { state.pointee.rootIsContainer = newValue ? 1 : 0 }
    }
    /// The walk is over: every step does nothing.
    private var isOver: Bool {
        get { state.pointee.over != 0 }
        nonmutating set { state.pointee.over = newValue ? 1 : 0 }
    }

    // MARK: Where the cursor stands

    /// Stands on the document's value and returns its kind (a scalar document is validated to its end at once:
    /// only its kind is known, and reads read nothing).
    @discardableResult
    package func root() -> JSONValueKind {
        let code = CSimdJSON_CursorRoot(pointer, standing)
        rootIsContainer = Int(code) == CSimdJSON_FoundObject || Int(code) == CSimdJSON_FoundArray
        return JSONValueKind(code: code)
    }

    /// The kind of the value the cursor stands on (``JSONValueKind/nothing`` when the walk ended).
    package var kind: JSONValueKind { JSONValueKind(code: standing.pointee.kind) }

    /// The first byte of the value's text in ``source``.
    package var offset: Int { base + Int(standing.pointee.offset) }
    /// The value's place in the walk: how many values and member names came before it.
    package var place: Int { Int(standing.pointee.place) }

    /// Whether the cursor stands on a value it can read: not a scalar document (validated at once), and the walk
    /// is not over.
    package var isReadable: Bool { rootIsContainer && !isOver }

    /// Where the text of the scalar the cursor stands on lies in ``source`` (a string's with its quotes).
    package var scalarText: Range<Int> { offset ..< offset + Int(standing.pointee.length) }

    /// The number the cursor stands on, if it is a number (its text is parsed again).
    package var number: JSONNumber? {
        guard Int(standing.pointee.kind) == CSimdJSON_FoundNumber, isReadable else { return nil }
        return SimdJSONParser.number(source, scalarText)
    }

    // MARK: Moving

    /// Moves past the value (validating it in a walk of unvalidated text; nothing when it was read already).
    package func skip() {
        guard !isOver else { return }
        CSimdJSON_CursorSkip(pointer)
    }

    /// Validates the value, moves past it and returns where its text lies in ``source``.
    @discardableResult
    package func skipText() -> Range<Int> {
        guard !isOver else { return base ..< base }
        var start: UInt64 = 0
        let length = CSimdJSON_CursorSpan(pointer, &start)
        return base + Int(start) ..< base + Int(start) + Int(length)
    }

    /// Whether the value is an object (or, when `object` is false, an array); if not, records that it should be
    /// and skips it.
    package func expect(object: Bool) -> Bool { !isOver && CSimdJSON_CursorExpect(pointer, object ? 1 : 0) != 0 }

    /// Enters the object or array the cursor stands on and returns the offset of its bracket in ``source``. With
    /// `checkingNames`, an object's repeated member names are violations (recorded when it ends); without, the
    /// caller checks the names it cares about.
    @discardableResult
    package func enter(checkingNames: Bool = true) -> Int {
        guard !isOver else { return base }
        return base + Int(CSimdJSON_CursorEnter(pointer, checkingNames ? 1 : 0))
    }

    /// Stands on the next member of the object entered last and returns its name, or returns `nil` at its end
    /// (and leaves it). Without `describing`, the value is not described (``kind``, ``offset`` and the readers
    /// need ``describe()`` first): a walk that only moves on saves that.
    package func nextMember(describing: Bool = true) -> MemberName? {
        guard !isOver else { return nil }
        var name: UnsafePointer<UInt8>?
        var length = 0
        var offset: Int64 = 0
        guard CSimdJSON_CursorNextMember(pointer, &name, &length, &offset, describing ? standing : nil) != 0 else {
            return nil
        }
        return MemberName(bytes: WalkedBytes(bytes: UnsafeBufferPointer(start: name, count: length)), offset: base + Int(offset))
    }

    /// Describes the value the cursor stands on (after a move that did not).
    package func describe() { CSimdJSON_CursorDescribe(pointer, standing) }

    /// Stands on the next element of the array entered last; false at its end (and leaves it).
    package func nextElement() -> Bool { !isOver && CSimdJSON_CursorNextElement(pointer, standing) != 0 }

    /// The offset in ``source`` just past the object or array whose text starts at `start` and was just left.
    package func endOfLeft(_ start: Int) -> Int {
        guard !isOver else { return start }
        return base + Int(CSimdJSON_CursorEndOfLeft(pointer, Int64(start - base)))
    }

    /// Checks that nothing but whitespace follows the document's value (read, or validated now).
    package func requireEnd() { CSimdJSON_CursorRequireEnd(pointer) }

    /// Ends the walk of a document read by readers: the root is read (or validated now), and nothing follows it.
    func end() {
        defer { isOver = true }
        guard rootIsContainer else { return }  // (a scalar document is validated to its end at once)
        skip()
        requireEnd()
    }

    // MARK: Reading

    /// Reads the string the cursor stands on: its unescaped bytes (empty for another kind, which is skipped).
    package func readStringBytes() -> WalkedBytes {
        var bytes: UnsafePointer<UInt8>?
        var length = 0
        if isReadable { CSimdJSON_CursorReadString(pointer, &bytes, &length) }
        return WalkedBytes(bytes: UnsafeBufferPointer(start: bytes, count: length))
    }

    /// Reads the value as a scalar of the `accepted` kinds; records a violation of the caller's kind `violation`
    /// (with what it found) for any other value, which reads as ``JSONScalar/Kind/none``.
    package func readScalar(accepting accepted: AcceptedScalars, violation: UInt8) -> JSONScalar {
        let read = CSimdJSON_CursorReadScalar(pointer, accepted.rawValue, Self.callerKind(violation))
        return JSONScalar(packed: read.packed, kind: read.kind, inInput: read.inInput)
    }

    // MARK: Probes

    /// Reads the value as an array of objects and probes each one: where its text lies, its member `member`,
    /// read as ``readScalar(accepting:violation:)`` reads it, and that scalar's hash with `seed`
    /// (``JSONProbe/memberHash``) are recorded (a second member of that name, a missing one and any element that
    /// is not an object are violations). Returns how many records it added.
    package func probeEach(member: StaticString, accepting accepted: AcceptedScalars, violation: UInt8, seed: UInt64) -> Int {
        member.withUTF8Buffer { name in
            Int(CSimdJSON_CursorProbeEach(
                pointer, UnsafeRawPointer(name.baseAddress)?.assumingMemoryBound(to: CChar.self), name.count,
                accepted.rawValue, Self.callerKind(violation), seed))
        }
    }

    /// How many probe records the walk has kept.
    package var probeCount: Int { CSimdJSON_CursorProbeCount(pointer) }

    /// From now on, an object probed whose bytes repeat those of a clean probe among `records` (probed at the
    /// same depth) is recorded as that one again (``JSONProbe/repeatOf``) without being read again.
    package func repeatFrom(_ records: Range<Int>) {
        CSimdJSON_CursorRepeatFrom(pointer, records.lowerBound, records.upperBound)
    }

    /// Whether the walk has found no violation yet (probe records are kept only until the first one).
    package var isClean: Bool { CSimdJSON_CursorIsClean(pointer) != 0 }

    // MARK: Violations

    /// The kind code of the caller's violation `kind` (the walk's own come first).
    private static func callerKind(_ kind: UInt8) -> UInt8 { UInt8(CSimdJSON_ViolationCallerFirst) + kind }

    /// Records the caller's violation `kind` at the path where the cursor stands, at byte `offset` of ``source``
    /// (nil: no single place).
    package func report(_ kind: UInt8, at offset: Int?) {
        CSimdJSON_CursorViolation(
            pointer, Self.callerKind(kind), UInt8(CSimdJSON_FoundNothing), offset.map { Int64($0 - base) } ?? -1, nil, 0)
    }

    /// Validates the document's value, of kind `found`, and records that it is not an object.
    package func reportNotObject(_ found: JSONValueKind) {
        if found == .array {  // (a scalar document is validated to its end at once)
            skip()
            requireEnd()
        }
        let code: Int =
            switch found {
            case .array: CSimdJSON_FoundArray
            case .string: CSimdJSON_FoundString
            case .number: CSimdJSON_FoundNumber
            case .boolean: CSimdJSON_FoundBoolean
            case .null: CSimdJSON_FoundNull
            default: CSimdJSON_FoundNothing
            }
        CSimdJSON_CursorViolation(pointer, UInt8(CSimdJSON_ViolationExpectedObject), UInt8(code), 0, nil, 0)
    }

    /// Records that the object just left has no member `name`.
    package func reportMissing(_ name: StaticString) {
        name.withUTF8Buffer { bytes in
            CSimdJSON_CursorViolation(
                pointer, UInt8(CSimdJSON_ViolationMissingMember), UInt8(CSimdJSON_FoundNothing), -1,
                UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self), bytes.count)
        }
    }

    /// Records that the member `name` was given before in its object, and skips its value.
    package func reportRepeated(_ name: MemberName) {
        CSimdJSON_CursorViolation(
            pointer, UInt8(CSimdJSON_ViolationDuplicateMember), UInt8(CSimdJSON_FoundNothing), Int64(name.offset - base),
            nil, 0)
        skip()
    }

    /// Records that a member of the object just left, named `name` at byte `offset`, repeats an earlier member's
    /// name (its path ends with it).
    package func reportRepeated(_ name: [UInt8], at offset: Int) {
        let terminated = name + [0]  // (never a null pointer, which would mean no name: "" is one)
        terminated.withUnsafeBufferPointer { bytes in
            CSimdJSON_CursorViolation(
                pointer, UInt8(CSimdJSON_ViolationDuplicateMember), UInt8(CSimdJSON_FoundNothing), Int64(offset - base),
                UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self), name.count)
        }
    }

    /// Records `count` more repeated member names, beyond those the walk lists (it lists its cap at most, and
    /// only counts the rest).
    package func countRepeated(_ count: Int) {
        for _ in 0 ..< count {
            CSimdJSON_CursorViolation(
                pointer, UInt8(CSimdJSON_ViolationDuplicateMember), UInt8(CSimdJSON_FoundNothing), -1, nil, 0)
        }
    }
}
