import Foundation

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

    /// The decoder for the content-state.
    public let decoder: ContentStateDecoder
    /// Whether a content-state with nothing wrong in it is read in one pass, as
    /// `ContentStateDecoder.view` reads it (the default); `false` reads every one with the full
    /// decoder, for comparisons. The results are the same.
    public var readsInOnePass = true
    /// The options.
    public var options: Options
    let attributesPlan: ObjectPlan

    /// Creates a validator for one version of a schema.
    /// - Parameters:
    ///   - schema: The schema.
    ///   - version: The app version to check for; `nil` checks for the newest.
    ///   - options: What to check.
    /// - Throws: `ContentStateDecoder.UnknownVersion` when the schema has no such version.
    public init(schema: Schema, version: Int? = nil, options: Options = .init()) throws(ContentStateDecoder.UnknownVersion) {
        decoder = try ContentStateDecoder(schema: schema, version: version, options: options.scan)
        self.options = options
        attributesPlan = ObjectPlan(fields: decoder.version.attributes)
    }

    /// Validates a whole APNs body.
    /// - Parameters:
    ///   - bytes: The body's JSON text.
    ///   - file: The file name to put in diagnostics.
    /// - Returns: The findings, the decoded state and the budget.
    public func validate(_ bytes: UnsafeRawBufferPointer, file: String? = nil) -> ValidationResult {
        var walk = EnvelopeWalk(validator: self, bytes: bytes, file: file)
        return walk.run()
    }

    /// Validates a whole APNs body held in an array or `Data`.
    /// - Parameters:
    ///   - bytes: The body's JSON text.
    ///   - file: The file name to put in diagnostics.
    /// - Returns: The findings, the decoded state and the budget.
    public func validate(_ bytes: some ContiguousBytes, file: String? = nil) -> ValidationResult {
        bytes.withUnsafeBytes { validate($0, file: file) }
    }

    /// Validates a body against every version of a schema: which app versions in the field
    /// would drop it.
    /// - Parameters:
    ///   - schema: The schema.
    ///   - bytes: The body's JSON text.
    ///   - file: The file name to put in diagnostics.
    ///   - options: What to check.
    /// - Returns: The result per version, oldest first, and the combined findings: everything
    ///   the newest version reports, each older version's errors, and one `dropped-by-version`
    ///   error per version that drops the update.
    public static func validateAllVersions(
        _ schema: Schema, _ bytes: some ContiguousBytes, file: String? = nil, options: Options = .init()
    ) -> (results: [(version: Int, result: ValidationResult)], diagnostics: [Diagnostic]) {
        let validators = schema.versions.compactMap { try? PayloadValidator(schema: schema, version: $0.version, options: options) }
        return bytes.withUnsafeBytes { validateAllVersions(validators, $0, file: file) }
    }

    /// Validates a body with validators built beforehand, one per version of a schema: what
    /// `validateAllVersions(_:_:file:options:)` does, without building a validator per call
    /// (a server builds them once per loaded schema).
    /// - Parameters:
    ///   - validators: One validator per version, oldest first.
    ///   - bytes: The body's JSON text.
    ///   - file: The file name to put in diagnostics.
    /// - Returns: The result per version, oldest first, and the combined findings, as
    ///   `validateAllVersions(_:_:file:options:)` returns them.
    public static func validateAllVersions(
        _ validators: [PayloadValidator], _ bytes: UnsafeRawBufferPointer, file: String? = nil
    ) -> (results: [(version: Int, result: ValidationResult)], diagnostics: [Diagnostic]) {
        let results: [(version: Int, result: ValidationResult)] = validators.map { validator in
            (validator.decoder.version.version, validator.validate(bytes, file: file))
        }
        guard let newest = results.last else { return (results, []) }
        var diagnostics = newest.result.diagnostics
        var seen = Set(diagnostics)
        for (version, result) in results.dropLast() {
            for diagnostic in result.diagnostics where diagnostic.severity == .error && diagnostic.scope != .envelope {
                var tagged = diagnostic
                tagged.message = "app version \(version): " + diagnostic.message
                if seen.insert(tagged).inserted { diagnostics.append(tagged) }
            }
        }
        for (version, result) in results where !result.appDecodes {
            let reason = result.diagnostics.first { $0.severity == .error }
            diagnostics.append(Diagnostic(
                code: ValidationCode.droppedByVersion.rawValue, severity: .error,
                message: "app version \(version) drops this update" + (reason.map { ": \($0.message)" } ?? ""),
                file: file, position: reason?.position, scope: reason?.scope ?? .envelope, pointer: reason?.pointer))
        }
        return (results, diagnostics)
    }
}

