import Foundation

/// Decodes a content-state the way one app version sees it, tolerantly and driven by the schema.
///
/// Missing keys take the field's default, unknown keys are ignored, invalid values take the
/// default or reject the payload as the field says, and every such event is reported with a
/// JSON Pointer and its position in the input. The decoder makes a single pass over the bytes
/// into a flat tape of typed nodes, which the result keeps and makes values from only when
/// asked; a value the tape does not decide itself (an invalid one with no default to take, an
/// escaped enum value, …: `TapeBuilder`) is decided where it stands by the full decoder's rules
/// below (`DecodeContext.decide`), which read it with `JSONReader`, making its value and
/// wording its problems. Bytes that are not JSON get the one error the scanner words
/// (`JSONError.diagnostic`), and JSON of another shape (a content-state that is not an object, a
/// body without one) its finding from `decodeRoot` or `decodeBody`. No intermediate document, no
/// `[String: Any]`.
///
/// ```swift
/// let decoder = try ContentStateDecoder(schema: schema, version: 2)
/// let result = decoder.decode(contentState: bytes)
/// if let progress = result["progress"] { print(progress) }
/// ```
public struct ContentStateDecoder: Sendable {
    /// The schema the decoder reads with.
    public var schema: Schema { compiled.schema }
    /// The version the decoder reads as.
    public var version: SchemaVersion { compiled.version }
    /// Scanner limits.
    public var options: JSONScanOptions
    /// Whether a payload is read in one pass into a flat tape and its values made from that
    /// (the default, the product), rather than by the reference decode's object walk
    /// (`ReferenceDecode.swift`). Both give the same result; `false` is for the tests and
    /// fuzzers that compare the two.
    @_spi(Testing) public var readsInOnePass = true
    /// Whether a date that looks like UNIX seconds is reported (`unix-date-in-date-field`), as
    /// the validator reports it in a body: the tools' reading of a bare content-state (`decode
    /// --content-state`, and the encoder's of a state), not an app's, which has no use for it.
    package var flagsUnixDates = false

    var plan: ObjectPlan { compiled.plan }
    /// A start's attributes of the version, compiled as its content-state is.
    func attributesPlan() -> ObjectPlan {
        Compiled.plan(of: version.attributes, schema: schema, version: version.version, urls: compiled.urls)
    }
    var isStrict: Bool { compiled.isStrict }

    /// What the decoder reads with, built once and shared by every copy: copying a decoder
    /// (the validator holds one, and its walk the validator) retains one object rather than
    /// every array of the schema and its version.
    private final class Compiled: Sendable {
        let schema: Schema
        let version: SchemaVersion
        let plan: ObjectPlan
        let isStrict: Bool
        let urls: URLRule

        init(schema: Schema, version: SchemaVersion, urls: URLRule) {
            self.schema = schema
            self.version = version
            self.isStrict = schema.isStrict(version.version)
            self.urls = urls
            self.plan = Self.plan(of: version.contentState, schema: schema, version: version.version, urls: urls)
        }

        /// `fields` of `version` compiled as the app reads them: a strict version's as
        /// synthesized `Codable` reads a missing optional key (`Field.readByCodable`).
        static func plan(of fields: [Field], schema: Schema, version: Int, urls: URLRule) -> ObjectPlan {
            let read = schema.isStrict(version) ? fields.map(\.readByCodable) : fields
            return ObjectPlan(fields: read, urls: urls)
        }
    }

    private let compiled: Compiled

    /// Creates a decoder for one version of a schema.
    /// - Parameters:
    ///   - schema: The schema.
    ///   - version: The app version to read as; `nil` reads as the newest.
    ///   - options: Scanner limits.
    /// - Throws: An `unknown-version` diagnostic when the schema has no such version.
    public init(schema: Schema, version: Int? = nil, options: JSONScanOptions = .init()) throws(Diagnostic) {
        try self.init(schema: schema, version: version, options: options, writesPortableURLs: false)
    }

    /// `init(schema:version:options:)`, reading as the encoder reads a state when
    /// `writesPortableURLs`: a URL that iOS 16 alone refuses is taken, since the encoder then
    /// writes the form every iOS reads (`URLRule.writesPortableForms`).
    package init(schema: Schema, version: Int?, options: JSONScanOptions = .init(), writesPortableURLs: Bool) throws(Diagnostic) {
        let number = version ?? schema.latest?.version ?? 0
        guard let found = schema.version(number) else {
            throw Diagnostic.unknownVersion(number, available: schema.versions.map(\.version))
        }
        var urls = schema.urlRule(number)
        urls.writesPortableForms = writesPortableURLs
        self.compiled = Compiled(schema: schema, version: found, urls: urls)
        self.options = options
    }

    /// `decode(contentState:file:)` of bytes already lent as a buffer: what the public call and
    /// the validator read.
    package func decode(contentState bytes: UnsafeRawBufferPointer, file: String? = nil) -> DecodeResult {
        // What the tape does not read (bytes that are not JSON, JSON that is not an object) is
        // worded by `run`.
        if let tape = tape(of: bytes, keepingInput: true, file: file, body: false) {
            return DecodeResult(tape: tape)
        }
        return run(bytes, file: file, isBody: false) { context throws(JSONError) in
            try context.decodeRoot(plan)
        }
    }

    /// The one-pass read of `bytes` (a bare content-state, or a whole body), keeping a copy of
    /// them when `keepingInput` (a result's tape); `nil` for bytes that are not JSON, JSON of
    /// another shape, or when `readsInOnePass` is off.
    func tape(of bytes: UnsafeRawBufferPointer, keepingInput: Bool, file: String?, body: Bool) -> StateTape? {
        guard readsInOnePass else { return nil }
        guard !body else { return tape(ofBody: bytes, keepingInput: keepingInput, file: file) }
        return TapeBuilder.build(
            bytes, keepingInput: keepingInput, plan: plan, version: version.version, file: file, isStrict: isStrict, options: options,
            flagsUnixDates: flagsUnixDates)
    }

    /// Where the content-state starts: 0 for a bare one, where `APNsBody` finds it in a body.
    private static func contentStateStart(in bytes: UnsafeRawBufferPointer, isBody: Bool) -> Int? {
        guard isBody else { return 0 }
        guard let reader = try? JSONReader(bytes: bytes, options: .init(maxDepth: .max, maxInputBytes: .max)) else { return nil }
        var context = DecodeContext(reader: reader, file: nil, version: 0, strict: true)
        var locator = ContentStateStart()
        _ = try? APNsBody.walk(&locator, &context)
        return locator.start
    }

    /// Finds where a body's content-state starts.
    private struct ContentStateStart: APNsBodyVisitor {
        var start: Int?

        mutating func apsMember(_ key: JSONString, isContentState: Bool, _ context: inout DecodeContext) throws(JSONError) {
            if isContentState, try context.reader.peek() == .objectStart { start = context.reader.offset }
            try context.reader.skipValue()
        }
    }

