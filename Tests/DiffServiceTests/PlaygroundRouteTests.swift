@testable import DiffService
import Foundation
import Testing

/// `GET /playground` and its two assets over real sockets (the page itself is tested in Chromium by
/// `scripts/playground-check`).
@Suite struct PlaygroundRouteTests {
    @Test(arguments: [
        ("/playground", "text/html; charset=utf-8", "<!doctype html>"),
        ("/playground.js", "text/javascript; charset=utf-8", "// snapdiff playground"),
        ("/playground.css", "text/css; charset=utf-8", "/* snapdiff playground"),
    ])
    func assetIsServedWithItsTypeAndAPolicyThatAllowsOnlyThisOrigin(path: String, type: String, start: String) throws {
        try withService { service in
            let response = try service.connect().request("GET", path)
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == type)
            #expect(response.text.hasPrefix(start))
            let policy = try #require(response.header("Content-Security-Policy"))
            for directive in [
                "default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'",
            ] {
                #expect(policy.contains(directive), "\(directive)")
            }
            #expect(!policy.contains("unsafe") && !policy.contains("http"), "\(policy)")
            #expect(response.header("X-Content-Type-Options") == "nosniff")
        }
    }

    /// Every `src` and `href` of the page is a route of this server (or the empty `data:` icon), so the page
    /// loads nothing from elsewhere; and the page has no inline script or style for the policy to block.
    @Test func everyAssetThePageNamesIsARouteOfThisServer() throws {
        let html = String(decoding: PlaygroundPage.html.bytes, as: UTF8.self)
        let references = html.matches(of: /(?:src|href)="([^"]*)"/).map { String($0.output.1) }
        #expect(references.contains("/playground.js") && references.contains("/playground.css"))
        let paths = Set(ServiceRouter.routes.map(\.path))
        for reference in references where reference != "data:," {
            #expect(paths.contains(reference), "\(reference) is not a route")
        }
        #expect(!html.contains("<script>") && !html.contains("<style") && !html.contains(" style="))
        #expect(!html.contains("http://") && !html.contains("https://"))
    }

    @Test func headAnswersTheGetsHeadersWithoutTheBody() throws {
        try withService { service in
            let client = try service.connect()
            let head = try client.request("HEAD", "/playground")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(PlaygroundPage.html.bytes.count))
            #expect(head.header("Content-Security-Policy") == PlaygroundPage.contentSecurityPolicy)
        }
    }

    @Test func thePageIsGzippedForABrowser() throws {
        try withService { service in
            let response = try service.connect().request(
                "GET", "/playground.js", headers: [("Accept-Encoding", "gzip, deflate, br")])
            #expect(response.status == 200)
            #expect(response.header("Content-Encoding") == "gzip")
            #expect(response.body.count < PlaygroundPage.script.bytes.count / 2)
        }
    }
}
