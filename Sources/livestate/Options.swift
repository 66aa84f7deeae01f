import ArgumentParser
import LiveState

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

    @Option(name: .customLong("fail-on"), help: "The lowest severity that makes the exit status 1: error or warning.")
    var failOn: Severity = .error
}

extension Severity: ExpressibleByArgument {}