    /// The content-state of a whole body where `APNsBody` finds it, as every reader of a body
    /// finds it, read on a tape; `nil` for a body that is not JSON or has no content-state
    /// object. (Out of line: the bare content-state's read stays small.)
    @inline(never)
    private func tape(ofBody bytes: UnsafeRawBufferPointer, keepingInput: Bool, file: String?) -> StateTape? {
        guard let reader = try? JSONReader(bytes: bytes, options: options) else { return nil }
        var context = DecodeContext(reader: reader, file: file, version: version.version, strict: isStrict)
        context.flagsUnixDates = flagsUnixDates
        var locator = TapeInBody(plan: plan, keepingInput: keepingInput)
        do {
            _ = try APNsBody.walk(&locator, &context)
            try context.reader.finish()
        } catch {
            return nil
        }
        return locator.tape
    }

    /// A body's content-state read on a tape, the rest skipped; no tape when the body has no
    /// content-state object (`decodeBody` words that).
    private struct TapeInBody: APNsBodyVisitor {
        let plan: ObjectPlan
        let keepingInput: Bool
        var tape: StateTape?

        mutating func apsMember(_ key: JSONString, isContentState: Bool, _ context: inout DecodeContext) throws(JSONError) {
            guard isContentState, try context.reader.peek() == .objectStart else { return try context.reader.skipValue() }
            tape = try context.tape(of: plan, keepingInput: keepingInput, recordsSpans: false)
        }
    }

    /// Decodes a bare content-state object without the tape: what the tape's result is tested
    /// against.
    func decodeInFull(contentState bytes: some ContiguousBytes, file: String? = nil) -> DecodeResult {
        var full = self
        full.readsInOnePass = false
        return full.decode(contentState: bytes, file: file)
    }

    /// Decodes a whole APNs body without the tape.
    func decodeInFull(payload bytes: some ContiguousBytes, file: String? = nil) -> DecodeResult {
        var full = self
        full.readsInOnePass = false
        return full.decode(payload: bytes, file: file)
    }

    /// `decode(payload:file:)` of bytes already lent as a buffer.
    package func decode(payload bytes: UnsafeRawBufferPointer, file: String? = nil) -> DecodeResult {
        if let tape = tape(of: bytes, keepingInput: true, file: file, body: true) {
            return DecodeResult(tape: tape)
        }
        return run(bytes, file: file, isBody: true) { context throws(JSONError) in
            try context.decodeBody(plan)
        }
    }

    /// Decodes a bare content-state object.
    ///
    /// The result keeps a copy of the input (one `memcpy`, in the same allocation as what it
    /// read), not the caller's buffer, and makes values and findings from it when asked.
    /// - Parameters:
    ///   - bytes: The JSON text.
    ///   - file: The file name to put in diagnostics.
    /// - Returns: The state and everything noticed on the way.
    public func decode(contentState bytes: some ContiguousBytes, file: String? = nil) -> DecodeResult {
        bytes.withUnsafeBytes { decode(contentState: $0, file: file) }
    }

    /// Decodes the `aps.content-state` of a whole APNs body, checking that the rest is valid JSON.
    /// - Parameters:
    ///   - bytes: The JSON text of the body.
    ///   - file: The file name to put in diagnostics.
    /// - Returns: The state and everything noticed on the way.
    public func decode(payload bytes: some ContiguousBytes, file: String? = nil) -> DecodeResult {
        bytes.withUnsafeBytes { decode(payload: $0, file: file) }
    }

    /// The full decode of `bytes` by `body` (`decodeRoot`, or `decodeBody` for a whole body):
    /// what the tape does not read (JSON of another shape: a content-state that is not an
    /// object, a body without one), what it stops on (bytes that are not JSON), and, with
    /// `readsInOnePass` off, the reference decode.
    private func run(
        _ bytes: UnsafeRawBufferPointer, file: String?, isBody: Bool,
        _ body: (inout DecodeContext) throws(JSONError) -> Decoded
    ) -> DecodeResult {
        var context: DecodeContext
        do {
            context = DecodeContext(
                reader: try JSONReader(bytes: bytes, options: options), file: file, version: version.version, strict: isStrict)
        } catch {
            return refusal(error, bytes, file: file, isBody: isBody)
        }
        context.isReference = !readsInOnePass
        context.flagsUnixDates = flagsUnixDates
        do {
            let decoded = try body(&context)
            try context.reader.finish()
            var strictFailure: Diagnostic?
            if isStrict, let problem = decoded.strictProblem {
                strictFailure = problem.strictFailure(file: file, position: context.reader.position(of: problem.offset))
            }
            // What a strict version's `Codable` reads, when it reads anything.
            let sent = isStrict && strictFailure == nil ? Self.contentStateStart(in: bytes, isBody: isBody).flatMap {
                DecodeResult.contentStateAsSent(in: bytes, at: $0)
            } : nil
            return DecodeResult(
                state: decoded.value, diagnostics: context.diagnostics, strictFailure: strictFailure, isStrictClient: isStrict, sent: sent)
        } catch {
            return refusal(error, bytes, file: file, isBody: isBody)
        }
    }

    /// The result for bytes that are not JSON: refused whole, as the device refuses them; what
    /// was read before the error says nothing. The error is worded where the scanner found it
    /// (`JSONError.diagnostic`), for a body relative to the body.
    private func refusal(_ error: JSONError, _ bytes: UnsafeRawBufferPointer, file: String?, isBody: Bool) -> DecodeResult {
        let failure = error.diagnostic(in: bytes, options: options, file: file, scope: isBody ? .envelope : .contentState)
        return DecodeResult(state: nil, diagnostics: [failure], isStrictClient: isStrict)
    }
}

/// A problem with one value: why it is invalid, or why synthesized `Codable` would fail on it.
///
/// A class: the decoder hands problems up from value to value, and one reference is cheaper to
/// move and destroy than two strings and two integers.
final class DecodeProblem {
    /// `wrongType`, `outOfRange` or `missingRequiredKey`: the code to report when the problem
    /// rejects the payload.
    let kind: DiagnosticCode
    let message: String
    let offset: Int
    let pointer: String

    init(kind: DiagnosticCode, message: String, offset: Int, pointer: String) {
        self.kind = kind
        self.message = message
        self.offset = offset
        self.pointer = pointer
    }

    /// The `strict-decode-failure` verdict for a strict app version that fails on this problem.
    func strictFailure(
        file: String?, position: SourcePosition, consequence: DeviceConsequence = .update, scope: DiagnosticScope = .contentState
    ) -> Diagnostic {
        Diagnostic(
            code: DiagnosticCode.strictDecodeFailure, severity: .error,
            message: "\(message); the app decodes with synthesized Codable, which fails on it, so \(consequence.rawValue)",
            file: file, position: position, scope: scope, pointer: pointer)
    }

    /// Rewords, for a strict app version whose synthesized `Codable` decodes the whole object
    /// (content-state or attributes, `scope`), each error that says a rule of the schema makes
    /// the app drop the push: synthesized `Codable` checks none of the schema's constraints
    /// (`maximum`, `max-length`, `max-items`, …) and has no `on-invalid`, so the push applies,
    /// though the schema refuses the value. (Where it fails on something, every such error is
    /// true as it stands: the push is dropped.)
    ///
    /// A value the schema's reading replaces with its default (`invalid-defaulted`) is the same
    /// case: synthesized `Codable` takes no default, and (failing on nothing here) applies the
    /// value as sent, which the schema refuses: an error, as for a field without a default.
    static func strictClientApplies(_ findings: inout [Diagnostic], scope: DiagnosticScope) {
        for index in findings.indices where findings[index].scope == scope {
            if findings[index].code == DiagnosticCode.invalidDefaulted {
                findings[index].severity = .error
                findings[index].message += " in the schema's reading; but this app version decodes with synthesized Codable, which takes "
                    + "no default and does not check that: the push applies with the value sent, which the schema refuses"
                continue
            }
            guard findings[index].severity == .error else { continue }
            for consequence in DeviceConsequence.allCases where findings[index].message.hasSuffix(", so " + consequence.rawValue) {
                findings[index].message = findings[index].message.dropLast(consequence.rawValue.count)
                    + "the schema refuses it, but this app version decodes with synthesized Codable, which does not check that: the push applies"
            }
        }
    }

