import Foundation
import LiveState
import LiveStateTooling
import LiveStateYAML
import Testing
import LiveStateTestSupport

/// The generated files are pinned: regenerating gives the committed bytes, and every file
/// compiles in Swift 6 mode with warnings as errors. The Swift files are pinned once, as the
/// compiled, namespaced files in `Generated/`; the plain output (no `--namespace`) must be the
/// same declarations outside the namespace (`CodegenPaths.plainGolden`).
@Suite struct CodegenGoldenTests {
    @Test(arguments: GeneratedVersion.all)
    func regeneratedSwiftIsTheCompiledFileOutsideItsNamespace(_ generated: GeneratedVersion) throws {
        let text = try plainSwift(generated)
        let expected = try CodegenPaths.plainGolden(activity: generated.activity, version: generated.version)
        #expect(text == expected)
        #expect(!text.contains("enum \(CodegenPaths.namespace(activity: generated.activity, version: generated.version))"))
    }

    private func plainSwift(_ generated: GeneratedVersion) throws -> String {
        let schema = try CodegenPaths.schema(generated.activity)
        let options = SwiftGenerator.Options(sourceName: "\(generated.activity).yaml")
        return try SwiftGenerator(options: options).generate(schema, version: generated.version)
    }

    @Test(arguments: GeneratedVersion.all)
    func regeneratedNamespacedSwiftMatchesTheCompiledFileByteForByte(_ generated: GeneratedVersion) throws {
        let schema = try CodegenPaths.schema(generated.activity)
        let namespace = CodegenPaths.namespace(activity: generated.activity, version: generated.version)
        let options = SwiftGenerator.Options(namespace: namespace, sourceName: "\(generated.activity).yaml")
        let text = try SwiftGenerator(options: options).generate(schema, version: generated.version)
        try Golden.check(text, at: CodegenPaths.generated.appendingPathComponent("\(namespace).swift"))
    }

    @Test(arguments: CodegenPaths.schemaFiles.map { $0.deletingPathExtension().lastPathComponent })
    func regeneratedJSONSchemaMatchesTheGoldenFileByteForByte(_ activity: String) throws {
        let text = try JSONSchemaGenerator().generate(try CodegenPaths.schema(activity))
        try Golden.check(text, at: CodegenPaths.golden.appendingPathComponent("\(activity).schema.json"))
    }

    @Test func regeneratedSingleVersionJSONSchemaMatchesTheGoldenFileByteForByte() throws {
        let text = try JSONSchemaGenerator().generate(try CodegenPaths.schema("delivery"), version: 3)
        try Golden.check(text, at: CodegenPaths.golden.appendingPathComponent("delivery-v3.schema.json"))
    }

