import Foundation

/// Checks a whole APNs body for one schema version: the `aps` envelope, the content-state
/// through the tolerant decoder, the static attributes of a start, and the byte budget.
///
/// One pass over the bytes: the envelope is walked with the same `JSONReader` the decoder
/// uses, so the content-state is decoded in place. `LiveStateTooling`'s `PayloadValidator` is
/// its public face; the encoder checks the bodies it writes with it.
package struct BodyChecker: Sendable {
    /// The release of iOS 16.1, the first with Live Activities, in UNIX seconds (2022-10-24):
    /// an update stamped before it is older than any activity's content (`timestamp-too-old`).
    package static let liveActivitiesRelease = 1_666_569_600

    /// The decoder for the content-state; its options are the scanner limits.
    package var decoder: ContentStateDecoder
    /// The push is a broadcast (iOS 18 channels): the body limit is 5120 and `start` is refused.
    package var broadcast: Bool
    /// Whether the budget lists each top-level content-state member's bytes.
    package var measuresFields: Bool
    /// Whether the content-state and a start's attributes are read in one pass, on a tape, as
    /// `ContentStateDecoder.decode` reads them (the default, the product); `false` reads them with
    /// the reference decode's object walk, for the tests and fuzzers that compare the two. The
    /// results are the same.
    package var readsInOnePass = true
    let attributesPlan: ObjectPlan

    /// Creates a checker that reads the content-state with `decoder`, for its schema version.
    package init(decoder: ContentStateDecoder, broadcast: Bool, measuresFields: Bool) {
        self.decoder = decoder
        self.broadcast = broadcast
        self.measuresFields = measuresFields
        attributesPlan = decoder.attributesPlan()
    }

    /// Checks a whole APNs body.
    /// - Parameters:
    ///   - bytes: The body's JSON text.
    ///   - file: The file name to put in diagnostics.
    /// - Returns: The findings, the decoded state and the budget.
    package func check(_ bytes: some ContiguousBytes, file: String?) -> BodyVerdict {
        bytes.withUnsafeBytes { bytes in
            var walk = EnvelopeWalk(checker: self, bytes: bytes, file: file)
            return walk.run()
        }
    }
}

/// What checking one body found (`LiveStateTooling`'s `ValidationResult` holds one).
package struct BodyVerdict: Sendable, Hashable {
    /// Every finding, envelope and content-state, with the strict verdict.
    package var diagnostics: [Diagnostic]
    /// The `event`, when it is `start`, `update` or `end`.
    package var event: ActivityEvent?
    /// Whether the app version applies the update.
    package var appDecodes: Bool
    /// The byte budget.
    package var budget: ByteBudget
    /// `aps.timestamp` as read, when it is a whole number of seconds.
    package var timestamp: Int?

    /// The content-state as the app version decodes it, when it does: made when this is read
    /// (on each read, as `DecodeResult.state` is), when it was read in one pass.
    package var state: Value? {
        get {
            switch decodedState {
            case .value(let value): value
            case .tape(let shared): shared.tape.state()
            }
        }
        set { decodedState = .value(newValue) }
    }

    /// Where `state` comes from: made already, or an accepted state's tape (which keeps a copy
    /// of the body).
    private enum DecodedState: Sendable {
        case value(Value?)
        case tape(DecodeResult.SharedTape)
    }

    private var decodedState: DecodedState

    /// A verdict whose state is made already.
    package init(diagnostics: [Diagnostic], state: Value?, event: ActivityEvent?, appDecodes: Bool, budget: ByteBudget) {
        self.init(diagnostics: diagnostics, decodedState: .value(state), event: event, appDecodes: appDecodes, budget: budget)
    }

    /// A verdict whose state is made from `tape`, which accepted it, when asked for.
    init(diagnostics: [Diagnostic], acceptedStateOf tape: StateTape, event: ActivityEvent?, appDecodes: Bool, budget: ByteBudget) {
        self.init(
            diagnostics: diagnostics, decodedState: .tape(DecodeResult.SharedTape(tape: tape)), event: event,
            appDecodes: appDecodes, budget: budget)
    }

    private init(diagnostics: [Diagnostic], decodedState: DecodedState, event: ActivityEvent?, appDecodes: Bool, budget: ByteBudget) {
        self.diagnostics = diagnostics
        self.decodedState = decodedState
        self.event = event
        self.appDecodes = appDecodes
        self.budget = budget
    }

    /// Verdicts are equal when what they say is: the same findings, state, event, verdict and
    /// budget, however the state is held.
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.diagnostics == rhs.diagnostics && lhs.event == rhs.event && lhs.appDecodes == rhs.appDecodes
            && lhs.budget == rhs.budget && lhs.timestamp == rhs.timestamp && lhs.state == rhs.state
    }

    /// Hashes what `==` compares.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(diagnostics)
        hasher.combine(state)
        hasher.combine(event)
        hasher.combine(appDecodes)
        hasher.combine(budget)
        hasher.combine(timestamp)
    }
}

/// One pass over one body.
private struct EnvelopeWalk: APNsBodyVisitor {
    let checker: BodyChecker
    let bytes: UnsafeRawBufferPointer
    let file: String?
    var diagnostics: [Diagnostic] = []

    // What the `aps` object held.
    /// The known `aps` keys met so far, one bit each.
    var apsKeysSeen: UInt32 = 0
    /// The first value of each `aps` key, made when a key first repeats (nil while a body with
    /// no repeat is read).
    var repeatedKeys: RepeatedAPSKeys?
    var timestamp: (value: Int, offset: Int)?
    /// A `timestamp` in milliseconds: its finding's index in `diagnostics`, and the value.
    var millisecondsTimestamp: (index: Int, value: Int)?
    var event: (name: ActivityEvent, offset: Int)?
    var staleDate: (value: Int, offset: Int)?
    var dismissalDate: Int?
    /// The content-state's bounds and how it was read.
    var contentState: (start: Int, end: Int, read: ContentStateRead)?
    /// The offset of a `"content-state": null`, which an end may carry and an update may not:
    /// judged with the event, which may come after it.
    var nullContentState: Int?

    /// How the content-state was read: on a tape (its state made only when the result's
    /// `state` is asked for), or, for the reference decode, by the object walk, which made its
    /// value.
    enum ContentStateRead {
        case onTape(StateTape)
        case decoded(Decoded)

