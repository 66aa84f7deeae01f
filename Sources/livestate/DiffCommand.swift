import ArgumentParser
import Foundation
import LiveState
import LiveStateTooling
import LiveStateYAML

/// `livestate diff`: which schema change breaks which app version still in the field.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Check schema versions against each other: which app version breaks on which payloads.",
        discussion: """
            Without --from and --to, checks every pair of versions the mode covers (default: the \
            schema's compatibility:). With either, checks that one pair, both ways unless --mode \
            picks a direction; a missing --from is the oldest live version, a missing --to the \
            newest (--from the newest, or --to the oldest, alone names no pair: a usage error). \
            --list-rules prints the rule catalog.
            Exit status: 0 when the gate holds (no finding at or above --fail-on), 1 when it \
            fails, 2 on usage, I/O or schema-load errors.
            """
    )

    /// The formats `diff` writes.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, yaml, markdown, github

        var reportFormat: CompatibilityReportFormat {
            switch self {
            case .text: .text
            case .json: .json
            case .yaml: .yaml
            case .markdown: .markdown
            case .github: .github
            }
        }
    }

    @Option(help: "The schema file; - reads standard input.")
    var schema: String?

    @Option(parsing: .unconditional, help: "One version of the pair to check (default with --to: the oldest live version).")
    var from: Int?

    @Option(parsing: .unconditional, help: "The other version of the pair to check (default with --from: the newest).")
    var to: Int?

    @Option(help: "The gate: backward, forward, full, backward-transitive, forward-transitive, full-transitive or none (default: the schema's compatibility:).")
    var mode: CompatibilityMode?

    @Option(help: "Output format: text (compiler style), json, yaml, markdown or github (workflow annotations).")
    var format: Format = .text

    @Option(name: .customLong("fail-on"), help: "The lowest severity that makes the exit status 1: info, warning or error.")
    var failOn: Severity = .error

    @Flag(name: .customLong("assume-default-elision"), help: "Assume servers omit values equal to the writer's default: default changes become errors.")
    var assumeDefaultElision = false

    @Flag(name: .customLong("list-rules"), help: "Print the catalog of rules and exit.")
    var listRules = false

    @OptionGroup var fleetOptions: FleetOptions

    func validate() throws {
        if listRules { return }
        guard schema != nil else {
            throw ValidationError("Missing expected argument '--schema <schema>' (or use --list-rules).")
        }
    }

    func run() throws {
        if listRules {
            Self.write(CompatibilityRule.renderedCatalog(as: format.reportFormat))
            return
        }
        guard let schema else { throw ExitCode(ExitStatus.usage.rawValue) }
        let loaded: Schema
        do {
            loaded = try Output.loadSchema(schema)
        } catch {
            throw stop(error.diagnostics, withSource: true)
        }
        let checker = CompatibilityChecker(options: .init(assumeDefaultElision: assumeDefaultElision))
        var report: CompatibilityReport
        if let (from, to) = CompatibilityChecker.pair(in: loaded, from: from, to: to) {
            let available = loaded.versions.map(\.version)
            for version in [from, to] where !available.contains(version) {
                throw Output.stopOnUnknownVersion(.unknownVersion(version, available: available), schema: schema, stop: { stop($0) })
            }
            if let problem = CompatibilityChecker.emptyPairProblem(
                (from, to), from: self.from, to: self.to, spelling: { name, value in "--\(name)" + (value.map { " \($0)" } ?? "") }) {
                // Found once the schema is loaded, in `run`: a `ValidationError` here printed the
                // root command's usage line, not diff's.
                throw stop([Diagnostic(code: "usage", severity: .error, message: problem)])
            }
            report = checker.check(loaded, from: from, to: to, mode: mode)
        } else {
            report = checker.check(loaded, mode: mode)
        }
        if let (fleet, warnings) = try fleetOptions.load(for: loaded, stop: { stop($0) }) {
            // The report is the document on standard output; the fleet file's own warnings go
            // to standard error in every format.
            Output.printText(warnings)
            report = report.weighed(by: fleet, maxDrop: fleetOptions.threshold)
        }
        Self.write(report.rendered(as: format.reportFormat))
        if format == .text {
            Output.err(report.summary)
        }
        if !report.passes(failOn: failOn) {
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }

    /// The stop of a diff that checks nothing (a schema that does not load, a version it does
    /// not have, a fleet file that does not load), with status 2 to throw: in text and JSON as
    /// every command prints one (`Output.stop`); in yaml, markdown and github also in that format
    /// on standard output, where a job reading the format looks (a github run printed no
    /// annotation for a schema that does not load).
    /// - Parameter withSource: Whether text shows each finding's source line, as a schema's.
    private func stop(_ diagnostics: [Diagnostic], withSource: Bool = false) -> ExitCode {
        switch format {
        case .text:
            return Output.stop(diagnostics, format: .text, withSource: withSource)
        case .json:
            return Output.stop(diagnostics, format: .json)
        case .yaml, .markdown, .github:
            Self.write(CompatibilityReport.rendered(stoppedBy: diagnostics, as: format.reportFormat))
            return Output.stop(diagnostics, format: .text, withSource: withSource)
        }
    }

    /// Writes text that already ends with its newline to standard output.
    private static func write(_ text: String) {
        Output.write(Data(text.utf8))
    }
}

extension CompatibilityMode: ExpressibleByArgument {}
