/// An ordered list of HTTP header fields, as received or to be sent.
///
/// Names are compared without regard to ASCII case (HTTP field names are case-insensitive).
/// Headers received from a client have lowercased names; headers you build keep the case you give.
/// Repeated names are kept as separate fields, in order.
///
/// ```swift
/// let headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers["content-type"]   // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The field name (lowercase for received requests).
        public let name: String
        /// The field value, unmodified.
        public var value: String

        /// Creates a field.
        /// - Parameters:
        ///   - name: The field name, in the case it should be sent.
        ///   - value: The field value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// Whether this field is called `other`, ignoring ASCII case.
        /// - Complexity: O(*m*) in the length of the name.
        public func hasName(_ other: String) -> Bool {
            asciiCaseInsensitiveEquals(name, other)
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// Creates an empty header list.
    public init() {
        fields = []
    }

    /// Creates a header list from fields.
    /// - Parameter fields: The fields, in order.
    public init(_ fields: [Field]) {
        self.fields = fields
    }

    /// Creates a header list from `name: value` pairs.
    /// - Parameter elements: Pairs of field name (any case) and value.
    public init(dictionaryLiteral elements: (String, String)...) {
        // With room for the fields a server adds to an answer (a request id, `Vary`, CORS), each of which would
        // otherwise reallocate the list.
        fields = []
        fields.reserveCapacity(elements.count + 3)
        for (name, value) in elements { fields.append(Field(name: name, value: value)) }
    }

    /// The value of the first field called `name`, or `nil`.
    ///
    /// - Parameter name: A field name, in any case.
    /// - Complexity: O(*n*) in the number of fields.
    public subscript(name: String) -> String? {
        fields.first { $0.hasName(name) }?.value
    }

    /// The value of a singleton field (`Origin`, `Content-Type` …): `nil` when the field is absent or sent more
    /// than once, since a repeated singleton field has no one meaning (RFC 9110 §5.3).
    ///
    /// - Parameter name: The field name, in any case.
    public func onlyValue(of name: String) -> String? {
        guard let first = fields.firstIndex(where: { $0.hasName(name) }) else { return nil }
        guard !fields[(first + 1)...].contains(where: { $0.hasName(name) }) else { return nil }
        return fields[first].value
    }

    /// The elements of every field called `name`, read as one comma-separated list (RFC 9110 §5.6.1): spaces
    /// and tabs around each trimmed, empty ones dropped, in order.
    /// - Parameter name: A field name, in any case.
    /// - Complexity: O(*n*) in the size of the fields; read as bytes (a `String` split costs a grapheme walk).
    public func listElements(named name: String) -> [String] {
        var elements: [String] = []
        for field in fields where field.hasName(name) {
            for piece in field.value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) {
                let element = trimmingOWS(piece)
                if !element.isEmpty { elements.append(String(Substring(element))) }
            }
        }
        return elements
    }

    /// Appends a field, keeping any existing field of the same name.
    /// - Parameters:
    ///   - name: The field name, in any case.
    ///   - value: The field value.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field called `name` with a single field.
    /// - Parameters:
    ///   - name: The field name, in any case.
    ///   - value: The new value.
    public mutating func replaceOrAdd(name: String, value: String) {
        fields.removeAll { $0.hasName(name) }
        fields.append(Field(name: name, value: value))
    }

    /// Sets the value of the field at `index`.
    mutating func setValue(_ value: String, at index: Int) {
        fields[index].value = value
    }

    /// Appends a field as is (used when copying out of C).
    mutating func append(_ field: Field) {
        fields.append(field)
    }

    /// Reserves room for `count` fields.
    mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}

/// ASCII case-insensitive equality of two strings (HTTP field names are ASCII tokens).
///
/// Reads both strings' bytes in place: every request looks up several headers among several fields.
func asciiCaseInsensitiveEquals(_ lhs: String, _ rhs: String) -> Bool {
    // Most names differ in length: told by the counts (O(1) for native strings), before the bytes are borrowed.
    guard lhs.utf8.count == rhs.utf8.count else { return false }
    let left = lhs.utf8.span, right = rhs.utf8.span
    for index in left.indices {
        let l = left[index], r = right[index]
        if l != r && asciiLowercase(l) != asciiLowercase(r) { return false }
    }
    return true
}

/// `byte` lowercased if it is an ASCII capital letter.
@inline(__always)
func asciiLowercase(_ byte: UInt8) -> UInt8 {
    (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
}

/// `bytes` without the spaces and tabs (OWS, RFC 9110 §5.6.3) at either end.
func trimmingOWS(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
    var bytes = bytes
    while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
    while let last = bytes.last, last == 0x20 || last == 0x09 { bytes = bytes.dropLast() }
    return bytes
}