    /// Adds a strict app version's verdict to `findings`: as its own `strict-decode-failure`
    /// error, or, when the tolerant decoder already rejects the same value, as a note on that
    /// error, so that one cause makes one error.
    static func add(strictFailure verdict: Diagnostic, to findings: inout [Diagnostic]) {
        let rejecting: Set<DiagnosticCode> = [.missingRequiredKey, .wrongType, .outOfRange]
        // The same key's finding: at the same pointer, or, for an element of an array or a bound
        // of a date range, at the field whose message begins with the element's pointer.
        let elementPrefix = verdict.pointer.map { "at \($0): " }
        if let same = findings.firstIndex(where: {
            $0.severity == .error && $0.scope == verdict.scope && rejecting.contains($0.code)
                && ($0.pointer == verdict.pointer || elementPrefix.map($0.message.hasPrefix) == true)
        }) {
            findings[same].message += " (the app decodes with synthesized Codable, which fails on it too)"
        } else {
            // A default or a fallback the schema's reading takes at that key is not the app's.
            for index in findings.indices where findings[index].severity < .error && findings[index].scope == verdict.scope
                && findings[index].pointer == verdict.pointer && [.invalidDefaulted, .unknownEnumValue].contains(findings[index].code) {
                findings[index].message += " in the schema's reading; this app version decodes with synthesized Codable, which fails on it"
            }
            findings.append(verdict)
        }
    }
}

/// The outcome of decoding a whole content-state (or attributes) object.
struct Decoded {
    /// The value, or `nil` when it is invalid.
    var value: Value?
    /// Why it is invalid.
    var problem: DecodeProblem?
    /// Why synthesized `Codable` would fail on it (tracked for strict clients only).
    var strictProblem: DecodeProblem?
}

/// The state of one decode: the reader, the path to the current value, the findings.
///
/// Values travel up as `Value?`; why a value is invalid, and why synthesized `Codable` would
/// fail on it, travel beside it in `problem` and `strictProblem`, which the caller takes right
/// after each call. On the happy path both stay `nil` and nothing is retained or destroyed.
struct DecodeContext: JSONReading {
    var reader: JSONReader
    var file: String?
    /// The app version that reads, for messages.
    let version: Int
    /// `version` as text, made only for the messages that name it: a context is made for every
    /// body and every decision, most of which word nothing.
    var versionText: String { String(version) }
    var strict: Bool
    /// The object the pointers are relative to: the content-state, or a start's attributes.
    var scope: DiagnosticScope = .contentState
    var diagnostics: [Diagnostic] = []
    var path = DecodePath()
    /// When not `nil`, the top-level members of the root object are recorded here, with their
    /// byte spans, for the byte budget.
    var spans: [MemberSpan]?
    /// Whether `date` values that look like UNIX seconds are reported.
    var flagsUnixDates = false
    /// What the device does when the root object fails, the end of every message that says so.
    var consequence = DeviceConsequence.update
    /// Lines counted so far, for the positions of findings (made in input order).
    var locator = SourcePosition.Locator()
    /// Why the value just decoded is invalid; set only when the decode returned `nil`.
    var problem: DecodeProblem?
    /// Why synthesized `Codable` fails on the value just decoded (strict clients only).
    var strictProblem: DecodeProblem?
    /// Whether objects are read by this context's object walk (`decodeObject`) rather than on
    /// a tape: the reference decode, which the tape's results are tested against
    /// (`ContentStateDecoder.readsInOnePass` off).
    var isReference = false

    /// One top-level member of the root object: from its key's opening quote to the end of its
    /// value.
    struct MemberSpan {
        var key: JSONString
        var start: Int
        var end: Int
        /// The name of the field whose own name the key is (the schema's `String`, shared);
        /// `nil` for an alias or an unknown key.
        var fieldName: String?
    }

    init(reader: JSONReader, file: String?, version: Int, strict: Bool) {
        self.reader = reader
        self.file = file
        self.version = version
        self.strict = strict
    }

    /// The JSON Pointer of the current value.
    func pointer() -> String {
        path.pointer()
    }

    /// The JSON Pointer of `key` inside the current value.
    func pointer(appending key: String) -> String {
        JSONPointer.appending(key, to: pointer())
    }

    /// The JSON Pointer of a field inside the current value, from its escaped `/name` token.
    func pointer(appendingToken token: String) -> String {
        guard !path.isEmpty else { return token }
        return pointer() + token
    }

    mutating func report(_ code: DiagnosticCode, _ message: String, at offset: Int, pointer: String) {
        // Payloads that draw diagnostics mostly draw a few: one allocation for up to four.
        if diagnostics.isEmpty { diagnostics.reserveCapacity(4) }
        diagnostics.append(Diagnostic(
            code: code, severity: code.decoderSeverity, message: message, file: file,
            position: locator.position(of: offset, in: reader.bytes), scope: scope, pointer: pointer))
    }

    func problem(_ kind: DiagnosticCode, _ message: String, at offset: Int) -> DecodeProblem {
        DecodeProblem(kind: kind, message: message, offset: offset, pointer: pointer())
    }

    /// The value just decoded with the problems that travel beside it, which are cleared.
    mutating func take(_ value: Value?) -> Decoded {
        defer {
            problem = nil
            strictProblem = nil
        }
        return Decoded(value: value, problem: value == nil ? problem : nil, strictProblem: strictProblem)
    }

    // MARK: - Whole inputs

    /// Decodes the top-level value as the content-state object: on a tape (`TapeBuilder`), or,
    /// for the reference decode (`isReference`), with the object walk.
    mutating func decodeRoot(_ plan: ObjectPlan) throws(JSONError) -> Decoded {
        guard try reader.peek() == .objectStart else {
            report(.notAnObject, "the content-state must be a JSON object, found \(try describeNext()); \(consequence.rawValue)",
                   at: reader.offset, pointer: "")
            try reader.skipValue()
            return Decoded(value: nil)
        }
        guard !isReference else { return take(try decodeObject(plan, isRoot: true)) }
        let tape = try tape(of: plan, keepingInput: false, recordsSpans: spans != nil)
        var found = tape.diagnostics(in: reader.bytes)
        if scope != .contentState {
            // A start's attributes: a tape's findings are the content-state's until told.
            for index in found.indices { found[index].scope = scope }
        }
        diagnostics += found
        if spans != nil { spans = tape.spans().spans }
        return Decoded(value: tape.acceptedState(in: reader.bytes), strictProblem: tape.strictProblem)
    }

