import ArgumentParser
import Foundation
import LiveState

@main
struct LiveStateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "livestate",
        abstract: "Validate, decode and evolve Live Activity push payloads against YAML schemas.",
        subcommands: [CheckCommand.self, LintCommand.self, BudgetCommand.self, DecodeCommand.self, EncodeCommand.self, DiffCommand.self, CodegenCommand.self, ImportCommand.self, ServeCommand.self, SendCommand.self, ChannelsCommand.self]
    )

    /// Runs the command; usage errors exit 2, as every `livestate` command documents.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                // Asked for JSON, a usage error is a JSON document too, as the commands' own
                // usage errors are: a CI job that reads standard output found nothing to read.
                let arguments = CommandLine.arguments.dropFirst()
                if asksForJSON(arguments) {
                    _ = Output.stop([Diagnostic(code: "usage", severity: .error, message: message(for: error))], format: .json)
                } else if arguments.first == ServeCommand.configuration.commandName,
                          ServeCommand.asksForJSONLogs(arguments.dropFirst(), environment: ProcessInfo.processInfo.environment) {
                    // The sidecar's usage errors found by the parser, as a JSON log line alone, as its own are.
                    ServeCommand.logUsageError(message(for: error))
                    Foundation.exit(ExitStatus.usage.rawValue)
                }
                Output.write(Data((fullMessage(for: error) + "\n").utf8), toStandardError: true)
                Foundation.exit(ExitStatus.usage.rawValue)
            }
            exit(withError: error)
        }
    }

    /// Whether `arguments` hold `--format json` (or `--format=json`), before a `--`, for a command
    /// that writes JSON (`serve` and `import` take no `--format`: theirs is an unknown option).
    static func asksForJSON(_ arguments: ArraySlice<String>) -> Bool {
        guard let name = arguments.first,
              configuration.subcommands.contains(where: { $0.configuration.commandName == name && $0 is any WritesJSON.Type }) else {
            return false
        }
        return lastValue(of: "--format", in: arguments) == "json"
    }

    /// The value of the last `option` in `arguments` (`--option value` or `--option=value`),
    /// before a `--`, read before the arguments parse: the one the parser takes.
    static func lastValue(of option: String, in arguments: ArraySlice<String>) -> String? {
        var previous = ""
        var value: String?
        for argument in arguments {
            if argument == "--" { break }
            if argument.hasPrefix(option + "=") { value = String(argument.dropFirst(option.count + 1)) }
            if previous == option { value = argument }
            previous = argument
        }
        return value
    }
}

/// A command that takes `--format json`, whose usage errors are then a JSON document too.
protocol WritesJSON {}

extension CheckCommand: WritesJSON {}
extension LintCommand: WritesJSON {}
extension BudgetCommand: WritesJSON {}
extension DecodeCommand: WritesJSON {}
extension EncodeCommand: WritesJSON {}
extension DiffCommand: WritesJSON {}
extension CodegenCommand: WritesJSON {}
extension SendCommand: WritesJSON {}
