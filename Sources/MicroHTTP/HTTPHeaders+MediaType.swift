extension HTTPHeaders {
    /// Whether a `Content-Type` value names `mediaType`, or any type with the structured syntax suffix `suffix`
    /// (RFC 6839), ASCII case-insensitive, with its parameters and surrounding spaces ignored:
    /// `application/problem+json` has the suffix `+json`; `application/+jsonp` and `+json` do not.
    ///
    /// Reads the value's bytes in place: it runs for every request with a body.
    ///
    /// - Parameters:
    ///   - contentType: The field's value, or `nil` when there is none (never a match).
    ///   - mediaType: A lowercase media type, e.g. `"application/json"`.
    ///   - suffix: A lowercase structured syntax suffix, e.g. `"+json"`.
    /// - Complexity: O(*m*) in the length of the value.
    public static func contentType(_ contentType: String?, is mediaType: String, orSuffix suffix: String) -> Bool {
        guard let contentType else { return false }
        // The usual value is the media type itself, as written: told without parsing (both ASCII here, so equal
        // text is equal bytes).
        if contentType == mediaType { return true }
        let bytes = contentType.utf8.span
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var end = bytes.count
        for index in bytes.indices where bytes[index] == UInt8(ascii: ";") {
            end = index
            break
        }
        var start = 0
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        /// Whether the trimmed value ends with `lowercase`, ignoring the value's case.
        func endsWith(_ lowercase: String) -> Bool {
            let expected = lowercase.utf8.span
            guard end - start >= expected.count else { return false }
            var matched = true
            for index in expected.indices {
                matched = matched && asciiLowercase(bytes[end - expected.count + index]) == expected[index]
            }
            return matched
        }
        if end - start == mediaType.utf8.count && endsWith(mediaType) { return true }
        guard endsWith(suffix) else { return false }
        // A type before the suffix: a slash among the bytes before it.
        for index in start ..< end - suffix.utf8.count where bytes[index] == UInt8(ascii: "/") { return true }
        return false
    }
}
