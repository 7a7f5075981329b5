import SnapshotJSON

/// Shared helpers for building request bodies and reading parse outcomes.
enum Fixtures {
    /// The body's bytes.
    static func body(_ json: String) -> [UInt8] { Array(json.utf8) }

    /// The error `parseDiffRequest` throws for `bytes`, or `nil` when it succeeds.
    static func error(of bytes: [UInt8]) -> RequestError? {
        do {
            _ = try parseDiffRequest(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// The error `JSONDocument.read` throws for `json` (its root's members skipped), or `nil` when it succeeds.
    static func layoutError(_ json: String) -> RequestError? {
        do throws(RequestError) {
            _ = try JSONDocument.read(body(json)) { _, reader in reader.skip() }
            return nil
        } catch {
            return error
        }
    }

    /// The error `parseDiffRequest` throws for `json`, or `nil` when it succeeds.
    static func error(of json: String) -> RequestError? { error(of: body(json)) }

    /// The violations of an invalid request (empty when it parses or fails otherwise).
    static func violations(of json: String) -> [Violation] {
        if case .invalid(let violations, _) = error(of: json) { return violations }
        return []
    }

    /// A valid request whose old and new snapshots are bare item lists.
    static func request(oldItems: String, newItems: String, options: String? = nil) throws(RequestError) -> DiffRequest {
        let optionsMember = options.map { #","options":\#($0)"# } ?? ""
        return try parseDiffRequest(body(#"{"old":{"items":[\#(oldItems)]},"new":{"items":[\#(newItems)]}\#(optionsMember)}"#))
    }

    /// The contents of two items `{"id":1, <lhs>}` and `{"id":1, <rhs>}`, parsed as old and new.
    static func contents(_ lhs: String, _ rhs: String) throws(RequestError) -> (ContentKey, ContentKey) {
        func item(_ members: String) -> String { members.isEmpty ? #"{"id":1}"# : #"{"id":1,\#(members)}"# }
        let request = try request(oldItems: item(lhs), newItems: item(rhs))
        return (request.old.sections[0].items[0].content, request.new.sections[0].items[0].content)
    }
}

extension Fixtures {
    /// The byte offset of the first occurrence of `marker` in `json`.
    static func offset(of marker: String, in json: String) -> Int {
        let haystack = Array(json.utf8), needle = Array(marker.utf8)
        for start in 0 ... haystack.count - needle.count where Array(haystack[start ..< start + needle.count]) == needle {
            return start
        }
        fatalError("marker \(marker) not in \(json)")
    }
}
