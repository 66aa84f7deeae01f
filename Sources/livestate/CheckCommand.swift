import ArgumentParser
import LiveState
import LiveStateYAML

/// `livestate check`: loads every schema and reports what is wrong with it.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load schemas and report every error in them.",
        discussion: "Exit status: 0 when every schema loads, 2 when one does not."
    )

    @OptionGroup var common: CommonOptions

    @Argument(help: "Schema files or folders of them (*.yaml, *.yml).")
    var paths: [String] = ["schemas"]

    func run() throws {
        let (schemas, diagnostics) = SchemaLoader().loadAll(paths)
        switch common.format {
        case .text:
            Output.printText(diagnostics, toStandardOutput: true)
            for schema in schemas {
                let versions = schema.versions.map { String($0.version) }.joined(separator: ", ")
                Output.out("\(schema.file ?? schema.activity): \(schema.activity) loads (versions \(versions))")
            }
        case .json:
            let loaded = Value.array(schemas.map { schema in
                .object([
                    .init("activity", .string(schema.activity)),
                    .init("file", schema.file.map(Value.string) ?? .null),
                    .init("versions", .array(schema.versions.map { .int($0.version) })),
                ])
            })
            Output.out(Output.jsonDocument(diagnostics, [.init("schemas", loaded)]))
        }
        if diagnostics.contains(where: { $0.severity == .error }) {
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        if schemas.isEmpty {
            Output.err("no schema files found in \(paths.joined(separator: " "))")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        if Output.status(diagnostics, failOn: common.failOn) == .findings {
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }
}
