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

    /// A request the HTTP layer refuses before the handler (the early 413, a framing 400, a chunked body's 411)
    /// still answers with the client's `X-Request-ID`, so that its log line is found by it.
    @Test(arguments: [
        "POST /diff HTTP/1.1\r\nHost: t\r\nX-Request-ID: refused-1\r\nContent-Length: 99999999999\r\n\r\n",
        "POST /diff HTTP/1.1\r\nHost: t\r\nX-Request-ID: refused-1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n",
        "POST /diff HTTP/1.1\r\nHost: t\r\nX-Request-ID: refused-1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ])
    func refusalsKeepTheClientsRequestID(head: String) throws {
        try withService { service in
            let client = try service.connect()
            try client.send(head)
            let response = try client.readResponse()
            #expect([400, 411, 413].contains(response.status))
            #expect(response.header("X-Request-ID") == "refused-1")
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

    /// Answers the HTTP layer sends itself (framing refusals, the early 413, libmicrohttpd's own 400) are counted
    /// like the handler's.
    @Test func theServersOwnAnswersAreCounted() throws {
        try withService(maxBodyBytes: 1000) { service in
            for request in [
                "POST /diff HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                "POST /diff HTTP/1.1\r\nHost: t\r\nContent-Length: 5000\r\n\r\n",
                "POST /diff HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                "POST /diff HTTP/1.1\r\nHost: t\r\nContent-Length: abc\r\n\r\n",
                "GET /healthz HTTP/1.1\r\nHost: t\r\nno colon\r\n\r\n",
            ] {
                let client = try service.connect()
                try client.send(request)
                _ = try client.readResponse()
            }
            let text = try service.connect().request("GET", "/metrics").text
            #expect(text.contains(#"snapdiff_http_requests_total{route="/diff",method="POST",status="411"} 1"#), "\(text)")
            #expect(text.contains(#"snapdiff_http_requests_total{route="/diff",method="POST",status="413"} 1"#))
            #expect(text.contains(#"snapdiff_http_requests_total{route="/diff",method="POST",status="400"} 1"#))
            // libmicrohttpd answers a bad Content-Length before the method is known; its replacement is counted.
            #expect(text.contains(#"snapdiff_http_requests_total{route="/diff",method="other",status="400"} 1"#))
            #expect(text.contains(#"snapdiff_http_requests_total{route="other",method="other",status="400"} 1"#))
        }
    }
}
