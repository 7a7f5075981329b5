import MicroHTTP
import Testing

/// `HTTPHeaders.addListMember(_:to:)`: one `Vary` line that several layers add their token to, each once.
@Suite struct ListFieldTests {
    @Test(arguments: [
        ([], "Origin", ["Vary: Origin"]),
        (["Vary: Accept-Encoding"], "Origin", ["Vary: Accept-Encoding, Origin"]),
        (["vary: accept-encoding, origin"], "Origin", ["vary: accept-encoding, origin"]),
        (["Vary: Accept-Encoding,Origin"], "ORIGIN", ["Vary: Accept-Encoding,Origin"]),
        (["Vary: *"], "Origin", ["Vary: *"]),
        (["Vary: "], "Origin", ["Vary: Origin"]),
        (["Content-Type: text/plain"], "Origin", ["Content-Type: text/plain", "Vary: Origin"]),
    ])
    func addsAMemberOnceToTheFirstField(fields: [String], member: String, expected: [String]) {
        var headers = HTTPHeaders(
            fields.map { line in
                let (name, value) = line.split(separator: ":", maxSplits: 1).map(String.init).pair
                return HTTPHeaders.Field(name: name, value: value.drop { $0 == " " }.description)
            })
        headers.addListMember(member, to: "Vary")
        #expect(headers.map { "\($0.name): \($0.value)" } == expected)
    }

    @Test func aSingletonFieldSentTwiceHasNoValue() {
        #expect((["Origin": "https://a.example"] as HTTPHeaders).onlyValue(of: "origin") == "https://a.example")
        let twice = HTTPHeaders([.init(name: "Origin", value: "https://a.example"), .init(name: "origin", value: "https://b.example")])
        #expect(twice.onlyValue(of: "Origin") == nil)
        #expect(([:] as HTTPHeaders).onlyValue(of: "Origin") == nil)
    }
}

extension Array where Element == String {
    /// The first two elements (the second empty when missing).
    fileprivate var pair: (String, String) { (self[0], count > 1 ? self[1] : "") }
}