    /// A strict version decodes with synthesized Codable, which knows no defaults, fallbacks or
    /// aliases: its JSON Schema says none of them, as its root says defaults do not apply; the
    /// tolerant version beside it keeps them.
    @Test func aStrictVersionsJSONSchemaHasNoFallbackDefaultOrAliases() throws {
        let yaml = """
            activity: js
            clients: { strict: [1] }
            versions:
              - version: 1
                content-state:
                  e: { type: enum, values: [x, y], fallback: x, default: x, aliases: [kind] }
              - version: 2
                content-state:
                  e: { type: enum, values: [x, y], fallback: x, default: x, aliases: [kind] }
            """
        let schema = try SchemaLoader().load(yaml: Array(yaml.utf8), file: "js.yaml")
        let property = { (version: Int) throws -> [String: Value] in
            let document = try JSONSchemaGenerator().document(schema, version: version)
            guard case .object(let properties)? = document["properties"], case .object(let members)? = properties.first(where: { $0.name == "e" })?.value else {
                Issue.record("no property e in \(document)")
                return [:]
            }
            return Dictionary(members.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        let strict = try property(1)
        #expect(strict["x-livestate-fallback"] == nil && strict["default"] == nil && strict["x-livestate-aliases"] == nil, "\(strict)")
        #expect(strict["description"] == nil, "\(strict)")
        let tolerant = try property(2)
        #expect(tolerant["x-livestate-fallback"] == .string("x") && tolerant["default"] == .string("x"), "\(tolerant)")
        #expect(tolerant["x-livestate-aliases"] == .array([.string("kind")]))
        #expect(tolerant["description"] == .string(#"An unknown value reads as "x"."#), "\(tolerant)")
    }

    @Test func everySchemaVersionHasGeneratedTypesInThisTarget() throws {
        var expected: [String] = []
        for file in CodegenPaths.schemaFiles {
            let activity = file.deletingPathExtension().lastPathComponent
            expected += try CodegenPaths.schema(activity).versions.map { "\(activity) v\($0.version)" }
        }
        #expect(GeneratedVersion.all.map(\.testDescription).sorted() == expected.sorted())
    }

    @Test(arguments: GeneratedVersion.all)
    func plainSwiftTypechecksInSwift6WithWarningsAsErrors(_ generated: GeneratedVersion) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-\(generated.activity)-v\(generated.version)-\(UUID().uuidString).swift")
        try Data(try plainSwift(generated).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try Swiftc.typecheck([file])
        #expect(result.status == 0, "\(generated.activity) v\(generated.version):\n\(result.output)")
    }

    @Test func compiledSwiftFilesTypecheckTogetherInSwift6WithWarningsAsErrors() throws {
        let files = GeneratedVersion.all.map {
            CodegenPaths.generated.appendingPathComponent(CodegenPaths.namespace(activity: $0.activity, version: $0.version) + ".swift")
        }
        let result = try Swiftc.typecheck(files)
        #expect(result.status == 0, "\(result.output)")
    }

    /// An object field named after a number format's type (`decimal`, `int8`) was a nested
    /// struct of that name, which hid the type from its own members: the file did not compile.
    @Test func fieldsNamedAfterNumberTypesTypecheck() throws {
        let text = try swift(ofOneVersion: "shadows", contentState: """
                  decimal: { type: object, fields: { d: { type: double, format: decimal, default: 0 } }, default: {} }
                  int8: { type: object, fields: { i: { type: int, format: int8, default: 0 } }, default: {} }
                  float: { type: array, items: { type: object, fields: { f: { type: double, format: float, default: 0 } } }, default: [] }
                  uInt64: { type: map, items: { type: object, fields: { u: { type: int, format: uint64, default: 0 } } }, default: {} }
            """)
        let result = try Swiftc.typecheck(source: text)
        #expect(result.status == 0, "\(result.output)\n\(text)")
    }

    /// A CR in a description ended its `///` comment, as an LF does, and Swift compiled the
    /// rest as code in the app's type; so could an alias or the file's name. Every line break
    /// Swift or an editor sees starts a new comment line, and other control characters are
    /// written escaped (a NUL was a compiler warning).
    @Test func schemaTextInCommentsStaysInComments() throws {
        let text = try swift(ofOneVersion: "comments", contentState: """
                  title:
                    type: string
                    default: ""
                    description: "line one\\rlet injected = 1; struct X {\\r\\nlet crlf = 2\\u2028ls\\u2029ps\\x1B[2J\\0nul\\ttab"
                    aliases: ["old\\rlet alias = 3"]
            """, options: .init(sourceName: "x\rlet source = 4.yaml"))
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        let code = lines.map { $0.trimmingPrefix(while: \.isWhitespace) }.filter { !$0.hasPrefix("//") }
        #expect(!code.contains { $0.hasPrefix("let alias") || $0.contains("let injected") || $0.contains("let crlf") || $0.contains("let source") }, "\(text)")
        #expect(text.contains("        /// line one\n        /// let injected = 1; struct X {\n        /// let crlf = 2\n        /// ls\n"
            + "        /// ps\\u{1B}[2J\\u{0}nul\ttab\n"), "\(text)")
        let result = try Swiftc.typecheck(source: text)
        #expect(result.status == 0, "\(result.output)\n\(text)")
    }

    /// The Swift generated for a schema of one version, `activity`, whose content-state is
    /// `contentState` (YAML, indented as under `content-state:`).
    private func swift(ofOneVersion activity: String, contentState: String, options: SwiftGenerator.Options = .init()) throws -> String {
        let yaml = "activity: \(activity)\nattributes-type: \(activity.capitalized)Attributes\nversions:\n  - version: 1\n    content-state:\n"
            + contentState
        return try SwiftGenerator(options: options).generate(try SchemaLoader().load(yaml: Array(yaml.utf8), file: "\(activity).yaml"))
    }

    @Test func publicSwiftTypechecksInSwift6WithWarningsAsErrors() throws {
        let options = SwiftGenerator.Options(namespace: "EdgeCasesPublic", isPublic: true)
        let text = try SwiftGenerator(options: options).generate(try CodegenPaths.schema("edge-cases"))
        let result = try Swiftc.typecheck(source: text)
        #expect(result.status == 0, "\(result.output)")
        #expect(text.contains("public struct EdgeCaseAttributes: Codable, Hashable, Sendable"))
        #expect(text.contains("        public init(from decoder: any Decoder) throws"))
    }
}

/// Compares generated text with a committed file, or rewrites it under `LIVESTATE_UPDATE_CODEGEN=1`.
extension Golden {
    /// Checks a generated file against its golden copy (`LIVESTATE_UPDATE_CODEGEN=1` rewrites it).
    static func check(_ text: String, at file: URL) throws {
        try check(text, at: file, update: "LIVESTATE_UPDATE_CODEGEN", rerun: "swift test --filter CodegenGoldenTests, then rebuild")
    }
}

/// Runs `swiftc -typecheck -swift-version 6 -warnings-as-errors` with the built `LiveState`
/// module on the import path, as an app that depends on the package has it.
enum Swiftc {
    struct Result {
        var status: Int32
        var output: String
    }

    /// Typechecks one generated file's text, written to a scratch file for the run.
    static func typecheck(source text: String) throws -> Result {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-\(UUID().uuidString).swift")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try typecheck([file])
    }

    static func typecheck(_ files: [URL], extra: [String] = []) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-I", CodegenPaths.modulesDirectory.path]
            + extra + files.map(\.path)
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-swiftc-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: try Data(contentsOf: log), as: UTF8.self))
    }
}
