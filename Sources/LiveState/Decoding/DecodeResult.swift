import Foundation

/// A content-state decoded for one app version: what that version sees, and why.
///
/// `ContentStateDecoder.decode(contentState:)` checks the whole payload in one pass and keeps
/// a copy of the input and a flat record of every value: one allocation for the whole state,
/// none per string. Nothing else is made until it is asked for: `state` makes the `Value`
/// tree, `root` and the subscript read single values (a `String` is made when its field is
/// read), `decode(_:)` reads the state straight into any `Decodable` type, and `diagnostics`
/// words the findings.
///
/// ```swift
/// let result = decoder.decode(contentState: bytes)
/// guard result.appDecodes else { ... }            // the app version drops this payload
/// let progress = result.root?["progress"]?.double // read now; other fields are not made at all
/// let state = try result.decode(DeliveryAttributes.ContentState.self)
/// for diagnostic in result.diagnostics { print(diagnostic) }
/// ```
///
/// What is made is made on each read, not kept: a caller that reads `state` (or `diagnostics`)
/// more than once keeps its own copy. Bytes that are not JSON (or nest deeper than the limit)
/// and JSON of another shape get their one error, made at once.
public struct DecodeResult: Sendable {
    enum Storage: Sendable {
        /// Read in one pass: everything is made from the tape, which keeps a copy of the input.
        case tape(SharedTape)
        /// Made already: the error of bytes that are not JSON or of JSON of another shape, or
        /// the reference decode's result; `sent` is the content-state's bytes, which a strict
        /// version's `Codable` reads (see `contentStateAsSent`).
        indirect case made(state: Value?, diagnostics: [Diagnostic], strictFailure: Diagnostic?, isStrict: Bool, sent: Data?)
    }

    /// A tape is written only while `TapeBuilder` builds it, and only read after.
    struct SharedTape: @unchecked Sendable {
        let tape: StateTape
    }

    let storage: Storage

    /// A result read on `tape`, which keeps its input.
    init(tape: StateTape) {
        storage = .tape(SharedTape(tape: tape))
    }

    /// A result made already.
    init(state: Value?, diagnostics: [Diagnostic], strictFailure: Diagnostic? = nil, isStrictClient: Bool = false, sent: Data? = nil) {
        storage = .made(state: state, diagnostics: diagnostics, strictFailure: strictFailure, isStrict: isStrictClient, sent: sent)
    }

    /// Whether the result was read in one pass and is made from its tape, rather than decoded
    /// in full (for the tests and benchmarks that check which path a payload took).
    @_spi(Testing) public var isReadOnTape: Bool {
        if case .tape = storage { return true }
        return false
    }

    /// The state in schema order with every field present, or `nil` when the tolerant decoder
    /// rejects the payload (a required key missing, a `reject` field invalid, bad JSON). Made
    /// on each read.
    public var state: Value? {
        switch storage {
        case .tape(let shared): shared.tape.acceptedState()
        case .made(let state, _, _, _, _): state
        }
    }

    /// Everything the decoder noticed, in input order: defaults taken, unknown keys, invalid
    /// values, errors. Worded on each read.
    public var diagnostics: [Diagnostic] {
        switch storage {
        case .tape(let shared): shared.tape.diagnostics()
        case .made(_, let diagnostics, _, _, _): diagnostics
        }
    }

    /// For a version under `clients.strict`: why synthesized `Codable` would fail on the device,
    /// naming the first field it fails on; `nil` when it would decode, or the version is tolerant.
    public var strictFailure: Diagnostic? {
        switch storage {
        case .tape(let shared): shared.tape.strictFailure()
        case .made(_, _, let strictFailure, _, _): strictFailure
        }
    }

    /// Whether the version is listed under `clients.strict`.
    public var isStrictClient: Bool {
        switch storage {
        case .tape(let shared): shared.tape.isStrict
        case .made(_, _, _, let isStrict, _): isStrict
        }
    }

    /// Whether the app version applies the update: for a strict client, synthesized `Codable`
    /// succeeds on the bytes; otherwise the tolerant decoder produced a state.
    public var appDecodes: Bool {
        switch storage {
        case .tape(let shared):
            // A tape is only written for a content-state that is a JSON object.
            let tape = shared.tape
            return Self.applies(isStrict: tape.isStrict, isReadable: true, hasState: !tape.isRejected, strictFails: tape.strictProblem != nil)
        case .made(let state, let diagnostics, let strictFailure, let isStrict, _):
            let unreadable: Set<DiagnosticCode> = [.jsonSyntax, .jsonLimit, .notAnObject, .missingContentState]
            return Self.applies(
                isStrict: isStrict, isReadable: !diagnostics.contains { unreadable.contains($0.code) }, hasState: state != nil,
                strictFails: strictFailure != nil)
        }
    }

