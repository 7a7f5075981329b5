import Glibc
import Testing
import TestSupport

/// Several requests per connection, many clients at once, and clients that misbehave.
@Suite struct ConnectionTests {
    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        try withService { service in
            let client = try service.connect()
            #expect(try client.request("GET", "/").status == 200)
            #expect(try client.postDiff(diffBody(old: items([1, 2, 3]), new: items([3, 2, 1]))).status == 200)
            try expectProblem(try client.request("GET", "/missing"), .notFound)
            try expectProblem(try client.postDiff("{"), .malformedJSON)
            try expectProblem(try client.request("POST", "/diff", body: [1]), .unsupportedMediaType)
            let last = try client.postDiff(diffBody(old: items([1]), new: items([]), options: #"{"renderings":["sequential"]}"#))
            #expect(last.status == 200)
            #expect(last.header("Connection") != "close")
            #expect(try JSON(parsing: last.body)["sequential"] == (try JSON(parsing: #"[{"op":"removeElement","path":[0,0]}]"#)))
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        try withService { service in
            let client = try service.connect()
            let bodies = (0..<5).map { diffBody(old: items(Array(0...$0)), new: items([])) }
            try client.send(bodies.flatMap {
                TestClient.requestBytes("POST", "/diff", headers: [("Content-Type", "application/json")], body: Array($0.utf8))
            })
            for index in 0..<5 {
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(try JSON(parsing: response.body)["counts"]?["elementDeleted"] == .integer(index + 1))
            }
        }
    }

    @Test func manyConcurrentClientsEachGetTheirOwnAnswers() throws {
        try withService(threads: 4) { service in
            let failures = onThreads(64) { client in
                let connection = try service.connect()
                for round in 0..<4 {
                    // Client c, round r: old 0..<(c + r + 2), new reversed with one item more — a distinct answer.
                    let count = client + round + 2
                    let old = Array(0..<count)
                    let new = [1000 + client * 10 + round] + old.reversed()
                    let response = try connection.postDiff(
                        diffBody(old: items(old), new: items(new), options: #"{"renderings":["staged","sequential"]}"#))
                    guard response.status == 200 else { throw Mismatch("status \(response.status): \(response.text)") }
                    let answer = try JSON(parsing: response.body)
                    guard answer["counts"]?["elementMoved"] == .integer(count - 1),
                          answer["counts"]?["elementInserted"] == .integer(1),
                          answer["staged"]?[0]?["elementInserted"] == (try JSON(parsing: "[[0,0]]"))
                    else { throw Mismatch("client \(client) round \(round): \(answer)") }
                    guard answer["sequential"]?.array?.count == count else { throw Mismatch("sequential \(answer)") }
                }
            }
            #expect(failures.isEmpty, "\(failures.prefix(5))")
        }
    }

    @Test func hostileClientsDoNotHoldUpOthers() throws {
        // One worker thread: every connection shares it, so a blocking read on a hostile one would show.
        try withService(threads: 1) { service in
            let slowDone = FailureList()
            let garbage = try service.connect()
            try garbage.send([UInt8](repeating: 0xFF, count: 3000) + Array("\r\n\r\n".utf8))
            let halfHead = try service.connect()
            try halfHead.send("POST /diff HTTP/1.1\r\nHost: t\r\nContent-Type: appl")
            let body = Array(diffBody(old: items(Array(0..<20)), new: items(Array(0..<20).reversed())).utf8)
            let slow = try service.connect()
            try slow.send("POST /diff HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n")

            let failures = onThreads(2) { role in
                if role == 0 {
                    // The slow client: one byte every 5 ms (about 2 s), then its answer.
                    for byte in body {
                        try slow.send([byte])
                        usleep(5_000)
                    }
                    let response = try slow.readResponse()
                    guard response.status == 200 else { throw Mismatch("slow client got \(response.status)") }
                    slowDone.append("done")
                } else {
                    let client = try service.connect()
                    for round in 0..<20 {
                        let response = try client.postDiff(diffBody(old: items([1, 2, round + 3]), new: items([round + 3, 2, 1])))
                        guard response.status == 200 else { throw Mismatch("status \(response.status)") }
                    }
                    // Every answer came while the slow client was still sending.
                    guard slowDone.all.isEmpty else { throw Mismatch("the fast client finished after the slow one") }
                }
            }
            #expect(failures.isEmpty, "\(failures)")
            #expect(slowDone.all == ["done"])
            // The garbage connection got a 400 from the HTTP layer (or was closed), never a hang.
            if let response = try? garbage.readResponse() { #expect(response.status == 400) }
            _ = halfHead
        }
    }
}
