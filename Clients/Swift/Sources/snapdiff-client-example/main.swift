// The README's Swift client example, word for word (scripts/client-check builds it and compares the two).
import Foundation
import OpenAPIURLSession
import SnapdiffClient

let client = Client(serverURL: URL(string: "http://127.0.0.1:8080")!, transport: URLSessionTransport())
let response = try await client.diff(body: .json(.init(
    old: .items([.init(id: "n1"), .init(id: "n2")]),
    new: .items([.init(id: "n2"), .init(id: "n1", additionalProperties: try .init(unvalidatedValue: ["title": "Updated"]))]),
    options: .init(renderings: [.sequential]))))
switch response {
case .ok(let ok):
    for operation in try ok.body.json.sequential ?? [] {
        switch operation {
        case .moveElement(let move): print("move", move.from, "to", move.to)     // move [0, 0] to [0, 1]
        case .updateElement(let update): print("reload", update.path)            // reload [0, 1]
        default: print(operation)
        }
    }
case .unprocessableContent(let problem):
    print(try problem.body.applicationProblemJson.detail)
default:
    print(response)
}
