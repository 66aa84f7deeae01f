import ArgumentParser
import Foundation
import LiveState
import LiveStateTooling

/// `livestate lint`: validates payload files as APNs and the device will see them.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Validate APNs payload files: the aps envelope, the content-state and the byte budget.",
        discussion: """
            Each PAYLOAD is a whole APNs body ({"aps": {...}}); - reads standard input. Findings print \
            compiler style to standard output. Exit status: 0 clean or warnings only, 1 errors (or \
            warnings with --fail-on warning), 2 usage, I/O or schema errors.
            """
    )

    @OptionGroup var common: CommonOptions

    @OptionGroup var fleetOptions: FleetOptions

    @Option(help: "The schema file; - reads standard input.")
    var schema: String

    @Option(parsing: .unconditional, help: "The app version to check for (default: the newest).")
    var version: Int?

    @Flag(name: .customLong("all-versions"), help: "Check for every live (not retired) version in the schema and say which app versions drop each update.")
    var allVersions = false

    @Flag(help: "The payloads are broadcast pushes: 5120-byte limit, no start.")
    var broadcast = false

    @Option(name: .customLong("max-bytes"), parsing: .unconditional, help: "The largest input accepted, in bytes.")
    var maxBytes = 1 << 20

    @Flag(help: "Also print info findings (defaults taken) in text output.")
    var verbose = false

    @Argument(help: "Payload files, or folders of them (*.json); - reads standard input.")
    var payloads: [String]

    func validate() throws {
        try Output.checkMaxBytes(maxBytes)
        if (allVersions || fleetOptions.fleet != nil) && version != nil {
            throw ValidationError("--version excludes --all-versions and --fleet, which check every version")
        }
        if payloads.isEmpty {
            throw ValidationError("name at least one payload file, or - for standard input")
        }
        try Output.refuseStandardInputTwice([schema] + payloads)
    }

    func run() throws {
        let loaded = try Output.loadSchema(schema, format: common.format)
        let options = PayloadValidator.Options(broadcast: broadcast, scan: JSONScanOptions(maxInputBytes: maxBytes), measuresFields: false)
        let validator: PayloadValidator
        do {
            validator = try PayloadValidator(schema: loaded, version: version, options: options)
        } catch {
            throw Output.stopOnUnknownVersion(error, schema: schema, format: common.format)
        }
        let weighing = try fleetOptions.load(for: loaded, format: common.format)
        let fleet = weighing?.fleet
        let (files, ioErrors) = Output.readPayloads(payloads, limit: maxBytes)
        var diagnostics = ioErrors + (weighing?.warnings ?? [])
        var reports: [Value] = []
        var summaries: [String] = []
        for file in files {
            var found: [Diagnostic]
            var report: [Value.Member] = [.init("file", .string(file.name))]
            var clocked: ValidationResult?
            if allVersions || fleet != nil {
                let all = PayloadValidator.validateAllVersions(loaded, file.bytes, file: file.name, options: options, fleet: fleet,
                                                              maxDrop: fleet.map { _ in fleetOptions.threshold })
                found = all.diagnostics
                clocked = all.results.first?.result
                report.append(.init("decodes", .object(all.results.map { .init(String($0.version), .bool($0.result.appDecodes)) })))
                if let fleet {
                    let (gated, impact) = PayloadValidator.weigh(all, by: fleet, maxDrop: fleetOptions.threshold)
                    found = gated
                    report.append(.init("fleet", impact.jsonValue))
                    // In the push's own terms: a start, an update (a broadcast one), an end.
                    let push = switch all.results.first?.result.event {
                    case .start?: "this start"
                    case .end?: "this end"
                    default: options.broadcast ? "this broadcast update" : "this update"
                    }
                    summaries.append("\(file.name): \(impact.sentence(losing: push))")
                }
            } else {
                let result = validator.validate(file.bytes, file: file.name)
                found = result.diagnostics
                clocked = result
                report.append(.init("decodes", .bool(result.appDecodes)))
            }
            // A body stamped ahead of the clock harms the updates after it, on every version:
            // `send`'s rule, at the value in the file. (Not `timestamp-in-past`: a file is sent
            // at another time than it is read, and a stored example is always stamped before.)
            PushHistory.holdToClock(clocked, now: Int(Date().timeIntervalSince1970), file: file.name, in: file.bytes, findings: &found)
            diagnostics += found
            reports.append(.object(report))
        }
        switch common.format {
        case .text:
            Output.printText(verbose ? diagnostics : diagnostics.filter { $0.severity > .info }, toStandardOutput: true)
            for summary in summaries { Output.out(summary) }
        case .json:
            Output.out(Output.jsonDocument(diagnostics, [.init("files", .array(reports))]))
        }
        if !ioErrors.isEmpty { throw ExitCode(ExitStatus.usage.rawValue) }
        if Output.status(diagnostics, failOn: common.failOn) == .findings {
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }
}