    /// The object at the reader (a `{`) read on a tape as the root of `plan`, with this
    /// context's version and wording (its findings in the content-state's scope), and the
    /// reader moved past it. `keepingInput`: the tape keeps a copy of the input (a decode
    /// result's, or a validation result's); `recordsSpans`: its root members' spans, for the byte budget.
    /// - Throws: The scanner's error where the bytes are not JSON.
    mutating func tape(of plan: ObjectPlan, keepingInput: Bool, recordsSpans: Bool) throws(JSONError) -> StateTape {
        let start = reader.offset
        guard let read = TapeBuilder.build(
            object: start, in: reader.bytes, depth: reader.depth, plan: plan, version: version, file: file, isStrict: strict,
            consequence: consequence, options: JSONScanOptions(maxDepth: reader.maxDepth), flagsUnixDates: flagsUnixDates,
            keepingInput: keepingInput, recordsSpans: recordsSpans)
        else {
            // The tape stops only where the bytes are not JSON, which the scanner finds, and on
            // inputs of 2 GiB or more, whose offsets its nodes cannot hold.
            try reader.skipValue()
            throw reader.error(
                .jsonLimit, reader.bytes.count >= 1 << 31
                    ? "input of \(reader.bytes.count) bytes is larger than the 2 GiB a content-state is read from"
                    : "the object could not be read; please report this payload", at: start)
        }
        reader.move(to: read.end)
        return read.tape
    }

    /// Decodes the content-state of an APNs body, found as `APNsBody` says, and skips
    /// everything else.
    mutating func decodeBody(_ plan: ObjectPlan) throws(JSONError) -> Decoded {
        var state = StateInBody(plan: plan)
        let envelope = try APNsBody.walk(&state, &self)
        if let decoded = state.decoded { return decoded }
        switch envelope {
        case .object(let apsStart):
            report(.missingContentState, "aps has no content-state", at: apsStart, pointer: "")
        case .missing(let bodyStart):
            report(.missingContentState, "the body has no aps object", at: bodyStart, pointer: "")
        case .bodyNotAnObject, .notAnObject:
            // Reported as they were met.
            break
        }
        return Decoded(value: nil)
    }

    /// The full decoder's reading of a body: the content-state decoded, the rest skipped.
    private struct StateInBody: APNsBodyVisitor {
        let plan: ObjectPlan
        var decoded: Decoded?

        mutating func bodyIsNotAnObject(_ context: inout DecodeContext) throws(JSONError) {
            context.report(.notAnObject, "an APNs body must be a JSON object, found \(try context.describeNext())",
                           at: context.reader.offset, pointer: "")
            try context.reader.skipValue()
        }

        mutating func apsIsNotAnObject(_ context: inout DecodeContext) throws(JSONError) {
            context.report(.missingContentState, "aps is \(try context.describeNext()), not an object, so the body has no content-state",
                           at: context.reader.offset, pointer: "")
            try context.reader.skipValue()
        }

        mutating func apsMember(_ key: JSONString, isContentState: Bool, _ context: inout DecodeContext) throws(JSONError) {
            guard isContentState else { return try context.reader.skipValue() }
            decoded = try context.decodeRoot(plan)
        }
    }

    private mutating func describeNext() throws(JSONError) -> String {
        Self.described(try reader.peek())
    }

    /// A value that starts with `token`, in a message: "a string", "an object", …
    static func described(_ token: JSONToken) -> String {
        switch token {
        case .objectStart: "an object"
        case .arrayStart: "an array"
        case .string: "a string"
        case .number: "a number"
        case .true, .false: "a boolean"
        case .null: "null"
        }
    }

    /// Why an object is invalid when the key of its required field `name` is missing: the
    /// full decode's and the tape's. The path ends at the object, which starts at `offset`.
    func missingRequired(_ name: String, at offset: Int) -> DecodeProblem {
        DecodeProblem(
            kind: .missingRequiredKey, message: "required key '\(name)' is missing", offset: offset, pointer: pointer(appending: name))
    }

    /// Why synthesized `Codable` fails on an object whose key of the field `name`, which is not
    /// optional, is missing (or given only under an alias): the full decode's and the tape's.
    /// The path ends at the object, which starts at `offset`.
    func missingForCodable(_ name: String, at offset: Int) -> DecodeProblem {
        DecodeProblem(kind: .missingRequiredKey, message: "key '\(name)' is missing", offset: offset, pointer: pointer(appending: name))
    }

    /// The `missing-required-key` message of the root object: the full decode's and the tape's.
    static func missingRequiredMessage(_ name: String, consequence: DeviceConsequence) -> String {
        "required key '\(name)' is missing; \(consequence.rawValue)"
    }

    /// The `defaulted` message of a `null` that takes the field's default (`on-null: default`).
    static func nullDefaultedMessage(_ name: String, _ value: Value) -> String {
        "'\(name)' is null; it takes its default \(ValueText.render(value))"
    }

    /// The `unknown-key` message, in one allocation: the full decode's and the tape's.
    static func unknownKeyMessage(_ name: String, version: String) -> String {
        String.concatenating("unknown key '", name, "' is ignored by app version ", version)
    }

    /// The `unknown-key` message of a key in a nested object whose schema lists no fields: an
    /// empty struct's, whose keys the app ignores, or a dictionary's (`[String: String]`) that a
    /// schema written before it could state a `map` has as such. The full decode's and the tape's.
    static func uncheckedKeyMessage(_ name: String, version: String) -> String {
        "key '\(name)' is not checked: the schema lists no fields for this object, so app version \(version) ignores it if its "
            + "type is an empty struct, and reads it unchecked if it is a dictionary, which the schema states as a map"
    }

    /// The finding of an `Int`-keyed map's key `name` that names `integer`, as a key before it
    /// did (`05` after `5`).
    static func repeatedIntegerKeyMessage(_ name: String, _ integer: Int) -> String {
        "key '\(Diagnostic.quoted(name))' is the Int \(integer), as a key before it is: the app's [Int: …] holds one of their values, "
            + "and which one is not set; send each integer once"
    }

    /// The `duplicate-key` message for a field's key that comes again: the full decode's and the tape's.
    static func repeatedKeyMessage(_ name: String) -> String {
        "key '\(name)' appears again; the first value is read, " + firstOfRepeatedKey
    }

    /// The `duplicate-key` message of `plan`'s field met again, whose value is the one after
    /// `offset` (after the key's colon): a value this app version would not read as sent is
    /// named, since a device that keeps the last value would meet it. The full decode's and,
    /// when read, the tape's.
    /// `name` is the key, for a map's value (whose `plan` is the map's `items`); `here` the
    /// repeated key's pointer, before the place of a problem inside its value.
    static func repeatedKeyMessage(
        _ plan: FieldPlan, named name: String? = nil, pointer here: String, valueAfter offset: Int, in reader: JSONReader
    ) -> String {
        let name = name ?? plan.field.name
        guard let problem = problem(of: plan, at: offset, in: reader) else { return repeatedKeyMessage(name) }
        let reason = reason(problem.message, at: here + problem.pointer, inFieldAt: here)
        return "key '\(name)' appears again, with a value this app version does not read as sent (\(reason)); the first value is read, "
            + firstOfRepeatedKey
    }

