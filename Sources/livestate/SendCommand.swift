import ArgumentParser
import Foundation
import LiveState
import LiveStateAPNs

/// `livestate send`: checks a push against the schema and APNs's rules, then sends it.
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Check a Live Activity push against the schema versions in the field and APNs's rules, then send it.",
        usage: "livestate send --schema <schema> \(APNsOptions.synopsis) "
            + "(--token <token> | --broadcast --channel-id <channel-id> --expiration <expiration> --priority <priority>) [<options>] <state>",
        discussion: """
            STATE is a content-state object (wrapped in an aps envelope built from the flags, with \
            timestamp now) or a whole APNs body with an "aps" object (sent as written). Every \
            targeted app version must decode it, and the request must be one APNs accepts: \
            otherwise nothing is sent and the findings are printed. --dry-run prints the exact \
            request instead of sending it. Exit status: 0 sent and answered 200 (or, with \
            --dry-run, a request printed), 1 refused before sending, answered with an error or not \
            answered after 3 attempts, 2 usage, key, schema or I/O errors.
            """
    )

    @OptionGroup var common: CommonOptions
    @OptionGroup var apns: APNsOptions

    @Option(help: "The schema file; - reads standard input.")
    var schema: String

    @Option(name: .customLong("version"), help: "An app version the push must reach (repeat for several; default: every live version). The state is written for the newest.")
    var versions: [Int] = []

    @Option(help: "The device's push token (hex), or its push-to-start token for a start.")
    var token: String?

    @Flag(help: "A broadcast push to a channel (iOS 18): needs --channel-id, --expiration and --priority.")
    var broadcast = false

    @Option(name: .customLong("channel-id"), help: "The broadcast channel id (base64).")
    var channelID: String?

    @Option(parsing: .unconditional, help: "apns-priority: 10 (immediate; counts against the budget) or 5 (a broadcast also takes 1).")
    var priority: Int?

    @Option(parsing: .unconditional, help: "apns-expiration in UNIX seconds; 0 means one attempt, never stored.")
    var expiration: Int?

    @OptionGroup var envelopeOptions: EnvelopeOptions

    @Option(name: .customLong("apns-id"), help: "apns-id: a lower-case UUID (APNs makes one when omitted).")
    var apnsID: String?

    @Option(name: .customLong("collapse-id"), help: "apns-collapse-id: 1 to 64 bytes, no control characters and no space at either end.")
    var collapseID: String?

    @Flag(name: .customLong("retry-other-environment"), help: "After BadDeviceToken, try the token once in the other environment.")
    var retryOtherEnvironment = false

    @Flag(name: .customLong("dry-run"), help: "Print the request that would be sent (method, :path, every header, the body) and send nothing.")
    var dryRun = false

    @Argument(help: "The state file: a content-state object, or a whole APNs body; - reads standard input.")
    var state: String

    func validate() throws {
        switch (token, broadcast, channelID) {
        case (nil, false, _): throw ValidationError("give --token for a device, or --broadcast with --channel-id")
        case (.some, true, _): throw ValidationError("--token and --broadcast exclude each other")
        case (_, true, nil): throw ValidationError("--broadcast needs --channel-id")
        case (_, false, .some): throw ValidationError("--channel-id goes with --broadcast")
        default: break
        }
        if broadcast && (apnsID != nil || collapseID != nil) {
            throw ValidationError("--apns-id and --collapse-id are headers of device pushes; a broadcast has neither")
        }
        try Output.refuseStandardInputTwice([schema, state, envelopeOptions.attributes])
    }

    func run() throws {
        let loaded = try Output.loadSchema(schema, format: common.format)
        let key = try apns.providerKey(format: common.format)
        let input = try InputFile.readOrExit(state, limit: 1 << 20, format: common.format)
        let transport = try apns.transport(format: common.format)
        defer { Blocking.run { try? await transport.shutdown() } }
        let configuration = LiveActivitySender.Configuration(
            bundleID: apns.topic, environment: apns.environment,
            endpoints: Dictionary(uniqueKeysWithValues: APNsEnvironment.allCases.map { ($0, apns.endpoints($0)) }),
            retryOtherEnvironment: retryOtherEnvironment)
        let sender: LiveActivitySender
        do {
            sender = try LiveActivitySender(schema: loaded, versions: versions.isEmpty ? nil : versions,
                                            tokens: ProviderTokenCache(key: key), configuration: configuration, transport: transport)
        } catch {
            // The request's own finding: its code, at `<request>`, as the other request checks say theirs.
            throw Output.stop([Diagnostic(code: error.code, severity: .error, message: error.message, file: "<request>")], format: common.format)
        }
        let (content, readProblems) = try content(of: input, reader: sender)
        let target: PushTarget = if let token { .device(token: token) } else { .broadcast(channelID: channelID ?? "") }
        let headers = PushHeaders(priority: priority, expiration: expiration, apnsID: apnsID, collapseID: collapseID)
        guard let content, Output.status(readProblems, failOn: common.failOn) == .clean else {
            try refuse(readProblems)
        }
        // Checked here once before sending, so that --fail-on warning can stop a push with
        // warnings too; the sender checks every attempt again.
        let push = LiveActivityPush(target: target, content: content, headers: headers, file: input.name)
        let prepared = Blocking.run { await sender.prepare(push) }
        let diagnostics = ContentStateEncoder.joining(stateFindings: readProblems, bodyFindings: placed(prepared.diagnostics, content))
        guard let request = prepared.request, Output.status(diagnostics, failOn: common.failOn) == .clean else {
            try refuse(diagnostics)
        }
        if dryRun {
            report(request: request.withholdingCredentials, outcome: nil, diagnostics: diagnostics)
            return
        }
        let outcome = Blocking.run { await sender.send(push) }
        report(request: nil, outcome: outcome,
               diagnostics: ContentStateEncoder.joining(stateFindings: readProblems, bodyFindings: placed(outcome.diagnostics, content)))
        if !outcome.delivered { throw ExitCode(ExitStatus.findings.rawValue) }
    }

    /// The sender's findings, with those about what the options put in a body written from a
    /// state file placed where it came from (`EnvelopeOptions.placingOptionFindings`; a whole
    /// body holds all of it itself).
    private func placed(_ diagnostics: [Diagnostic], _ content: LiveActivityPush.Content) -> [Diagnostic] {
        if case .payload = content { return diagnostics }
        return envelopeOptions.placingOptionFindings(diagnostics)
    }

    /// Prints a refusal (nothing was or would be sent) and exits 1.
    private func refuse(_ diagnostics: [Diagnostic]) throws -> Never {
        let outcome = SendOutcome(remedy: .fixRequest, refused: true, diagnostics: diagnostics, attempts: 0, environment: apns.environment)
        report(request: nil, outcome: outcome, diagnostics: diagnostics)
        throw ExitCode(ExitStatus.findings.rawValue)
    }

    /// The push's content: a whole body (it has an `aps` object) or a content-state read with the
    /// encoder's strict reader, whose findings come back with positions.
    private func content(of input: InputFile, reader: LiveActivitySender) throws -> (LiveActivityPush.Content?, [Diagnostic]) {
        let parsed = try? Value.parse(json: input.bytes)
        // A body that is not JSON is still one when it opens with its `aps` key: its syntax error
        // is the body's, as lint says (it was read as a state, and the error put in the
        // content-state, at `/aps/event`).
        if parsed?["aps"] != nil || (parsed == nil && Self.opensWithAPS(input.bytes)) {
            if envelopeOptions.isGiven {
                let message = "the file is a whole APNs body; its aps object says the event, alert and dates, so --event, --alert-*, "
                    + "--stale-date, --dismissal-date, --relevance-score, --attributes and --input-push-* do not apply"
                throw Output.stop([Diagnostic(code: "usage", severity: .error, message: message, file: input.name)], format: common.format)
            }
            return (.payload(input.bytes), [])
        }
        // The envelope flags first: a wrong --event is a usage error whatever the state holds.
        // The sender sets the timestamp at each attempt.
        let envelope = try EnvelopeOptions.envelope(of: envelopeOptions.request(timestamp: nil, format: common.format), format: common.format)
        let (state, problems) = reader.readState(input.bytes, file: input.name)
        guard let state else { return (nil, problems) }
        return (.state(state, envelope: envelope), problems)
    }

    /// Whether `bytes` open an object whose first key is `aps` (white space aside).
    static func opensWithAPS(_ bytes: [UInt8]) -> Bool {
        let text = bytes.drop(while: JSONByte.isWhitespace)
        guard text.first == UInt8(ascii: "{") else { return false }
        return text.dropFirst().drop(while: JSONByte.isWhitespace).starts(with: Array(#""aps""#.utf8))
    }

    private func report(request: APNsRequest?, outcome: SendOutcome?, diagnostics: [Diagnostic]) {
        switch common.format {
        case .text:
            if let request { Output.out(request.rendered) }
            if let outcome { Output.out(outcome.summary) }
            Output.printText(diagnostics)
        case .json:
            var members: [Value.Member] = []
            if let request { members.append(.init("request", request.jsonValue)) }
            if let outcome { members.append(.init("outcome", outcome.jsonValue)) }
            Output.out(Output.jsonDocument(diagnostics, members))
        }
    }
}

extension APNsRequest {
    /// `{"method", "authority", "path", "headers": [[name, value]…], "body", "bodyText"}`: the
    /// body read as JSON, and as the exact text sent (`1e2` and `"caf\u00e9"` stay as written).
    var jsonValue: Value {
        let text = String(decoding: self.body, as: UTF8.self)
        let body = (try? Value.parse(json: self.body)) ?? .string(text)
        return .object([
            .init("method", .string(method)), .init("authority", .string(authority)), .init("path", .string(path)),
            .init("headers", .array(headers.map { .array([.string($0.name), .string($0.value)]) })),
            .init("body", self.body.isEmpty ? .null : body),
            .init("bodyText", self.body.isEmpty ? .null : .string(text)),
        ])
    }
}

extension SendOutcome {
    /// The outcome as JSON, for `--format json`.
    var jsonValue: Value {
        func text(_ string: String?) -> Value { string.map(Value.string) ?? .null }
        return .object([
            .init("delivered", .bool(delivered)), .init("refused", .bool(refused)),
            .init("status", response.map { .int($0.status) } ?? .null),
            .init("apns-id", text(response?.apnsID)), .init("apns-unique-id", text(response?.uniqueID)),
            .init("apns-request-id", text(response?.requestID)),
            .init("reason", text(response?.reason?.rawValue)),
            .init("timestamp", response?.timestamp.map { .int(Int($0.timeIntervalSince1970 * 1000)) } ?? .null),
            .init("body-cut-short", text(response?.truncation.map { "\($0)" })),
            .init("unexplained-body", text(response?.unexplainedBody)),
            .init("remedy", .string(remedy.rawValue)), .init("advice", .string(advice)),
            .init("attempts", .int(attempts)), .init("environment", .string(environment.rawValue)),
            .init("transport-error", text(transportError)),
            .init("first-answer", firstEnvironmentResponse.map { first in
                .object([
                    .init("environment", .string(environment.other.rawValue)), .init("status", .int(first.status)),
                    .init("apns-id", text(first.apnsID)), .init("reason", text(first.reason?.rawValue)),
                ])
            } ?? .null),
        ])
    }
}
