import ArgumentParser
import Foundation
import LiveState
import LiveStateTooling

/// `livestate codegen`: Swift types or JSON Schema from a schema file.
struct CodegenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codegen",
        abstract: "Generate the app's Swift ActivityAttributes type, or JSON Schema for servers.",
        discussion: """
            swift: one Swift file with the ActivityAttributes type named by attributes-type and its \
            ContentState, whose init(from:) decodes tolerantly as `livestate decode` does (default: the \
            newest version). json-schema: JSON Schema 2020-12 of the content-state and attributes, of one \
            version or of every version under $defs. Exit status: 0 on success, 2 on usage, I/O, \
            schema or generation errors.
            """
    )

    /// What to generate.
    enum Target: String, ExpressibleByArgument, CaseIterable {
        case swift
        case jsonSchema = "json-schema"
    }

    @Option(help: "Output format of findings: text (compiler style) or json.")
    var format: OutputFormat = .text

    @Option(name: .customLong("fail-on"), help: "Taken as the other commands take it, with no effect: codegen writes its output (exit 0) or fails (exit 2).")
    var failOn: Severity = .error

    @Argument(help: "What to generate: swift or json-schema.")
    var target: Target

    @Option(help: "The schema file; - reads standard input.")
    var schema: String

    @Option(parsing: .unconditional, help: "The app version (swift default: the newest; json-schema default: every version).")
    var version: Int?

    @Option(help: "Write to this file instead of standard output.")
    var output: String?

    @Option(help: "swift: declare every type inside `enum NAME`, so files for several versions can share a module.")
    var namespace: String?

    @Flag(name: .customLong("public"), help: "swift: declare the types and their members public.")
    var isPublic = false

    func validate() throws {
        if target == .jsonSchema, namespace != nil || isPublic {
            throw ValidationError("--namespace and --public apply to codegen swift only")
        }
    }

    func run() throws {
        let loaded = try Output.loadSchema(schema, format: format)
        let text: String
        do {
            switch target {
            case .swift:
                let name = URL(fileURLWithPath: schema).lastPathComponent
                let options = SwiftGenerator.Options(namespace: namespace, isPublic: isPublic, sourceName: schema == "-" ? nil : name)
                text = try SwiftGenerator(options: options).generate(loaded, version: version)
            case .jsonSchema:
                text = try JSONSchemaGenerator().generate(loaded, version: version)
            }
        } catch {
            let diagnostics = error.diagnostics.isEmpty ? [error.diagnostic(file: loaded.file)] : error.diagnostics
            switch format {
            case .text: Output.printText(diagnostics)
            case .json: Output.out(Output.jsonDocument(diagnostics))
            }
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        guard let output else {
            Output.write(Data(text.utf8))
            return
        }
        do throws(InputError) {
            try Output.write(text, toFile: output)
        } catch {
            throw Output.stop([error.diagnostic], format: format)
        }
    }
}
