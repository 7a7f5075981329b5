// swift-tools-version: 6.1
// A Swift client generated from the top-level openapi.yaml by Apple's swift-openapi-generator (build plugin),
// and `snapdiff-client-check`, which calls every operation of a live server through it (scripts/client-check).
import PackageDescription

let package = Package(
    name: "snapdiff-client",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "SnapdiffClient", targets: ["SnapdiffClient"]),
        .executable(name: "snapdiff-client-check", targets: ["snapdiff-client-check"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // Types and Client generated at build time from Sources/SnapdiffClient/openapi.yaml, a symlink to the
        // repository's openapi.yaml (the plugin reads the file in the target's folder).
        .target(
            name: "SnapdiffClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // The README's example.
        .executableTarget(
            name: "snapdiff-client-example",
            dependencies: ["SnapdiffClient", .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession")]
        ),
        .executableTarget(
            name: "snapdiff-client-check",
            dependencies: [
                "SnapdiffClient",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
