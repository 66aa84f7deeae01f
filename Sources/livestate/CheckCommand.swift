import ArgumentParser
import LiveState
import LiveStateYAML

/// `livestate check`: loads every schema and reports what is wrong with it.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Load schemas, report every error in them, and run each schema's compatibility gate.",
        discussion: """
            Every version pair the gate covers (the schema's compatibility:, or --mode) is checked \
            in both directions, as `livestate diff` does; findings of warning severity and above are \
            printed. Exit status: 0 when every schema loads and passes its gate, 1 when a gate fails \
            (findings at or above --fail-on), 2 when a schema does not load.
            """
    )

    @OptionGroup var common: CommonOptions

    @OptionGroup var fleetOptions: FleetOptions

    @Option(help: "The gate for every schema: backward, forward, full, their -transitive forms, or none (default: each schema's compatibility:).")
    var mode: CompatibilityMode?

    @Argument(help: "Schema files or folders of them (*.yaml, *.yml).")
    var paths: [String] = ["schemas"]

    func run() throws {
        let (schemas, loadDiagnostics) = SchemaLoader().loadAll(paths)
        var gate = CompatibilityGate.run(schemas, mode: mode)
        var impact: FleetImpact?
        if fleetOptions.fleet != nil, loadDiagnostics.isEmpty {
            // A fleet file counts the versions of one activity.
            guard schemas.count == 1, let schema = schemas.first else {
                Output.err("--fleet weighs one schema's versions; name one schema file (found \(schemas.count))")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            let fleet = try fleetOptions.load(for: schema)
            if let fleet {
                let report = CompatibilityChecker().check(schema, mode: mode).weighed(by: fleet, maxDrop: fleetOptions.threshold)
                gate = report.findings.filter { $0.severity >= .warning }.map(\.diagnostic)
                impact = report.fleet
            }
        }
        let diagnostics = loadDiagnostics + gate
        switch common.format {
        case .text:
            Output.printWithSource(loadDiagnostics, toStandardOutput: true)
            Output.printText(gate, toStandardOutput: true)
            for schema in schemas {
                let versions = schema.versions.map { String($0.version) }.joined(separator: ", ")
                let findings = gate.filter { $0.file == schema.file }
                let verdict = findings.contains { $0.severity >= common.failOn }
                    ? "fails its \(mode?.rawValue ?? schema.compatibility.rawValue) gate" : "passes its \(mode?.rawValue ?? schema.compatibility.rawValue) gate"
                Output.out("\(schema.file ?? schema.activity): \(schema.activity) loads (versions \(versions)) and \(verdict)")
            }
            if let impact { Output.out("fleet: \(impact.sentence(losing: "updates"))") }
        case .json:
            let loaded = Value.array(schemas.map { schema in
                .object([
                    .init("activity", .string(schema.activity)),
                    .init("file", schema.file.map(Value.string) ?? .null),
                    .init("versions", .array(schema.versions.map { .int($0.version) })),
                    .init("compatibility", .string(mode?.rawValue ?? schema.compatibility.rawValue)),
                ])
            })
            Output.out(Output.jsonDocument(diagnostics, [.init("schemas", loaded), .init("fleet", impact?.jsonValue ?? .null)]))
        }
        if loadDiagnostics.contains(where: { $0.severity == .error }) {
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
