import ArgumentParser
@_spi(Scanner) import LiveState
import LiveStateTooling

/// `livestate decode`: the state as one app version sees it.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Print the content-state as an app version decodes it, and why.",
        discussion: """
            Exit status: 0 when the app version would decode the update, 1 when it would drop it \
            (or, for a strict version, which applies it, when a value breaks a constraint of the \
            schema), 2 on usage, I/O or schema errors.
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(help: "The schema file; - reads standard input.")
    var schema: String

    @Option(parsing: .unconditional, help: "The app version to decode as (default: the newest).")
    var version: Int?

    @Flag(name: .customLong("content-state"), help: "The payload is a bare content-state object, not a whole APNs body.")
    var contentState = false

    @Option(name: .customLong("max-bytes"), parsing: .unconditional, help: "The largest input accepted, in bytes.")
    var maxBytes = 1 << 20

    @Argument(help: "The payload file; - reads standard input.")
    var payload: String

    func validate() throws {
        try Output.checkMaxBytes(maxBytes)
        try Output.refuseStandardInputTwice([schema, payload])
    }

    func run() throws {
        let loaded = try Output.loadSchema(schema, format: common.format)
        var decoder: ContentStateDecoder
        do {
            decoder = try ContentStateDecoder(schema: loaded, version: version, options: JSONScanOptions(maxInputBytes: maxBytes))
        } catch {
            throw Output.stopOnUnknownVersion(error, schema: schema, format: common.format)
        }
        let input = try InputFile.readOrExit(payload, limit: maxBytes, format: common.format)
        // A whole body gets the validator's verdict, the one `lint` and the sidecar give: the
        // envelope counts too (a start whose attributes fail starts nothing).
        let (state, diagnostics, decodes): (Value?, [Diagnostic], Bool)
        var hasContentState = true
        if contentState {
            // Read as `lint` reads a body's content-state: a date that looks like UNIX time is said.
            decoder.flagsUnixDates = true
            let result = decoder.decode(contentState: input.bytes, file: input.name)
            // A whole body read as a content-state decodes as every field's default, and exits 0.
            if result.allDiagnostics.contains(where: { $0.code == DiagnosticCode.unknownKey && $0.pointer == "/aps" }),
               case .object? = (try? Value.parse(json: input.bytes))?["aps"] {
                throw Output.stop([Diagnostic(
                    code: "usage", severity: .error,
                    message: "the file is a whole APNs body (it has an aps object), not a bare content-state: leave out --content-state",
                    file: input.name)], format: common.format)
            }
            (state, diagnostics, decodes) = (result.state, result.allDiagnostics, result.appDecodes)
        } else {
            let validator = PayloadValidator(decoder: decoder, options: .init(scan: decoder.options, measuresFields: false))
            let result = validator.validate(input.bytes, file: input.name)
            (state, diagnostics, decodes) = (result.state, result.diagnostics, result.appDecodes)
            hasContentState = result.budget.contentState != nil
        }
        // An update the app drops shows nothing, whatever the tolerant read of its content-state
        // made (a start whose attributes fail, a strict version's Codable failing).
        // Nor, for a strict version, a state the schema refuses: the app applies the values as
        // sent (its synthesized Codable checks no constraint), not the schema's reading of them.
        // An error of the envelope (a timestamp in milliseconds) is no refusal of the state.
        let refusedByStrict = loaded.isStrict(decoder.version.version)
            && diagnostics.contains { $0.severity == .error && $0.scope == .contentState }
        let shown = decodes && !refusedByStrict ? state : nil
        switch common.format {
        case .text:
            if let shown {
                Output.out(JSONWriter.pretty(shown))
            } else if decodes, !hasContentState {
                // An end without a content-state: it applies, and there is no state to show.
                Output.out("no content-state: the activity ends showing the state it has")
            } else if decodes {
                // A strict version applies a state whose values break only the schema's constraints.
                Output.out("no state: the schema refuses it (see the errors), but this app version applies it as synthesized Codable reads it")
            }
            Output.printText(diagnostics)
        case .json:
            Output.out(Output.jsonDocument(diagnostics, [
                .init("version", .int(decoder.version.version)),
                .init("decodes", .bool(decodes)),
                .init("state", shown ?? .null),
            ]))
        }
        if !decodes || Output.status(diagnostics, failOn: common.failOn) == .findings {
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }
}
