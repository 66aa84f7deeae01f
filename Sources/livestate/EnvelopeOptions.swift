import ArgumentParser
import Foundation
@_spi(Scanner) import LiveState

/// The `aps` keys around a content-state, shared by `encode` and `send`.
struct EnvelopeOptions: ParsableArguments {
    @Option(help: "The event: start, update or end (default update).")
    var event: String?

    @Option(name: .customLong("stale-date"), parsing: .unconditional, help: "UNIX seconds after which the activity shows as stale.")
    var staleDate: Int?

    @Option(name: .customLong("dismissal-date"), parsing: .unconditional, help: "UNIX seconds at which an ended activity leaves the screen.")
    var dismissalDate: Int?

    @Option(name: .customLong("relevance-score"), parsing: .unconditional, help: "The relevance score.")
    var relevanceScore: Double?

    @Option(name: .customLong("alert-title"), help: "The alert's title (an alert is required on start).")
    var alertTitle: String?

    @Option(name: .customLong("alert-body"), help: "The alert's body.")
    var alertBody: String?

    @Option(name: .customLong("alert-sound"), help: "The alert's sound: a sound file in the app, or default.")
    var alertSound: String?

    @Option(help: "A JSON file with the static attributes; only with --event start.")
    var attributes: String?

    @Flag(name: .customLong("input-push-token"), help: "With --event start: ask for the new activity's update token (iOS 18 sends none without it).")
    var inputPushToken = false

    @Option(name: .customLong("input-push-channel"), help: "With --event start: the broadcast channel id (base64) to subscribe the new activity to.")
    var inputPushChannel: String?

    /// Whether any of these flags is given.
    var isGiven: Bool {
        event != nil || staleDate != nil || dismissalDate != nil || relevanceScore != nil || alertTitle != nil || alertBody != nil
            || alertSound != nil || attributes != nil || inputPushToken || inputPushChannel != nil
    }

    /// The encode request these flags and the command's own make; an attributes file that
    /// cannot be read or parsed, or a start-only option with another event, stops the command
    /// with status 2.
    func request(timestamp: String?, contentStateOnly: Bool = false, format: OutputFormat) throws -> ContentStateEncoder.Request {
        try refuseStartOnlyOptions(format: format)
        var request = ContentStateEncoder.Request()
        request.contentStateOnly = contentStateOnly
        request.event = event
        request.timestamp = timestamp
        request.staleDate = staleDate
        request.dismissalDate = dismissalDate
        request.relevanceScore = relevanceScore
        if alertTitle != nil || alertBody != nil || alertSound != nil {
            // The keys given, and only those: an empty title or body the user did not give would
            // hide from the checks that a start's alert lacks it.
            request.alert = .object([("title", alertTitle), ("body", alertBody), ("sound", alertSound)].compactMap { name, text in
                text.map { Value.Member(name, .string($0)) }
            })
        }
        request.inputPushToken = inputPushToken
        request.inputPushChannel = inputPushChannel
        if let attributes {
            let file = try InputFile.readOrExit(attributes, limit: 1 << 20, format: format)
            let (value, problems) = Self.readAttributes(file.bytes, file: attributes)
            // A file that is not JSON is a usage error (2); a key given twice is a finding about
            // the attributes (1), as the state's findings are.
            guard let value, problems.isEmpty else { throw Output.stop(problems, format: format, status: value == nil ? .usage : .findings) }
            request.attributes = value
        }
        return request
    }

    /// The attributes file's object, or why it cannot be written: a syntax error, or a key given
    /// twice (the body would carry both, and which one the app reads is not specified), each
    /// with its line, column and pointer.
    private static func readAttributes(_ bytes: [UInt8], file: String) -> (Value?, [Diagnostic]) {
        do throws(JSONError) {
            let twice = try JSONValidator.validate(bytes).map {
                Diagnostic(
                    code: DiagnosticCode.duplicateKey, severity: .error,
                    message: "'\($0.key)' is given twice; the start would carry both, and which one the app reads is not specified",
                    file: file, position: $0.position, scope: .attributes, pointer: $0.pointer)
            }
            return (try Value.parse(json: bytes), twice)
        } catch {
            // As a payload's error is worded: `json-limit` for a bound, with the pointer to where
            // the text broke (it was `json-syntax` for all, with no pointer).
            return (nil, [bytes.withUnsafeBytes { error.diagnostic(in: $0, options: .init(), file: file, scope: .attributes) }])
        }
    }

