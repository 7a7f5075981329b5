// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "snapdiff",
    products: [
        .library(name: "ListDiff", targets: ["ListDiff"]),
        .library(name: "Waterfall", targets: ["Waterfall"]),
        // The service as a library, for the fuzzing package in Fuzz/ and for embedders.
        .library(name: "DiffService", targets: ["DiffService"]),
        // The HTTP types DiffService's endpoints answer with (HTTPResponse), for the fuzzing package.
        .library(name: "MicroHTTP", targets: ["MicroHTTP"]),
        .executable(name: "snapdiff", targets: ["snapdiff"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // Pure engines: standard library only.
        // Their _checkInvariants() methods check every table they build in debug builds (as swift-collections'
        // COLLECTIONS_INTERNAL_CHECKS does); release builds compile them to nothing.
        .target(name: "ListDiff", swiftSettings: [.define("LISTDIFF_INTERNAL_CHECKS", .when(configuration: .debug))]),
        .target(name: "Waterfall", swiftSettings: [.define("WATERFALL_INTERNAL_CHECKS", .when(configuration: .debug))]),

        // libmicrohttpd (apt libmicrohttpd-dev) and its one Swift owner.
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(name: "MicroHTTP", dependencies: ["CMicroHTTPD", "Gzip"]),

        // zlib (apt zlib1g-dev) and its one Swift owner: gzip answers and gzip request bodies (MicroHTTP's
        // content codings).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(name: "Gzip", dependencies: ["CZlib"]),

        // What a server process needs of the C library besides serving HTTP: termination signals, whole-line
        // standard error, the allocator's settings (glibc's mallopt and malloc_trim, which Swift does not import,
        // through CMalloc), and the one-GET client of `snapdiff healthcheck`.
        .target(name: "CMalloc"),
        .target(name: "ProcessRuntime", dependencies: ["CMalloc"]),

        // simdjson (apt libsimdjson-dev) behind a plain C header that knows only JSON, and its one Swift owner
        // (the parser pool, the cursor, the walks' results).
        // Release builds define NDEBUG: SwiftPM does not, and without it every one of simdjson's internal
        // SIMDJSON_ASSUME checks in the on-demand walk is a live assert() (about a tenth of the walk's work).
        .target(
            name: "CSimdJSON",
            cxxSettings: [.define("NDEBUG", .when(configuration: .release))],
            linkerSettings: [.linkedLibrary("simdjson")]
        ),
        .target(name: "SimdJSON", dependencies: ["CSimdJSON"]),
        // The /diff and /layout request schemas and the wire model, read through SimdJSON's cursor.
        .target(name: "SnapshotJSON", dependencies: ["SimdJSON", "ListDiff", "Waterfall"]),

        // The service: routes, wire glue, problem+json, configuration.
        .target(
            name: "DiffService",
            dependencies: [
                "ListDiff", "Waterfall", "SnapshotJSON", "MicroHTTP", "ProcessRuntime",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [
                .embedInCode("Resources/openapi.yaml"), .embedInCode("Resources/playground.html"),
                .embedInCode("Resources/playground.js"), .embedInCode("Resources/playground.css"),
            ]
        ),
        .executableTarget(
            name: "snapdiff",
            dependencies: [
                "DiffService", "ProcessRuntime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Release-build benchmarks (numbers in BENCHMARKS.md).
        .executableTarget(
            name: "listdiff-benchmark", dependencies: ["ListDiff", "TestSupport"], path: "Benchmarks/ListDiffBenchmark"),
        .executableTarget(
            name: "diffservice-benchmark",
            dependencies: [
                "DiffService", "MicroHTTP", "ListDiff", "SnapshotJSON", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/DiffServiceBenchmark"),
        .executableTarget(
            name: "gzip-benchmark", dependencies: ["DiffService", "MicroHTTP", "Gzip"], path: "Benchmarks/GzipBenchmark"),
        .executableTarget(name: "waterfall-benchmark", dependencies: ["Waterfall"], path: "Benchmarks/WaterfallBenchmark"),
        .executableTarget(
            name: "snapshotjson-benchmark", dependencies: ["SnapshotJSON", "TestSupport"],
            path: "Benchmarks/SnapshotJSONBenchmark"),

        // Shared by the tests and benchmarks: a blocking HTTP test client and a seeded random number generator.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "ListDiffTests",
            dependencies: ["ListDiff", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "WaterfallTests",
            dependencies: ["Waterfall", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "MicroHTTPTests", dependencies: ["MicroHTTP", "Gzip", "TestSupport"]),
        .testTarget(name: "GzipTests", dependencies: ["Gzip", "TestSupport"]),
        .testTarget(name: "SimdJSONTests", dependencies: ["SimdJSON", "CSimdJSON"]),
        .testTarget(
            name: "SnapshotJSONTests",
            dependencies: ["SnapshotJSON", "SimdJSON", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        // Runs the built `snapdiff` binary as a subprocess (the dependency makes SwiftPM build it first).
        .testTarget(name: "SnapdiffTests", dependencies: ["snapdiff", "DiffService"]),
        .testTarget(
            name: "DiffServiceTests",
            dependencies: [
                "DiffService", "MicroHTTP", "ListDiff", "Waterfall", "SnapshotJSON", "TestSupport", "Gzip",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