    /// The offset after the colon that follows a key whose closing quote is at `keyEnd`.
    static func valueOffset(afterKeyEndingAt keyEnd: Int, in reader: JSONReader) -> Int {
        let bytes = reader.bytes
        var index = keyEnd + 1
        while index < bytes.count, JSONByte.isWhitespace(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: ":") ? index + 1 : index
    }

    /// Why the first of a repeated key is the one read, and what is not known: every
    /// `duplicate-key` message of a key whose value counts says it.
    static let firstOfRepeatedKey = "as JSONDecoder keeps it (JSONSerialization keeps the last; which one the device keeps is not documented)"

    /// The `duplicate-key` message for an unknown key that comes again: the full decode's and the tape's.
    static func repeatedUnknownKeyMessage(_ name: String, version: String) -> String {
        "key '\(name)' appears again; app version \(version) ignores it either way"
    }

    /// The value at the reader of a field read under its own key, settled as `decodeObject`
    /// settles it: the value, or the replacement `on-invalid` gives; `nil` when the object that
    /// holds the field becomes invalid, with `problem` saying why. The tape builder asks this
    /// for the values it cannot read itself. The path ends at that object.
    mutating func decide(_ plan: FieldPlan, isRoot: Bool) throws(JSONError) -> Value? {
        path.push(plan)
        defer { path.pop() }
        if let value = try decodeValue(plan) { return value }
        guard let problem else { return nil }
        guard let replacement = settle(plan, problem: problem, isRoot: isRoot) else { return nil }
        self.problem = nil
        return replacement
    }

    /// Settles, as `decodeObject` settles it, a field read under its own key whose value is a
    /// container the tape builder found invalid for `problem`: the replacement `on-invalid`
    /// gives, or `nil` when the object that holds the field becomes invalid too. The path ends
    /// at that object.
    mutating func settle(_ plan: FieldPlan, rejected problem: DecodeProblem, isRoot: Bool) -> Value? {
        path.push(plan)
        defer { path.pop() }
        return settle(plan, problem: problem, isRoot: isRoot)
    }

    /// Applies a field's `on-invalid` policy to an invalid value: the replacement, or `nil`
    /// when the object that holds the field becomes invalid itself. The path ends at the field.
    mutating func settle(_ plan: FieldPlan, problem: DecodeProblem, isRoot: Bool) -> Value? {
        let here = pointer()
        let reason = Self.reason(problem.message, at: problem.pointer, inFieldAt: here)
        if let replacement = plan.invalidReplacement {
            // As `invalidDefaulted` words a default the tape takes.
            report(.invalidDefaulted, reason + replacement.suffix, at: problem.offset, pointer: here)
            return replacement.value
        }
        if isRoot {
            report(problem.kind, Self.rejection(reason, of: plan.field, consequence: consequence), at: problem.offset, pointer: here)
        }
        return nil
    }

    /// The message of a root field's invalid value that rejects the payload, for `reason`.
    static func rejection(_ reason: String, of field: Field, consequence: DeviceConsequence) -> String {
        let policy = field.rejectsInvalid ? "'\(field.name)' rejects invalid values" : "'\(field.name)' has no default"
        return "\(reason); \(policy), so \(consequence.rawValue)"
    }

    /// Why a field's value is invalid: the problem's `message`, after the place it is at
    /// (`pointer`) when that is inside the field's value (`here`), an array's element.
    static func reason(_ message: String, at pointer: String, inFieldAt here: String) -> String {
        pointer == here ? message : "at \(pointer): \(message)"
    }

    /// The `invalid-defaulted` message of a value at `start` of `plan`'s field, whose pointer
    /// is `here`, which is invalid there and takes the field's default: the tape decides that
    /// itself (`TapeNode.Kind.defaultTaken`) for a scalar, or an array of scalars, and words it,
    /// when read, by asking this, which decodes the value again for the full decoder's reason,
    /// as `settle` words it; with where the problem is (an array's element's, for an array).
    static func invalidDefaulted(
        _ plan: FieldPlan, at start: Int, pointer here: String, in reader: JSONReader
    ) -> (message: String, offset: Int) {
        let suffix = plan.invalidReplacement?.suffix ?? ""
        guard let problem = problem(of: plan, at: start, in: reader) else { return (suffix, start) }
        // The problem's pointer is from the value's: the path here is empty.
        return (reason(problem.message, at: here + problem.pointer, inFieldAt: here) + suffix, problem.offset)
    }

    /// The finding of a value at `start` of a root field that takes no default (`plan`'s,
    /// whose pointer is `here`), which is invalid there and rejects the payload with
    /// `consequence`: the tape decides that itself (`TapeNode.Kind.rejected`) for a scalar, or
    /// an array of scalars, and words it, when read, by asking this, as `settle` words it.
    static func rejected(
        _ plan: FieldPlan, at start: Int, pointer here: String, consequence: DeviceConsequence, in reader: JSONReader
    ) -> (code: DiagnosticCode, message: String, offset: Int) {
        guard let problem = problem(of: plan, at: start, in: reader) else {
            return (.wrongType, rejection("invalid", of: plan.field, consequence: consequence), start)
        }
        let reason = reason(problem.message, at: here + problem.pointer, inFieldAt: here)
        return (problem.kind, rejection(reason, of: plan.field, consequence: consequence), problem.offset)
    }

    /// Why the value at `start` of `plan`'s field is invalid, as `decodeValue` finds it, with
    /// its pointer from the value's; `nil` for a valid value.
    private static func problem(of plan: FieldPlan, at start: Int, in reader: JSONReader) -> DecodeProblem? {
        var context = DecodeContext(reader: reader, file: nil, version: 0, strict: false)
        context.reader.move(toValueAt: start, depth: 0)
        _ = try? context.decodeValue(plan)
        return context.problem
    }

    // MARK: - Values

