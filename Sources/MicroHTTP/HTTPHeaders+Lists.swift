extension HTTPHeaders {
    /// Adds `member` to the comma-separated list field `name` (`Vary`, `Access-Control-Expose-Headers` …): to the
    /// first such field when there is one and it does not list `member` yet (any case), else as a new field. So
    /// that several layers can each add their own token to one `Vary` line (RFC 9110 §5.3: a list field sent
    /// once or split over several lines means the same, but one line is what caches and tests read most
    /// reliably).
    ///
    /// ```swift
    /// var headers: HTTPHeaders = ["Vary": "Accept-Encoding"]
    /// headers.addListMember("Origin", to: "Vary")   // Vary: Accept-Encoding, Origin
    /// headers.addListMember("origin", to: "Vary")   // unchanged
    /// ```
    ///
    /// - Parameters:
    ///   - member: A token, e.g. `"Origin"`.
    ///   - name: The field's name, in any case.
    /// - Complexity: O(*n*) in the size of the fields.
    public mutating func addListMember(_ member: String, to name: String) {
        guard let index = fields.firstIndex(where: { $0.hasName(name) }) else {
            add(name: name, value: member)
            return
        }
        let value = fields[index].value
        let members = value.split(separator: ",").map { $0.trimmingSpaces() }
        if members.contains(where: { asciiCaseInsensitiveEquals($0, member) }) || members.contains("*") { return }
        setValue(members.isEmpty ? member : "\(value), \(member)", at: index)
    }
}