        /// For a strict version: why synthesized `Codable` fails on the state.
        var strictProblem: DecodeProblem? {
            switch self {
            case .onTape(let tape): tape.strictProblem
            case .decoded(let decoded): decoded.strictProblem
            }
        }
    }
    /// The wording the content-state's findings were made with: the event's, when it came first.
    var contentStateConsequence = DeviceConsequence.update
    var alert: Alert?
    /// Where an `"alert": null` is.
    var nullAlert: Int?
    var inputPushToken: Int?
    var inputPushChannel: Int?
    var spans: [DecodeContext.MemberSpan] = []
    /// Whether a key may be among `spans` twice (`StateTape.spans`); the reference decode's may.
    var spansMayRepeatKeys = true
    /// The keys only a start uses (`attributes`, `attributes-type`, `input-push-token`,
    /// `input-push-channel`), each with its key's offset, in input order.
    var startOnlyKeys: [(name: String, offset: Int)] = []
    /// Live Activity `aps` keys met beside `aps`, by their index in `knownKeys`, with their
    /// key's offset: reported at the end for each one `aps` does not also hold.
    var keysBesideAPS: [(index: Int, offset: Int)] = []
    /// Whether the start's attributes decode; `nil` when the body has none.
    var attributesDecode: Bool?
    /// The findings about the values of start-only keys, the attributes' included: they count
    /// only when the push is a start, since on update and end the device ignores those keys.
    var startFindings: [Diagnostic] = []

    /// What the `alert` value held.
    struct Alert {
        var offset: Int
        var isObject = false
        var isString = false
        /// A non-empty `title`, a non-empty `body`.
        var hasTitle = false
        var hasBody = false
        /// Whether `title` or `body` is there at all, empty or not.
        var namesTitleOrBody = false
        /// The text keys of an ordinary notification's alert it has (`title-loc-key`,
        /// `loc-key`, …), which Apple does not document for Live Activities: bit `i` for
        /// `notificationTextKeys[i]`.
        var notificationTextKeys: UInt8 = 0

        /// The names of `notificationTextKeys`, quoted, in the list's order: "'loc-key', 'loc-args'".
        var notificationTextKeyList: String {
            EnvelopeWalk.notificationTextKeys.indices.filter { notificationTextKeys & 1 << $0 != 0 }
                .map { "'\(EnvelopeWalk.notificationTextKeys[$0])'" }.joined(separator: ", ")
        }
    }

    /// How a Live Activity alert spells localized text, for an alert written with an ordinary
    /// notification's keys.
    static let liveActivityAlertForm = #"send "title": {"loc-key": …} and "body": {"loc-key": …, "loc-args": […]}"#

    /// The keys an ordinary notification's alert holds its text in, which Live Activity alerts
    /// spell as `title` and `body` objects (`{"loc-key": …, "loc-args": […]}`).
    static let notificationTextKeys = ["title-loc-key", "title-loc-args", "subtitle-loc-key", "subtitle-loc-args", "loc-key", "loc-args"]

    init(checker: BodyChecker, bytes: UnsafeRawBufferPointer, file: String?) {
        self.checker = checker
        self.bytes = bytes
        self.file = file
    }

    mutating func run() -> BodyVerdict {
        // The decoder is asked through `checker` rather than copied out: a copy retains
        // every array its schema version holds.
        let limit = checker.broadcast ? ByteBudget.broadcastLimit : ByteBudget.apnsLimit
        var context: DecodeContext
        do {
            context = DecodeContext(
                reader: try JSONReader(bytes: bytes, options: checker.decoder.options), file: file,
                version: checker.decoder.version.version, strict: checker.decoder.isStrict)
        } catch {
            return finish(failure: error, reader: nil, findings: [], limit: limit)
        }
        context.flagsUnixDates = true
        context.isReference = !checker.readsInOnePass
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
        return finish(failure: failure, reader: context.reader, findings: findings, limit: limit)
    }

    // MARK: - Reporting

    mutating func report(_ code: DiagnosticCode, _ message: String, at offset: Int, pointer: String, scope: DiagnosticScope = .envelope) {
        diagnostics.append(finding(code, message, at: offset, pointer: pointer, scope: scope))
    }

    /// Reports a finding about the value of a key only a start uses: it counts if the push is a start.
    mutating func reportForStart(_ code: DiagnosticCode, _ message: String, at offset: Int, pointer: String) {
        startFindings.append(finding(code, message, at: offset, pointer: pointer, scope: .envelope))
    }

    private func finding(_ code: DiagnosticCode, _ message: String, at offset: Int, pointer: String, scope: DiagnosticScope) -> Diagnostic {
        Diagnostic(
            code: code, severity: code.validatorSeverity, message: message, file: file,
            position: SourcePosition.locate(offset: offset, in: bytes), scope: scope, pointer: pointer)
    }

    // MARK: - The walk

    mutating func walkBody(_ context: inout DecodeContext) throws(JSONError) {
        switch try APNsBody.walk(&self, &context) {
        case .object(let apsStart):
            checkKeysBesideAPS()
            checkEvent(at: apsStart)
        case .missing(let bodyStart):
            // Live Activity keys at the top level: the envelope written without its `aps`.
            report(.missingAPS, APNsBody.noAPS(besides: keysBesideAPS.map { Self.knownNames[$0.index] }), at: bodyStart, pointer: "/aps")
        case .bodyNotAnObject, .notAnObject:
            // Reported as they were met.
            break
        }
    }

    mutating func bodyIsNotAnObject(_ context: inout DecodeContext) throws(JSONError) {
        report(.missingAPS, APNsBody.notABody, at: context.reader.offset, pointer: "")
        try context.reader.skipValue()
    }

    mutating func repeatedAPS(_ key: JSONString, _ context: inout DecodeContext) throws(JSONError) {
        diagnostics.append(Diagnostic(
            code: DiagnosticCode.duplicateKey, severity: .warning,
            message: "aps appears again; " + Self.firstOfRepeatedAPSKey, file: file,
            position: context.reader.position(of: key.start - 1), scope: .envelope, pointer: "/aps"))
        try context.reader.skipValue()
    }