    /// Decodes one value against a field. The reader is before the value.
    ///
    /// Returns `nil` with `problem` set when the value is invalid; sets `strictProblem` when
    /// synthesized `Codable` would fail on it, valid or not.
    mutating func decodeValue(_ plan: FieldPlan) throws(JSONError) -> Value? {
        // The happy paths read the plan's flat copies (`kind`, `constraints`, …): copying
        // `plan.field` would retain and release its strings, arrays and boxed type each time.
        let token = try reader.peek()
        let start = reader.offset
        if token == .null {
            try reader.readNull()
            if plan.isOptional { return .null }
            let refusal = "null is not \(plan.field.type.article)"
            if plan.nullTakesDefault, let value = plan.missingValue {
                // `on-null: default`: the app's `decodeIfPresent … ?? default`. Synthesized
                // `Codable` has no such rule: a strict version still fails on the `null`.
                report(.defaulted, Self.nullDefaultedMessage(plan.field.name, value), at: start, pointer: pointer())
                if strict { strictProblem = problem(.wrongType, refusal, at: start) }
                return value
            }
            return invalid(refusal, at: start)
        }
        guard plan.kind.accepts(token) else { return try mismatch(plan.field, token, at: start) }
        switch plan.kind {
        case .string, .url, .formattedString:
            let text = reader.string(try reader.readString())
            // A URL or a format first, as `Field.violation(of:)` checks them: synthesized
            // `Codable` throws on a string that is not one whatever its length, which a strict
            // verdict must hear.
            if plan.kind == .url, let problem = plan.urls.problem(text) {
                return invalid(plan.urls.message(problem, in: text), at: start)
            }
            if let problem = plan.stringFormat?.problem(text) {
                return invalid(problem, at: start)
            }
            // `utf8.count` is O(1) on a native string: no second pass over an escaped one.
            if let message = plan.constraints.lengthProblem(text.utf8.count) {
                return outOfRange(message, at: start)
            }
            return .string(text)

        case .int:
            let number = try reader.readNumber()
            // An app's `UInt64` reads past `Int.max`, and reads `9223372036854775807.0`, which
            // `Int` refuses (its `Double` is 2^63).
            let value: Value
            let rangeProblem: String?
            if plan.numberFormat == .uint64, let uint = reader.integer(number, as: UInt64.self) {
                (value, rangeProblem) = (
                    Int(exactly: uint).map(Value.int) ?? .uint(uint),
                    plan.isOutOfRange(integer: uint) ? plan.constraints.rangeProblem(integer: uint) : nil)
            } else {
                guard let int = reader.integer(number) else {
                    let type = plan.numberFormat?.swiftName ?? "Int"
                    return invalid("\(numberText(number)) is not an integer that fits \(type)", at: start)
                }
                if let format = plan.numberFormat, !format.range.contains(Double(int)) {
                    return invalid("\(int) does not fit the app's \(format.swiftName)", kind: .outOfRange, at: start)
                }
                // The check is the plan's; the words, only for a value that breaks it.
                (value, rangeProblem) = (.int(int), plan.isOutOfRange(integer: int) ? plan.constraints.rangeProblem(integer: int) : nil)
            }
            if let rangeProblem {
                return outOfRange(rangeProblem, at: start)
            }
            return value

        case .double, .date:
            let number = try reader.readNumber()
            var double = reader.double(number)
            if plan.numberFormat == .decimal {
                // A `Decimal` is read by its own parser, which takes `0e1` (a `Double` does not).
                guard reader.decimalReads(number) else {
                    return invalid("\(numberText(number)) does not fit the app's Decimal", kind: .outOfRange, at: start)
                }
            } else {
                guard double.isFinite else { return invalid("\(numberText(number)) is too large for a Double", at: start) }
                if reader.foundationRefusesDouble(number, value: double) {
                    return invalid("\(numberText(number)) is a number Foundation's JSONDecoder does not decode as a Double", at: start)
                }
                // A double's other format, `decimal`, is read above.
                if plan.numberFormat == .float {
                    guard let held = reader.heldByFloat(number) else {
                        return invalid("\(numberText(number)) does not fit the app's Float", kind: .outOfRange, at: start)
                    }
                    // What the app holds, and checks the bounds on, as generated code does.
                    double = held
                }
            }
            let value: Value
            if plan.kind == .date {
                value = .date(double)
                if flagsUnixDates { flagUnixDate(double, at: start) }
            } else {
                value = .double(double)
            }
            if plan.isOutOfRange(double), let message = plan.field.rangeViolation(double) {
                return outOfRange(message, at: start)
            }
            return value

        case .bool:
            return .bool(try reader.readBool())

        case .dateRange:
            return try decodeDateRange(plan.field, at: start)

        case .stringEnum, .intEnum:
            return try decodeEnum(plan, at: start)

        case .array:
            guard let items = plan.items else { return try mismatch(plan.field, token, at: start) }
            return try decodeArray(plan, items: items, at: start)

        case .object:
            guard let object = plan.object else { return try mismatch(plan.field, token, at: start) }
            return try decodeObject(object, isRoot: false)

        case .map:
            guard let items = plan.items else { return try mismatch(plan.field, token, at: start) }
            return try decodeMap(plan, items: items, at: start)
        }
    }

    private mutating func decodeDateRange(_ field: Field, at start: Int) throws(JSONError) -> Value? {
        try reader.beginArray()
        var bounds: (lower: Double, upper: Double) = (0, 0)
        var starts = (lower: start, upper: start)
        var count = 0
        var valid = true
        // A bound that is a number Foundation does not decode as a `Double`: why, where.
        var refusedBound: (index: Int, message: String, offset: Int)?
        while try reader.nextElement() {
            // `ClosedRange<Date>` reads the first two elements and ignores the rest.
            if count < 2 {
                let offset = reader.offset
                if count == 0 { starts.lower = offset } else { starts.upper = offset }
                if try reader.peek() == .number {
                    let number = try reader.readNumber()
                    let double = reader.double(number)
                    if double.isFinite, !reader.foundationRefusesDouble(number, value: double) {
                        if count == 0 { bounds.lower = double } else { bounds.upper = double }
                    } else {
                        valid = false
                        if refusedBound == nil {
                            let why = double.isFinite ? "is a number Foundation's JSONDecoder does not decode as a Double" : "is too large for a Double"
                            refusedBound = (count, "\(numberText(number)) \(why)", offset)
                        }
                    }
                } else {
                    valid = false
                    try reader.skipValue()
                }
            } else {
                try reader.skipValue()
            }
            count += 1
        }
        if let refusedBound, count >= 2 {
            // Worded as a date's, at the bound.
            path.push(index: refusedBound.index)
            defer { path.pop() }
            return invalid(refusedBound.message, at: refusedBound.offset)
        }
        guard valid, count >= 2 else {
            return invalid("a date-range must be [lower, upper], two numbers", at: start)
        }
        if let message = Field.Constraints.orderProblem(lower: bounds.lower, upper: bounds.upper) {
            return invalid(message, kind: .outOfRange, at: start)
        }
        if count > 2 {
            return outOfRange("a date-range has two elements, found \(count)", at: start)
        }
        if let message = field.rangeViolation(bounds.lower) ?? field.rangeViolation(bounds.upper) {
            return outOfRange(message, at: start)
        }
        if flagsUnixDates {
            // Each bound at its place (`/range/0`, `/range/1`).
            flagUnixDate(bounds.lower, at: starts.lower, element: 0)
            flagUnixDate(bounds.upper, at: starts.upper, element: 1)
        }
        return .dateRange(lower: bounds.lower, upper: bounds.upper)
    }

    /// Seconds since 2001-01-01 from which a date is taken for UNIX seconds sent by mistake:
    /// 1e9 is September 2032 as a 2001-based date, and September 2001 as UNIX time.
    static let unixDateThreshold = 1e9

    /// Whether a date's seconds look like UNIX time sent by mistake (see `unixDateThreshold`),
    /// which the validator reports (`unixDateMessage`): the full decoder as it reads the date,
    /// the tape builder with a `unixDate` node worded when read.
    @inline(__always)
    static func looksLikeUnixTime(_ seconds: Double) -> Bool {
        seconds >= unixDateThreshold
    }

    /// Reports a date (or, at `element`, a date range's bound) that looks like UNIX time.
    private mutating func flagUnixDate(_ seconds: Double, at offset: Int, element: Int? = nil) {
        guard Self.looksLikeUnixTime(seconds) else { return }
        let here = pointer()
        report(.unixDateInDateField, Self.unixDateMessage(seconds), at: offset, pointer: element.map { here + "/\($0)" } ?? here)
    }