/// What validating one body found.
public struct ValidationResult: Sendable, Hashable {
    /// Every finding, envelope and content-state, with the strict verdict.
    public var diagnostics: [Diagnostic]
    /// The content-state as the app version decodes it, when it does.
    public var state: Value?
    /// The `event` value, when it is a string.
    public var event: String?
    /// Whether the app version applies the update: its content-state decodes (synthesized
    /// `Codable` included, for a strict client) and the body is no larger than APNs accepts.
    public var appDecodes: Bool
    /// The byte budget.
    public var budget: ByteBudget

    /// Creates a result.
    /// - Parameters:
    ///   - diagnostics: The findings.
    ///   - state: The decoded state.
    ///   - event: The event.
    ///   - appDecodes: Whether the app applies the update.
    ///   - budget: The byte budget.
    public init(diagnostics: [Diagnostic], state: Value?, event: String?, appDecodes: Bool, budget: ByteBudget) {
        self.diagnostics = diagnostics
        self.state = state
        self.event = event
        self.appDecodes = appDecodes
        self.budget = budget
    }

    /// Whether any finding is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// One pass over one body.
private struct EnvelopeWalk {
    let validator: PayloadValidator
    let bytes: UnsafeRawBufferPointer
    let file: String?
    var diagnostics: [Diagnostic] = []

    // What the `aps` object held.
    var apsSeen = false
    var apsStart: Int?
    var timestamp: (value: Int, offset: Int)?
    var event: (name: String, offset: Int)?
    var staleDate: (value: Int, offset: Int)?
    var dismissalDate: Int?
    var contentState: (start: Int, end: Int, decoded: Decoded)?
    var attributesType: Int?
    var hasAttributes = false
    var hasAlert = false
    var inputPushToken: Int?
    var inputPushChannel: Int?
    var spans: [DecodeContext.MemberSpan] = []

    init(validator: PayloadValidator, bytes: UnsafeRawBufferPointer, file: String?) {
        self.validator = validator
        self.bytes = bytes
        self.file = file
    }

    mutating func run() -> ValidationResult {
        let decoder = validator.decoder
        let limit = validator.options.broadcast ? ByteBudget.broadcastLimit : ByteBudget.apnsLimit
        var context: DecodeContext
        do {
            context = DecodeContext(
                reader: try JSONReader(bytes: bytes, options: decoder.options), file: file,
                version: decoder.version.version, strict: decoder.isStrict)
        } catch {
            return finish(failure: error, context: nil, findings: [], limit: limit)
        }
        context.flagsUnixDates = true
        var failure: JSONError?
        do {
            try walkBody(&context)
            try context.reader.finish()
        } catch {
            failure = error
        }
        // The decoder's findings handed over, not copied: the context is done with them.
        var findings: [Diagnostic] = []
        swap(&findings, &context.diagnostics)
        return finish(failure: failure, context: context, findings: findings, limit: limit)
    }

    // MARK: - Reporting

    mutating func report(_ code: ValidationCode, _ message: String, at offset: Int, pointer: String, scope: DiagnosticScope = .envelope) {
        diagnostics.append(Diagnostic(
            code: code.rawValue, severity: code.severity, message: message, file: file,
            position: SourcePosition.locate(offset: offset, in: bytes), scope: scope, pointer: pointer))
    }

