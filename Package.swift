// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "snapdiff",
    products: [
        .library(name: "ListDiff", targets: ["ListDiff"]),
        .library(name: "Waterfall", targets: ["Waterfall"]),
        .executable(name: "snapdiff", targets: ["snapdiff"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // Pure diff engine: standard library only.
        .target(name: "ListDiff"),
        // Pure waterfall layout engine: standard library only.
        .target(name: "Waterfall"),
        .executableTarget(
            name: "snapdiff",
            dependencies: [
                "ListDiff",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "listdiff-benchmark",
            dependencies: ["ListDiff"],
            path: "Benchmarks/ListDiffBenchmark"
        ),
        .testTarget(
            name: "WaterfallTests",
            dependencies: [
                "Waterfall",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ListDiffTests",
            dependencies: [
                "ListDiff",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