    /// The `unix-date-in-date-field` message of a date's `seconds` that look like UNIX time.
    static func unixDateMessage(_ seconds: Double) -> String {
        // Any finite double may arrive here: keep the arithmetic in Double and the year in range.
        let years = (seconds / 31_556_952).rounded(.down)
        let when = years < 1e6 ? "the year \(2001 + Int(years))" : "far in the future"
        // At 1e11 and above the value is more likely milliseconds: UNIX ones, or, below the
        // milliseconds of 2001-01-01 in UNIX time, the right date in milliseconds.
        let unixSeconds = seconds >= 1e11 ? (seconds / 1000).rounded(.down) : seconds
        if unixSeconds < 978_307_200 {
            return "\(ValueText.number(seconds)) looks like milliseconds since 2001-01-01: the device reads seconds, so this is \(when); "
                + "send \(ValueText.number(unixSeconds))"
        }
        var converted = unixSeconds - 978_307_200
        // As many decimals as the value sent: the difference keeps binary noise otherwise
        // (1796590290.123 would say 818283090.1229999).
        let sent = ValueText.number(unixSeconds)
        if !sent.contains("e"), let point = sent.firstIndex(of: ".") {
            let scale = pow(10, Double(sent[sent.index(after: point)...].count))
            let rounded = (converted * scale).rounded() / scale
            if rounded.isFinite { converted = rounded }
        }
        // Up to 1e14 (UNIX milliseconds of the year 5138): beyond, no unit is likely.
        let unit = (1e11 ..< 1e14).contains(seconds) ? "UNIX time in milliseconds" : "UNIX time"
        return "\(ValueText.number(seconds)) looks like \(unit): the device reads seconds since 2001-01-01, so this is \(when); send \(ValueText.number(converted))"
    }

    /// The `unknown-enum-value` message of a value, shown as `text`, that is none of `plan`'s
    /// raw values: the fallback is taken.
    static func unknownEnumMessage(_ text: String, of plan: FieldPlan) -> String {
        "\(text) is not one of \(plan.enumListText)\(plan.fallbackSuffix)"
    }

    private mutating func decodeEnum(_ plan: FieldPlan, at start: Int) throws(JSONError) -> Value? {
        let raw: Value
        switch plan.kind {
        case .stringEnum:
            let string = try reader.readString()
            if let value = plan.enumValue(matching: string, in: reader) { return value }
            raw = .string(reader.string(string))
        case .intEnum:
            let number = try reader.readNumber()
            guard let int = reader.integer(number) else {
                // A whole number written without a fraction or exponent is an integer, one an `Int` does not hold.
                let why = number.isInteger ? "is too large for an Int, so it is no raw value" : "is not an integer raw value"
                return invalid("\(numberText(number)) \(why)", at: start)
            }
            if plan.enumIntegers.contains(int) { return .int(int) }
            raw = .int(int)
        default:
            return nil
        }
        let text = ValueText.render(raw)
        if strict { strictProblem = problem(.outOfRange, "\(text) is not a raw value of the enum", at: start) }
        if let fallback = plan.fallback {
            report(.unknownEnumValue, Self.unknownEnumMessage(text, of: plan), at: start, pointer: pointer())
            return fallback
        }
        return invalid("\(text) is not one of \(plan.enumListText)", kind: .outOfRange, at: start)
    }

    private mutating func decodeArray(_ plan: FieldPlan, items: FieldPlan, at start: Int) throws(JSONError) -> Value? {
        try reader.beginArray()
        var elements: [Value] = []
        // One allocation of the right size instead of growing 1, 2, 4, 8…; past max-items the
        // array is rejected anyway, so the hint stops counting there.
        elements.reserveCapacity(reader.elementCountHint(limit: (plan.constraints.maxItems ?? 1023) &+ 1))
        var verdict = ElementsVerdict()
        var index = 0
        while try reader.nextElement() {
            // Elements after an invalid one are still decoded: synthesized Codable may fail on
            // a later one, and the strict verdict has to name it.
            path.push(index: index)
            let element = try decodeValue(items)
            path.pop()
            if let element = takeElement(element, into: &verdict) { elements.append(element) }
            index &+= 1
        }
        return elementsAreValid(verdict, count: elements.count, of: plan, at: start) ? .array(elements) : nil
    }

    /// A map (a Swift `[String: T]`): its members in input order, each value read against
    /// `items`; one invalid value makes the map invalid, as an invalid element makes an array.
    /// A key met again keeps its first value, as `JSONDecoder` keeps it, and its later value
    /// is not read (`duplicate-key`, which names it when this app version would not read it as
    /// sent), as for an object's field.
    ///
    /// An `Int`-keyed map's (`keys: int`) keys are held as `Int` writes them (`05` is `5`), as
    /// the app's dictionary holds them. Two keys of one integer are both read, as `JSONDecoder`
    /// reads both, and the later one is noted (`duplicate-key`): the app keeps one of their
    /// values, and which is not set. The state keeps the first, and counts one entry.
    private mutating func decodeMap(_ plan: FieldPlan, items: FieldPlan, at start: Int) throws(JSONError) -> Value? {
        try reader.beginObject()
        var members: [Value.Member] = []
        var keys = KeyList()
        var integers: Set<Int> = []
        var verdict = ElementsVerdict()
        while let key = try reader.nextKey() {
            let name = reader.string(key)
            guard !keys.contains(key, in: reader) else {
                let here = pointer(appending: name)
                let message = Self.repeatedKeyMessage(items, named: name, pointer: here, valueAfter: reader.offset, in: reader)
                report(.duplicateKey, message, at: key.start &- 1, pointer: here)
                try reader.skipValue()
                continue
            }
            keys.insert(key, in: reader)
            path.push(key: name)
            if verdict.problem == nil || (strict && verdict.strictProblem == nil),
               let (message, codableFails) = Field.mapKeyProblem(name, integerKeys: plan.hasIntegerKeys, constraints: plan.constraints) {
                // The values are read on, for their findings. Synthesized `Codable` fails on a
                // key an `Int` does not hold; `max-key-length` is the schema's rule alone.
                let found = self.problem(codableFails ? .wrongType : .outOfRange, message, at: key.start &- 1)
                if verdict.problem == nil { verdict.problem = found }
                if strict, codableFails, verdict.strictProblem == nil { verdict.strictProblem = found }
            }
            var held = name
            var keeps = true
            if plan.hasIntegerKeys, let integer = Int(name) {
                held = String(integer)
                keeps = integers.insert(integer).inserted
                if !keeps { report(.duplicateKey, Self.repeatedIntegerKeyMessage(name, integer), at: key.start &- 1, pointer: pointer()) }
            }
            let value = try decodeValue(items)
            path.pop()
            if let value = takeElement(value, into: &verdict), keeps { members.append(Value.Member(held, value)) }
        }
        return elementsAreValid(verdict, count: members.count, of: plan, at: start) ? .object(members) : nil
    }

    /// What the values of an array or a map came to, read one after another: the first
    /// problem, which makes the container invalid, and the first reason synthesized `Codable`
    /// fails on one, for the strict verdict.
    private struct ElementsVerdict {
        var problem: DecodeProblem?
        var strictProblem: DecodeProblem?
    }

