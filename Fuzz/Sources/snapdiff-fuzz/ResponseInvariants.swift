import DiffService
import MicroHTTP

/// What must hold for the answer to any body, valid or not; a violation traps so that libFuzzer reports it
/// with the input.
///
/// - 200 with `Content-Type: application/json` and a strict JSON object (`/diff`: with `counts`);
/// - otherwise a 4xx (never a 5xx: every bad body is the client's fault, and the engines are total) with
///   `Content-Type: application/problem+json` and an RFC 9457 object whose `status` is the response's and
///   whose `instance` is the route.
enum ResponseInvariants {
    /// Traps unless `response` is a valid answer from `route`.
    static func check(_ response: HTTPResponse, route: String) {
        func violated(_ what: String) -> Never {
            let text = String(decoding: response.body.prefix(2000), as: UTF8.self)
            preconditionFailure("\(route): \(what); status \(response.status), response body: \(text)")
        }
        let json: StrictJSON
        do {
            json = try StrictJSON(parsing: response.body)
        } catch {
            violated("the response body is not strict JSON (\(error))")
        }
        guard json.isObject else { violated("the response body is not an object") }
        switch response.status {
        case 200:
            guard response.headers["Content-Type"] == "application/json" else { violated("200 without application/json") }
            if route == "/diff", json["counts"] == nil { violated("200 without counts") }
        case 400..<500:
            guard response.headers["Content-Type"] == "application/problem+json" else {
                violated("problem without application/problem+json")
            }
            guard json["type"]?.string != nil, json["title"]?.string != nil, json["detail"]?.string != nil else {
                violated("problem without type, title or detail")
            }
            guard json["status"]?.number == Double(response.status) else { violated("problem status differs from the response's") }
            guard json["instance"]?.string == route else { violated("problem instance is not \(route)") }
        default:
            violated("status \(response.status) is neither 200 nor 4xx")
        }
    }
}
