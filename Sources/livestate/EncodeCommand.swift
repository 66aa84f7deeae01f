import ArgumentParser
import Foundation
import LiveState

/// `livestate encode`: writes the payload for one app version from a state file.
struct EncodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Write the APNs payload (or the bare content-state) for a schema version from a state file.",
        discussion: """
            STATE is a content-state object; missing fields take their defaults, and anything that \
            does not fit the version is an error. The payload goes to standard output (with no \
            final line feed into a file or pipe: the bytes the budget counted), what the \
            encoder did to standard error (--format json wraps both). The body gets lint's verdict \
            for the version. Exit status: 0 written, 1 not written (to standard output; --format \
            json still shows the body the encoder made, if any): the state does not fit the \
            version or the budget, the device would refuse the body (a start without an alert), or \
            a finding is at or above --fail-on; 2 usage, I/O or schema errors.
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(help: "The schema file; - reads standard input.")
    var schema: String

    @Option(parsing: .unconditional, help: "The version to write for (default: the newest).")
    var version: Int?

    @Option(parsing: .unconditional, help: "The timestamp: now (the default), or UNIX seconds.")
    var timestamp: String?

    @OptionGroup var envelopeOptions: EnvelopeOptions

    @Flag(name: .customLong("content-state"), help: "Write the bare content-state, not a whole APNs body.")
    var contentStateOnly = false

    @Flag(name: .customLong("elide-defaults"), help: "Leave out values equal to their default where every app version decodes tolerantly with that default.")
    var elideDefaults = false

    @Flag(help: "When over budget, drop drop-priority fields and shorten truncate strings until the payload fits.")
    var fit = false

    @Flag(help: "A broadcast push: 5120-byte limit.")
    var broadcast = false

    @Argument(help: "The state file (a content-state object); - reads standard input.")
    var state: String

    func validate() throws {
        try Output.refuseStandardInputTwice([schema, state, envelopeOptions.attributes])
    }

    func run() throws {
        // The envelope's rules (event, timestamp, a bare state without envelope flags) are
        // ContentStateEncoder.Request's, which the sidecar's encode route applies too.
        let envelope = try EnvelopeOptions.envelope(
            of: envelopeOptions.request(timestamp: timestamp, contentStateOnly: contentStateOnly, format: common.format), format: common.format)
        let loaded = try Output.loadSchema(schema, format: common.format)
        let encoder: ContentStateEncoder
        do {
            encoder = try ContentStateEncoder(schema: loaded, version: version, elideDefaults: elideDefaults, fit: fit, broadcast: broadcast)
        } catch {
            throw Output.stopOnUnknownVersion(error, schema: schema, format: common.format)
        }
        let input = try InputFile.readOrExit(state, limit: 1 << 20, format: common.format)
        let result = encoder.encode(stateJSON: input.bytes, file: input.name, envelope: contentStateOnly ? nil : envelope)
        let diagnostics = envelopeOptions.placingOptionFindings(result.diagnostics.map { diagnostic in
            var located = diagnostic
            located.file = located.file ?? input.name
            return located
        }, timestampOption: true)
        let refused = result.bytes.isEmpty || Output.status(diagnostics, failOn: common.failOn) == .findings
        switch common.format {
        case .text:
            // A body that is not to be sent is not written where a script takes it from. Into a
            // file or a pipe, its bytes alone: a final line feed would be sent too, one byte past
            // what the budget counted (a body fitted to 4,096 bytes would be refused); on a
            // terminal, a line feed ends it.
            if !refused { Output.write(Data(result.bytes + (isatty(STDOUT_FILENO) == 1 ? [0x0A] : []))) }
            Output.printText(diagnostics)
        case .json:
            Output.out(Output.jsonDocument(diagnostics, verbatim: "payload", result.bytes, [
                .init("budget", result.budgetWithFields(bare: contentStateOnly)?.jsonValue ?? .null),
            ]))
        }
        if refused { throw ExitCode(ExitStatus.findings.rawValue) }
    }
}
