import MicroHTTP
import Testing

/// `HTTPHeaders.contentType(_:is:orSuffix:)`: a media type or a structured syntax suffix, any case, parameters
/// and surrounding spaces ignored.
@Suite struct MediaTypeTests {
    @Test(arguments: [
        ("application/json", true), ("application/json; charset=utf-8", true), ("Application/JSON", true),
        ("application/problem+json", true), ("application/vnd.snapdiff+json;v=1", true), (" application/json ", true),
        ("\tAPPLICATION/PROBLEM+JSON\t; charset=utf-8", true), ("text/plain", false), ("application/jsonx", false),
        ("xapplication/json", false), ("application/json5", false), ("application/+jsonp", false),
        ("application/x-www-form-urlencoded", false), ("json", false), ("+json", false), ("", false),
    ])
    func matchesTheTypeOrItsSuffix(contentType: String, matches: Bool) {
        #expect(HTTPHeaders.contentType(contentType, is: "application/json", orSuffix: "+json") == matches)
    }

    @Test func noContentTypeNeverMatches() {
        #expect(!HTTPHeaders.contentType(nil, is: "application/json", orSuffix: "+json"))
    }
}
