import Testing

/// `X-Request-ID` and `GET /metrics`, over a real socket.
@Suite struct ObservabilityTests {
    @Test func echoesAValidRequestIDAndReplacesAnInvalidOne() throws {
        try withService { service in
            let client = try service.connect()
            let given = try client.request("GET", "/healthz", headers: [("X-Request-ID", "trace-42.a:b_c")])
            #expect(given.header("X-Request-ID") == "trace-42.a:b_c")
            let invalid = try client.request("GET", "/healthz", headers: [("X-Request-ID", "bad id with spaces")])
            let generated = try #require(invalid.header("X-Request-ID"))
            #expect(generated.count == 32 && generated.allSatisfy(\.isHexDigit))
            let none = try client.request("GET", "/nowhere")
            #expect(none.status == 404)
            #expect(none.header("X-Request-ID")?.count == 32)
            #expect(none.header("X-Request-ID") != generated)
        }
    }

    @Test func metricsCountRequestsByRouteAndStatusAndDiffPhases() throws {
        try withService { service in
            let client = try service.connect()
            _ = try client.postDiff(diffBody(old: items([1, 2]), new: items([2, 3])))
            _ = try client.postDiff("{")
            _ = try client.request("GET", "/no/such/path")
            let metrics = try client.request("GET", "/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.header("Content-Type")?.hasPrefix("text/plain") == true)
            let text = metrics.text
            #expect(text.contains(#"snapdiff_http_requests_total{route="/diff",method="POST",status="200"} 1"#), "\(text)")
            #expect(text.contains(#"snapdiff_http_requests_total{route="/diff",method="POST",status="400"} 1"#))
            #expect(text.contains(#"snapdiff_http_requests_total{route="other",method="GET",status="404"} 1"#))
            #expect(text.contains("snapdiff_diff_parse_duration_seconds_count 2"))
            #expect(text.contains("snapdiff_diff_compute_duration_seconds_count 1"))
            #expect(text.contains("snapdiff_diff_changes_count 1"))
            #expect(text.contains("snapdiff_http_requests_in_flight 1"), "the /metrics request itself is in flight")
        }
    }
}