    /// A member beside `aps` is data for the app; one named as a Live Activity key of `aps`
    /// is noted, since the device reads those keys only inside `aps`.
    mutating func otherMember(_ key: JSONString, _ context: inout DecodeContext) throws(JSONError) {
        if let known = APSKeys.liveActivityIndex(of: key, in: context.reader) {
            keysBesideAPS.append((known, key.start - 1))
        }
        try context.reader.skipValue()
    }

    mutating func apsIsNotAnObject(_ context: inout DecodeContext) throws(JSONError) {
        report(.invalidAPSValue, APNsBody.apsNotAnObject, at: context.reader.offset, pointer: "/aps")
        try context.reader.skipValue()
    }

    /// Checks one member of the envelope: a key met again is reported and skipped (the first
    /// `content-state` is the state, as `APNsBody` says).
    mutating func apsMember(_ key: JSONString, isContentState: Bool, _ context: inout DecodeContext) throws(JSONError) {
        let keyOffset = key.start - 1
        let known = APSKeys.liveActivityIndex(of: key, in: context.reader)
        let name = known.map { Self.knownNames[$0] } ?? context.reader.string(key)
        let pointer = known.map { Self.knownPointers[$0] } ?? JSONPointer.appending(name, to: "/aps")
        let bit: UInt32 = known.map { 1 << UInt32($0) } ?? 0
        defer { apsKeysSeen |= bit }
        if apsKeysSeen & bit != 0 {
            let start = try skipToValue(&context)
            try context.reader.skipValue()
            // Another value: which one the device reads decides what it does (a timestamp, an
            // event), and `JSONDecoder` keeps the first, `JSONSerialization` the last.
            let repeated = repeatedKeys ?? RepeatedAPSKeys(in: context.reader.bytes)
            repeatedKeys = repeated
            let differs = repeated.differs(name, from: start ..< context.reader.offset)
            diagnostics.append(Diagnostic(
                code: DiagnosticCode.duplicateKey, severity: differs ? .error : .warning,
                message: "aps key '\(name)' appears again" + (differs ? " with another value" : "") + "; " + Self.firstOfRepeatedAPSKey, file: file,
                position: context.reader.position(of: keyOffset), scope: .envelope, pointer: pointer))
            return
        }
        let valueOffset = try skipToValue(&context)
        if known != nil, try context.reader.peek() == .null, Self.nullIsNone.contains(name) {
            // Java's Jackson and Python's `None` write a key the sender left unset as `null`.
            // As for an end's `"content-state": null`, null is none. Whether an alert may be
            // left out depends on the event, judged once the body is read.
            try context.reader.skipValue()
            if name == "alert" {
                nullAlert = valueOffset
                return
            }
            report(.noEffectAPSKey, Self.nullIsNoneMessage(name), at: valueOffset, pointer: pointer)
            return
        }
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
            if try context.reader.peek() == .null {
                try context.reader.skipValue()
                nullContentState = valueOffset
                break
            }
            let start = valueOffset
            context.path.removeAll()
            context.scope = .contentState
            contentStateConsequence = DeviceConsequence(event: event?.name, broadcast: checker.broadcast)
            context.consequence = contentStateConsequence
            if checker.readsInOnePass, try context.reader.peek() == .objectStart {
                // Checked on a tape, as `ContentStateDecoder.decode` reads it, keeping a copy of
                // the body for the state made later; the scanner's error where it is not JSON.
                // The findings join the attributes'.
                let tape = try context.tape(of: checker.decoder.plan, keepingInput: true, recordsSpans: true)
                let found = tape.diagnostics(in: bytes)
                if context.diagnostics.isEmpty { context.diagnostics = found } else { context.diagnostics += found }
                (spans, spansMayRepeatKeys) = tape.spans()
                contentState = (start, context.reader.offset, .onTape(tape))
                break
            }
            // Not an object (`decodeRoot` words it), or the reference decode.
            context.spans = []
            let decoded = try context.decodeRoot(checker.decoder.plan)
            spans = context.spans ?? []
            context.spans = nil
            contentState = (start, context.reader.offset, .decoded(decoded))
        case "attributes":
            startOnlyKeys.append((name, keyOffset))
            try readAttributes(&context, pointer: pointer)
        case "attributes-type":
            startOnlyKeys.append((name, keyOffset))
            try readAttributesType(&context, pointer: pointer)
        case "alert":
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
            startOnlyKeys.append((name, keyOffset))
            inputPushToken = valueOffset
            if try context.reader.peek() == .number, context.reader.integer(try context.reader.readNumber()) == 1 {
                break
            }
            if context.reader.offset == valueOffset { try context.reader.skipValue() }
            reportForStart(.invalidInputPush, "input-push-token must be the number 1 (Apple's form); the activity starts, but the "
                           + "device may make no push token for it, so it cannot be updated by push", at: valueOffset, pointer: pointer)
        case "input-push-channel":
            startOnlyKeys.append((name, keyOffset))
            inputPushChannel = valueOffset
            if try context.reader.peek() == .string {
                let channel = try context.reader.readString()
                if !Self.isBase64(context.reader.string(channel)) {
                    reportForStart(.invalidInputPush, "input-push-channel must be a base64 channel id; " + Self.badChannelConsequence,
                                   at: valueOffset, pointer: pointer)
                }
            } else {
                try context.reader.skipValue()
                reportForStart(.invalidInputPush, "input-push-channel must be a base64 string; " + Self.badChannelConsequence,
                               at: valueOffset, pointer: pointer)
            }
        default:
            let (code, message) = APSKeys.otherKey(name)
            report(code, message, at: keyOffset, pointer: pointer)
            try context.reader.skipValue()
        }
    }

    /// The `aps` keys of Live Activity pushes.
    static let knownKeys = APSKeys.liveActivity
    /// The keys a push may leave out, whose `null` is taken as no value: `alert` on an update
    /// or end. `timestamp` and `event` are needed, a start's `attributes` and `attributes-type`
    /// too (`null` is then not the object or string it needs), and an end's null
    /// `content-state` has its own finding.
    static let nullIsNone: Set<String> = ["stale-date", "dismissal-date", "relevance-score", "alert", "input-push-token", "input-push-channel"]

    /// The message of a `null` the push may leave out.
    static func nullIsNoneMessage(_ name: String) -> String {
        "\(name) is null, read here as if it were left out (how the device reads null is not documented): send a value or leave the key out"
    }
    /// The known keys' names and pointers, made once.
    static let knownNames = knownKeys.map(\.description)
    static let knownPointers = knownNames.map { JSONPointer.appending($0, to: "/aps") }

    /// Skips white space before a value and returns its offset.
    private func skipToValue(_ context: inout DecodeContext) throws(JSONError) -> Int {
        _ = try context.reader.peek()
        return context.reader.offset
    }

    /// Reads an integer of UNIX seconds, reporting fractions and finer units (`SubsecondUnit`). A
    /// negative date is a date before 1970, in the past like `0`: the rules across keys judge it.
    private mutating func readSeconds(_ context: inout DecodeContext, name: String, pointer: String) throws(JSONError) -> Int? {
        let offset = context.reader.offset
        let token = try context.reader.peek()
        guard token == .number else {
            try context.reader.skipValue()
            report(.invalidAPSValue, "\(name) must be an integer of UNIX seconds, found \(DecodeContext.described(token))", at: offset, pointer: pointer)
            return nil
        }
        let number = try context.reader.readNumber()
        guard let seconds = context.reader.integer(number) else {
            let why = context.reader.double(number).rounded() != context.reader.double(number) ? "not a fraction" : "not a number that large"
            report(.invalidAPSValue, "\(name) must be an integer of UNIX seconds, \(why)", at: offset, pointer: pointer)
            return nil
        }
        if !number.isInteger {
            // `1795000000.0` (Python's float), `1.795e9` (Jackson's double): the same number as
            // the integer, which a reader of JSON numbers gets either way.
            report(.dateNotation, "\(name) is the whole number \(seconds) written with a fraction or an exponent; Apple documents "
                   + "an integer: send \(seconds)", at: offset, pointer: pointer)
        }
        if SubsecondUnit(of: seconds) != nil {
            let consequence = switch name {
            // An end's is worded once the event is known (`endConsequence`).
            case "timestamp": "every later update is older, whether pushed with a timestamp in seconds or made by the app itself, and the device ignores it"
            case "stale-date": "the activity never goes stale"
            // Apple's after(_:): removed at the date or four hours after the end, whichever is first.
            default: "the ended activity stays up to the system's four hours instead of leaving at that time"
            }
            if name == "timestamp" { millisecondsTimestamp = (diagnostics.count, seconds) }
            report(.dateInMilliseconds, Self.inMilliseconds(name, seconds, consequence), at: offset, pointer: pointer)
            return nil
        }
        return seconds
    }

    /// The `date-in-milliseconds` message of `name`'s `seconds`, with what it does on the device.
    private static func inMilliseconds(_ name: String, _ seconds: Int, _ consequence: String) -> String {
        let said = SubsecondUnit.said(name, seconds)
        return "\(said.text); the device reads UNIX seconds, a date thousands of years ahead (\(consequence)): send "
            + (said.seconds.map(String.init) ?? "the date in UNIX seconds")
    }

    /// What a `timestamp` in milliseconds does on an end: no update follows an end, and an end
    /// with a timestamp far from its activity's was reported to end it (forum thread 776165).
    private static let endConsequence = "no update follows an end, and an end stamped far from its activity's content was reported to end "
        + "it all the same, but what the device does with such a date is not documented"

    private mutating func readEvent(_ context: inout DecodeContext, pointer: String) throws(JSONError) {
        let offset = context.reader.offset
        guard try context.reader.peek() == .string else {
            try context.reader.skipValue()
            report(.invalidEvent, "event must be the string \(ActivityEvent.listed)", at: offset, pointer: pointer)
            return
        }
        let name = context.reader.string(try context.reader.readString())
        if let known = ActivityEvent(rawValue: name) {
            event = (known, offset)
        } else {
            let lowered = name.lowercased()
            let hint = ActivityEvent.allCases.map(\.rawValue).first { lowered.hasPrefix($0) || $0.hasPrefix(lowered) && !lowered.isEmpty }
            report(.invalidEvent, "event '\(name)' is not \(ActivityEvent.listed)" + (hint.map { "; did you mean '\($0)'?" } ?? ""),
                   at: offset, pointer: pointer)
        }
    }

    private mutating func readAttributesType(_ context: inout DecodeContext, pointer: String) throws(JSONError) {
        let offset = context.reader.offset
        guard try context.reader.peek() == .string else {
            try context.reader.skipValue()
            reportForStart(.invalidAPSValue, "attributes-type must be a string naming the ActivityAttributes type; the activity does not start",
                           at: offset, pointer: pointer)
            return
        }
        let name = context.reader.string(try context.reader.readString())
        if let expected = checker.decoder.schema.attributesType, name != expected {
            reportForStart(.attributesTypeMismatch, "attributes-type '\(name)' is not the schema's '\(expected)'; the activity does not start",
                           at: offset, pointer: pointer)
        }
    }

    /// Decodes a start's static attributes like a content-state, with pointers relative to
    /// them; the findings are kept for a start. A strict app version's attributes type decodes
    /// with synthesized `Codable` too: its `ContentState` is nested in it, and the same team's
    /// choice.
    private mutating func readAttributes(_ context: inout DecodeContext, pointer: String) throws(JSONError) {
        let offset = context.reader.offset
        guard try context.reader.peek() == .objectStart else {
            try context.reader.skipValue()
            attributesDecode = false
            reportForStart(.invalidAPSValue, "attributes must be an object of the static attributes; the activity does not start",
                           at: offset, pointer: pointer)
            return
        }
        var outside: [Diagnostic] = []
        swap(&outside, &context.diagnostics)
        context.scope = .attributes
        context.consequence = .start
        context.path.removeAll()
        let decoded = try context.decodeRoot(checker.attributesPlan)
        // A strict version's synthesized `Codable` checks none of the schema's constraints: its
        // verdict is the strict one alone.
        attributesDecode = decoded.strictProblem == nil && (context.strict || decoded.value != nil)
        if context.strict, let problem = decoded.strictProblem {
            let verdict = problem.strictFailure(
                file: context.file, position: SourcePosition.locate(offset: problem.offset, in: context.reader.bytes),
                consequence: .start, scope: .attributes)
            DecodeProblem.add(strictFailure: verdict, to: &context.diagnostics)
        } else if context.strict {
            DecodeProblem.strictClientApplies(&context.diagnostics, scope: .attributes)
        }
        context.scope = .contentState
        swap(&outside, &context.diagnostics)
        startFindings += outside
    }

    private mutating func readAlert(_ context: inout DecodeContext, pointer: String) throws(JSONError) {
        let offset = context.reader.offset
        var found = Alert(offset: offset)
        defer { alert = found }
        switch try context.reader.peek() {
        case .objectStart:
            found.isObject = true
        case .string:
            found.isString = true
            try context.reader.skipValue()
            return
        default:
            try context.reader.skipValue()
            report(.invalidAPSValue, "alert must be an object with title and body", at: offset, pointer: pointer)
            return
        }
        try context.reader.beginObject()
        while let key = try context.reader.nextKey() {
            let name = context.reader.string(key)
            let valueOffset = context.reader.offset
            switch name {
            case "title", "body", "subtitle":
                let token = try context.reader.peek()
                let present: Bool
                switch token {
                case .string: present = !context.reader.string(try context.reader.readString()).isEmpty
                case .objectStart: present = try readLocalized(&context, pointer: JSONPointer.appending(name, to: pointer))
                default:
                    present = false
                    try context.reader.skipValue()
                    report(.invalidAPSValue, "alert \(name) must be a string or a {\"loc-key\", \"loc-args\"} object",
                           at: valueOffset, pointer: JSONPointer.appending(name, to: pointer))
                }
                if name == "title" { found.hasTitle = found.hasTitle || present }
                if name == "body" { found.hasBody = found.hasBody || present }
                if name != "subtitle" { found.namesTitleOrBody = true }
            case "sound":
                // A sound file's name or "default" (`AlertConfiguration.AlertSound`); APNs also
                // documents a `{critical, name, volume}` object, which is left as it is.
                let token = try context.reader.peek()
                try context.reader.skipValue()
                if token != .string, token != .objectStart {
                    report(.noEffectAPSKey, "alert sound must be the name of a sound file in the app bundle, or \"default\"; "
                           + "\(DecodeContext.described(token)) plays no sound when the alert shows",
                           at: valueOffset, pointer: JSONPointer.appending(name, to: pointer))
                }
            default:
                if let index = Self.notificationTextKeys.firstIndex(of: name) { found.notificationTextKeys |= 1 << index }
                try context.reader.skipValue()
            }
        }
    }

    /// Reads an alert's `title`, `body` or `subtitle` given as `{"loc-key": …, "loc-args": […]}`
    /// (the app's `Localizable.strings` key and the strings its format takes): whether it names
    /// a key, so that the device has a text to show. A `loc-key` that is not a string and
    /// `loc-args` that are not an array of strings are `invalid-aps-value`.
    private mutating func readLocalized(_ context: inout DecodeContext, pointer: String) throws(JSONError) -> Bool {
        var present = false
        try context.reader.beginObject()
        while let key = try context.reader.nextKey() {
            let name = context.reader.string(key)
            let valueOffset = context.reader.offset
            let token = try context.reader.peek()
            switch name {
            case "loc-key":
                if token == .string {
                    present = !context.reader.string(try context.reader.readString()).isEmpty
                } else {
                    try context.reader.skipValue()
                    report(.invalidAPSValue, "loc-key must be a string, the key of the text in the app's Localizable.strings; "
                           + "\(DecodeContext.described(token)) names no text", at: valueOffset, pointer: JSONPointer.appending(name, to: pointer))
                }
            case "loc-args":
                var allStrings = token == .arrayStart
                if allStrings {
                    try context.reader.beginArray()
                    while try context.reader.nextElement() {
                        if try context.reader.peek() != .string { allStrings = false }
                        try context.reader.skipValue()
                    }
                } else {
                    try context.reader.skipValue()
                }
                if !allStrings {
                    report(.invalidAPSValue, "loc-args must be an array of strings, the values of the loc-key's format",
                           at: valueOffset, pointer: JSONPointer.appending(name, to: pointer))
                }
            default:
                try context.reader.skipValue()
            }
        }
        return present
    }

    // MARK: - Rules across keys

    /// A Live Activity key beside `aps` that `aps` does not hold: the sender meant it for `aps`
    /// (an SDK's custom-payload setter puts keys there), where the device would read it.
    mutating func checkKeysBesideAPS() {
        for key in keysBesideAPS where apsKeysSeen & (1 << UInt32(key.index)) == 0 {
            let name = Self.knownNames[key.index]
            report(.apsKeyOutsideAPS, "'\(name)' is beside aps, where a body keeps data for the app: the device reads it only inside aps, "
                   + "so it has no effect here; move it into aps", at: key.offset, pointer: JSONPointer.appending(name, to: ""))
        }
    }

    mutating func checkEvent(at apsStart: Int) {
        if let nullContentState {
            if event?.name == .end {
                // Jackson, Go's pointers and Python's None write an absent state as null. An end
                // needs none, and null is no state to decode.
                report(.noEffectAPSKey, "content-state null is no state: the end applies with the content the activity shows; "
                       + "leave the key out, or send the final state", at: nullContentState, pointer: "/aps/content-state")
            } else {
                report(.notAnObject, "the content-state must be a JSON object, found null; "
                       + DeviceConsequence(event: event?.name, broadcast: checker.broadcast).rawValue,
                       at: nullContentState, pointer: "", scope: .contentState)
            }
        }
        if timestamp == nil, !diagnostics.contains(where: { $0.pointer == "/aps/timestamp" }) {
            report(.missingAPSKey, "aps has no timestamp (integer UNIX seconds); "
                   + DeviceConsequence(event: event?.name, broadcast: checker.broadcast).rawValue + envelopeInContentState(),
                   at: apsStart, pointer: "/aps/timestamp")
        }
        guard let event else {
            if !diagnostics.contains(where: { $0.pointer == "/aps/event" }) {
                // A misspelt key (`events`, as node-apn 5.2.3 wrote) gets its own did-you-mean.
                report(.missingAPSKey, "aps has no event (\(ActivityEvent.listed)); the device drops this push, as it cannot tell what it "
                       + "is" + envelopeInContentState(), at: apsStart, pointer: "/aps/event")
            }
            return
        }
        if event.name == .end, let (index, value) = millisecondsTimestamp {
            diagnostics[index].message = Self.inMilliseconds("timestamp", value, Self.endConsequence)
        }
        if event.name != .end, contentState == nil, nullContentState == nil {
            report(.missingAPSKey, "\(event.name == .start ? "a start" : "an update") needs aps.content-state; "
                   + DeviceConsequence(event: event.name, broadcast: checker.broadcast).rawValue,
                   at: apsStart, pointer: "/aps/content-state")
        }
        if event.name == .start {
            checkStart(event: event, apsStart: apsStart)
        } else {
            for key in startOnlyKeys {
                if checker.broadcast {
                    // Apple's broadcast rules: a channel's pushes update and end, and carry no start's keys.
                    // Nothing reports a device dropping such a push (Adobe's broadcast examples carry them),
                    // so the error fails the check while the push still applies.
                    report(.broadcastStartOnlyKey, "\(key.name) only counts on start, and a broadcast push never starts an activity: "
                           + "Apple's broadcast rules leave it out, and the device ignores it on the channel's \(event.name) "
                           + "(the \(event.name) still applies): leave it out", at: key.offset, pointer: JSONPointer.appending(key.name, to: "/aps"))
                } else {
                    report(.startOnlyKey, "\(key.name) only counts on start; the device ignores it on this \(event.name): leave it out",
                           at: key.offset, pointer: JSONPointer.appending(key.name, to: "/aps"))
                }
            }
            if let timestamp, timestamp.value < BodyChecker.liveActivitiesRelease {
                let before = "timestamp \(timestamp.value) is before iOS 16.1 brought Live Activities (\(BodyChecker.liveActivitiesRelease))"
                if event.name == .end {
                    // Apple's end(_:dismissalPolicy:timestamp:) says an older end is ignored;
                    // forum thread 776165 reports an end with an old timestamp that still ended.
                    report(.endTimestampTooOld, before + ": older than the content of any activity started since (by the app, or by a push-to-start stamped with the time), so the device may ignore this end "
                           + "(Apple documents that it does; a forum report says an end still ended); send the current UNIX time in seconds",
                           at: timestamp.offset, pointer: "/aps/timestamp")
                } else {
                    report(.timestampTooOld, before + ": older than the content of any activity started since (by the app, or by a push-to-start stamped with the time), so the device ignores this update "
                           + "(an update older than the content it shows is ignored); send the current UNIX time in seconds",
                           at: timestamp.offset, pointer: "/aps/timestamp")
                }
            }
        }
        if let alert, alert.isString {
            report(.stringAlert, "a string alert is for ordinary notifications; Apple documents Live Activity alerts as objects, "
                   + #"and Apple Watch shows their title and body: "alert": {"title": …, "body": …}"#,
                   at: alert.offset, pointer: "/aps/alert")
        }
        if let nullAlert, event.name != .start {
            report(.noEffectAPSKey, Self.nullIsNoneMessage("alert"), at: nullAlert, pointer: "/aps/alert")
        }
        if let alert, event.name != .start, alert.isObject, !alert.hasTitle, !alert.hasBody {
            // ActivityKit's AlertConfiguration is a title, a body and a sound: an alert without
            // text in the first two has nothing to show, whether they are left out or empty. The
            // push itself applies.
            let advice = #"send "alert": {"title": …, "body": …}, or leave alert out"#
            let missing = alert.namesTitleOrBody ? "only an empty title or body" : "no title or body"
            report(.incompleteAlert, alert.notificationTextKeys != 0
                   ? "an \(event.name)'s alert has \(missing), only \(alert.notificationTextKeyList), the keys of an ordinary "
                     + "notification's alert, which Apple does not document for Live Activities: " + Self.liveActivityAlertForm
                   : "an \(event.name)'s alert has \(missing), so it has no text to show; " + advice,
                   at: alert.offset, pointer: "/aps/alert")
        }
        if let dismissalDate, event.name != .end {
            report(.dismissalDateOutsideEnd, "dismissal-date has no effect on \(event.name); it only counts on end", at: dismissalDate, pointer: "/aps/dismissal-date")
        }
        if let staleDate, let timestamp, staleDate.value < timestamp.value {
            // An activity the app requested with a stale date already past was measured never
            // to show (nalu #222); a push-to-start has not been measured.
            let consequence = event.name == .start
                ? "the activity is stale on arrival, and may not show at all (one requested in the app with a stale date already past never did)"
                : "the activity is stale on arrival"
            report(.staleDateBeforeTimestamp, "stale-date \(staleDate.value) is before timestamp \(timestamp.value): \(consequence)",
                   at: staleDate.offset, pointer: "/aps/stale-date")
        }
    }

    /// For the error that `aps` lacks its `timestamp` or `event`: where the content-state holds
    /// the envelope's own keys instead, as a library whose state model holds the envelope writes
    /// it (`{"aps": {"content-state": {"event": …, "timestamp": …, "content-state": {…}}}}`), the
    /// keys to move up; otherwise nothing.
    func envelopeInContentState() -> String {
        let nested = ["event", "timestamp", "content-state"].filter { JSONPointer.offset(of: "/aps/content-state/" + $0, in: bytes) != nil }
        guard !nested.isEmpty else { return "" }
        let keys = ValueText.listed(nested.map { "'\($0)'" })
        return " (the content-state holds \(keys): the envelope is written one level too deep, inside content-state, where the device "
            + "reads none of it; move \(nested.count == 1 ? "it" : "them") up into aps)"
    }

    /// What a repeated key of the envelope means: the system reads `aps`, not the app's
    /// `JSONDecoder`, and which of the two it keeps is not documented.
    static let firstOfRepeatedAPSKey = "only the first is checked; which one APNs and the device keep is not documented: send it once"

    /// The rules of a start: the keys it needs, its attributes, its alert.
    mutating func checkStart(event: (name: ActivityEvent, offset: Int), apsStart: Int) {
        if checker.broadcast {
            report(.broadcastStart, "a broadcast push can update and end a Live Activity, never start one", at: event.offset, pointer: "/aps/event")
        }
        let present = Set(startOnlyKeys.map(\.name))
        if !present.contains("attributes-type") {
            report(.missingAPSKey, "a start needs aps.attributes-type: \(checker.decoder.schema.attributesType ?? "the ActivityAttributes type name"); "
                   + "the activity does not start", at: apsStart, pointer: "/aps/attributes-type")
        }
        if !present.contains("attributes") {
            report(.missingAPSKey, "a start needs aps.attributes, the static attributes; the activity does not start", at: apsStart, pointer: "/aps/attributes")
        }
        diagnostics += startFindings
        if let alert {
            if alert.isObject, !alert.namesTitleOrBody, alert.notificationTextKeys != 0 {
                // Its text is there, in an ordinary notification's keys: not the empty alert of
                // APNSwift #232, and no report shows such a start failing.
                report(.incompleteAlert, "a start's alert has no title or body, only \(alert.notificationTextKeyList), the keys of an "
                       + "ordinary notification's alert, which Apple does not document for Live Activities: " + Self.liveActivityAlertForm,
                       at: alert.offset, pointer: "/aps/alert")
            } else if alert.isObject, !alert.namesTitleOrBody {
                // APNSwift #232: a start with "alert": {} never arrived; the same start with a
                // title and a body did.
                report(.emptyAlert, "a start's alert needs a title and a body, and this one has neither: such a start was reported "
                       + #"never to arrive (APNSwift #232), and a start needs an alert; send "alert": {"title": …, "body": …}"#,
                       at: alert.offset, pointer: "/aps/alert")
            } else if alert.isObject, !(alert.hasTitle && alert.hasBody) {
                report(.incompleteAlert, "a start's alert needs a non-empty title and body: the device shows them when the activity starts, "
                       + "and Apple Watch shows only them", at: alert.offset, pointer: "/aps/alert")
            }
        } else {
            let null = nullAlert != nil ? ", and this one is null" : ""
            report(.missingAPSKey, "a start needs aps.alert with title and body\(null); the activity does not start",
                   at: nullAlert ?? apsStart, pointer: "/aps/alert")
        }
        if inputPushToken == nil, inputPushChannel == nil, !checker.broadcast {
            // Apple's push-to-start article: include "input-push-token": 1 to receive the new
            // activity's push token; pushy #1079 found it needed from iOS 18 (not on iOS 17).
            report(.noInputPush, #"a start without "input-push-token": 1 (or input-push-channel): on iOS 18 and later the new activity "#
                   + #"gets no push token, Apple says, so the server cannot update or end it by push; add "input-push-token": 1"#,
                   at: apsStart, pointer: "/aps/input-push-token")
        }
        if let inputPushToken, inputPushChannel != nil {
            report(.inputPushConflict, "input-push-token and input-push-channel on one start: send one of them", at: inputPushToken, pointer: "/aps/input-push-token")
        }
        let minIOS = checker.decoder.schema.minIOS(of: checker.decoder.version.version)
        if let inputPushChannel, minIOS < .broadcastChannels {
            report(.channelStartBeforeIOS18, "input-push-channel: this app version runs on iOS \(minIOS) and later (min-ios), and broadcast "
                   + "channels are iOS 18's (an app's own request with a channel needs iOS 18): what a start that joins one "
                   + "does on an iOS before 18 is not documented; send it only to devices on iOS 18 and later, "
                   + "or start the others with input-push-token", at: inputPushChannel, pointer: "/aps/input-push-channel")
        }
    }

    /// What a start with a channel id that is not one does. Apple says an activity the app
    /// requests with such an id fails to start, and no source says what a push-to-start does.
    static let badChannelConsequence = "Apple says an activity requested with an id that is not a channel's fails to start, "
        + "and one that starts joins no channel, so no broadcast updates it"

    /// Whether `string` is a channel id's form: base64 as `Data(base64Encoded:)` reads it, not empty.
    static func isBase64(_ string: String) -> Bool {
        !string.isEmpty && Field.StringFormat.base64.problem(string) == nil
    }

    // MARK: - The result

    /// `findings`: the content-state's and the attributes', taken from the decode context;
    /// `reader`: its reader, `nil` when none could be made.
    mutating func finish(failure: JSONError?, reader: JSONReader?, findings: consuming [Diagnostic], limit: Int) -> BodyVerdict {
        if let failure {
            // APNs refuses bytes that are not JSON: that is the one finding, whatever came before it.
            let only = failure.diagnostic(in: bytes, options: checker.decoder.options, file: file, scope: .envelope)
            return BodyVerdict(diagnostics: [only], state: nil, event: nil, appDecodes: false,
                                    budget: ByteBudget(limit: limit, body: bytes.count))
        }
        var all = findings
        if let retired = checker.decoder.version.retired {
            all.append(Diagnostic(
                code: DiagnosticCode.retiredVersion, severity: DiagnosticCode.retiredVersion.validatorSeverity,
                message: "app version \(checker.decoder.version.version) is \(retired.description); no app in the field reads this push",
                file: file, position: SourcePosition(offset: 0, line: 1, column: 1), scope: .envelope, pointer: ""))
        }
        let consequence = DeviceConsequence(event: event?.name, broadcast: checker.broadcast)
        if consequence != contentStateConsequence {
            // The content-state came before the event: its findings are worded for the event now known.
            for index in all.indices where all[index].scope == .contentState && all[index].severity == .error {
                all[index].message = consequence.reword(all[index].message, from: contentStateConsequence)
            }
        }
        all.append(contentsOf: diagnostics)
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
        let isStrict = checker.decoder.isStrict
        var state: Value?
        var acceptedTape: StateTape?
        // Measured only when the worst case passes the limit: what it weighs at the least then
        // decides the verdict.
        var leastCase: Int?
        var strictFailure: Diagnostic?
        if let contentState, let reader {
            budget.contentState = contentState.end - contentState.start
            switch contentState.read {
            case .onTape(let tape):
                if !tape.isRejected {
                    acceptedTape = tape
                    budget.deviceWorstCase = tape.deviceWorstCase(in: bytes)
                }
            case .decoded(let decoded):
                state = decoded.value
                if let state { budget.deviceWorstCase = ByteBudget.deviceWorstCase(state, plan: checker.decoder.plan) }
            }
            if let worst = budget.deviceWorstCase, worst > ByteBudget.contentStateLimit, let made = state ?? acceptedTape?.state(in: bytes) {
                // Over the limit at its bound: measured exactly, then at the least.
                budget.deviceWorstCase = ByteBudget.settledWorstCase(worst, of: made, plan: checker.decoder.plan)
                leastCase = ByteBudget.deviceLeastCase(made, plan: checker.decoder.plan)
            }
            // Worded for the event, which may come after the content-state.
            if isStrict, let problem = contentState.read.strictProblem {
                strictFailure = problem.strictFailure(
                    file: file, position: SourcePosition.locate(offset: problem.offset, in: bytes), consequence: consequence)
            }
            if checker.measuresFields || budget.headroom < 0 {
                let fields = spans.enumerated().map { index, span in
                    let separator = index < spans.count - 1 ? 1 : 0
                    // A field's key is the schema's own name: shared, not made again.
                    let name = span.fieldName ?? reader.string(span.key)
                    return ByteBudget.FieldBytes(name: name, bytes: span.end - span.start + separator)
                }
                budget.fields = spansMayRepeatKeys ? ByteBudget.merged(fields) : fields
            }
        }
        var compactBody: Int?
        if budget.headroom < 0 {
            budget.largestParts = ByteBudget.largestParts(of: bytes)
            compactBody = ByteBudget.compactSize(of: bytes)
        }
        let budgetFindings = budget.diagnostics(
            file: file, contentStatePosition: contentState.map { SourcePosition.locate(offset: $0.start, in: bytes) }, event: event?.name,
            deviceLeastCase: leastCase, compactBody: compactBody)
        all += budgetFindings
        if let strictFailure {
            DecodeProblem.add(strictFailure: strictFailure, to: &all)
        } else if isStrict {
            DecodeProblem.strictClientApplies(&all, scope: .contentState)
        }

        let stateDecodes = DecodeResult.applies(
            isStrict: isStrict, isReadable: contentState != nil && !all.contains { $0.code == DiagnosticCode.notAnObject },
            hasState: state != nil || acceptedTape != nil, strictFails: strictFailure != nil)
        // A start whose attributes fail starts nothing.
        let attributesHold = event?.name != .start || attributesDecode != false
        // A state the device's re-encoding puts over its limit, whatever numbers it writes, is dropped.
        let applies = (stateDecodes || (event?.name == .end && contentState == nil)) && attributesHold
            && budget.headroom >= 0 && !budgetFindings.contains { $0.code == DiagnosticCode.contentStateOverBudget }
            && !all.contains { $0.scope == .envelope && $0.dropsPush }
        var result = acceptedTape.map {
            BodyVerdict(diagnostics: all, acceptedStateOf: $0, event: event?.name, appDecodes: applies, budget: budget)
        } ?? BodyVerdict(diagnostics: all, state: state, event: event?.name, appDecodes: applies, budget: budget)
        result.timestamp = timestamp?.value
        return result
    }
}

