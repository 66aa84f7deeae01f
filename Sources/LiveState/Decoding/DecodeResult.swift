import Foundation

/// What an app version sees when it decodes a content-state, and why.
public struct DecodeResult: Sendable {
    /// The state in schema order with every field present, or `nil` when the tolerant decoder
    /// rejects the payload (a required key missing, a `reject` field invalid, bad JSON).
    ///
    /// Made when first read for a result that comes with a decoded value
    /// (`decode(_:contentState:)`), whose caller mostly reads that value instead.
    public var state: Value? {
        get {
            if let madeState { return madeState }
            return read?.state ?? nil
        }
        set { madeState = .some(newValue) }
    }
    /// Everything the decoder noticed, in input order: defaults taken, unknown keys, invalid
    /// values, errors.
    ///
    /// Worded when first read (a decode that finds something keeps what it read, and a copy
    /// of the input, until then), so a caller that reads only `state` does not pay for them.
    public var diagnostics: [Diagnostic] {
        get { wordedDiagnostics ?? read?.diagnostics ?? [] }
        set { wordedDiagnostics = newValue }
    }
    /// For a version under `clients.strict`: why synthesized `Codable` would fail on the device,
    /// naming the first field it fails on; `nil` when it would decode, or the version is tolerant.
    public var strictFailure: Diagnostic?
    /// Whether the version is listed under `clients.strict`.
    public var isStrictClient: Bool

    /// The state, once made; `nil` while it is still on `read`'s tape.
    private var madeState: Value??
    /// The findings, once worded; `nil` while they are still on `read`'s tape.
    private var wordedDiagnostics: [Diagnostic]?
    /// The tape what is not made yet is made from.
    private let read: TapeRead?

    /// Creates a result.
    /// - Parameters:
    ///   - state: The decoded state.
    ///   - diagnostics: The findings.
    ///   - strictFailure: The strict verdict.
    ///   - isStrictClient: Whether the version decodes strictly.
    public init(state: Value?, diagnostics: [Diagnostic], strictFailure: Diagnostic? = nil, isStrictClient: Bool = false) {
        self.madeState = .some(state)
        self.wordedDiagnostics = diagnostics
        self.read = nil
        self.strictFailure = strictFailure
        self.isStrictClient = isStrictClient
    }

    /// A result whose state (when `state` is `nil`) and findings (when `diagnostics` is `nil`)
    /// are made from `read` when first asked for.
    init(state: Value??, diagnostics: [Diagnostic]?, read: TapeRead?, strictFailure: Diagnostic?, isStrictClient: Bool) {
        self.madeState = state
        self.wordedDiagnostics = diagnostics
        self.read = read
        self.strictFailure = strictFailure
        self.isStrictClient = isStrictClient
    }

    /// Whether the findings or the state are still on the tape, not made (for tests).
    var keepsTape: Bool { wordedDiagnostics == nil || madeState == nil }

    /// Whether the tolerant decoder produced a state, without making one still on the tape.
    private var hasState: Bool {
        if let madeState { return madeState != nil }
        return read?.hasState ?? false
    }

    /// Whether the app version applies the update: for a strict client, synthesized `Codable`
    /// succeeds on the bytes; otherwise the tolerant decoder produced a state.
    public var appDecodes: Bool {
        guard isStrictClient else { return hasState }
        // Synthesized Codable ignores the schema's constraints and `on-invalid: reject`: only
        // what breaks the JSON itself, or the strict verdict, makes the device drop the update.
        let unreadable: Set<DiagnosticCode> = [.jsonSyntax, .jsonLimit, .notAnObject, .missingContentState]
        return strictFailure == nil && !diagnostics.contains { unreadable.contains($0.code) }
    }

    /// Every diagnostic, with the strict verdict last, or told within the error it repeats.
    public var allDiagnostics: [Diagnostic] {
        guard let strictFailure else {
            guard isStrictClient else { return diagnostics }
            var all = diagnostics
            DecodeProblem.strictClientApplies(&all, scope: .contentState)
            return all
        }
        var all = diagnostics
        DecodeProblem.add(strictFailure: strictFailure, to: &all)
        return all
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool {
        allDiagnostics.contains { $0.severity == .error }
    }
}

extension DecodeResult: Hashable {
    /// Results are equal when they say the same: the state, the findings (worded to compare),
    /// the strict verdict.
    public static func == (lhs: DecodeResult, rhs: DecodeResult) -> Bool {
        lhs.state == rhs.state && lhs.strictFailure == rhs.strictFailure && lhs.isStrictClient == rhs.isStrictClient
            && lhs.diagnostics == rhs.diagnostics
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(state)
        hasher.combine(diagnostics)
        hasher.combine(strictFailure)
        hasher.combine(isStrictClient)
    }
}

extension DecodeResult: CustomReflectable {
    /// The result as it reads, however its findings are held (so `print` and `dump` show the
    /// diagnostics, not the tape behind them).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["state": state as Any, "diagnostics": diagnostics, "strictFailure": strictFailure as Any,
                       "isStrictClient": isStrictClient],
            displayStyle: .struct)
    }
}

/// A tape and a copy of the input it was read from (`nil` when the tape keeps its own), from
/// which a result's state and findings are made once, when first asked for.
final class TapeRead: @unchecked Sendable {
    private let tape: StateTape
    private let input: [UInt8]?
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var madeState: Value??
    /// Guarded by `lock`.
    private var worded: [Diagnostic]?

    init(tape: StateTape, input: [UInt8]?) {
        self.tape = tape
        self.input = input
    }

    /// `body` with the input's bytes.
    private func withInput<R>(_ body: (UnsafeRawBufferPointer?) -> R) -> R {
        guard let input else { return body(nil) }
        return input.withUnsafeBytes { body($0) }
    }

    /// Whether the state is not rejected: whether `state` is not `nil`, without making it.
    var hasState: Bool { !tape.isRejected }

    var state: Value? {
        lock.withLock {
            if let madeState { return madeState }
            let state = withInput { tape.acceptedState(in: $0) }
            madeState = .some(state)
            return state
        }
    }

    var diagnostics: [Diagnostic] {
        lock.withLock {
            if let worded { return worded }
            let diagnostics = withInput { tape.diagnostics(in: $0) }
            worded = diagnostics
            return diagnostics
        }
    }
}
