import ArgumentParser
import Foundation
import LiveState
import LiveStateTooling
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

    @Option(name: .customLong("suggest-retire"), parsing: .unconditional,
            help: "With --fleet: list the versions (all but the newest) that hold less than this share of devices, written 0.5% or 0.5, with the YAML that retires them.",
            transform: { try FleetThreshold.argument($0, of: "--suggest-retire") })
    var suggestRetire: FleetThreshold?

    func validate() throws {
        if suggestRetire != nil, fleetOptions.fleet == nil {
            throw ValidationError("--suggest-retire needs --fleet")
        }
        try Output.refuseStandardInputTwice(paths)
    }

    @Option(help: "The gate for every schema: backward, forward, full, their -transitive forms, or none (default: each schema's compatibility:).")
    var mode: CompatibilityMode?

    @Argument(help: "Schema files or folders of them (*.yaml, *.yml); - reads standard input.")
    var paths: [String] = ["schemas"]

    func run() throws {
        var schemas: [Schema] = []
        var loadDiagnostics: [Diagnostic] = []
        for path in paths {
            if path == "-" {
                do throws(SchemaLoadError) { schemas.append(try Output.loadSchema(path)) } catch { loadDiagnostics += error.diagnostics }
            } else {
                let loaded = SchemaLoader().loadAll([path])
                schemas += loaded.schemas
                loadDiagnostics += loaded.diagnostics
            }
        }
        // Infos are findings only for `--fail-on info`.
        let reported = min(Severity.warning, common.failOn)
        var gate = CompatibilityGate.run(schemas, mode: mode, minimumSeverity: reported)
        var impact: FleetImpact?
        var retire: [RetireSuggestion] = []
        // A path that gave only a warning (a folder of no schema files) does not stop it.
        let loadFailed = loadDiagnostics.contains { $0.severity == .error }
        if fleetOptions.fleet != nil, !loadFailed {
            // A fleet file counts the versions of one activity.
            guard schemas.count == 1, let schema = schemas.first else {
                Output.err("--fleet weighs one schema's versions; name one schema file (found \(schemas.count))")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            if let (fleet, warnings) = try fleetOptions.load(for: schema, format: common.format) {
                let report = CompatibilityChecker().check(schema, mode: mode).weighed(by: fleet, maxDrop: fleetOptions.threshold)
                gate = warnings + report.findings.filter { $0.severity >= reported }.map(\.diagnostic)
                impact = report.fleet
                if let suggestRetire { retire = RetireSuggestion.list(schema, fleet: fleet, under: suggestRetire) }
            }
        }
        let diagnostics = loadDiagnostics + gate
        switch common.format {
        case .text:
            Output.printWithSource(loadDiagnostics, toStandardOutput: true)
            Output.printText(gate, toStandardOutput: true)
            for schema in schemas {
                let numbers = schema.versions.map { String($0.version) }.joined(separator: ", ")
                let versions = (schema.versions.count == 1 ? "version " : "versions ") + numbers
                let findings = gate.filter { $0.file == schema.file }
                let verdict = findings.contains { $0.severity >= common.failOn }
                    ? "fails its \(mode?.rawValue ?? schema.compatibility.rawValue) gate" : "passes its \(mode?.rawValue ?? schema.compatibility.rawValue) gate"
                // One line per schema, its names printable as the finding lines' are.
                Output.out(Diagnostic.printable("\(schema.file ?? schema.activity): \(schema.activity) loads (\(versions)) and \(verdict)"))
            }
            if let impact { Output.out("fleet: \(impact.sentence(losing: "updates"))") }
            if let suggestRetire, let schema = schemas.first {
                if retire.isEmpty {
                    Output.out("no version but the newest holds less than \(suggestRetire) of devices: none to retire")
                }
                for suggestion in retire {
                    Output.out(Diagnostic.printable("\(schema.file ?? schema.activity): version \(suggestion.version) holds \(suggestion.described), under \(suggestRetire): retire it"))
                    Output.out(suggestion.yaml)
                }
            }
        case .json:
            let loaded = Value.array(schemas.map { schema in
                .object([
                    .init("activity", .string(schema.activity)),
                    .init("file", schema.file.map(Value.string) ?? .null),
                    .init("versions", .array(schema.versions.map { .int($0.version) })),
                    .init("compatibility", .string(mode?.rawValue ?? schema.compatibility.rawValue)),
                ])
            })
            Output.out(Output.jsonDocument(diagnostics, [
                .init("schemas", loaded), .init("fleet", impact?.jsonValue ?? .null),
                .init("retire", .array(retire.map(\.jsonValue))),
            ]))
        }
        // A fleet weighs one schema that loads; with a path that gave none, the gate ran
        // without it, which must not pass for a weighed verdict.
        if let fleet = fleetOptions.fleet, loadFailed {
            Output.err("--fleet \(Diagnostic.printable(fleet)) was not applied: it weighs the versions of one schema, and not every path named gave a schema that loads")
        }
        if loadFailed {
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        if schemas.isEmpty {
            Output.err("no schema files found in \(Diagnostic.printable(paths.joined(separator: " ")))")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        if Output.status(diagnostics, failOn: common.failOn) == .findings {
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }
}

/// A version that holds less of the fleet than `--suggest-retire`, and the YAML that retires it.
struct RetireSuggestion {
    var version: Int
    var devices: Int
    var share: Double
    var described: String
    var yaml: String

    /// The live versions, all but the newest, under `threshold`, oldest first.
    static func list(_ schema: Schema, fleet: Fleet, under threshold: FleetThreshold) -> [RetireSuggestion] {
        let today = Date().formatted(.iso8601.year().month().day())
        return schema.liveVersions.dropLast().compactMap { version in
            let devices = fleet.devices[version.version] ?? 0
            guard threshold.isAbove(devices, of: fleet.total) else { return nil }
            let share = fleet.share(devices)
            let described = fleet.describe(devices, against: threshold)
            let yaml = """
                  - version: \(version.version)
                    retired: true
                    retired-on: "\(today)"
                    retired-reason: "\(Fleet.percent(devices, of: fleet.total, against: threshold)) of devices (\(devices) of \(fleet.total)) on \(today)"
                """
            return RetireSuggestion(version: version.version, devices: devices, share: share, described: described, yaml: yaml)
        }
    }

    var jsonValue: Value {
        .object([
            .init("version", .int(version)), .init("devices", .int(devices)), .init("share", .double(share)),
            .init("yaml", .string(yaml)),
        ])
    }
}
