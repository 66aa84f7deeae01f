import Foundation
import LiveStateTestSupport
import LiveState
import LiveStateYAML

/// Where the schemas, examples and golden files are, and how each generated file is named.
enum CodegenPaths {
    static let packageRoot = LivestateBinary.packageRoot
    static let testsFolder = packageRoot.appendingPathComponent("Tests/CodegenFidelityTests")
    static let golden = testsFolder.appendingPathComponent("Fixtures/codegen")
    static let generated = testsFolder.appendingPathComponent("Generated")
    static let examples = packageRoot.appendingPathComponent("schemas/examples")

    /// Where `swift build` put this test bundle, the `livestate` binary and the built modules.
    static var productsDirectory: URL { LivestateBinary.productsDirectory }

    /// The built `LiveState` module, which generated code imports for its runtime.
    static var modulesDirectory: URL {
        let built = productsDirectory.appendingPathComponent("Modules")
        if FileManager.default.fileExists(atPath: built.appendingPathComponent("LiveState.swiftmodule").path) { return built }
        return packageRoot.appendingPathComponent(".build/debug/Modules")
    }

    /// Set `LIVESTATE_UPDATE_CODEGEN=1` to rewrite the golden and generated files instead of
    /// comparing with them (then rebuild: the generated files are compiled into this target).
    static var updates: Bool { ProcessInfo.processInfo.environment["LIVESTATE_UPDATE_CODEGEN"] == "1" }

    /// Every schema the tests generate code for: the bundled ones and the edge-case fixture.
    static let schemaFiles: [URL] = {
        let bundled = packageRoot.appendingPathComponent("schemas")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: bundled.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") }.sorted()
        return names.map { bundled.appendingPathComponent($0) }
            + [testsFolder.appendingPathComponent("Fixtures/schemas/edge-cases.yaml")]
    }()

    /// Loads a schema the tests use, by activity.
    static func schema(_ activity: String) throws -> Schema {
        guard let file = schemaFiles.first(where: { $0.deletingPathExtension().lastPathComponent == activity }) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try SchemaLoader().load(contentsOf: file.path)
    }

    /// `DeliveryV2`: the namespace enum of a version's generated file in `Generated/`.
    static func namespace(activity: String, version: Int) -> String {
        let words = activity.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }
        return words.joined() + "V\(version)"
    }

    /// What `livestate codegen swift` writes for a version without `--namespace`: its compiled
    /// file in `Generated/` outside the namespace enum, four spaces less indented. The plain
    /// output is held to this rather than to a second golden copy of every file.
    static func plainGolden(activity: String, version: Int) throws -> String {
        let namespace = namespace(activity: activity, version: version)
        let compiled = try String(contentsOf: generated.appendingPathComponent("\(namespace).swift"), encoding: .utf8)
        var lines = compiled.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let open = lines.firstIndex(of: "enum \(namespace) {"), open > 0,
              lines[open - 1].hasPrefix("/// The types generated for app version"),
              let close = lines[open...].firstIndex(of: "}") else {
            throw CocoaError(.fileReadCorruptFile)
        }
        for index in open + 1..<close where lines[index].hasPrefix("    ") {
            lines[index].removeFirst(4)
        }
        lines.remove(at: close)
        lines.removeSubrange(open - 1...open)
        return lines.joined(separator: "\n").replacingOccurrences(of: "extension \(namespace).", with: "extension ")
    }

    /// The example payloads of an activity: every `*.json` under its folder, failing ones too.
    static func examples(_ activity: String) -> [URL] {
        let folder = examples.appendingPathComponent(activity)
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }
            .sorted { $0.path < $1.path }
    }
}
