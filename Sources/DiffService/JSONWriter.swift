import MicroHTTP
import SnapshotJSON

/// A minimal streaming JSON writer for the service's responses: objects, arrays, integers, booleans and
/// strings, compact or pretty-printed (two-space indentation), appended to one byte buffer.
///
/// Responses hold little more than integers and fixed member names, and a 100,000-change response is
/// megabytes; Foundation's `JSONSerialization` writes ~2 MB/s here, so the service writes bytes directly.
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []
    private let pretty: Bool
    private var depth = 0
    /// Whether the current container already holds a value (a comma is due before the next).
    private var hasValue = false
    /// Whether a member name was just written (the value follows on the same line).
    private var afterKey = false
    /// How many enclosing containers are written on one line (pretty-printing only).
    private var inlineDepth = 0
    /// Where the bytes go as they are written, for an answer written while it is sent; `nil`: they stay in
    /// ``bytes``.
    private let sink: BodySink?
    /// ``bytes`` go to ``sink`` before the next value once they reach this many (never without a sink).
    private let handOverAt: Int

    /// Creates a writer.
    ///
    /// - Parameters:
    ///   - pretty: Whether to indent with two spaces and break lines.
    ///   - capacity: Bytes to reserve up front.
    public init(pretty: Bool = false, capacity: Int = 256) {
        self.pretty = pretty
        sink = nil
        handOverAt = .max
        bytes.reserveCapacity(capacity)
    }

    /// Creates a writer that hands its bytes to `sink` a piece at a time (``BodySink/pieceBytes``), between two
    /// values; ``finish()`` hands over the rest.
    ///
    /// - Parameters:
    ///   - pretty: Whether to indent with two spaces and break lines.
    ///   - sink: Takes the bytes.
    public init(pretty: Bool = false, streamingTo sink: BodySink) {
        self.pretty = pretty
        self.sink = sink
        handOverAt = BodySink.pieceBytes
        bytes.reserveCapacity(2 * BodySink.pieceBytes)
    }

    /// Opens an object.
    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    /// Closes the current object.
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    /// Opens an array.
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    /// Closes the current array.
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Writes a member name; the next call writes its value.
    ///
    /// - Parameter name: The member name.
    public mutating func key(_ name: String) {
        separate()
        writeString(name)
        endKey()
    }

    /// A member name encoded once (quoted, with its escapes and the colon), for names written in every response:
    /// each multi-byte append costs about a hundred instructions, so a name is one append.
    public struct Name: Sendable {
        /// `"name":`
        let compactKey: [UInt8]
        /// `"name": `
        let prettyKey: [UInt8]

        /// Encodes `name`.
        ///
        /// - Parameter name: The member name.
        public init(_ name: String) {
            var writer = JSONWriter(capacity: name.utf8.count + 5)
            writer.writeString(name)
            writer.bytes.append(UInt8(ascii: ":"))
            compactKey = writer.bytes
            prettyKey = compactKey + [UInt8(ascii: " ")]
        }
    }

    /// Writes a member name encoded beforehand; the next call writes its value.
    ///
    /// - Parameter name: The member name.
    public mutating func key(_ name: Name) {
        separate()
        bytes.append(contentsOf: pretty ? name.prettyKey : name.compactKey)
        afterKey = true
    }

    private mutating func endKey() {
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    /// Writes an integer.
    public mutating func value(_ number: Int) {
        separate()
        writeInteger(number)
        hasValue = true
    }

    /// Writes a finite floating-point number in its shortest exact form (`109.5`, `120.0`).
    ///
    /// - Precondition: `number` is finite (JSON has no infinities or NaN).
    public mutating func value(_ number: Double) {
        precondition(number.isFinite, "JSON numbers are finite")
        separate()
        if number.magnitude < 0x1p53, number.rounded(.towardZero) == number, number != 0 || number.sign == .plus {
            writeInteger(Int(number))  // what `description` writes for an integral value below 2^53, digit for digit
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0"))
        } else {
            bytes.append(contentsOf: number.description.utf8)
        }
        hasValue = true
    }

    /// Convenience: a member with a floating-point value.
    public mutating func member(_ name: String, _ number: Double) {
        key(name)
        value(number)
    }

    /// Writes a boolean.
    public mutating func value(_ flag: Bool) {
        separate()
        bytes.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        hasValue = true
    }

    /// Writes a string, escaped.
    public mutating func value(_ string: String) {
        separate()
        writeString(string)
        hasValue = true
    }

    /// Writes a value given as JSON text, as is: a value of the request, which the reader validated.
    ///
    /// - Parameter text: One complete JSON value.
    public mutating func json(_ text: ArraySlice<UInt8>) {
        separate()
        bytes.append(contentsOf: text)
        hasValue = true
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        hasValue = true
    }

    /// Writes `[a, b]` on one line, as used for paths and moves.
    public mutating func pair(_ first: Int, _ second: Int) {
        guard pretty else {  // compact: the same bytes without the pretty-printing state machine
            separate()
            bytes.append(UInt8(ascii: "["))
            writeInteger(first)
            bytes.append(UInt8(ascii: ","))
            writeInteger(second)
            bytes.append(UInt8(ascii: "]"))
            hasValue = true
            return
        }
        inline { writer in
            writer.beginArray()
            writer.value(first)
            writer.value(second)
            writer.endArray()
        }
    }

    /// Writes whatever `body` writes on one line when pretty-printing (`{"op": "x", "path": [0, 1]}`).
    ///
    /// - Parameter body: Writes exactly one value.
    public mutating func inline(_ body: (inout JSONWriter) -> Void) {
        separate()
        afterKey = true  // the value's own separator is already written
        inlineDepth += 1
        body(&self)
        inlineDepth -= 1
    }

    /// Convenience: a member with an integer value.
    public mutating func member(_ name: String, _ number: Int) {
        key(name)
        value(number)
    }

    /// Convenience: a member with a name encoded beforehand and an integer value.
    public mutating func member(_ name: Name, _ number: Int) {
        key(name)
        value(number)
    }

    /// Convenience: a member with a name encoded beforehand and a floating-point value.
    public mutating func member(_ name: Name, _ number: Double) {
        key(name)
        value(number)
    }

    /// Convenience: a member with a name encoded beforehand and a string value.
    public mutating func member(_ name: Name, _ string: String) {
        key(name)
        value(string)
    }

    /// Convenience: a member with a string value.
    public mutating func member(_ name: String, _ string: String) {
        key(name)
        value(string)
    }

    /// Ends a line after the document (a line of a JSON-lines stream).
    public mutating func appendNewline() {
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Ends the document with a newline when pretty-printing (as curl users expect), and hands the rest to the
    /// sink of a writer that has one.
    public mutating func finish() {
        if pretty { bytes.append(UInt8(ascii: "\n")) }
        sink?.send(&bytes)
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        depth += 1
        hasValue = false
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        if pretty && hasValue && inlineDepth == 0 { newline() }
        bytes.append(bracket)
        hasValue = true
    }

    private mutating func separate() {
        if bytes.count >= handOverAt { sink?.send(&bytes) }  // between two values: no token is cut
        if afterKey {
            afterKey = false
            return
        }
        if hasValue { bytes.append(UInt8(ascii: ",")) }
        guard pretty && depth > 0 else { return }
        if inlineDepth == 0 {
            newline()
        } else if hasValue {
            bytes.append(UInt8(ascii: " "))
        }
    }

    private mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    private mutating func writeInteger(_ number: Int) {
        if number >= 0 && number < 10 {  // most indices of small lists
            bytes.append(UInt8(ascii: "0") + UInt8(number))
            return
        }
        if number < 0 {
            bytes.append(UInt8(ascii: "-"))
            if number == .min {
                bytes.append(contentsOf: "9223372036854775808".utf8)
                return
            }
        }
        var magnitude = number.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        var low = start, high = bytes.count - 1
        while low < high {  // (not `bytes[start...].reverse()`, which copies the slice it reverses: a buffer a number)
            bytes.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    private mutating func writeString(_ string: String) {
        JSONString.appendQuoted(string, to: &bytes)
    }
}