    private func matches(_ key: JSONString, _ reader: JSONReader, _ literal: StaticString) -> Bool {
        reader.matches(key, UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    // MARK: - The walk

    mutating func walkBody(_ context: inout DecodeContext) throws(JSONError) {
        guard try context.reader.peek() == .objectStart else {
            report(.missingAPS, "an APNs body must be a JSON object with an aps object", at: context.reader.offset, pointer: "")
            try context.reader.skipValue()
            return
        }
        let bodyStart = context.reader.offset
        try context.reader.beginObject()
        while let key = try context.reader.nextKey() {
            guard matches(key, context.reader, "aps") else {
                // App data beside `aps` is the app's business.
                try context.reader.skipValue()
                continue
            }
            if apsSeen {
                diagnostics.append(Diagnostic(
                    code: DecodeCode.duplicateKey.rawValue, severity: .warning,
                    message: "aps appears again; only the first is checked", file: file,
                    position: context.reader.position(of: key.start - 1), scope: .envelope, pointer: "/aps"))
                try context.reader.skipValue()
                continue
            }
            apsSeen = true
            guard try context.reader.peek() == .objectStart else {
                report(.invalidAPSValue, "aps must be an object", at: context.reader.offset, pointer: "/aps")
                try context.reader.skipValue()
                continue
            }
            apsStart = context.reader.offset
            try walkAPS(&context)
        }
        if apsSeen && apsStart == nil { return }
        guard let apsStart else {
            report(.missingAPS, "the body has no aps object", at: bodyStart, pointer: "/aps")
            return
        }
        checkEvent(at: apsStart)
    }

    mutating func walkAPS(_ context: inout DecodeContext) throws(JSONError) {
        try context.reader.beginObject()
        var seen: UInt32 = 0
        while let key = try context.reader.nextKey() {
            let keyOffset = key.start - 1
            let known = Self.knownKeys.firstIndex { matches(key, context.reader, $0) }
            let name = known.map { Self.knownNames[$0] } ?? context.reader.string(key)
            let pointer = known.map { Self.knownPointers[$0] } ?? JSONPointer.appending(name, to: "/aps")
            let bit: UInt32 = known.map { 1 << UInt32($0) } ?? 0
            defer { seen |= bit }
            if seen & bit != 0 {
                diagnostics.append(Diagnostic(
                    code: DecodeCode.duplicateKey.rawValue, severity: .warning,
                    message: "aps key '\(name)' appears again; only the first is checked", file: file,
                    position: context.reader.position(of: keyOffset), scope: .envelope, pointer: pointer))
                try context.reader.skipValue()
                continue
            }
            let valueOffset = try skipToValue(&context)
            switch name {
            case "timestamp":
                if let seconds = try readSeconds(&context, name: name, pointer: pointer) {
                    timestamp = (seconds, valueOffset)
                }
            case "stale-date":
                if let seconds = try readSeconds(&context, name: name, pointer: pointer) {
                    staleDate = (seconds, valueOffset)
                }
            case "dismissal-date":
                if try readSeconds(&context, name: name, pointer: pointer) != nil {
                    dismissalDate = valueOffset
                }
            case "event":
                try readEvent(&context, pointer: pointer)
            case "content-state":
                let start = valueOffset
                context.path.removeAll()
                context.scope = .contentState
                if let read = readInOnePass(at: start, depth: context.reader.depth) {
                    // Checked and made from a tape; the findings join the full decoder's.
                    context.diagnostics += read.diagnostics
                    spans = read.spans
                    context.reader.move(to: read.end)
                    contentState = (start, read.end, Decoded(value: read.value))
                    break
                }
                context.spans = []
                let decoded = try context.decodeRoot(validator.decoder.plan)
                spans = context.spans ?? []
                context.spans = nil
                contentState = (start, context.reader.offset, decoded)
            case "attributes":
                hasAttributes = true
                try readAttributes(&context, pointer: pointer)
            case "attributes-type":
                try readAttributesType(&context, pointer: pointer)
            case "alert":
                hasAlert = true
                try readAlert(&context, pointer: pointer)
            case "relevance-score":
                if try context.reader.peek() == .number {
                    let score = context.reader.double(try context.reader.readNumber())
                    if !score.isFinite {
                        report(.invalidAPSValue, "relevance-score is too large for a Double", at: valueOffset, pointer: pointer)
                    }
                } else {
                    report(.invalidAPSValue, "relevance-score must be a number", at: valueOffset, pointer: pointer)
                    try context.reader.skipValue()
                }
            case "input-push-token":
                inputPushToken = valueOffset
                if try context.reader.peek() == .number, context.reader.integer(try context.reader.readNumber()) == 1 {
                    break
                }
                if context.reader.offset == valueOffset { try context.reader.skipValue() }
                report(.invalidAPSValue, "input-push-token must be the number 1", at: valueOffset, pointer: pointer)
            case "input-push-channel":
                inputPushChannel = valueOffset
                if try context.reader.peek() == .string {
                    let channel = try context.reader.readString()
                    if !Self.isBase64(context.reader.string(channel)) {
                        report(.invalidAPSValue, "input-push-channel must be a base64 channel id", at: valueOffset, pointer: pointer)
                    }
                } else {
                    try context.reader.skipValue()
                    report(.invalidAPSValue, "input-push-channel must be a base64 string", at: valueOffset, pointer: pointer)
                }
            default:
                report(.unknownAPSKey, "aps key '\(name)' is not used by Live Activity pushes; APNs ignores it (app data belongs beside aps)",
                       at: keyOffset, pointer: pointer)
                try context.reader.skipValue()
            }
        }
    }

    /// The `aps` keys of Live Activity pushes.
    static let knownKeys: [StaticString] = [
        "timestamp", "event", "content-state", "stale-date", "dismissal-date", "relevance-score", "alert",
        "attributes-type", "attributes", "input-push-token", "input-push-channel",
    ]
    /// The known keys' names and pointers, made once.
    static let knownNames = knownKeys.map(\.description)
    static let knownPointers = knownNames.map { JSONPointer.appending($0, to: "/aps") }

    /// Skips white space before a value and returns its offset.
    private func skipToValue(_ context: inout DecodeContext) throws(JSONError) -> Int {
        _ = try context.reader.peek()
        return context.reader.offset
    }

    /// The content-state at `start` read in one pass, as `ContentStateDecoder.view` reads it:
    /// its value, findings and members' spans, or `nil` when the full decoder must read it
    /// (anything wrong, a strict app version, a date that looks like UNIX seconds).
    private func readInOnePass(at start: Int, depth: Int)
        -> (value: Value, diagnostics: [Diagnostic], spans: [DecodeContext.MemberSpan], end: Int)? {
        guard validator.readsInOnePass,
              let (tape, end) = validator.decoder.tape(ofObject: start, in: bytes, depth: depth, file: file) else { return nil }
        return (tape.state(in: bytes), tape.diagnostics(in: bytes), tape.spans(), end)
    }

    /// Reads an integer of UNIX seconds, reporting fractions, negatives and milliseconds.
    private mutating func readSeconds(_ context: inout DecodeContext, name: String, pointer: String) throws(JSONError) -> Int? {
        let offset = context.reader.offset
        guard try context.reader.peek() == .number else {
            try context.reader.skipValue()
            report(.invalidAPSValue, "\(name) must be an integer of UNIX seconds", at: offset, pointer: pointer)
            return nil
        }
        let number = try context.reader.readNumber()
        guard let seconds = context.reader.integer(number), number.isInteger else {
            report(.invalidAPSValue, "\(name) must be an integer of UNIX seconds, not a fraction or a number that large", at: offset, pointer: pointer)
            return nil
        }
        if seconds < 0 {
            report(.invalidAPSValue, "\(name) must not be negative", at: offset, pointer: pointer)
            return nil
        }
        if seconds >= 100_000_000_000 {
            report(.dateInMilliseconds, "\(name) \(seconds) is in milliseconds; APNs wants UNIX seconds: \(seconds / 1000)", at: offset, pointer: pointer)
            return nil
        }
        return seconds
    }

    private mutating func readEvent(_ context: inout DecodeContext, pointer: String) throws(JSONError) {
        let offset = context.reader.offset
        guard try context.reader.peek() == .string else {
            try context.reader.skipValue()
            report(.invalidEvent, "event must be the string start, update or end", at: offset, pointer: pointer)
            return
        }
        let name = context.reader.string(try context.reader.readString())
        switch name {
        case "start", "update", "end":
            event = (name, offset)
        default:
            let lowered = name.lowercased()
            let hint = ["start", "update", "end"].first { lowered.hasPrefix($0) || $0.hasPrefix(lowered) && !lowered.isEmpty }
            report(.invalidEvent, "event '\(name)' is not start, update or end" + (hint.map { "; did you mean '\($0)'?" } ?? ""),
                   at: offset, pointer: pointer)
        }
    }

    private mutating func readAttributesType(_ context: inout DecodeContext, pointer: String) throws(JSONError) {
        let offset = context.reader.offset
        attributesType = offset
        guard try context.reader.peek() == .string else {
            try context.reader.skipValue()
            report(.invalidAPSValue, "attributes-type must be a string naming the ActivityAttributes type", at: offset, pointer: pointer)
            return
        }
        let name = context.reader.string(try context.reader.readString())
        if let expected = validator.decoder.schema.attributesType, name != expected {
            report(.attributesTypeMismatch, "attributes-type '\(name)' is not the schema's '\(expected)'; the device starts no activity",
                   at: offset, pointer: pointer)
        }
    }

    private mutating func readAttributes(_ context: inout DecodeContext, pointer: String) throws(JSONError) {
        let offset = context.reader.offset
        guard try context.reader.peek() == .objectStart else {
            try context.reader.skipValue()
            report(.invalidAPSValue, "attributes must be an object of the static attributes", at: offset, pointer: pointer)
            return
        }
        // The static attributes decode like a content-state, with pointers relative to them.
        let strict = context.strict
        context.strict = false
        context.scope = .attributes
        context.path.removeAll()
        _ = try context.decodeRoot(validator.attributesPlan)
        context.scope = .contentState
        context.strict = strict
    }

    private mutating func readAlert(_ context: inout DecodeContext, pointer: String) throws(JSONError) {
        let offset = context.reader.offset
        guard try context.reader.peek() == .objectStart else {
            try context.reader.skipValue()
            report(.invalidAPSValue, "alert must be an object with title and body", at: offset, pointer: pointer)
            return
        }
        try context.reader.beginObject()
        while let key = try context.reader.nextKey() {
            let name = context.reader.string(key)
            let valueOffset = context.reader.offset
            let token = try context.reader.peek()
            switch name {
            case "title", "body", "subtitle":
                if token == .string || token == .objectStart {
                    try context.reader.skipValue()
                } else {
                    try context.reader.skipValue()
                    report(.invalidAPSValue, "alert \(name) must be a string or a {\"loc-key\", \"loc-args\"} object",
                           at: valueOffset, pointer: JSONPointer.appending(name, to: pointer))
                }
            default:
                try context.reader.skipValue()
            }
        }
    }

    // MARK: - Rules across keys

    mutating func checkEvent(at apsStart: Int) {
        if timestamp == nil, !diagnostics.contains(where: { $0.pointer == "/aps/timestamp" }) {
            report(.missingAPSKey, "aps has no timestamp (integer UNIX seconds); the device ignores updates without one",
                   at: apsStart, pointer: "/aps/timestamp")
        }
        guard let event else {
            if !diagnostics.contains(where: { $0.pointer == "/aps/event" }) {
                report(.missingAPSKey, "aps has no event (start, update or end)", at: apsStart, pointer: "/aps/event")
            }
            return
        }
        if event.name != "end", contentState == nil {
            report(.missingAPSKey, "an \(event.name) needs aps.content-state", at: apsStart, pointer: "/aps/content-state")
        }
        if event.name == "start" {
            if validator.options.broadcast {
                report(.broadcastStart, "a broadcast push can update and end a Live Activity, never start one", at: event.offset, pointer: "/aps/event")
            }
            if attributesType == nil {
                report(.missingAPSKey, "a start needs aps.attributes-type: \(validator.decoder.schema.attributesType ?? "the ActivityAttributes type name")",
                       at: apsStart, pointer: "/aps/attributes-type")
            }
            if !hasAttributes {
                report(.missingAPSKey, "a start needs aps.attributes, the static attributes", at: apsStart, pointer: "/aps/attributes")
            }
            if !hasAlert {
                report(.missingAPSKey, "a start needs aps.alert", at: apsStart, pointer: "/aps/alert")
            }
        }
        if let dismissalDate, event.name != "end" {
            report(.dismissalDateOutsideEnd, "dismissal-date has no effect on \(event.name); it only counts on end", at: dismissalDate, pointer: "/aps/dismissal-date")
        }
        if let staleDate, let timestamp, staleDate.value < timestamp.value {
            report(.staleDateBeforeTimestamp, "stale-date \(staleDate.value) is before timestamp \(timestamp.value): the activity is stale on arrival",
                   at: staleDate.offset, pointer: "/aps/stale-date")
        }
        if let inputPushToken, inputPushChannel != nil {
            report(.inputPushConflict, "input-push-token and input-push-channel on one start: send one of them", at: inputPushToken, pointer: "/aps/input-push-token")
        }
    }

    static func isBase64(_ string: String) -> Bool {
        var count = 0
        var padding = 0
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "="):
                padding += 1
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "+"), UInt8(ascii: "/"):
                if padding > 0 { return false }
            default:
                return false
            }
            count += 1
        }
        return count > 0 && count % 4 == 0 && padding <= 2
    }

    // MARK: - The result

    /// Whether a finding passes `test`, each read in place: iterating the array would copy
    /// every finding out, strings and all.
    private static func contains(_ findings: [Diagnostic], where test: (UnsafePointer<Diagnostic>) -> Bool) -> Bool {
        findings.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            return buffer.indices.contains { test(base + $0) }
        }
    }

    /// `findings`: the content-state's and the attributes', taken from `context`.
    mutating func finish(failure: JSONError?, context: DecodeContext?, findings: consuming [Diagnostic], limit: Int) -> ValidationResult {
        var all = findings
        all.append(contentsOf: diagnostics)
        if let failure {
            all.append(Diagnostic(code: failure.code, severity: .error, message: failure.message, file: file,
                                  position: failure.position, scope: .envelope, pointer: nil))
        }
        // In input order; findings at one offset keep the order they were made in. A few
        // findings are put in order in place (a stable insertion sort, no allocation); many
        // with a stable sort.
        if all.count <= 32 {
            // Through the buffer: findings are compared in place and moved, not copied.
            all.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                func offset(_ index: Int) -> Int { (base + index).pointee.position?.offset ?? 0 }
                for index in buffer.indices.dropFirst() {
                    var slot = index
                    while slot > 0, offset(slot - 1) > offset(slot) {
                        buffer.swapAt(slot - 1, slot)
                        slot -= 1
                    }
                }
            }
        } else {
            all = all.enumerated()
                .sorted { ($0.element.position?.offset ?? 0, $0.offset) < ($1.element.position?.offset ?? 0, $1.offset) }
                .map(\.element)
        }

        var budget = ByteBudget(limit: limit, body: bytes.count)
        let decoder = validator.decoder
        var state: Value?
        var strictFailure: Diagnostic?
        if failure == nil, let contentState, let context {
            state = contentState.decoded.value
            budget.contentState = contentState.end - contentState.start
            if let state { budget.deviceWorstCase = ByteBudget.deviceWorstCase(state) }
            if validator.options.measuresFields || budget.headroom < 0 {
                budget.fields = spans.enumerated().map { index, span in
                    let separator = index < spans.count - 1 ? 1 : 0
                    // A field's key is the schema's own name: shared, not made again.
                    let name = span.field?.field.name ?? context.reader.string(span.key)
                    return .init(name: name, bytes: span.end - span.start + separator)
                }
            }
            if decoder.isStrict, let problem = contentState.decoded.strictProblem {
                strictFailure = problem.strictFailure(
                    version: decoder.version.version, file: file, position: SourcePosition.locate(offset: problem.offset, in: bytes))
            }
        }
        // Past the input limit the bytes may have been cut short, so the sizes mean nothing.
        if failure?.kind != .limit {
            all += budget.diagnostics(file: file, contentStatePosition: contentState.map { SourcePosition.locate(offset: $0.start, in: bytes) })
        }
        if let strictFailure { all.append(strictFailure) }

        let stateDecodes: Bool
        if decoder.isStrict {
            stateDecodes = failure == nil && contentState != nil && strictFailure == nil
                && !Self.contains(all) { $0.pointee.code == DecodeCode.notAnObject.rawValue }
        } else {
            stateDecodes = state != nil
        }
        let applies = (stateDecodes || (event?.name == "end" && contentState == nil && failure == nil))
            && budget.headroom >= 0 && !Self.contains(all) { $0.pointee.scope == .envelope && $0.pointee.severity == .error }
        return ValidationResult(diagnostics: all, state: state, event: event?.name, appDecodes: applies, budget: budget)
    }
}
