import ArgumentParser
import LiveState

/// `livestate budget`: where the bytes of each payload go.
struct BudgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "budget",
        abstract: "Break down the byte budget of APNs payload files.",
        discussion: """
            For each body: its size against the APNs limit (4096 bytes, 5120 with --broadcast), the \
            content-state as sent, the content-state as the device may re-encode it (numbers at 17 \
            significant digits, / escaped), and the bytes of each top-level content-state field. With \
            --schema the re-encoding is of the state the app version decodes. Exit status: 0 within \
            budget, 1 over, 2 usage or I/O errors.
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(help: "The schema file (optional).")
    var schema: String?

    @Option(help: "The app version, with --schema (default: the newest).")
    var version: Int?

    @Flag(help: "The payloads are broadcast pushes: 5120-byte limit.")
    var broadcast = false

    @Option(name: .customLong("max-bytes"), help: "The largest input accepted, in bytes.")
    var maxBytes = 1 << 20

    @Argument(help: "Payload files, or folders of them (*.json); - reads standard input.")
    var payloads: [String]

    func validate() throws {
        if payloads.isEmpty { throw ValidationError("name at least one payload file, or - for standard input") }
        if version != nil && schema == nil { throw ValidationError("--version needs --schema") }
    }

    func run() throws {
        let scan = JSONScanOptions(maxInputBytes: maxBytes)
        var validator: PayloadValidator?
        if let schema {
            let loaded = try Output.loadSchema(schema)
            do {
                validator = try PayloadValidator(schema: loaded, version: version, options: .init(broadcast: broadcast, scan: scan))
            } catch {
                Output.err("\(schema): error: \(error) [unknown-version]")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
        }
        let (files, ioErrors) = Output.readPayloads(payloads, limit: maxBytes)
        var diagnostics = ioErrors
        var reports: [(name: String, budget: ByteBudget)] = []
        for file in files {
            if let validator {
                let result = validator.validate(file.bytes, file: file.name)
                diagnostics += result.diagnostics.filter { $0.code.hasSuffix("over-budget") || $0.code.hasPrefix("json-") }
                reports.append((file.name, result.budget))
            } else {
                let measured = file.bytes.withUnsafeBytes { bytes in
                    Result { () throws(JSONError) in try ByteBudget.measure(body: bytes, broadcast: broadcast, options: scan) }
                }
                switch measured {
                case .success(let budget):
                    diagnostics += budget.diagnostics(file: file.name, contentStatePosition: nil)
                    reports.append((file.name, budget))
                case .failure(let error):
                    diagnostics.append(Diagnostic(code: error.code, severity: .error, message: error.message,
                                                  file: file.name, position: error.position, scope: .envelope))
                }
            }
        }
        switch common.format {
        case .text:
            for report in reports { Output.out(Self.render(report.name, report.budget)) }
            Output.printText(diagnostics, toStandardOutput: true)
        case .json:
            var extra: [Value.Member] = [.init("files", .array(reports.map {
                .object([.init("file", .string($0.name)), .init("budget", $0.budget.jsonValue)])
            }))]
            if reports.count == 1, let only = reports.first { extra.append(.init("budget", only.budget.jsonValue)) }
            Output.out(Output.jsonDocument(diagnostics, extra))
        }
        if !ioErrors.isEmpty { throw ExitCode(ExitStatus.usage.rawValue) }
        if Output.status(diagnostics, failOn: common.failOn) == .findings {
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }

    static func render(_ name: String, _ budget: ByteBudget) -> String {
        var lines = ["\(name): body \(budget.body) of \(budget.limit) bytes, headroom \(budget.headroom)"]
        if let contentState = budget.contentState {
            lines.append("  content-state: \(contentState) bytes as sent, \(budget.deviceWorstCase.map(String.init) ?? "?") as the device may re-encode it (limit \(ByteBudget.contentStateLimit))")
        } else {
            lines.append("  no content-state")
        }
        for field in budget.fields.sorted(by: { $0.bytes > $1.bytes }) {
            lines.append("  \(field.name): \(field.bytes)")
        }
        return lines.joined(separator: "\n")
    }
}
