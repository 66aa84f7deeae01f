import ArgumentParser
import LiveState
import LiveStateTooling

/// `livestate budget`: where the bytes of each payload go.
struct BudgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "budget",
        abstract: "Break down the byte budget of APNs payload files.",
        discussion: """
            For each body: its size against the APNs limit (4096 bytes, 5120 with --broadcast), the \
            content-state as sent, the content-state as the device may re-encode it (numbers at 17 \
            significant digits, / escaped), and the bytes of each top-level content-state field. With \
            --schema the re-encoding is of the state the app version decodes, and the version's static \
            worst case follows: the largest content-state its max-length and max-items allow, and the \
            fields without a bound. --schema without payloads prints the worst case alone. Exit \
            status: 0 within budget, 1 over, not JSON, no APNs body (no aps object), or (with --schema) dropped by the app version, \
            with its first error; 2 usage or I/O errors.
            """
    )

    @OptionGroup var common: CommonOptions

    @Option(help: "The schema file (optional); - reads standard input.")
    var schema: String?

    @Option(parsing: .unconditional, help: "The app version, with --schema (default: the newest).")
    var version: Int?

    @Flag(help: "The payloads are broadcast pushes: 5120-byte limit.")
    var broadcast = false

    @Option(name: .customLong("max-bytes"), parsing: .unconditional, help: "The largest input accepted, in bytes.")
    var maxBytes = 1 << 20

    @Argument(help: "Payload files, or folders of them (*.json); - reads standard input. Optional with --schema.")
    var payloads: [String] = []

    func validate() throws {
        try Output.checkMaxBytes(maxBytes)
        if payloads.isEmpty && schema == nil {
            throw ValidationError("name at least one payload file, or - for standard input, or a --schema to size")
        }
        if version != nil && schema == nil { throw ValidationError("--version needs --schema") }
        try Output.refuseStandardInputTwice([schema] + payloads)
    }

    func run() throws {
        let scan = JSONScanOptions(maxInputBytes: maxBytes)
        var validator: PayloadValidator?
        var worstCase: (version: Int, size: WorstCaseSize)?
        if let schema {
            let loaded = try Output.loadSchema(schema, format: common.format)
            do {
                let made = try PayloadValidator(schema: loaded, version: version, options: .init(broadcast: broadcast, scan: scan))
                validator = made
                worstCase = (made.decoder.version.version, WorstCaseSize.contentState(of: made.decoder.version))
            } catch {
                throw Output.stopOnUnknownVersion(error, schema: schema, format: common.format)
            }
        }
        let (files, ioErrors) = Output.readPayloads(payloads, limit: maxBytes)
        var diagnostics = ioErrors
        var reports: [(name: String, budget: ByteBudget)] = []
        for file in files {
            if let validator {
                let result = validator.validate(file.bytes, file: file.name)
                let budgetFindings = result.diagnostics.filter { $0.code.rawValue.hasSuffix("over-budget") || $0.code.rawValue.hasPrefix("json-") }
                diagnostics += budgetFindings
                if !result.appDecodes, budgetFindings.isEmpty, let reason = result.diagnostics.first(where: { $0.severity == .error }) {
                    // A state the app version drops re-encodes to nothing: why, as `lint` says it
                    // (a number past `Double`, a body that is no APNs body), not a silent pass.
                    diagnostics.append(reason)
                }
                // A file that is not JSON (the validator's one finding then) has no budget to
                // show, its error is the answer; nor has one over the read limit, which is read one
                // byte past it and is `json-limit`.
                let notJSON = budgetFindings.contains { $0.code.rawValue.hasPrefix("json-") }
                if !notJSON { reports.append((file.name, result.budget)) }
            } else {
                let (budget, found) = ByteBudget.measured(body: file.bytes, broadcast: broadcast, options: scan, file: file.name)
                diagnostics += found
                if let budget { reports.append((file.name, budget)) }
            }
        }
        switch common.format {
        case .text:
            for report in reports { Output.out(Self.render(report.name, report.budget, decodedBySchema: validator != nil)) }
            if let schema, let worstCase { Output.out(Self.render(Output.displayName(schema), version: worstCase.version, worstCase.size)) }
            Output.printText(diagnostics, toStandardOutput: true)
        case .json:
            var extra: [Value.Member] = [.init("files", .array(reports.map {
                .object([.init("file", .string($0.name)), .init("budget", $0.budget.jsonValue)])
            }))]
            if reports.count == 1, let only = reports.first { extra.append(.init("budget", only.budget.jsonValue)) }
            if let worstCase { extra.append(.init("worstCase", Self.jsonValue(version: worstCase.version, worstCase.size))) }
            Output.out(Output.jsonDocument(diagnostics, extra))
        }
        if !ioErrors.isEmpty { throw ExitCode(ExitStatus.usage.rawValue) }
        if Output.status(diagnostics, failOn: common.failOn) == .findings {
            throw ExitCode(ExitStatus.findings.rawValue)
        }
    }

    /// A body's budget, one line for the body, one for the content-state and one per field.
    /// - Parameter decodedBySchema: Whether an app version decoded the state (`--schema`), so
    ///   that a state not re-encoded is one that version drops; without a schema, it is a
    ///   content-state that is not an object, which no app decodes.
    static func render(_ name: String, _ budget: ByteBudget, decodedBySchema: Bool) -> String {
        var lines = ["\(name): body \(budget.body) of \(budget.limit) bytes, headroom \(budget.headroom)"]
        if let contentState = budget.contentState {
            // No re-encoded size when the app drops the state: nothing is re-encoded.
            let dropped = decodedBySchema ? "the app version drops it" : "it is not an object, which no app decodes"
            let reencoded = budget.deviceWorstCase.map { "\($0) as the device may re-encode it" } ?? "none re-encoded (\(dropped))"
            lines.append("  content-state: \(contentState) bytes as sent, \(reencoded) (limit \(ByteBudget.contentStateLimit))")
        } else {
            lines.append("  no content-state")
        }
        lines += listed(budget.fields.map { ($0.name, $0.bytes) })
        return printable(lines)
    }

    /// The lines as one text, each `Diagnostic.printable`, as findings are: a key comes from the
    /// payload, and one with a line feed forged a line of its own, one with an escape sequence
    /// drove the terminal.
    static func printable(_ lines: [String]) -> String {
        lines.map { Diagnostic.printable($0) }.joined(separator: "\n")
    }

    /// One line per key, largest first, as a listing shows findings: the first 100, then one
    /// line for the rest and their bytes (a body of 60,000 unknown keys printed 60,005 lines),
    /// and each key's name shown in brief when long.
    static func listed(_ fields: [(name: String, bytes: Int)]) -> [String] {
        let sorted = fields.sorted { $0.bytes > $1.bytes }
        let limit = Diagnostic.listedPerCode
        var lines = sorted.prefix(limit).map { "  \(Diagnostic.shown($0.name)): \($0.bytes)" }
        if sorted.count > limit {
            let rest = sorted.dropFirst(limit)
            lines.append("  \(ValueText.grouped(rest.count)) more keys, \(ValueText.grouped(rest.reduce(0) { $0 + $1.bytes })) bytes, are not listed; the \(limit) largest are")
        }
        return lines
    }

    /// The version's static worst case, in the same style: the total, what `--fit` can bring it
    /// down to, each field at its worst, largest first, and the fields without a bound.
    static func render(_ schema: String, version: Int, _ size: WorstCaseSize) -> String {
        let limit = ByteBudget.contentStateLimit
        // WorstCaseSize counts strings and URLs at max-length before escaping and percent-encoding,
        // numbers at 17 digits, a decimal at every digit it may hold.
        let method = "strings and URLs at max-length bytes, numbers at 17 digits, decimals at \(WorstCaseSize.decimalBytes) bytes; limit \(limit)"
        // Not "at its largest": escaping (`/` written `\/` by the device) can add to it.
        let total = size.isBounded
            ? "at most \(size.bytes) bytes before escaping (\(method))"
            : "unbounded: at least \(size.bytes) bytes before escaping, and no bound on \(size.unbounded.count) field(s) (\(method))"
        var lines = ["\(schema): version \(version) content-state \(total)"]
        if let fitted = size.fittedBytes, fitted != size.bytes || !size.isBounded {
            lines.append("  after --fit (drop-priority fields dropped to their defaults, truncate strings cut to \"…\" or their min-length): \(fitted) bytes")
        }
        lines += listed(size.fields.map { ($0.name, $0.bytes) })
        for field in size.unbounded {
            lines.append("  \(field.pointer): no \(field.missing)")
        }
        return printable(lines)
    }

    /// `{"version", "bytes", "limit", "bounded", "fittedBytes", "fields", "unbounded"}`.
    static func jsonValue(version: Int, _ size: WorstCaseSize) -> Value {
        .object([
            .init("version", .int(version)),
            .init("bytes", .int(size.bytes)),
            .init("limit", .int(ByteBudget.contentStateLimit)),
            .init("bounded", .bool(size.isBounded)),
            .init("fittedBytes", size.fittedBytes.map(Value.int) ?? .null),
            .init("fields", .array(size.fields.map { .object([.init("name", .string($0.name)), .init("bytes", .int($0.bytes))]) })),
            .init("unbounded", .array(size.unbounded.map { .object([.init("pointer", .string($0.pointer)), .init("missing", .string($0.missing))]) })),
        ])
    }
}
