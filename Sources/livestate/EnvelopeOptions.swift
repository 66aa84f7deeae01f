import ArgumentParser
import Foundation
import LiveState

/// The `aps` keys around a content-state, shared by `encode` and `send`.
struct EnvelopeOptions: ParsableArguments {
    @Option(help: "The event: start, update or end (default update).")
    var event: String?

    @Option(name: .customLong("stale-date"), help: "UNIX seconds after which the activity shows as stale.")
    var staleDate: Int?

    @Option(name: .customLong("dismissal-date"), help: "UNIX seconds at which an ended activity leaves the screen.")
    var dismissalDate: Int?

    @Option(name: .customLong("relevance-score"), help: "The relevance score.")
    var relevanceScore: Double?

    @Option(name: .customLong("alert-title"), help: "The alert's title (an alert is required on start).")
    var alertTitle: String?

    @Option(name: .customLong("alert-body"), help: "The alert's body.")
    var alertBody: String?

    @Option(help: "A JSON file with the static attributes, for a start.")
    var attributes: String?

    /// Whether any of these flags is given.
    var isGiven: Bool {
        event != nil || staleDate != nil || dismissalDate != nil || relevanceScore != nil || alertTitle != nil || alertBody != nil || attributes != nil
    }

    /// The encode request these flags and the command's own make; an attributes file that
    /// cannot be read or parsed stops the command with status 2.
    func request(timestamp: String?, contentStateOnly: Bool = false, format: OutputFormat) throws -> ContentStateEncoder.Request {
        var request = ContentStateEncoder.Request()
        request.contentStateOnly = contentStateOnly
        request.event = event
        request.timestamp = timestamp
        request.staleDate = staleDate
        request.dismissalDate = dismissalDate
        request.relevanceScore = relevanceScore
        if alertTitle != nil || alertBody != nil {
            request.alert = .object([.init("title", .string(alertTitle ?? "")), .init("body", .string(alertBody ?? ""))])
        }
        if let attributes {
            let file = try InputFile.readOrExit(attributes, limit: 1 << 20, format: format)
            do {
                request.attributes = try file.bytes.withUnsafeBytes { try Value.parse(json: $0) }
            } catch {
                throw Output.stop([Diagnostic(code: "json-syntax", severity: .error, message: "\(error)", file: attributes)], format: format)
            }
        }
        return request
    }

    /// Findings about the static attributes of a body written from a state file, placed in the
    /// file the attributes came from rather than in the state file, which does not hold them; with
    /// no `--attributes`, the finding names the option, since what it should give is missing.
    func placingAttributeFindings(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.map { diagnostic in
            guard diagnostic.scope == .attributes else { return diagnostic }
            var placed = diagnostic
            placed.file = attributes ?? "--attributes"
            placed.position = nil
            return placed
        }
    }

    /// The envelope of `request`; a problem with it stops the command with status 2.
    static func envelope(of request: ContentStateEncoder.Request, format: OutputFormat) throws -> ContentStateEncoder.Envelope {
        let (envelope, problem) = request.envelope(now: Date())
        guard let envelope else {
            throw Output.stop([Diagnostic(code: "usage", severity: .error, message: problem ?? "bad envelope")], format: format)
        }
        return envelope
    }
}
