@testable import DiffService
import MicroHTTP
import Testing

/// The service holds its own limits: bounded error answers, 503 problems with Retry-After, a budget that can
/// hold the largest request, and the budget's figures in /metrics.
@Suite struct LimitsTests {
    @Test func manyRepeatedIdsGiveABoundedAnswerWithTotals() throws {
        // 3,000 distinct ids, each three times in the old snapshot: 3,000 duplicates, 9,000 paths.
        let ids = (0..<3000).flatMap { [$0, $0, $0] }
        let body = diffBody(old: items(ids), new: items([]))
        try withService(maxBodyBytes: 4 << 20) { service in
            let response = try service.connect().postDiff(body)
            let problem = try expectProblem(response, .duplicateIDs)
            #expect(problem["duplicateCount"] == .integer(3000))
            let listed = try #require(problem["duplicates"]?.array)
            #expect(listed.count == Problem.listedEntryLimit)
            #expect(listed[0]["occurrences"] == .integer(3))
            #expect(listed[0]["paths"]?.array?.count == 3)
            let detail = try #require(problem["detail"]?.string)
            #expect(detail.count < 600, "the detail names a few, not all: \(detail.count) characters")
        }
    }

    @Test func oneIdRepeatedManyTimesListsItsFirstPathsAndTheCount() throws {
        let body = diffBody(old: items(Array(repeating: 7, count: 50_000)), new: items([]))
        try withService(maxBodyBytes: 4 << 20) { service in
            let response = try service.connect().postDiff(body)
            let problem = try expectProblem(response, .duplicateIDs)
            let duplicate = try #require(problem["duplicates"]?[0])
            #expect(duplicate["occurrences"] == .integer(50_000))
            #expect(duplicate["paths"]?.array?.count == Problem.listedPathLimit)
            #expect(duplicate["paths"]?[0] == .string("old.items[0]"))
            #expect(response.body.count < 4096, "\(response.body.count) bytes")
        }
    }

    @Test func manyInvalidValuesGiveABoundedListWithTheTotal() throws {
        let old = #"{"items":["# + (0..<2500).map { _ in #"{"id":true}"# }.joined(separator: ",") + "]}"
        try withService(maxBodyBytes: 4 << 20) { service in
            let problem = try expectProblem(try service.connect().postDiff(diffBody(old: old, new: items([]))), .invalidRequest)
            // The /diff reader lists the first 100 (DiffRequest.maximumViolationCount) and counts the rest.
            #expect(problem["errorCount"] == .integer(2500))
            #expect(problem["errors"]?.array?.count == 100)
            #expect(problem["detail"] == .string("2500 values are invalid; see errors (the first 100 are listed)."))
        }
    }

    @Test(arguments: [
        (HTTPServer.Overload.memoryBudgetExhausted(needed: 100, capacity: 50), ProblemType.overloaded),
        (.computeQueueFull(limit: 4), .overloaded),
        (.shuttingDown, .shuttingDown),
    ])
    func overloadIsAProblemWithRetryAfter(reason: HTTPServer.Overload, type: ProblemType) throws {
        let response = ServiceRouter(logger: quietLogger).overloaded(reason, method: "POST", path: "/diff")
        #expect(response.status == 503)
        #expect(response.headers["retry-after"] == "1")
        #expect(response.headers["content-type"] == "application/problem+json")
        #expect(response.headers["x-request-id"] != nil)
        let problem = try JSON(parsing: response.body)
        #expect(problem["type"] == .string(type.uri))
        #expect(problem["instance"] == .string("/diff"))
    }

    @Test func budgetMustHoldTheLargestRequest() throws {
        var configuration = ServiceConfiguration()
        configuration.maxBodyBytes = 32 << 20
        configuration.memoryBudget = RequestMemory.largest(maxBodyBytes: 32 << 20)
        try configuration.validate()
        configuration.memoryBudget! -= 1
        #expect(throws: ServiceConfiguration.Invalid.self) { try configuration.validate() }
        let largest = ServiceConfiguration.largestBody(budget: configuration.memoryBudget!)
        #expect(RequestMemory.largest(maxBodyBytes: largest) <= configuration.memoryBudget!)
        #expect(RequestMemory.largest(maxBodyBytes: largest + 1) > configuration.memoryBudget!)
    }

    @Test func defaultBudgetLeavesRoomForTheProcessAndItsConnections() {
        let budget = ServiceConfiguration.defaultMemoryBudget(limit: 512 << 20, connectionLimit: 512)
        #expect(budget == (512 << 20) - (64 << 20) - 512 * 65536)
        #expect(ServiceConfiguration.defaultMemoryBudget(limit: 100 << 20, connectionLimit: 1000) == 25 << 20)
    }

    @Test func metricsReportTheBudget() throws {
        try withService { service in
            let text = try service.connect().request("GET", "/metrics").text
            #expect(text.contains("snapdiff_memory_budget_bytes "))
            #expect(text.contains("snapdiff_memory_reserved_bytes "))
            #expect(text.contains("snapdiff_memory_admission_waiting "))
        }
    }
}
