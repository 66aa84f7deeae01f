/// What an app version sees when it decodes a content-state, and why.
public struct DecodeResult: Sendable, Hashable {
    /// The state in schema order with every field present, or `nil` when the tolerant decoder
    /// rejects the payload (a required key missing, a `reject` field invalid, bad JSON).
    public var state: Value?
    /// Everything the decoder noticed, in input order: defaults taken, unknown keys, invalid
    /// values, errors.
    public var diagnostics: [Diagnostic]
    /// For a version under `clients.strict`: why synthesized `Codable` would fail on the device,
    /// naming the first field it fails on; `nil` when it would decode, or the version is tolerant.
    public var strictFailure: Diagnostic?
    /// Whether the version is listed under `clients.strict`.
    public var isStrictClient: Bool

    /// Creates a result.
    /// - Parameters:
    ///   - state: The decoded state.
    ///   - diagnostics: The findings.
    ///   - strictFailure: The strict verdict.
    ///   - isStrictClient: Whether the version decodes strictly.
    public init(state: Value?, diagnostics: [Diagnostic], strictFailure: Diagnostic? = nil, isStrictClient: Bool = false) {
        self.state = state
        self.diagnostics = diagnostics
        self.strictFailure = strictFailure
        self.isStrictClient = isStrictClient
    }

    /// Whether the app version applies the update: for a strict client, synthesized `Codable`
    /// succeeds on the bytes; otherwise the tolerant decoder produced a state.
    public var appDecodes: Bool {
        guard isStrictClient else { return state != nil }
        // Synthesized Codable ignores the schema's constraints and `on-invalid: reject`: only
        // what breaks the JSON itself, or the strict verdict, makes the device drop the update.
        let unreadable: Set<String> = [
            DecodeCode.jsonSyntax.rawValue, DecodeCode.jsonLimit.rawValue,
            DecodeCode.notAnObject.rawValue, DecodeCode.missingContentState.rawValue,
        ]
        return strictFailure == nil && !diagnostics.contains { unreadable.contains($0.code) }
    }

    /// Every diagnostic, with the strict verdict last, or told within the error it repeats.
    public var allDiagnostics: [Diagnostic] {
        guard let strictFailure else { return diagnostics }
        var all = diagnostics
        DecodeProblem.add(strictFailure: strictFailure, to: &all)
        return all
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool {
        allDiagnostics.contains { $0.severity == .error }
    }
}
