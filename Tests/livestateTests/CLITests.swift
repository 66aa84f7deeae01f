import Foundation
import Testing

/// Runs the built `livestate` binary and captures what it prints.
struct CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var binary: URL {
        // The test bundle sits beside the products of the same build.
        var directory = Bundle.main.bundleURL
        if directory.pathExtension == "xctest" { directory.deleteLastPathComponent() }
        let candidate = directory.appendingPathComponent("livestate")
        if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        return packageRoot.appendingPathComponent(".build/debug/livestate")
    }

    static func fixture(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/livestateTests/Fixtures/\(name)").path
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], stdin: Data? = nil) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        // Output goes to files, so a large output can never block the process on a full pipe.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        let inURL = scratch.appendingPathComponent("in")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        FileManager.default.createFile(atPath: inURL.path, contents: stdin ?? Data())
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let input = try FileHandle(forReadingFrom: inURL)
        defer {
            try? out.close()
            try? err.close()
            try? input.close()
        }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    static func json(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any])
    }
}

@Suite struct CheckCommandTests {
    @Test func bundledSchemasLoad() throws {
        let result = try CLI.run(["check", "schemas"])
        #expect(result.status == 0, "\(result.stderr)")
        for activity in ["delivery", "flash-sale", "match-score", "pizza", "grocery"] {
            #expect(result.stdout.contains("schemas/\(activity).yaml: \(activity) loads"))
        }
    }

    @Test func brokenSchemaExitsTwoWithPosition() throws {
        let result = try CLI.run(["check", CLI.fixture("broken.yaml")])
        #expect(result.status == 2)
        #expect(result.stdout.contains("broken.yaml:6:"))
        #expect(result.stdout.contains("error:"))
        #expect(result.stdout.contains("[schema-invalid-default]"))
    }

    @Test func jsonFormatListsDiagnosticsWithEveryKey() throws {
        let result = try CLI.run(["check", "--format", "json", CLI.fixture("broken.yaml")])
        #expect(result.status == 2)
        let document = try CLI.json(result.stdout)
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        let first = try #require(diagnostics.first)
        #expect(Set(first.keys) == ["code", "severity", "message", "file", "line", "column", "scope", "pointer"])
        #expect(first["line"] as? Int == 6)
        #expect(first["scope"] as? String == "schema")
    }

    @Test func missingPathAndEmptyFolderExitTwo() throws {
        #expect(try CLI.run(["check", "no/such/dir"]).status == 2)
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let result = try CLI.run(["check", empty.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no schema files"))
    }

    @Test func unknownFormatIsAUsageError() throws {
        let result = try CLI.run(["check", "--format", "xml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("xml"))
    }
}

@Suite struct DecodeCommandTests {
    @Test func printsEveryFieldOfTheVersion() throws {
        let result = try CLI.run(["decode", "--schema", "schemas/delivery.yaml", "--version", "2", "schemas/examples/delivery/v2-update.json"])
        #expect(result.status == 0, "\(result.stderr)")
        let state = try CLI.json(result.stdout)
        #expect(state["subtitle"] as? String == "Courier is 3 stops away")
        #expect(state["progress"] as? Double == 0.6)
        #expect(state.keys.count == 11)
    }

    @Test func jsonFormatWrapsStateAndDiagnostics() throws {
        let result = try CLI.run(["decode", "--format", "json", "--schema", "schemas/delivery.yaml", "--version", "2",
                                  "schemas/examples/delivery/v3-update.json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try CLI.json(result.stdout)
        #expect(document["decodes"] as? Bool == true)
        #expect(document["version"] as? Int == 2)
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.contains { $0["code"] as? String == "unknown-key" && $0["pointer"] as? String == "/delayMinutes" })
    }

    @Test func strictOldAppDropsRenamedKeyAndExitsOne() throws {
        let result = try CLI.run(["decode", "--schema", "schemas/delivery.yaml", "--version", "1", "schemas/examples/delivery/v2-update.json"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("[strict-decode-failure]"))
        #expect(result.stderr.contains("subTitle"))
    }

    @Test func readsStandardInput() throws {
        let result = try CLI.run(["decode", "--schema", "schemas/pizza.yaml", "--content-state", "-"],
                                 stdin: Data(#"{"timer":[816000000,816001800]}"#.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("<stdin>:1:1: info:"))
        #expect(try CLI.json(result.stdout)["driverName"] as? String == "")
    }

    @Test func syntaxErrorExitsOneWithLineAndColumn() throws {
        let result = try CLI.run(["decode", "--schema", "schemas/pizza.yaml", "--content-state", "-"],
                                 stdin: Data("{\n  \"timer\": [1, 2".utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains("<stdin>:2:"))
        #expect(result.stderr.contains("[json-syntax]"))
    }

    @Test func hugeInputIsALimitError() throws {
        let huge = Data(("{\"name\":\"" + String(repeating: "x", count: 10_000_000) + "\"}").utf8)
        let result = try CLI.run(["decode", "--schema", "schemas/pizza.yaml", "--content-state", "-"], stdin: huge)
        #expect(result.status == 1)
        #expect(result.stderr.contains("[json-limit]"))
    }

    @Test func deepNestingIsALimitError() throws {
        let deep = Data(String(repeating: "[", count: 100_000).utf8)
        let result = try CLI.run(["decode", "--schema", "schemas/pizza.yaml", "--content-state", "-"], stdin: deep)
        #expect(result.status == 1)
        #expect(result.stderr.contains("[json-limit]"))
    }

    @Test func directoryAsPayloadIsAnIOError() throws {
        let result = try CLI.run(["decode", "--schema", "schemas/pizza.yaml", "schemas"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("is a directory"))
    }

    @Test func unknownVersionIsAUsageError() throws {
        let result = try CLI.run(["decode", "--schema", "schemas/pizza.yaml", "--version", "9", "schemas/examples/pizza/v1-update.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no version 9"))
    }

    @Test func missingSchemaOptionIsAUsageError() throws {
        let result = try CLI.run(["decode", "schemas/examples/pizza/v1-update.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--schema"))
    }

    @Test func brokenSchemaExitsTwo() throws {
        let result = try CLI.run(["decode", "--schema", CLI.fixture("broken.yaml"), "schemas/examples/pizza/v1-update.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("[schema-invalid-default]"))
    }
}
