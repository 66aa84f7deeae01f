// swift-tools-version: 6.2
import PackageDescription

/// The product targets treat every warning as an error. (Test targets cannot: Swift Testing's
/// macro expansions warn under Swift 6.3.)
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "LiveState",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "LiveState", targets: ["LiveState"]),
        .library(name: "LiveStateTooling", targets: ["LiveStateTooling"]),
        .library(name: "LiveStateYAML", targets: ["LiveStateYAML"]),
        .library(name: "LiveStateServer", targets: ["LiveStateServer"]),
        .library(name: "LiveStateImport", targets: ["LiveStateImport"]),
        .library(name: "LiveStateAPNs", targets: ["LiveStateAPNs"]),
        // A loopback APNs for tests of code that sends (and for the send benchmark).
        .library(name: "FakeAPNs", targets: ["FakeAPNs"]),
        .executable(name: "livestate", targets: ["livestate"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", "603.0.1"..<"604.0.0"),
        // `livestate send`: HTTP/2 to APNs and ES256 provider tokens.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The fake APNs the send tests run against: an HTTP/2 server over TLS, its certificate
        // made at test time.
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // `swift package generate-documentation --target LiveStateImport`: the DocC catalogs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The runtime: schemas, values, the decoder and the encoder, and what generated Swift
        // calls. Foundation only, so an app's widget extension can link it.
        .target(name: "LiveState", swiftSettings: strict),
        // The tools around it: the schema validator, compatibility, fleet impact and the
        // verdict across versions, code generation and the renderers. Servers, the CLI and CI
        // import it; apps need not.
        .target(name: "LiveStateTooling", dependencies: ["LiveState"], swiftSettings: strict),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(name: "LiveStateYAML", dependencies: ["LiveState", "LiveStateTooling", "CYAML"], swiftSettings: strict),
        // The HTTP sidecar (`livestate serve`): its own target, so library users do not build Hummingbird.
        .target(
            name: "LiveStateServer",
            dependencies: [
                "LiveState", "LiveStateTooling",
                "LiveStateYAML",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            // The contract's source; OpenAPIDocument.swift is made from it (scripts/openapi.py).
            exclude: ["openapi.yaml"],
            swiftSettings: strict
        ),
        // `livestate import swift`: reads an app's Swift with swift-syntax. Its own target, so
        // the runtime library, the YAML loader and the server never build swift-syntax.
        .target(
            name: "LiveStateImport",
            dependencies: [
                "LiveState", "LiveStateTooling", "LiveStateYAML",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            swiftSettings: strict
        ),
        // `livestate send` and `livestate channels`: validated pushes to APNs. Its own target, so
        // the runtime library stays Foundation-only and the server does not build TLS.
        .target(
            name: "LiveStateAPNs",
            dependencies: [
                "LiveState", "LiveStateTooling",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // To tell a stream APNs refused (REFUSED_STREAM) from one it may have processed.
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ],
            swiftSettings: strict
        ),
        // A loopback APNs written from Apple's documents (not from LiveStateAPNs): the send
        // tests' and the send benchmark's peer.
        .target(
            name: "FakeAPNs",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Tests/FakeAPNs"
        ),
        .executableTarget(
            name: "livestate",
            dependencies: [
                "LiveState", "LiveStateTooling",
                "LiveStateYAML",
                "LiveStateServer",
                "LiveStateImport",
                "LiveStateAPNs",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // What several test targets share: the golden-file check, the seeded generator and its
        // mutator, the runner of the built livestate binary, and a loopback socket.
        .target(name: "LiveStateTestSupport", path: "Tests/LiveStateTestSupport"),
        .testTarget(
            name: "LiveStateTests",
            dependencies: ["LiveState", "LiveStateTooling", "LiveStateTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "LiveStateAPNsTests",
            dependencies: [
                "LiveState", "LiveStateYAML", "LiveStateAPNs", "FakeAPNs",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "livestateTests",
            dependencies: ["livestate", "FakeAPNs", "LiveStateTestSupport", .product(name: "Crypto", package: "swift-crypto")],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "LiveStateServerTests",
            dependencies: [
                "LiveState", "LiveStateTooling",
                "LiveStateYAML",
                "LiveStateServer", "LiveStateTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "LiveStateImportTests",
            dependencies: ["LiveState", "LiveStateTooling", "LiveStateYAML", "LiveStateImport"]
        ),
        .testTarget(
            name: "LiveStateYAMLTests",
            dependencies: ["LiveState", "LiveStateTooling", "LiveStateYAML", "LiveStateTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        // Compiles the Swift that `livestate codegen swift` writes for every bundled schema
        // version (Generated/, one namespace enum per version, which are also its golden files)
        // and checks it against ContentStateDecoder; Fixtures/codegen holds the JSON Schemas.
        .testTarget(
            name: "CodegenFidelityTests",
            dependencies: ["LiveState", "LiveStateTooling", "LiveStateYAML", "livestate", "LiveStateTestSupport"],
            exclude: ["Fixtures"]
        ),
    ]
)