    /// Stops the command with status 2 when an option only a start takes (`--attributes`) is
    /// given with another event, before its file is read: an update or an end carries no static
    /// attributes, so they would be left out without a word. An event that is not one is left
    /// for `envelope(of:format:)` to name.
    private func refuseStartOnlyOptions(format: OutputFormat) throws {
        let given = event ?? ActivityEvent.update.rawValue
        guard attributes != nil, let kind = ActivityEvent(rawValue: given), kind != .start else { return }
        let push = kind == .end ? "an end" : "an update"
        let message = "--attributes is for --event start: the static attributes go only in a start, and \(push) "
            + "(--event \(given)\(event == nil ? ", the default" : "")) would leave them out; give --event start, or leave --attributes out"
        throw Output.stop([Diagnostic(code: "usage", severity: .error, message: message)], format: format)
    }

    /// Findings about what these options put in a body written from a state file, placed where
    /// it came from rather than in the state file, which does not hold it: those about the static
    /// attributes in the `--attributes` file, and those about an `aps` key the options write
    /// (`/aps/dismissal-date`) at the option that sets it (`--dismissal-date`). With no
    /// `--attributes`, its findings name the option, since what it should give is missing.
    /// - Parameter timestampOption: Whether the command has `--timestamp` (`encode`; `send`
    ///   sets the timestamp itself, and its findings stay where they are).
    func placingOptionFindings(_ diagnostics: [Diagnostic], timestampOption: Bool = false) -> [Diagnostic] {
        // The attributes file, read again (it was read whole before) to place its findings: not
        // standard input, which is read once.
        let attributesText: [UInt8] = attributes.flatMap { path in
            guard path != "-", diagnostics.contains(where: { $0.scope == .attributes || $0.pointer == "/aps/attributes" }),
                  case .success(let file) = InputFile.read(path, limit: 1 << 20) else { return nil }
            return file.bytes
        } ?? []
        /// Where `pointer` is in the attributes file: at its value, or, for a key that is
        /// missing, at the object that lacks it.
        func placeInAttributes(_ pointer: String?) -> SourcePosition? {
            guard var pointer, !attributesText.isEmpty else { return nil }
            while true {
                if let position = JSONPointer.position(of: pointer, in: attributesText) { return position }
                guard let slash = pointer.lastIndex(of: "/") else { return nil }
                pointer = String(pointer[..<slash])
            }
        }
        return diagnostics.map { diagnostic in
            var placed = diagnostic
            switch diagnostic.scope {
            case .attributes:
                placed.file = attributes ?? "--attributes"
                placed.position = placeInAttributes(diagnostic.pointer)
                return placed
            case .envelope:
                guard let option = Self.option(setting: diagnostic.pointer), timestampOption || option != "--timestamp" else { return diagnostic }
                if option == "--attributes", let path = attributes, let position = placeInAttributes("") {
                    // The attributes as a whole (`null`, an array): the file's value.
                    placed.file = path
                    placed.position = position
                    return placed
                }
                placed.file = option
            default:
                return diagnostic
            }
            placed.position = nil
            return placed
        }
    }

    /// The options that write each `aps` key of a body made from a state file.
    private static let optionsByKey = [
        "event": "--event", "timestamp": "--timestamp", "stale-date": "--stale-date", "dismissal-date": "--dismissal-date",
        "relevance-score": "--relevance-score", "alert": "--alert-title/--alert-body", "attributes": "--attributes",
        "input-push-token": "--input-push-token", "input-push-channel": "--input-push-channel",
    ]

    /// The option that writes the `aps` key `pointer` is at or inside (`/aps/alert/title`);
    /// `nil` for the content-state and for anything the options do not write.
    static func option(setting pointer: String?) -> String? {
        guard let pointer, pointer.hasPrefix("/aps/") else { return nil }
        let key = pointer.dropFirst(5).prefix { $0 != "/" }
        return optionsByKey[String(key)]
    }

    /// The envelope of `request`; a problem with it stops the command with status 2, worded with
    /// the command's options where the request's names differ from them.
    static func envelope(of request: ContentStateEncoder.Request, format: OutputFormat) throws -> ContentStateEncoder.Envelope {
        if request.contentStateOnly, !request.envelopeParameters.isEmpty {
            let given = request.envelopeParameters.map { optionsByKey[$0] ?? $0 }.joined(separator: ", ")
            throw Output.stop([Diagnostic(code: "usage", severity: .error,
                                          message: "--content-state writes the bare content-state, which takes no envelope options (given: \(given))")],
                              format: format)
        }
        let (envelope, problem) = request.envelope(now: Date())
        guard let envelope else {
            throw Output.stop([Diagnostic(code: "usage", severity: .error, message: problem ?? "bad envelope")], format: format)
        }
        return envelope
    }
}
