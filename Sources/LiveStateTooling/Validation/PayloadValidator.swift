import Foundation
import LiveState

/// Checks a whole APNs body for one schema version: the `aps` envelope, the content-state
/// through the tolerant decoder, the static attributes of a start, and the byte budget.
///
/// One pass over the bytes: the envelope is walked with the same `JSONReader` the decoder
/// uses, so the content-state is decoded in place.
///
/// ```swift
/// let validator = try PayloadValidator(schema: schema)          // newest version
/// let result = validator.validate(body, file: "update.json")
/// if result.hasErrors { ... }
/// ```
public struct PayloadValidator: Sendable {
    /// What the validator checks beyond the rules that always apply.
    public struct Options: Sendable, Hashable {
        /// The push is a broadcast (iOS 18 channels): the body limit is 5120 and `start` is refused.
        public var broadcast: Bool
        /// Scanner limits.
        public var scan: JSONScanOptions
        /// Whether the budget lists each top-level content-state member's bytes.
        public var measuresFields: Bool

        /// Creates options.
        /// - Parameters:
        ///   - broadcast: Whether the push is a broadcast.
        ///   - scan: Scanner limits.
        ///   - measuresFields: Whether to list bytes per content-state member.
        public init(broadcast: Bool = false, scan: JSONScanOptions = .init(), measuresFields: Bool = true) {
            self.broadcast = broadcast
            self.scan = scan
            self.measuresFields = measuresFields
        }
    }

    /// The check itself, which the encoder also runs on the bodies it writes.
    package private(set) var checker: BodyChecker

    /// The decoder for the content-state.
    public var decoder: ContentStateDecoder { checker.decoder }

    /// Whether the content-state and a start's attributes are read in one pass, on a tape, as
    /// `ContentStateDecoder.view` reads them (the default, the product); `false` reads them with
    /// the reference decode's object walk, for the tests and fuzzers that compare the two. The
    /// results are the same.
    @_spi(Testing) public var readsInOnePass: Bool {
        get { checker.readsInOnePass }
        set { checker.readsInOnePass = newValue }
    }

    /// The options, as the checker holds them.
    public var options: Options {
        get { Options(broadcast: checker.broadcast, scan: checker.decoder.options, measuresFields: checker.measuresFields) }
        set {
            checker.broadcast = newValue.broadcast
            checker.measuresFields = newValue.measuresFields
            checker.decoder.options = newValue.scan
        }
    }

    /// Creates a validator for one version of a schema.
    /// - Parameters:
    ///   - schema: The schema.
    ///   - version: The app version to check for; `nil` checks for the newest.
    ///   - options: What to check.
    /// - Throws: An `unknown-version` diagnostic when the schema has no such version.
    public init(schema: Schema, version: Int? = nil, options: Options = .init()) throws(Diagnostic) {
        self.init(decoder: try ContentStateDecoder(schema: schema, version: version, options: options.scan), options: options)
    }

    /// Creates a validator that reads the content-state with `decoder`, for its schema version.
    /// - Parameters:
    ///   - decoder: The decoder; its scan options give way to `options.scan`.
    ///   - options: What to check.
    public init(decoder: ContentStateDecoder, options: Options = .init()) {
        var decoder = decoder
        decoder.options = options.scan
        self.checker = BodyChecker(decoder: decoder, broadcast: options.broadcast, measuresFields: options.measuresFields)
    }

    /// Validates a whole APNs body.
    /// - Parameters:
    ///   - bytes: The body's JSON text.
    ///   - file: The file name to put in diagnostics.
    /// - Returns: The findings, the decoded state and the budget.
    public func validate(_ bytes: some ContiguousBytes, file: String? = nil) -> ValidationResult {
        ValidationResult(checker.check(bytes, file: file))
    }
}

/// What validating one body found.
///
/// Results are equal when what they say is: the same findings, state, event, verdict and
/// budget, however the state is held.
public struct ValidationResult: Sendable, Hashable {
    /// What the check found; the properties below read and write it.
    private var verdict: BodyVerdict

    /// Every finding, envelope and content-state, with the strict verdict.
    public var diagnostics: [Diagnostic] {
        get { verdict.diagnostics }
        set { verdict.diagnostics = newValue }
    }
    /// The content-state as the app version decodes it, when it does.
    ///
    /// A content-state read in one pass is made when this is read (on each read, as
    /// `DecodeResult.state` is): validating a body makes no tree that nobody asks for.
    public var state: Value? {
        get { verdict.state }
        set { verdict.state = newValue }
    }
    /// The `event`, when it is `start`, `update` or `end`.
    public var event: ActivityEvent? {
        get { verdict.event }
        set { verdict.event = newValue }
    }
    /// Whether the app version applies the update: its content-state decodes (synthesized
    /// `Codable` included, for a strict client), the body is no larger than APNs accepts, and
    /// the envelope has no error that makes the device drop it. A date in milliseconds is an
    /// error the device applies all the same (`date-in-milliseconds`): `true`, with the error.
    public var appDecodes: Bool {
        get { verdict.appDecodes }
        set { verdict.appDecodes = newValue }
    }
    /// The byte budget.
    public var budget: ByteBudget {
        get { verdict.budget }
        set { verdict.budget = newValue }
    }
    /// `aps.timestamp` as read, when it is a whole number of seconds: for a sender to hold
    /// against its clock (a timestamp far ahead makes the device ignore every update after it).
    public var timestamp: Int? {
        get { verdict.timestamp }
        set { verdict.timestamp = newValue }
    }

    /// Creates a result.
    /// - Parameters:
    ///   - diagnostics: The findings.
    ///   - state: The decoded state.
    ///   - event: The event.
    ///   - appDecodes: Whether the app applies the update.
    ///   - budget: The byte budget.
    public init(diagnostics: [Diagnostic], state: Value?, event: ActivityEvent?, appDecodes: Bool, budget: ByteBudget) {
        self.init(BodyVerdict(diagnostics: diagnostics, state: state, event: event, appDecodes: appDecodes, budget: budget))
    }

    /// The result of one check.
    package init(_ verdict: BodyVerdict) {
        self.verdict = verdict
    }

    /// Whether any finding is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

extension ValidationResult: CustomReflectable {
    /// The result as it reads: its findings, state, event, verdict and budget, however the
    /// state is held (so `print` and `dump` show the state, not the tape behind it).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["diagnostics": diagnostics, "state": state as Any, "event": event as Any, "appDecodes": appDecodes,
                       "budget": budget],
            displayStyle: .struct)
    }
}