    /// Takes what the value just read came to into `verdict`: the value, to keep, while no
    /// value before it had a problem; `nil` otherwise.
    private mutating func takeElement(_ value: Value?, into verdict: inout ElementsVerdict) -> Value? {
        if let strictFailure = strictProblem {
            strictProblem = nil
            if verdict.strictProblem == nil { verdict.strictProblem = strictFailure }
        }
        guard let value else {
            if verdict.problem == nil { verdict.problem = problem }
            problem = nil
            return nil
        }
        return verdict.problem == nil ? value : nil
    }

    /// Whether a container of `count` values whose values came to `verdict` is valid: no value
    /// with a problem, and a count within `min-items` and `max-items`; `false` with `problem`
    /// set. Its strict verdict becomes the context's.
    private mutating func elementsAreValid(_ verdict: ElementsVerdict, count: Int, of plan: FieldPlan, at start: Int) -> Bool {
        strictProblem = verdict.strictProblem
        if let firstProblem = verdict.problem {
            problem = firstProblem
            return false
        }
        if let message = plan.constraints.countProblem(count) {
            problem = self.problem(.outOfRange, message, at: start)
            return false
        }
        return true
    }

    // MARK: - Problems

    /// A value synthesized `Codable` also fails on.
    private mutating func invalid(_ message: String, kind: DiagnosticCode = .wrongType, at offset: Int) -> Value? {
        let problem = problem(kind, message, at: offset)
        self.problem = problem
        if strict { strictProblem = problem }
        return nil
    }

    /// A value of the right type that breaks a constraint: synthesized `Codable` accepts it.
    private mutating func outOfRange(_ message: String, at offset: Int) -> Value? {
        problem = problem(.outOfRange, message, at: offset)
        return nil
    }

    private mutating func mismatch(_ field: Field, _ token: JSONToken, at offset: Int) throws(JSONError) -> Value? {
        try reader.skipValue()
        return invalid("expected \(field.type.article), found \(Self.described(token))", at: offset)
    }

    private func numberText(_ number: JSONNumber) -> String {
        let slice = UnsafeRawBufferPointer(rebasing: reader.bytes[number.start..<number.end])
        return ValueText.clipped(String(decoding: slice, as: UTF8.self))
    }
}

/// The path from the root to the value being decoded, for JSON Pointers: each step a field
/// (unretained: the plans outlive every decode) or an array index.
struct DecodePath {
    enum Step {
        case field(Unmanaged<FieldPlan>)
        case index(Int)
        /// A map's key.
        case key(String)
    }

    private var steps: [Step] = []

    var count: Int { steps.count }
    var isEmpty: Bool { steps.isEmpty }

    mutating func push(_ field: FieldPlan) {
        steps.append(.field(Unmanaged.passUnretained(field)))
    }

    mutating func push(index: Int) {
        steps.append(.index(index))
    }

    mutating func push(key: String) {
        steps.append(.key(key))
    }

    mutating func pop() {
        _ = steps.popLast()
    }

    /// Forgets every step.
    mutating func removeAll() {
        steps.removeAll(keepingCapacity: true)
    }

    /// The JSON Pointer of the last step.
    func pointer() -> String {
        var pointer = ""
        for step in steps {
            switch step {
            case .field(let field): pointer += field.takeUnretainedValue().pointerToken
            case .index(let index): pointer = JSONPointer.appending(index, to: pointer)
            case .key(let key): pointer = JSONPointer.appending(key, to: pointer)
            }
        }
        return pointer
    }
}

/// A set of field indexes: a bit mask, spilling to an array past `maskCapacity` fields.
struct FieldSet: FieldBits {
    /// The fields one `UInt64` mask holds. The tape builder keeps an object's fields in one such
    /// mask, and in a `FieldSet` when it has more.
    static let maskCapacity = UInt64.bitWidth

    private var low = FieldMask(count: 0)
    private var high: [Bool]

    init(count: Int) {
        high = count > Self.maskCapacity ? Array(repeating: false, count: count - Self.maskCapacity) : []
    }

    func contains(_ index: Int) -> Bool {
        index < Self.maskCapacity ? low.contains(index) : high[index - Self.maskCapacity]
    }

    mutating func insert(_ index: Int) {
        if index < Self.maskCapacity { low.insert(index) } else { high[index - Self.maskCapacity] = true }
    }

    mutating func remove(_ index: Int) {
        if index < Self.maskCapacity { low.remove(index) } else { high[index - Self.maskCapacity] = false }
    }

    var isEmpty: Bool { low.isEmpty && !high.contains(true) }

    func complement(count: Int) -> FieldSet {
        var other = FieldSet(count: count)
        other.low = low.complement(count: min(count, Self.maskCapacity))
        for index in other.high.indices { other.high[index] = !(index < high.count && high[index]) }
        return other
    }

    mutating func formUnion(_ other: FieldSet) {
        low.formUnion(other.low)
        for index in high.indices where index < other.high.count && other.high[index] { high[index] = true }
    }

    mutating func popFirst() -> Int? {
        if let field = low.popFirst() { return field }
        guard let index = high.firstIndex(of: true) else { return nil }
        high[index] = false
        return Self.maskCapacity + index
    }
}

/// The keys of one object, compared unescaped: the first inline, so that an object with one
/// unknown key allocates nothing for it.
struct KeyList {
    private var first: JSONString?
    private var rest: [JSONString] = []
    /// Past `scanned` keys, their values, escapes resolved: each key is then looked up once
    /// rather than compared with every one before it, which made an object of 60,000 unknown
    /// keys take half a minute. (A `String` hashes canonically equivalent spellings alike.)
    private var values: Set<String>?

    /// How many keys are compared one by one before their values are hashed.
    static let scanned = 32

    func contains(_ key: JSONString, in reader: JSONReader) -> Bool {
        if let values { return values.contains(Self.value(of: key, in: reader)) }
        guard let first else { return false }
        if Self.same(first, key, in: reader) { return true }
        return rest.contains { Self.same($0, key, in: reader) }
    }

    mutating func insert(_ key: JSONString, in reader: JSONReader) {
        if values != nil {
            values!.insert(Self.value(of: key, in: reader))
        } else if first == nil {
            first = key
        } else {
            rest.append(key)
            if rest.count >= Self.scanned, let first {
                values = Set(([first] + rest).map { Self.value(of: $0, in: reader) })
                rest = []
            }
        }
    }

    /// A key's value, escapes resolved, as `same` compares it.
    static func value(of key: JSONString, in reader: JSONReader) -> String {
        reader.string(key)
    }

    /// Whether two keys have the same value as Swift `String`s compare, escapes resolved: the
    /// same text, or canonically equivalent spellings (`"é"` and `"e\u{301}"`, `"K"` and the
    /// Kelvin sign), which `JSONDecoder`, whose keys are `String`s, takes for one key. The full
    /// decoder's rule, and the tape builder's. Two plain ASCII keys compare by their bytes.
    static func same(_ a: JSONString, _ b: JSONString, in reader: JSONReader) -> Bool {
        if !a.hasEscapes, !b.hasEscapes {
            let bytes = reader.bytes
            let left = UnsafeRawBufferPointer(rebasing: bytes[a.start..<a.end])
            let right = UnsafeRawBufferPointer(rebasing: bytes[b.start..<b.end])
            if left.elementsEqual(right) { return true }
            if left.allSatisfy({ $0 < 0x80 }) && right.allSatisfy({ $0 < 0x80 }) { return false }
        }
        return reader.string(a) == reader.string(b)
    }
}
