import ArgumentParser

@main
struct LiveStateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "livestate",
        abstract: "Validate, decode and evolve Live Activity push payloads against YAML schemas."
    )
}
