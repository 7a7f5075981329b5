// swift-tools-version: 6.1
// The libFuzzer target for snapdiff, kept out of the main package so its builds are unaffected.
// Build and run with scripts/fuzz (see HARDENING.md).
import PackageDescription

let package = Package(
    name: "snapdiff-fuzz",
    dependencies: [
        .package(name: "snapdiff", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "snapdiff-fuzz",
            dependencies: [
                .product(name: "DiffService", package: "snapdiff"), .product(name: "MicroHTTP", package: "snapdiff"),
            ],
            // `@_extern(c)` declares libFuzzer's LLVMFuzzerRunDriver without a C target.
            swiftSettings: [.enableExperimentalFeature("Extern")]
        )
    ],
    swiftLanguageModes: [.v6]
)
