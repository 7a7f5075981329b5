import MicroHTTP

/// The playground served at `GET /playground`: one HTML page, its script and its style sheet (embedded at build
/// time from `Resources/`), which call this server's `POST /diff` and `POST /layout` and show what they answer.
///
/// The page loads nothing from any other origin, and its `Content-Security-Policy` says so: scripts, styles and
/// requests from this origin only, no inline script or style, no frames, no forms, no plugins.
enum PlaygroundPage {
    /// The page's policy: everything from this origin only (`'self'`; images also as `data:`, for the empty icon
    /// that keeps the browser from asking for `/favicon.ico`), nothing inline, nothing framed.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// One asset of the page: its path and media type, and its bytes.
    struct Asset: Sendable {
        /// The route's path.
        var path: String
        /// The `Content-Type` it is served with.
        var contentType: String
        /// Its bytes.
        var bytes: [UInt8]

        /// A 200 with the asset, its policy, and headers that keep browsers from guessing its type or caching a
        /// stale copy across a release.
        var response: HTTPResponse {
            HTTPResponse(
                status: 200,
                headers: [
                    "Content-Type": contentType, "Content-Security-Policy": PlaygroundPage.contentSecurityPolicy,
                    "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-cache",
                ],
                body: bytes)
        }
    }

    /// The page itself.
    static let html = Asset(
        path: "/playground", contentType: "text/html; charset=utf-8", bytes: PackageResources.playground_html)
    /// Its script.
    static let script = Asset(
        path: "/playground.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.playground_js)
    /// Its style sheet.
    static let styleSheet = Asset(
        path: "/playground.css", contentType: "text/css; charset=utf-8", bytes: PackageResources.playground_css)
}
