// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so that the library's package never depends on
// package-benchmark. Run them from this folder with `swift package benchmark`, or `./compare.sh`.
let package = Package(
    name: "LiveStateBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "LiveState", path: ".."),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "BenchmarkFixtures",
            dependencies: [
                .product(name: "LiveState", package: "LiveState"),
                .product(name: "LiveStateTooling", package: "LiveState"),
                .product(name: "LiveStateYAML", package: "LiveState"),
            ]
        ),
        .executableTarget(
            name: "LiveStateBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "LiveState", package: "LiveState"),
                .product(name: "LiveStateTooling", package: "LiveState"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/LiveStateBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "DecodeDriver",
            dependencies: ["BenchmarkFixtures", .product(name: "LiveState", package: "LiveState")]
        ),
        // Pushes per second through LiveStateAPNs to the loopback fake APNs, checks on and off.
        .executableTarget(
            name: "SendDriver",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "LiveState", package: "LiveState"),
                .product(name: "LiveStateAPNs", package: "LiveState"),
                .product(name: "FakeAPNs", package: "LiveState"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ]
)