    /// Whether an app version applies a content-state: the one rule every reader of a state
    /// asks. A version under `clients.strict` decodes with synthesized `Codable`, which ignores
    /// the schema's constraints and `on-invalid: reject`: it applies a state that is a JSON
    /// object (`isReadable`) it does not fail on. Any other applies the state the tolerant
    /// decoder produced.
    static func applies(isStrict: Bool, isReadable: @autoclosure () -> Bool, hasState: Bool, strictFails: Bool) -> Bool {
        isStrict ? isReadable() && !strictFails : hasState
    }

    /// Every diagnostic, with the strict verdict last, or told within the error it repeats.
    public var allDiagnostics: [Diagnostic] {
        var all = diagnostics
        guard let strictFailure else {
            if isStrictClient { DecodeProblem.strictClientApplies(&all, scope: .contentState) }
            return all
        }
        DecodeProblem.add(strictFailure: strictFailure, to: &all)
        return all
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool {
        allDiagnostics.contains { $0.severity == .error }
    }

    /// The state as any `Decodable` type, as the app version reads it: for a tolerant version,
    /// missing keys filled from the schema's defaults; for a strict one, the content-state as
    /// sent.
    ///
    /// For a tolerant version, the type sees every field the version declares, in schema order;
    /// `date` fields decode as `Date` (or `Double`), `date-range` as `ClosedRange<Date>`, `url`
    /// as `URL` (or `String`). Read straight from the input: no `Value` tree is made on the way.
    ///
    /// A version under `clients.strict` decodes with synthesized `Codable` and `JSONDecoder`,
    /// which know nothing of the schema: `decode` hands the content-state's bytes to a
    /// `JSONDecoder`, so the type sees the keys sent (and only those), each value as
    /// `JSONDecoder` reads it from its text (a `Float`, a `Decimal`), one that breaks only a
    /// constraint included. What the schema would take there (a default, a fallback, an alias)
    /// the app does not, and `decode` throws, as the app drops the update.
    /// - Parameter type: The type to decode.
    /// - Returns: The value.
    /// - Throws: `DecodingError.dataCorrupted` when the app version drops the update (a strict
    ///   version's synthesized `Codable` fails, or the tolerant reading rejects it; at the first
    ///   error's place, in its words: the result's `diagnostics` say it all), or the
    ///   `DecodingError` the type throws.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // The app version drops it: a strict one's synthesized `Codable` too, which the
        // schema's tolerant reading may take (a default, a fallback, an alias).
        guard appDecodes else { throw rejection }
        switch storage {
        case .tape(let shared):
            let tape = shared.tape
            if tape.isStrict, let sent = tape.withInput({ Self.contentStateAsSent(in: $0, at: tape.rootOffset) }) {
                // A strict version decodes with synthesized `Codable` and `JSONDecoder`: its
                // values are `JSONDecoder`'s own, each number read from its text (a `Float`, a
                // `Decimal`, an `Int` written `9007199254740993.0`), not from a `Double`.
                return try JSONDecoder().decode(T.self, from: sent)
            }
            guard !tape.isRejected else { throw rejection }
            return try tape.withInput { try TapeDecoder.decode(T.self, tape: tape, bytes: $0) }
        case .made(let state, _, _, _, let sent):
            if let sent { return try JSONDecoder().decode(T.self, from: sent) }
            guard let state else { throw rejection }
            return try ValueDecoder.decode(T.self, from: state, codingPath: [])
        }
    }

    /// The bytes of the content-state object at `offset` in `bytes` (checked JSON), as the app's
    /// `JSONDecoder` reads them; `nil` if they cannot be found.
    static func contentStateAsSent(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Data? {
        guard var reader = try? JSONReader(bytes: bytes, options: .init(maxDepth: .max, maxInputBytes: .max)) else { return nil }
        reader.move(to: offset)
        guard (try? reader.skipValue()) != nil, reader.offset > offset else { return nil }
        return Data(bytes[offset..<reader.offset])
    }

    /// What `decode(_:)` throws for a payload the app version rejects: why a strict version's
    /// `Codable` fails, or the first error, its JSON Pointer as the coding path.
    private var rejection: DecodingError {
        let error = strictFailure ?? diagnostics.first { $0.severity == .error }
        let path = error?.pointer.flatMap(JSONPointer.tokens)?.map(StateKey.token) ?? []
        return .dataCorrupted(.init(codingPath: path, debugDescription: error?.description ?? "the app version rejects the payload"))
    }

    /// One top-level field's value, made now; `nil` when the version has no such field or the
    /// app version rejects the payload.
    /// - Parameter name: The field's name.
    public subscript(name: String) -> Value? {
        switch storage {
        case .tape(let shared): shared.tape.isRejected ? nil : shared.tape.field(named: name)
        case .made(let state, _, _, _, _): state?[name]
        }
    }
}

extension DecodeResult: Hashable {
    /// Results are equal when they say the same: the state, the findings, the strict verdict.
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
    /// The result as it reads, however it is held (so `print` and `dump` show the state and
    /// the diagnostics, not the tape behind them).
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["state": state as Any, "diagnostics": diagnostics, "strictFailure": strictFailure as Any,
                       "isStrictClient": isStrictClient],
            displayStyle: .struct)
    }
}