/// The first value of each of a body's `aps` keys, found in one pass over the body when a key
/// first repeats, and each parsed once when its key repeats: to tell a repeat with another
/// value from the same value sent twice (each repeat read the whole body again: a 1 MB body of
/// repeats took 27 s).
final class RepeatedAPSKeys {
    private let bytes: UnsafeRawBufferPointer
    private let firstValues: [String: Range<Int>]
    private var parsed: [String: Value?] = [:]

    /// - Parameter bytes: The body, alive while the check reads it.
    init(in bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        firstValues = Self.firstValues(ofAPSIn: bytes)
    }

    /// Whether the value at `second` differs from the first value of `aps`'s key `name`.
    func differs(_ name: String, from second: Range<Int>) -> Bool {
        guard let range = firstValues[name] else { return false }
        if parsed[name] == nil { parsed[name] = .some(try? Value.parse(json: UnsafeRawBufferPointer(rebasing: bytes[range]))) }
        if let first = parsed[name] ?? nil, let other = try? Value.parse(json: UnsafeRawBufferPointer(rebasing: bytes[second])) {
            return !Self.same(first, other)
        }
        return !bytes[range].elementsEqual(bytes[second])
    }

    /// The bytes of the first value of each of `aps`'s keys in the body `bytes`, read again in
    /// one pass when a key repeats, where `APNsBody` finds them (what it read before an error).
    static func firstValues(ofAPSIn bytes: UnsafeRawBufferPointer) -> [String: Range<Int>] {
        guard let reader = try? JSONReader(bytes: bytes) else { return [:] }
        var visitor = FirstValues()
        var reading = BodyReading(reader: reader)
        _ = try? APNsBody.walk(&visitor, &reading)
        return visitor.values
    }

