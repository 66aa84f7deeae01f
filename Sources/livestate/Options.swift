import ArgumentParser
import LiveState
import LiveStateTooling
import LiveStateYAML

/// How a command prints its results.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
}

/// The exit statuses every command shares.
enum ExitStatus: Int32 {
    /// Clean, or warnings only.
    case clean = 0
    /// Findings at or above `--fail-on`, or the app would drop the update.
    case findings = 1
    /// Usage, I/O or schema-load errors.
    case usage = 2
}

/// Flags every command takes.
struct CommonOptions: ParsableArguments {
    @Option(help: "Output format: text (compiler style) or json.")
    var format: OutputFormat = .text

    @Option(name: .customLong("fail-on"), help: "The lowest severity that makes the exit status 1: info, warning or error.")
    var failOn: Severity = .error
}

extension Severity: ExpressibleByArgument {}

/// The fleet options of `lint`, `check` and `diff`: devices per schema version, and the share of
/// them a gate lets drop an update.
struct FleetOptions: ParsableArguments {
    @Option(help: "A fleet file: devices per schema version (CSV with a version,count header; or .json, .yaml). Verdicts then name shares of devices.")
    var fleet: String?

    @Option(name: .customLong("max-drop"), parsing: .unconditional,
            help: "With --fleet: the gate fails only when more than this share of devices would drop an update, written 1% or 1 (default 0%).",
            transform: { try FleetThreshold.argument($0, of: "--max-drop") })
    var maxDrop: FleetThreshold?

    func validate() throws {
        if maxDrop != nil, fleet == nil {
            throw ValidationError("--max-drop needs --fleet: without fleet data every drop fails the gate")
        }
        // `-` reads standard input for a schema or payloads; a fleet's format is its file's
        // extension, so it is a file (it was looked for as a file named `-`).
        if fleet == "-" {
            throw ValidationError("--fleet takes the fleet file's path (.csv, .json or .yaml); it does not read standard input")
        }
    }

    /// The threshold: `--max-drop`, or 0%.
    var threshold: FleetThreshold { maxDrop ?? .noDrop }

    /// Reads the fleet file, when one is given, and checks it against `schema`. An error stops
    /// the command with status 2, printed as `format` prints a stop (`Output.stop`: in JSON, the
    /// one document on standard output); the warnings come back with the fleet, for the command
    /// to report with its own findings.
    func load(for schema: Schema, format: OutputFormat) throws -> (fleet: Fleet, warnings: [Diagnostic])? {
        try load(for: schema) { Output.stop($0, format: format) }
    }

    /// `load(for:format:)`, an error printed by `stop`, which returns the status to throw: for
    /// a command with formats of its own (`diff --format github`).
    func load(for schema: Schema, stop: ([Diagnostic]) -> ExitCode) throws -> (fleet: Fleet, warnings: [Diagnostic])? {
        guard let path = fleet else { return nil }
        let (fleet, problems) = FleetLoader.load(contentsOf: path, for: schema)
        guard let fleet else { throw stop(problems) }
        return (fleet, problems)
    }
}

extension FleetThreshold {
    /// The threshold `text` gives `option`, refused with the form it takes (the parser's own
    /// refusal said only that the value is invalid).
    static func argument(_ text: String, of option: String) throws -> FleetThreshold {
        // The parser's refusal names the value before these words.
        guard let threshold = FleetThreshold(text) else { throw ValidationError("\(option) must be \(FleetThreshold.form)") }
        return threshold
    }
}
