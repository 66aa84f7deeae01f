import ArgumentParser
import Foundation

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
                Output.write(Data((fullMessage(for: error) + "\n").utf8), toStandardError: true)
                Foundation.exit(ExitStatus.usage.rawValue)
            }
            exit(withError: error)
        }
    }
}