    /// Each `aps` member's first value, as the walk meets them.
    private struct FirstValues: APNsBodyVisitor {
        var values: [String: Range<Int>] = [:]

        mutating func apsMember(_ key: JSONString, isContentState: Bool, _ context: inout BodyReading) throws(JSONError) {
            // From the value's first byte: `peek` moves past the white space before it.
            _ = try context.reader.peek()
            let start = context.reader.offset
            try context.reader.skipValue()
            let name = context.reader.string(key)
            if values[name] == nil { values[name] = start ..< context.reader.offset }
        }
    }

    /// Whether two JSON values are the same as a reader of JSON takes them: `"update"` and
    /// `"upd\u0061te"`, `1795000600` and `1795000600.0`, an object's members in another order or
    /// spacing are the same (numbers by their value, objects by their members' names, the first
    /// of a repeated one).
    static func same(_ a: Value, _ b: Value) -> Bool {
        func number(_ value: Value) -> Double? {
            switch value {
            case .int(let int): Double(int)
            case .uint(let uint): Double(uint)
            case .double(let double): double
            default: nil
            }
        }
        switch (a, b) {
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            func firsts(_ members: [Value.Member]) -> [String: Value] {
                members.reduce(into: [:]) { if $0[$1.name] == nil { $0[$1.name] = $1.value } }
            }
            let (left, right) = (firsts(x), firsts(y))
            return left.count == right.count && left.allSatisfy { name, value in right[name].map { same(value, $0) } ?? false }
        default:
            if let x = number(a), let y = number(b) { return x == y }
            return a == b
        }
    }
}
