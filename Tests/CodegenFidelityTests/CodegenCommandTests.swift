import ArgumentParser
import Foundation
import LiveStateTestSupport
import Testing
@testable import livestate

/// `livestate codegen`: parsed and run in process, and through the built binary once the
/// command is in `livestate`'s subcommand list.
@Suite struct CodegenCommandTests {
    @Test func swiftTargetWritesTheGoldenFileForTheNewestVersionByDefault() throws {
        let output = Scratch.file("swift")
        defer { Scratch.remove(output) }
        let command = try CodegenCommand.parse(["swift", "--schema", Scratch.schema("delivery"), "--output", output.path])
        try command.run()
        let golden = try CodegenPaths.plainGolden(activity: "delivery", version: 3)
        #expect(try String(contentsOf: output, encoding: .utf8) == golden)
    }

    @Test func swiftTargetTakesVersionNamespaceAndPublic() throws {
        let output = Scratch.file("swift")
        defer { Scratch.remove(output) }
        let command = try CodegenCommand.parse([
            "swift", "--schema", Scratch.schema("pizza"), "--version", "1", "--namespace", "PizzaV1", "--public", "--output", output.path,
        ])
        try command.run()
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(text.contains("public enum PizzaV1 {"))
        #expect(text.contains("    public struct PizzaDeliveryAttributes: Codable, Hashable, Sendable {"))
        #expect(text.contains("extension PizzaV1.PizzaDeliveryAttributes: ActivityAttributes {}"))
        #expect(text.contains("from pizza.yaml, version 1."))
    }

    @Test func jsonSchemaTargetWritesEveryVersionWithoutVersionAndOneWithIt() throws {
        let all = Scratch.file("json")
        let one = Scratch.file("json")
        defer {
            Scratch.remove(all)
            Scratch.remove(one)
        }
        var command = try CodegenCommand.parse(["json-schema", "--schema", Scratch.schema("delivery"), "--output", all.path])
        try command.run()
        command = try CodegenCommand.parse(["json-schema", "--schema", Scratch.schema("delivery"), "--version", "3", "--output", one.path])
        try command.run()
        #expect(try Data(contentsOf: all) == Data(contentsOf: CodegenPaths.golden.appendingPathComponent("delivery.schema.json")))
        #expect(try Data(contentsOf: one) == Data(contentsOf: CodegenPaths.golden.appendingPathComponent("delivery-v3.schema.json")))
    }

    @Test func unknownVersionExitsWithStatus2() throws {
        let command = try CodegenCommand.parse(["swift", "--schema", Scratch.schema("pizza"), "--version", "9", "--output", Scratch.file("swift").path])
        #expect(throws: ExitCode(2)) { try command.run() }
    }

    @Test func schemaThatDoesNotLoadExitsWithStatus2() throws {
        let command = try CodegenCommand.parse(["swift", "--schema", "/nonexistent/schema.yaml"])
        #expect(throws: ExitCode(2)) { try command.run() }
    }

    @Test func namespaceAndPublicAreRefusedForJSONSchema() {
        #expect(throws: (any Error).self) {
            _ = try CodegenCommand.parse(["json-schema", "--schema", Scratch.schema("pizza"), "--namespace", "X"])
        }
        #expect(throws: (any Error).self) {
            _ = try CodegenCommand.parse(["json-schema", "--schema", Scratch.schema("pizza"), "--public"])
        }
    }

    /// An --output that is a folder is named as one, not as a Cocoa error number.
    @Test(.enabled(if: Binary.hasCodegen, "livestate's subcommand list does not have CodegenCommand yet"))
    func anOutputThatIsAFolderIsSaidToBeOne() throws {
        let folder = FileManager.default.temporaryDirectory.path
        for target in ["swift", "json-schema"] {
            let result = try Binary.run(["codegen", target, "--schema", "schemas/pizza.yaml", "--output", folder])
            #expect(result.status == 2)
            #expect(result.stderr == "\(folder): error: is a folder, not a file: --output names the file to write [io-error]\n", "\(result.stderr)")
        }
    }

    @Test func unknownTargetIsAUsageError() {
        #expect(throws: (any Error).self) { _ = try CodegenCommand.parse(["kotlin", "--schema", Scratch.schema("pizza")]) }
    }

    @Test(.enabled(if: Binary.hasCodegen, "livestate's subcommand list does not have CodegenCommand yet"))
    func builtBinaryPrintsTheGoldenFileToStandardOutput() throws {
        let result = try Binary.run(["codegen", "swift", "--schema", "schemas/grocery.yaml", "--version", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (try CodegenPaths.plainGolden(activity: "grocery", version: 2)))
        #expect(result.stderr.isEmpty)
    }

    @Test(.enabled(if: Binary.hasCodegen, "livestate's subcommand list does not have CodegenCommand yet"))
    func builtBinaryReportsAnUnknownVersionAsJSONWithStatus2() throws {
        let result = try Binary.run(["codegen", "json-schema", "--schema", "schemas/pizza.yaml", "--version", "7", "--format", "json"])
        #expect(result.status == 2)
        #expect(result.stdout.contains(#""code":"unknown-version""#))
        #expect(result.stdout.contains("the schema has no version 7; it has 1, 2"))
    }
}

private enum Scratch {
    static func schema(_ activity: String) -> String {
        CodegenPaths.packageRoot.appendingPathComponent("schemas/\(activity).yaml").path
    }

    static func file(_ extension: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("codegen-cli-\(UUID().uuidString).\(`extension`)")
    }

    static func remove(_ file: URL) {
        try? FileManager.default.removeItem(at: file)
    }
}

/// The built `livestate` binary.
private enum Binary {
    static var url: URL { LivestateBinary.url }

    /// Whether `livestate codegen` exists in the built binary (`--help` of an unknown
    /// subcommand prints the root's help and exits 0, so it is run for real).
    static var hasCodegen: Bool {
        guard let result = try? run(["codegen", "json-schema", "--schema", "schemas/pizza.yaml", "--version", "1"]) else { return false }
        return result.status == 0 && result.stdout.hasPrefix("{")
    }

    static func run(_ arguments: [String]) throws -> LivestateBinary.Result {
        try LivestateBinary.run(arguments)
    }
}
