// swift-tools-version: 6.1
import PackageDescription

// The libFuzzer harness of LiveState, its own package so that `--sanitize fuzzer` (which makes
// every executable parse-as-library) never touches the CLI. Build and run with `./run.sh`.
//
// The main package is a path dependency. SwiftPM names a path dependency after its folder
// (`main` in CI, `wt-fuzz` in a worktree), so `package:` must not spell a folder name:
// `.package(name:path:)` gives it the name the targets refer to, whatever the folder is called.
let package = Package(
    name: "Fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "LiveState", path: ".."),
    ],
    targets: [
        .target(
            name: "FuzzCommon",
            dependencies: [
                .product(name: "LiveState", package: "LiveState"),
                .product(name: "LiveStateTooling", package: "LiveState"),
                .product(name: "LiveStateYAML", package: "LiveState"),
            ]
        ),
        .executableTarget(name: "FuzzJSON", dependencies: ["FuzzCommon"]),
        .executableTarget(name: "FuzzDecode", dependencies: ["FuzzCommon"]),
        .executableTarget(name: "FuzzSchemaYAML", dependencies: ["FuzzCommon"]),
        .executableTarget(name: "FuzzEnvelope", dependencies: ["FuzzCommon"]),
        // The Swift importer: its own harness target, so that only this fuzzer builds swift-syntax.
        .target(
            name: "FuzzImport",
            dependencies: [
                .product(name: "LiveState", package: "LiveState"),
                .product(name: "LiveStateYAML", package: "LiveState"),
                .product(name: "LiveStateImport", package: "LiveState"),
            ]
        ),
        .executableTarget(name: "FuzzSwiftImport", dependencies: ["FuzzImport"]),
    ]
)
