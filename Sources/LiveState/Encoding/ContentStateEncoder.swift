import Foundation

/// Writes the content-state (or a whole APNs body) for one schema version.
///
/// Output is compact JSON in schema key order, `/` never escaped, doubles in their shortest
/// round-trip form, dates as seconds since 2001-01-01: what the device's `JSONDecoder` reads,
/// and what `ContentStateDecoder` reads back to the same state.
///
/// ```swift
/// let encoder = try ContentStateEncoder(schema: schema, version: 3, elideDefaults: true, fit: true)
/// let result = encoder.encodePayload(state, envelope: .init(event: .update, timestamp: now))
/// send(result.bytes)
/// ```
public struct ContentStateEncoder: Sendable {
    /// The `aps` keys around a content-state.
    public struct Envelope: Sendable, Hashable {
        /// The event.
        public var event: ActivityEvent
        /// UNIX seconds.
        public var timestamp: Int
        /// UNIX seconds after which the activity shows as stale.
        public var staleDate: Int?
        /// UNIX seconds at which an ended activity leaves the screen.
        public var dismissalDate: Int?
        /// The relevance score.
        public var relevanceScore: Double?
        /// The alert object (`{title, body, sound}`), required on start.
        public var alert: Value?
        /// The static attributes of a start; `attributes-type` is taken from the schema.
        public var attributes: Value?
        /// The attributes a start carries: `attributes`, or `{}` without them.
        package var writtenAttributes: Value { attributes ?? .object([]) }
        /// Whether a start asks for the new activity's update token (`"input-push-token": 1`):
        /// from iOS 18 on, a push-to-start without it gets none.
        public var inputPushToken: Bool {
            get { inputPush?.token ?? false }
            set { inputPush = InputPush.made(token: newValue, channel: inputPushChannel) }
        }
        /// The broadcast channel a start subscribes the new activity to (`input-push-channel`,
        /// iOS 18), instead of an update token.
        public var inputPushChannel: String? {
            get { inputPush?.channel }
            set { inputPush = InputPush.made(token: inputPushToken, channel: newValue) }
        }
        /// Both, held by one reference that is `nil` for every push but a start that asks: an
        /// envelope is passed along the bare content-state's path too, and two more stored
        /// properties cost every `encode` about 65 instructions (the gated `encoder-value`).
        private var inputPush: InputPush?

        /// `inputPushToken` and `inputPushChannel`, immutable.
        private final class InputPush: Sendable, Hashable {
            let token: Bool
            let channel: String?

            init(token: Bool, channel: String?) {
                self.token = token
                self.channel = channel
            }

            /// The reference for `token` and `channel`; `nil` for neither, so that envelopes
            /// equal in what they write compare equal.
            static func made(token: Bool, channel: String?) -> InputPush? {
                token || channel != nil ? InputPush(token: token, channel: channel) : nil
            }

            static func == (left: InputPush, right: InputPush) -> Bool {
                left.token == right.token && left.channel == right.channel
            }

            func hash(into hasher: inout Hasher) {
                hasher.combine(token)
                hasher.combine(channel)
            }
        }

        /// Creates an envelope.
        /// - Parameters:
        ///   - event: `start`, `update` or `end`.
        ///   - timestamp: UNIX seconds.
        ///   - staleDate: UNIX seconds.
        ///   - dismissalDate: UNIX seconds.
        ///   - relevanceScore: The relevance score.
        ///   - alert: The alert.
        ///   - attributes: The static attributes, for a start.
        ///   - inputPushToken: Whether a start asks for the activity's update token.
        ///   - inputPushChannel: The broadcast channel a start subscribes the activity to.
        public init(
            event: ActivityEvent = .update, timestamp: Int, staleDate: Int? = nil, dismissalDate: Int? = nil,
            relevanceScore: Double? = nil, alert: Value? = nil, attributes: Value? = nil,
            inputPushToken: Bool = false, inputPushChannel: String? = nil
        ) {
            self.event = event
            self.timestamp = timestamp
            self.staleDate = staleDate
            self.dismissalDate = dismissalDate
            self.relevanceScore = relevanceScore
            self.alert = alert
            self.attributes = attributes
            self.inputPush = InputPush.made(token: inputPushToken, channel: inputPushChannel)
        }
    }

    /// The schema.
    public let schema: Schema
    /// The version written for.
    public let version: SchemaVersion
    /// Omit a value equal to its default where every app version decodes tolerantly with that
    /// same default.
    public var elideDefaults: Bool
    /// When over budget, drop `drop-priority` fields (lowest first), then shorten `truncate`
    /// strings, until the payload fits.
    public var fit: Bool
    /// The push is a broadcast: the body limit is 5120 bytes, and a broadcast starts nothing.
    public var broadcast: Bool
    /// The tolerant decoder `readState` reads with: built once here, not on every call (its
    /// plan is the costly part of a decoder).
    let stateReader: ContentStateDecoder
    /// Whether the version has a `format: decimal` field, at any depth (`decimalsNotKept`).
    let holdsDecimals: Bool
    /// Checks every body the encoder writes, as `livestate lint` would for this version; `nil`
    /// when the caller checks the bodies itself (`LiveActivitySender` checks each against every
    /// live version).
    let bodyChecker: BodyChecker?
    /// A body checker for each other live version, when the encoder checks what it writes
    /// (`bodyChecker`): what the other app versions in the field make of it (`fieldDrops`).
    let fieldReaders: [BodyChecker]
    /// The version's fields compiled, in schema order: the plan the decoder reads by.
    let plan: ObjectPlan
    /// For each field of `plan`, whether its default may be left out (`elidableFields`).
    let elidableFields: [Bool]
    /// For each field of `plan`, whether `--fit` may leave it out (`droppableFields`).
    let droppableFields: [Bool]
    /// How the version's devices read `url` values.
    let urls: URLRule

    /// Creates an encoder for one version of a schema.
    /// - Parameters:
    ///   - schema: The schema.
    ///   - version: The version to write; `nil` writes the newest.
    ///   - elideDefaults: Whether to omit a value equal to its default where every app version
    ///     reads the same default.
    ///   - fit: Whether to drop and shorten fields that allow it until the payload fits.
    ///   - broadcast: Whether the push is a broadcast.
    /// - Throws: An `unknown-version` diagnostic when the schema has no such version.
    public init(schema: Schema, version: Int? = nil, elideDefaults: Bool = false, fit: Bool = false, broadcast: Bool = false) throws(Diagnostic) {
        let checker = BodyChecker(
            decoder: try ContentStateDecoder(schema: schema, version: version), broadcast: broadcast, measuresFields: true)
        try self.init(schema: schema, version: version, checkingBodiesWith: checker)
        self.elideDefaults = elideDefaults
        self.fit = fit
        self.broadcast = broadcast
    }

    /// Creates an encoder that checks the bodies it writes with `checker` (one the caller has
    /// already built for the same version, a `PayloadValidator`'s), or not at all when it is `nil`.
    /// Its settings are the defaults: nothing elided, nothing fitted, not a broadcast.
    package init(schema: Schema, version: Int?, checkingBodiesWith checker: BodyChecker?) throws(Diagnostic) {
        let number = version ?? schema.latest?.version ?? 0
        guard let found = schema.version(number) else {
            throw Diagnostic.unknownVersion(number, available: schema.versions.map(\.version))
        }
        precondition(checker.map { $0.decoder.version.version == number } ?? true, "the checker is for another version")
        self.schema = schema
        self.version = found
        self.elideDefaults = false
        self.fit = false
        self.broadcast = false
        let urls = schema.urlRule(number)
        self.urls = urls
        // The state is read tolerantly, as a server means it (a key left out takes its default,
        // which is written, even for a strict version), and taking a URL that iOS 16 alone
        // refuses: the encoder writes the form every iOS of the app reads (the long way's
        // `ValueBuilder`, `makesURLsPortable`). Read as the version only, with its `min-ios`.
        var readable = found
        readable.minIOS = urls.minIOS
        let tolerant = Schema(activity: schema.activity, attributesType: schema.attributesType, versions: [readable])
        var stateReader = try ContentStateDecoder(schema: tolerant, version: found.version, writesPortableURLs: true)
        // A date that looks like UNIX time is said where the state has it, bare or in a body.
        stateReader.flagsUnixDates = true
        self.stateReader = stateReader
        self.holdsDecimals = found.contentState.contains(where: Self.holdsDecimal)
        self.bodyChecker = checker
        self.fieldReaders = checker == nil ? [] : schema.liveVersions.compactMap { other in
            guard other.version != number, let decoder = try? ContentStateDecoder(schema: schema, version: other.version) else { return nil }
            return BodyChecker(decoder: decoder, broadcast: false, measuresFields: false)
        }
        // The version compiled once: the checker's decoder has the same plan to lend, but for
        // a strict version, whose decoder reads a missing optional key as `nil`, where the
        // encoder writes the schema's default (the app then holds what the schema means).
        self.plan = checker.flatMap { $0.decoder.isStrict ? nil : $0.decoder.plan } ?? ObjectPlan(fields: found.contentState, urls: urls)
        self.elidableFields = Self.elidableFields(schema: schema, version: found)
        self.droppableFields = Self.droppableFields(schema: schema, version: found)
    }

    /// For each top-level field of `version`, in schema order, whether its default may be left
    /// out: every version of the schema either does not know the key, or decodes tolerantly
    /// with the same default.
    static func elidableFields(schema: Schema, version: SchemaVersion) -> [Bool] {
        version.contentState.map { field in
            guard let value = field.defaultValue else { return false }
            return versions(of: schema, notReadingWithout: field) { known, strict in !strict && known.defaultValue == value }.isEmpty
        }
    }

    /// For each top-level field of `version`, whether fitting the budget may leave it out: it
    /// has a `drop-priority`, and every live version either does not know the key or reads the
    /// update without it (a default or an optional; a strict version, as synthesized `Codable`
    /// does, only an optional), so that no app version drops the update for the key fitting took.
    static func droppableFields(schema: Schema, version: SchemaVersion) -> [Bool] {
        version.contentState.map { field in
            field.dropPriority != nil && field.missingValue != nil && versionsNeeding(field, in: schema).isEmpty
        }
    }

    /// The live versions of `schema` that drop an update without `field`'s key.
    static func versionsNeeding(_ field: Field, in schema: Schema) -> [Int] {
        versions(of: schema, notReadingWithout: field) { known, strict in strict ? known.isOptional : known.missingValue != nil }
    }

    /// The live versions of `schema` that know `field`'s key (by name or alias) and do not
    /// `read` a state without it as they should; `reads` is given that version's field and
    /// whether the version is a strict client.
    private static func versions(of schema: Schema, notReadingWithout field: Field, _ reads: (Field, Bool) -> Bool) -> [Int] {
        schema.liveVersions.compactMap { other in
            guard let known = other.contentState.first(where: { $0.name == field.name || $0.aliases.contains(field.name) }),
                  !reads(known, schema.isStrict(other.version)) else { return nil }
            return other.version
        }
    }

    // MARK: - Encoding

    /// Writes a state's content-state.
    /// - Parameters:
    ///   - state: The state: an object; missing fields take their defaults.
    /// - Returns: The bytes and what the encoder did.
    public func encode(_ state: Value) -> EncodeResult {
        // Straight to the writer: a bare content-state has no body to check, and the detour
        // through `encode(_:envelope:)` cost about 500 instructions a state (`encoder-value`).
        write(state, envelope: nil)
    }

    /// Writes a whole APNs body around a state.
    ///
    /// The body then gets `PayloadValidator`'s verdict for the version: its warnings and errors
    /// join the result (without a line and column, which would point into the written body),
    /// so a body the device would refuse, such as a start without an alert or with attributes
    /// the app cannot decode, is not a success. Each other app version in the field that cannot
    /// decode its content-state adds a `dropped-by-version` warning (`fieldDrops`).
    /// - Parameters:
    ///   - state: The state: an object; missing fields take their defaults.
    ///   - envelope: The `aps` keys.
    /// - Returns: The bytes and what the encoder did.
    public func encodePayload(_ state: Value, envelope: Envelope) -> EncodeResult {
        encode(state, envelope: envelope)
    }

    /// Writes any `Encodable` state: it is encoded into a `Value`, checked and completed against
    /// the version like a state read from a file, then written. A whole body gets the other
    /// live versions' `dropped-by-version` warnings (`encodePayload`); the content-state alone,
    /// the typed fast path, does not (each other version's decode would cost more than the write).
    /// - Parameters:
    ///   - value: The state.
    ///   - envelope: The `aps` keys, for a whole body; `nil` writes the content-state alone.
    /// - Returns: The bytes and what the encoder did.
    /// - Throws: `EncodingError` when the value cannot be encoded.
    public func encode<T: Encodable>(_ value: T, envelope: Envelope? = nil) throws -> EncodeResult {
        let tree = try ValueEncoder.encode(value)
        // The value's JSON read back as the app version reads it: the decoder's rules, not a
        // copy of them, say what the state is (an integer in a `double`, a `Date`'s seconds, a
        // range's two bounds, an enum's raw value in another normalization).
        var writer = JSONWriter()
        writer.write(tree)
        return encode(stateJSON: writer.bytes, file: nil, envelope: envelope, askingOtherVersions: false)
    }

    /// Reads a state given as JSON (`readState`) and writes it: its content-state, or a whole
    /// APNs body around it. What the CLI's `encode` and the sidecar's encode routes do with the
    /// state they are given.
    ///
    /// The state's findings come first, placed in its text; a body's verdict then adds what they
    /// do not already say (a date that looks like UNIX time is said once, where the state has it).
    /// - Parameters:
    ///   - bytes: The JSON text of a content-state object.
    ///   - file: The file name to put in diagnostics.
    ///   - envelope: The `aps` keys, for a whole body; `nil` writes the content-state alone.
    /// - Returns: The bytes, empty when the state does not fit the version, and what the encoder did.
    public func encode(stateJSON bytes: some ContiguousBytes, file: String? = nil, envelope: Envelope? = nil) -> EncodeResult {
        encode(stateJSON: bytes, file: file, envelope: envelope, askingOtherVersions: true)
    }

    /// `encode(stateJSON:file:envelope:)`; `askingOtherVersions`: the content-state alone gets
    /// the other live versions' `dropped-by-version` warnings too (a body always does).
    private func encode(stateJSON bytes: some ContiguousBytes, file: String?, envelope: Envelope?, askingOtherVersions: Bool) -> EncodeResult {
        let (state, problems) = readState(bytes, file: file)
        guard let state else { return EncodeResult(bytes: [], diagnostics: problems) }
        var result = envelope.map { encodePayload(state, envelope: $0) } ?? encode(state)
        if envelope == nil, askingOtherVersions, bodyChecker != nil, result.succeeded {
            result.diagnostics += fieldDrops(of: result.bytes, envelope: nil)
        }
        result.diagnostics = Self.joining(stateFindings: problems, bodyFindings: result.diagnostics)
        // A finding about a value of the state (a URL made portable) is placed where the state
        // file holds that value; one about what another version makes of the written bytes
        // (`dropped-by-version`) is not: its pointer is into them.
        bytes.withUnsafeBytes { buffer in
            var locator = SourcePosition.Locator()
            for index in result.diagnostics.indices where result.diagnostics[index].position == nil
                && result.diagnostics[index].scope == .contentState && result.diagnostics[index].code != .droppedByVersion {
                guard let pointer = result.diagnostics[index].pointer, let offset = JSONPointer.offset(of: pointer, in: buffer) else { continue }
                result.diagnostics[index].position = locator.position(of: offset, in: buffer)
                result.diagnostics[index].file = file
            }
        }
        return result
    }

    /// The findings of a state read from JSON (`readState`'s, placed in its text), then those of
    /// the body written from it that they do not already say (the same code at the same place):
    /// a date that looks like UNIX time is found in both. `encode(stateJSON:)`'s, and `send`'s,
    /// which reads a state file before the sender writes its body.
    package static func joining(stateFindings: [Diagnostic], bodyFindings: [Diagnostic]) -> [Diagnostic] {
        stateFindings + bodyFindings.filter { finding in
            !stateFindings.contains { $0.code == finding.code && $0.scope == finding.scope && $0.pointer == finding.pointer }
        }
    }

    /// Reads a state given as JSON: missing fields take defaults; anything that does not fit the
    /// version (unknown keys, invalid values, unknown enum values) is an error, since the state is
    /// what a server means to send. A key given twice, and a date that looks like UNIX time, are
    /// warnings.
    /// - Parameters:
    ///   - bytes: The JSON text of a content-state object.
    ///   - file: The file name to put in diagnostics.
    /// - Returns: The complete state, or `nil`, and the problems found.
    public func readState(_ bytes: some ContiguousBytes, file: String? = nil) -> (state: Value?, diagnostics: [Diagnostic]) {
        if let retiredError { return (nil, [retiredError]) }
        let result = stateReader.decode(contentState: bytes, file: file)
        var problems: [Diagnostic] = []
        for var diagnostic in result.diagnostics where diagnostic.code != DiagnosticCode.defaulted {
            if diagnostic.code == DiagnosticCode.unknownKey {
                diagnostic.severity = .error
                let name = diagnostic.pointer.map { String($0.dropFirst()) } ?? ""
                diagnostic.message = "version \(version.version) has no field '\(name)'"
                    + (name == "aps" ? "; the state is a content-state alone, and this looks like a whole APNs body: give its content-state" : "")
            } else if diagnostic.severity == .warning && diagnostic.code != DiagnosticCode.duplicateKey
                        && diagnostic.code != DiagnosticCode.unixDateInDateField {
                // One code for every value the state cannot have, as the writer's own refusals
                // are (`invalid-state`): the decoder's (`invalid-defaulted`, `unknown-enum-value`)
                // name warnings, what a tolerant app does with the value.
                diagnostic.code = .invalidState
                diagnostic.severity = .error
                // The decoder's words say what the app would do ("takes its default"): said of
                // the app version, with why nothing is written.
                diagnostic.message += " in app version \(version.version); the state does not fit the version, so nothing is written"
            }
            problems.append(diagnostic)
        }
        // Made once: a result makes its state on each read.
        let state = result.state
        if let state {
            problems += namesGivenTwice(bytes, file: file)
            problems += decimalsNotKept(state, bytes, file: file)
        }
        let failed = problems.contains { $0.severity == .error }
        return (failed ? nil : state, problems)
    }

    /// An `invalid-state` error for each `format: decimal` number of the state that a `Double`
    /// does not hold exactly: the app's `Decimal` holds every digit sent, but the state holds
    /// numbers as `Double`s, so the encoder would write another value (`123456789012345678` as
    /// `1.2345678901234568e+17`) without a word. Found in the text as given, by each such
    /// field's path: a field's own name, else the first of its aliases the text has, as the
    /// decoder reads them.
    private func decimalsNotKept(_ state: Value, _ bytes: some ContiguousBytes, file: String?) -> [Diagnostic] {
        guard holdsDecimals else { return [] }
        var paths: [[[String]]] = []
        for field in version.contentState { Self.decimals(in: state[field.name], of: field, path: [Self.names(of: field)], into: &paths) }
        guard !paths.isEmpty else { return [] }
        return bytes.withUnsafeBytes { text -> [Diagnostic] in
            paths.compactMap { path -> Diagnostic? in
                guard let (pointer, offset) = Self.firstPointer(path, "", in: text),
                      var reader = try? JSONReader(bytes: UnsafeRawBufferPointer(rebasing: text[offset...])),
                      let number = try? reader.readNumber() else { return nil }
                let written = reader.string(number)
                guard let double = Double(written), let sent = Value.decimal(text: written),
                      let kept = Value.double(double).decimalValue, sent != kept else { return nil }
                var problem = Self.error(.invalidState, Self.decimalNotKept(written, kept: kept), pointer: pointer)
                problem.file = file
                problem.position = SourcePosition.locate(offset: offset, in: text)
                return problem
            }
        }
    }

    /// Why a decimal number written `written` is refused: the state holds it as a `Double`,
    /// from which the app's `Decimal` would read `kept`.
    static func decimalNotKept(_ written: String, kept: Decimal) -> String {
        "\(written) is more precise than a Double, in which LiveState holds numbers: the app's Decimal would read \(kept) from "
            + "what the encoder writes, not the value given; send at most 15 significant digits, which a Double always holds"
    }

    /// The keys a field is read under, in the order the decoder prefers them.
    private static func names(of field: Field) -> [String] { [field.name] + field.aliases }

    /// The first JSON Pointer that `path` (each step's keys, in order of preference) names in
    /// `text`, after `pointer`, with its value's offset.
    private static func firstPointer(_ path: some Collection<[String]>, _ pointer: String, in text: UnsafeRawBufferPointer) -> (String, Int)? {
        guard let step = path.first else { return JSONPointer.offset(of: pointer, in: text).map { (pointer, $0) } }
        for key in step {
            if let found = firstPointer(path.dropFirst(), JSONPointer.appending(key, to: pointer), in: text) { return found }
        }
        return nil
    }

    /// Whether `field` holds a `format: decimal` number, itself or in what it holds.
    private static func holdsDecimal(_ field: Field) -> Bool {
        switch field.type {
        case .double: field.numberFormat == .decimal
        case .object(let fields): fields.contains(where: holdsDecimal)
        case .array(let items), .map(let items): holdsDecimal(items)
        default: false
        }
    }

    /// The paths of the `format: decimal` numbers in `value`, read as `field` at `path`.
    private static func decimals(in value: Value?, of field: Field, path: [[String]], into paths: inout [[[String]]]) {
        guard let value else { return }
        switch (field.type, value) {
        case (.double, _) where field.numberFormat == .decimal && value.number != nil:
            paths.append(path)
        case (.object(let fields), .object):
            for member in fields { decimals(in: value[member.name], of: member, path: path + [names(of: member)], into: &paths) }
        case (.array(let items), .array(let elements)):
            for (index, element) in elements.enumerated() { decimals(in: element, of: items, path: path + [[String(index)]], into: &paths) }
        case (.map(let items), .object(let entries)):
            for entry in entries { decimals(in: entry.value, of: items, path: path + [[entry.name]], into: &paths) }
        default:
            break
        }
    }

    /// A `duplicate-key` warning for each member of an object of the state that gives a field
    /// under another of its names (the field's own and its aliases) than the member whose value
    /// is written (by the decoder's rule, `ReadAgain`), with another value: a state that gives
    /// `subtitle` and its older name `subTitle` gets `subtitle`'s value written, and the other
    /// would be lost without a word. Nested objects and arrays' objects too.
    private func namesGivenTwice(_ bytes: some ContiguousBytes, file: String?) -> [Diagnostic] {
        let plan = stateReader.plan
        guard plan.hasAliases else { return [] }
        return bytes.withUnsafeBytes { buffer -> [Diagnostic] in
            guard var reader = try? JSONReader(bytes: buffer) else { return [] }
            var found: [(offset: Int, message: String, pointer: String)] = []
            guard (try? Self.namesGivenTwice(in: &reader, plan: plan, pointer: "", into: &found)) != nil else { return [] }
            var locator = SourcePosition.Locator()
            return found.sorted { $0.offset < $1.offset }.map {
                Diagnostic(
                    code: DiagnosticCode.duplicateKey, severity: .warning, message: $0.message, file: file,
                    position: locator.position(of: $0.offset, in: buffer), scope: .contentState, pointer: $0.pointer)
            }
        }
    }

    /// What `namesGivenTwice` finds in the object at `reader` of `plan`, at `pointer`, and in
    /// the objects inside it whose plans have aliases.
    private static func namesGivenTwice(
        in reader: inout JSONReader, plan: ObjectPlan, pointer: String, into found: inout [(offset: Int, message: String, pointer: String)]
    ) throws(JSONError) {
        guard try reader.peek() == .objectStart else { return try reader.skipValue() }
        try reader.beginObject()
        // Each member that names an aliased field: its key, where, its value, and the alias's
        // rank (`nil` for the field's own name).
        var members: [(field: Int, key: String, offset: Int, value: Value, rank: Int?)] = []
        while let key = try reader.nextKey() {
            let start = reader.offset
            let own = plan.index(of: key, in: reader, hint: 0)
            let alias = own == nil ? plan.aliasIndex(of: key, in: reader) : nil
            guard let field = own ?? alias?.field else {
                try reader.skipValue()
                continue
            }
            let name = reader.string(key)
            try namesGivenTwice(
                inValueOf: plan.fieldRefs[field].takeUnretainedValue(), in: &reader, pointer: JSONPointer.appending(name, to: pointer),
                into: &found)
            guard plan.aliases.contains(where: { $0.field == field }),
                  let value = try? Value.parse(json: UnsafeRawBufferPointer(rebasing: reader.bytes[start ..< reader.offset])) else { continue }
            members.append((field, name, key.start &- 1, value, alias?.rank))
        }
        for field in Set(members.map(\.field)).sorted() {
            let given = members.filter { $0.field == field }
            guard given.count > 1 else { continue }
            var written = given[0]
            for member in given.dropFirst() where ReadAgain(earlier: written.rank, now: member.rank) == .replaces { written = member }
            // The same key again is the decoder's `duplicate-key` already.
            for member in given where member.key != written.key && member.value != written.value {
                found.append((member.offset,
                              "'\(member.key)' gives '\(plan.memberNames[field])' again, with another value than '\(written.key)', whose value is written",
                              JSONPointer.appending(member.key, to: pointer)))
            }
        }
    }

    /// What `namesGivenTwice` finds in the value at `reader` of `field`, at `pointer`: in an
    /// object whose plan has aliases (in it or below), and in each element of an array, or an
    /// array of arrays, of such objects.
    private static func namesGivenTwice(
        inValueOf field: FieldPlan, in reader: inout JSONReader, pointer: String,
        into found: inout [(offset: Int, message: String, pointer: String)]
    ) throws(JSONError) {
        if let object = field.objectRef?.takeUnretainedValue(), object.hasAliases {
            return try namesGivenTwice(in: &reader, plan: object, pointer: pointer, into: &found)
        }
        guard let items = field.itemsRef?.takeUnretainedValue(), items.holdsObjects, try reader.peek() == .arrayStart else {
            return try reader.skipValue()
        }
        try reader.beginArray()
        var index = 0
        while try reader.nextElement() {
            try namesGivenTwice(inValueOf: items, in: &reader, pointer: JSONPointer.appending(index, to: pointer), into: &found)
            index += 1
        }
    }

    /// The error for every state given a retired version: nothing is written for it.
    private var retiredError: Diagnostic? {
        version.retired.map { retired in
            Self.error(.retiredVersion, "version \(version.version) is \(retired.description); no app in the field reads its payloads, so none is written")
        }
    }

    private func encode(_ state: Value, envelope: Envelope?) -> EncodeResult {
        var result = write(state, envelope: envelope)
        guard envelope != nil, var checker = bodyChecker, result.succeeded else { return result }
        checker.broadcast = broadcast  // it may have changed since init
        let verdict = result.bytes.withUnsafeBytes { checker.check($0, file: nil) }
        for var finding in verdict.diagnostics where finding.severity >= .warning {
            finding.position = nil
            result.diagnostics.append(finding)
        }
        if result.succeeded { result.diagnostics += fieldDrops(of: result.bytes, envelope: envelope) }
        return result
    }

    /// A `dropped-by-version` warning for each other app version in the field that cannot
    /// decode the content-state of `bytes` (a whole body, or with no `envelope` the content-state
    /// alone). The encoder writes for `version`, but a server sends what it writes to every
    /// device: a key an older strict version needs and this one does not write (a renamed or a
    /// new required field) makes that version drop every push, while APNs answers 200. Said, not
    /// refused: which versions a push must reach is the schema's compatibility gate's call
    /// (`livestate check`), and `lint --all-versions` says the same of the body as an error.
    private func fieldDrops(of bytes: [UInt8], envelope: Envelope?) -> [Diagnostic] {
        // Asked as `lint --all-versions` asks: whether the version applies the push (a strict
        // one's synthesized `Codable` included, and a start's attributes), not only whether its
        // tolerant reading has a state.
        fieldReaders.compactMap { reader in
            var reader = reader
            reader.broadcast = broadcast
            let (applies, findings): (Bool, [Diagnostic])
            if envelope == nil {
                let read = reader.decoder.decode(contentState: bytes)
                (applies, findings) = (read.appDecodes, read.diagnostics + (read.strictFailure.map { [$0] } ?? []))
            } else {
                let verdict = reader.check(bytes, file: nil)
                (applies, findings) = (verdict.appDecodes, verdict.diagnostics)
            }
            guard !applies else { return nil }
            let reason = findings.first { $0.severity == .error }
            let consequence = envelope.map { DeviceConsequence(event: $0.event, broadcast: broadcast).rawValue }
                ?? "a push with this content-state is dropped"
            return Diagnostic(
                code: .droppedByVersion, severity: .warning,
                message: "app version \(reader.decoder.version.version): \(consequence)" + (reason.map { $0.causeNote() } ?? ""),
                scope: reason?.scope ?? .contentState, pointer: reason?.pointer)
        }
    }

    private func write(_ state: Value, envelope: Envelope?) -> EncodeResult {
        if let retiredError { return EncodeResult(bytes: [], diagnostics: [retiredError]) }
        guard case .object(let given) = state else {
            return EncodeResult(bytes: [], diagnostics: [Self.error(.invalidState, "the state must be an object")])
        }
        return encodeInOnePass(given, envelope: envelope) ?? encodeChecked(given, envelope: envelope)
    }

    /// Writes a valid state in one walk: each field found (members mostly come in schema
    /// order), checked, written, and measured for the device's worst case as it is written.
    ///
    /// Returns `nil` whenever the state needs a diagnostic other than `elided-default` or an
    /// over-budget error, or has to be fitted: `encodeChecked` then does it all, the long way,
    /// with the same outcome for a valid state.
    ///
    /// The walk reads the members and the plan through their buffers, each field through a
    /// guaranteed reference and each value through a pointer, so that no field and no container
    /// is retained and released on the way (about 2,000 instructions of a 600-byte state's
    /// 12,000 before; Benchmarks/README.md has the steps).
    private func encodeInOnePass(_ given: [Value.Member], envelope: Envelope?) -> EncodeResult? {
        let hasEnvelope: Bool
        if case .some = envelope { hasEnvelope = true } else { hasEnvelope = false }
        var diagnostics: [Diagnostic] = []
        // 1,024 bytes: the most `withUnsafeTemporaryAllocation` places on the stack without
        // asking; a 600-byte state with its envelope fits.
        let (bytes, measured) = StateWriter.writingArray(capacity: 1024) { writer -> Measure? in
            if hasEnvelope { writeHead(envelope, into: &writer) }
            let start = writer.count
            writer.append(UInt8(ascii: "{"))
            // The device's worst case for every member, written or left out: key, colon, value.
            var worstMembers = 0
            let complete = given.withUnsafeBufferPointer { given in
                elidableFields.withUnsafeBufferPointer { elidableFields in
                    let fields = plan.fieldRefs
                    guard given.count <= elidableFields.count else { return false }
                    var matched = 0
                    var hint = 0
                    var first = true
                    for position in 0..<elidableFields.count {
                        let elidable = elidableFields[position]
                        // A guaranteed reference: the field, its name and its key are read
                        // without being retained.
                        let worst = fields[position]._withUnsafeGuaranteedRef { field -> Int? in
                            if let index = Self.index(of: field.field.name, in: given, hint: hint) {
                                matched &+= 1
                                hint = index &+ 1
                                return writeMember((given.baseAddress! + index).pointer(to: \.value)!, of: field, elidable: elidable,
                                                   to: &writer, first: &first, diagnostics: &diagnostics)
                            }
                            guard let missing = field.missingValue else { return nil }
                            return withUnsafePointer(to: missing) { missing in
                                writeMember(missing, of: field, elidable: elidable, to: &writer, first: &first, diagnostics: &diagnostics)
                            }
                        }
                        guard let worst else { return false }
                        worstMembers &+= worst
                    }
                    // A member no field took: unknown, or a repeated key. Let the long way say which.
                    return matched == given.count
                }
            }
            guard complete else { return nil }
            writer.append(UInt8(ascii: "}"))
            let contentState = writer.count &- start
            if hasEnvelope { writer.append("}}") }
            return Measure(limit: broadcast ? ByteBudget.broadcastLimit : ByteBudget.apnsLimit,
                           body: writer.count, contentState: contentState,
                           worstCase: ByteBudget.containerLength(plan.fieldCount) + worstMembers)
        }
        guard var budget = measured else { return nil }
        if plan.writesOtherwise || budget.worstCase > ByteBudget.contentStateLimit {
            // Measured on the state the device holds: a `Float`, `Decimal` or `URL` the writer
            // measured as the text it wrote, as the app's type writes it; then, over the limit at
            // its bound, exactly.
            let full = Value.object(fullState(given))
            if plan.writesOtherwise { budget.worstCase = ByteBudget.deviceWorstCase(full, plan: plan) }
            budget.worstCase = ByteBudget.settledWorstCase(budget.worstCase, of: full, plan: plan)
        }
        if !budget.fits {
            if fit { return nil }
            diagnostics.append(Self.error(.overBudget, budget.overMessage(fitted: false)))
        }
        return EncodeResult(bytes: bytes, diagnostics: diagnostics, budget: budget.byteBudget)
    }

    /// Writes one field's member (`,` before it unless it is the `first`), or leaves it out when
    /// it is a `null` the field may skip or an elidable default. Returns the device's worst
    /// case for the member, or `nil` when the value needs the long way.
    @inline(__always)
    private func writeMember(_ value: UnsafePointer<Value>, of field: FieldPlan, elidable: Bool, to writer: inout StateWriter,
                             first: inout Bool, diagnostics: inout [Diagnostic]) -> Int? {
        if field.skipsNull, case .null = value.pointee {
            // Optional, so valid.
            return field.missingMemberWorstCase
        }
        if elides(value.pointee, of: field.field, elidable: elidable) {
            var check = RuleCheck()
            guard (try? field.walk(value, into: &check)) != nil else { return nil }
            diagnostics.append(Self.elidedNote(field.field.name))
            return field.missingMemberWorstCase
        }
        if first { first = false } else { writer.append(UInt8(ascii: ",")) }
        let before = writer.count
        writer.append(field.key)
        // Checked as it is written: a value that breaks a rule goes the long way, which words it.
        guard let extra = try? field.walk(value, into: &writer) else { return nil }
        return writer.count &- before &+ extra &+ field.keyExtra
    }

    /// Whether a field's member is left out: defaults are elided, this field's may be (every
    /// version that reads it has the same one), and `value`, as given, is it. Both ways of
    /// encoding ask this.
    @inline(__always)
    private func elides(_ value: Value, of field: Field, elidable: Bool) -> Bool {
        guard elideDefaults, elidable else { return false }
        // A null that stands for the default (`on-null: default`) is the default; written, the
        // rule walk writes the default for it.
        return value == field.defaultValue || (value.isNull && field.nullReplacement != nil)
    }

    private static func elidedNote(_ name: String) -> Diagnostic {
        note(.elidedDefault, "'\(name)' equals its default in every app version that reads it, and is left out",
             pointer: JSONPointer.appending(name, to: ""))
    }

    /// The index of the member called `name`, trying `hint` first.
    @inline(__always)
    private static func index(of name: String, in members: UnsafeBufferPointer<Value.Member>, hint: Int) -> Int? {
        let count = members.count
        if hint < count, members[hint].name == name { return hint }
        return members.firstIndex { $0.name == name }
    }

    /// Checks the state field by field, reports every problem, then elides, writes and fits.
    private func encodeChecked(_ given: [Value.Member], envelope: Envelope?) -> EncodeResult {
        var diagnostics: [Diagnostic] = []
        // Every field in schema order; missing ones take their defaults.
        var members: [Value.Member] = []
        members.reserveCapacity(version.contentState.count)
        var problem = false
        var elided: Set<String> = []
        // The state's own members keep the rule of every object's (`ObjectPlan.field(ofMember:)`):
        // each a field of the version, given once. Reported after the fields' own problems.
        var memberProblems: [Diagnostic] = []
        var positions = Array(repeating: -1, count: plan.fieldCount)
        var seen = FieldSet(count: plan.fieldCount)
        for (position, member) in given.enumerated() {
            do {
                let index = try plan.field(ofMember: member.name, hint: position, seen: seen, version: version.version)
                seen.insert(index)
                positions[index] = position
            } catch {
                memberProblems.append(Self.error(.invalidState, error.message, pointer: JSONPointer.appending(member.name, to: "")))
            }
        }
        for (index, field) in version.contentState.enumerated() {
            let fieldPlan = plan.fields[index]
            let value = positions[index] >= 0 ? given[positions[index]].value : field.missingValue
            guard let value else {
                diagnostics.append(Self.error(
                    .invalidState, RuleBroken.missingRequired(field.name, version: version.version).message, pointer: fieldPlan.pointerToken))
                problem = true
                continue
            }
            do {
                // Checked and completed, each URL iOS 16 refuses and iOS 17 reads made portable.
                var builder = ValueBuilder(makesURLsPortable: true)
                let completed = try fieldPlan.completed(value, into: &builder)
                for made in builder.portableURLs {
                    // Shown whole, as `decode`'s suggestion is: a form cut short (in an escape)
                    // would be another URL.
                    let written = made.written.utf8.count <= 200 ? "'\(made.written)'" : "in the form both read (the payload holds it whole)"
                    diagnostics.append(Self.note(
                        .urlMadePortable,
                        "'\(ValueText.clipped(made.given))' is written \(written): iOS 16 (min-ios \(urls.minIOS)) refuses "
                            + "\(made.character) in a URL, and iOS 17 and later read both as one URL",
                        pointer: fieldPlan.pointerToken + made.pointer))
                }
                if field.nullReadsAsMissing && value.isNull { continue }
                if elides(value, of: field, elidable: elidableFields[index]) { elided.insert(field.name) }
                members.append(.init(field.name, completed))
            } catch {
                diagnostics.append(Self.error(.invalidState, "'\(field.name)': \(error.message)", pointer: fieldPlan.pointerToken))
                problem = true
            }
        }
        if !memberProblems.isEmpty {
            diagnostics += memberProblems
            problem = true
        }
        if problem { return EncodeResult(bytes: [], diagnostics: diagnostics) }

        if !elided.isEmpty {
            members.removeAll { member in
                guard elided.contains(member.name) else { return false }
                diagnostics.append(Self.elidedNote(member.name))
                return true
            }
        }

        var output = write(members, envelope: envelope)
        if fit, !output.budget.fits {
            output = fit(members, envelope: envelope, diagnostics: &diagnostics)
        }
        if !output.budget.fits {
            var message = output.budget.overMessage(fitted: fit)
            if output.budget.body > output.budget.limit && output.budget.contentState <= ByteBudget.contentStateLimit
                && output.budget.body != output.budget.contentState {
                // The state is not what is over: say what is.
                message += "; the rest of the body (its aps keys and any alert) takes \(output.budget.body - output.budget.contentState) bytes"
            }
            if fit {
                // Fields fitting may not take, named, so that the reader knows why they stayed.
                for (field, droppable) in zip(version.contentState, droppableFields)
                where !droppable && field.dropPriority != nil && members.contains(where: { $0.name == field.name }) {
                    let needing = Self.versionsNeeding(field, in: schema)
                    let versions = needing.count == 1 ? "app version \(needing[0]) drops" : "app versions \(needing.map(String.init).joined(separator: ", ")) drop"
                    message += "; '\(field.name)' (drop-priority \(field.dropPriority ?? 0)) is kept, as \(versions) an update without it"
                }
            }
            diagnostics.append(Self.error(.overBudget, message))
        }
        return EncodeResult(bytes: output.bytes, diagnostics: diagnostics, budget: output.budget.byteBudget)
    }

    // MARK: - Writing

    struct Written {
        var bytes: [UInt8]
        var budget: Measure
    }

    /// The three limits a payload must hold.
    struct Measure {
        var limit: Int
        var body: Int
        var contentState: Int
        var worstCase: Int

        var fits: Bool {
            body <= limit && contentState <= ByteBudget.contentStateLimit && worstCase <= ByteBudget.contentStateLimit
        }

        /// Bytes to save for every limit to hold.
        var excess: Int {
            max(body - limit, contentState - ByteBudget.contentStateLimit, worstCase - ByteBudget.contentStateLimit)
        }

        var byteBudget: ByteBudget {
            ByteBudget(limit: limit, body: body, contentState: contentState, deviceWorstCase: worstCase)
        }

        func overMessage(fitted: Bool) -> String {
            // A bare content-state (no envelope) is the whole output: no body to name.
            let bodySize = body == contentState ? "" : "body \(body) of \(limit) bytes, "
            let sizes = "\(bodySize)content-state \(contentState) of \(ByteBudget.contentStateLimit), device worst case \(worstCase) of \(ByteBudget.contentStateLimit)"
            return fitted
                ? "the payload does not fit even with every drop-priority field every app version reads without dropped and every truncate string shortened as far as its constraints allow: \(sizes)"
                : "the payload is over budget (\(sizes)); fitting it (encode --fit) may drop or shorten fields the schema allows"
        }
    }

    func write(_ members: [Value.Member], envelope: Envelope?) -> Written {
        var writer = StateWriter(capacity: envelope == nil ? 1024 : 1280)
        defer { writer.release() }
        writeHead(envelope, into: &writer)
        let start = writer.count
        _ = writer.write(.object(members))
        let contentState = writer.count - start
        if envelope != nil { writer.append("}}") }
        let limit = broadcast ? ByteBudget.broadcastLimit : ByteBudget.apnsLimit
        let full = Value.object(fullState(members))
        let worstCase = ByteBudget.settledWorstCase(ByteBudget.deviceWorstCase(full, plan: plan), of: full, plan: plan)
        return Written(bytes: writer.array, budget: Measure(limit: limit, body: writer.count, contentState: contentState, worstCase: worstCase))
    }

    /// Writes the `aps` keys before the content-state, up to `"content-state":`.
    private func writeHead(_ envelope: Envelope?, into writer: inout StateWriter) {
        guard let envelope else { return }
        writer.append(#"{"aps":{"timestamp":"#)
        writer.writeInt(envelope.timestamp)
        writer.append(#","event":"#)
        _ = writer.writeString(envelope.event.rawValue)
        if envelope.event == .start {
            if let type = schema.attributesType {
                writer.append(#","attributes-type":"#)
                _ = writer.writeString(type)
            }
            writer.append(#","attributes":"#)
            _ = writer.write(envelope.writtenAttributes)
            if envelope.inputPushToken { writer.append(#","input-push-token":1"#) }
            if let channel = envelope.inputPushChannel {
                writer.append(#","input-push-channel":"#)
                _ = writer.writeString(channel)
            }
        }
        if let alert = envelope.alert {
            writer.append(#","alert":"#)
            _ = writer.write(alert)
        }
        if let relevanceScore = envelope.relevanceScore {
            writer.append(#","relevance-score":"#)
            _ = writer.writeNumber(relevanceScore)
        }
        if let staleDate = envelope.staleDate {
            writer.append(#","stale-date":"#)
            writer.writeInt(staleDate)
        }
        if let dismissalDate = envelope.dismissalDate {
            writer.append(#","dismissal-date":"#)
            writer.writeInt(dismissalDate)
        }
        writer.append(#","content-state":"#)
    }

    /// The state the device decodes from `members`: left-out fields take their defaults.
    func fullState(_ members: [Value.Member]) -> [Value.Member] {
        guard members.count < version.contentState.count else { return members }
        return version.contentState.compactMap { field in
            if let member = members.first(where: { $0.name == field.name }) { return member }
            return field.missingValue.map { Value.Member(field.name, $0) }
        }
    }

    // MARK: - Fitting

    private func fit(_ original: [Value.Member], envelope: Envelope?, diagnostics: inout [Diagnostic]) -> Written {
        var members = original
        var output = write(members, envelope: envelope)
        // 1. Drop `drop-priority` fields that every app version reads the update without: first
        //    those equal to the default every version shows without them (nothing is lost),
        //    then the others, lowest first.
        var droppable: [(field: Field, lossless: Bool)] = []
        for (index, field) in version.contentState.enumerated() where droppableFields[index] {
            let value = members.first { $0.name == field.name }?.value
            droppable.append((field, elidableFields[index] && value == field.defaultValue))
        }
        func order(_ entry: (field: Field, lossless: Bool)) -> (Int, Int, String) {
            (entry.lossless ? 0 : 1, entry.field.dropPriority ?? 0, entry.field.name)
        }
        droppable.sort { order($0) < order($1) }
        for (field, lossless) in droppable where !output.budget.fits {
            guard let index = members.firstIndex(where: { $0.name == field.name }) else { continue }
            members.remove(at: index)
            output = write(members, envelope: envelope)
            let effect = lossless ? "it equals the default every app version shows without it" : "the app shows its default"
            diagnostics.append(Self.note(.droppedToFit, "'\(field.name)' (drop-priority \(field.dropPriority ?? 0)) is left out to fit the budget; \(effect)",
                                         pointer: JSONPointer.appending(field.name, to: "")))
        }
        // 2. Shorten `truncate` strings, longest first, on a character boundary, ending in "…".
        let truncatable = version.contentState.filter { field in
            field.truncate && members.contains { $0.name == field.name }
        }
        var candidates = truncatable.compactMap { field -> (name: String, length: Int, constraints: Field.Constraints)? in
            guard case .string(let text)? = members.first(where: { $0.name == field.name })?.value else { return nil }
            return (field.name, ByteBudget.escapedLength(text), field.constraints)
        }
        candidates.sort { ($0.length, $1.name) > ($1.length, $0.name) }
        for candidate in candidates where !output.budget.fits {
            guard let index = members.firstIndex(where: { $0.name == candidate.name }),
                  case .string(let text) = members[index].value else { continue }
            // The cut is counted as the device writes the string (a `/` is two bytes there, one
            // in the body), so a body still over after one cut is cut again, by what is left,
            // until it fits or the string is as short as its `min-length` allows.
            // A cut that removes no character (it fell inside one, or at the `min-length`
            // floor) is followed by larger ones, doubling, until the whole text is cut.
            var cut = 0
            var step = 0
            var shortened = text
            while !output.budget.fits, cut < candidate.length {
                cut += max(output.budget.excess, step)
                let shorter = Self.shorten(text, by: cut, minLength: candidate.constraints.minLength ?? 0)
                guard shorter.utf8.count < shortened.utf8.count else {
                    step = max(1, step * 2)
                    continue
                }
                step = 0
                shortened = shorter
                members[index].value = .string(shortened)
                output = write(members, envelope: envelope)
            }
            guard shortened != text else { continue }
            diagnostics.append(Self.note(.truncatedToFit, "'\(candidate.name)' is shortened from \(text.utf8.count) to \(shortened.utf8.count) bytes to fit the budget",
                                         pointer: JSONPointer.appending(candidate.name, to: "")))
        }
        return output
    }

    /// What a shortened `truncate` string ends with.
    static let ellipsis = "…"

    /// The fewest UTF-8 bytes `--fit` shortens a `truncate` string to: the ellipsis, or the
    /// field's `min-length` when that is more (`shorten(_:by:minLength:)`, and the size bound
    /// after fitting, `WorstCaseSize`).
    package static func shortestCut(minLength: Int?) -> Int {
        max(ellipsis.utf8.count, minLength ?? 0)
    }

    /// Shortens a string so its JSON form, `/` escaped, is at least `excess` bytes smaller,
    /// cutting on a character boundary and appending "…" (3 bytes), but never below
    /// `minLength` UTF-8 bytes (the app refuses a shorter one); the text itself when no cut
    /// makes it shorter (it is no longer than "…").
    static func shorten(_ text: String, by excess: Int, minLength: Int = 0) -> String {
        let target = ByteBudget.escapedLength(text) - 2 - excess - ellipsis.utf8.count
        var kept = ""
        var length = 0
        var bytes = 0
        for character in text {
            let size = ByteBudget.escapedLength(String(character)) - 2
            // Past the target, only while the result would be shorter than `minLength`.
            if length + size > target, bytes + ellipsis.utf8.count >= Self.shortestCut(minLength: minLength) { break }
            kept.append(character)
            length += size
            bytes += character.utf8.count
        }
        let shortened = kept + ellipsis
        return shortened.utf8.count < text.utf8.count ? shortened : text
    }

    // MARK: - Findings

    static func error(_ code: DiagnosticCode, _ message: String, pointer: String? = nil) -> Diagnostic {
        Diagnostic(code: code, severity: code.encoderSeverity, message: message, scope: .contentState, pointer: pointer)
    }

    static func note(_ code: DiagnosticCode, _ message: String, pointer: String? = nil) -> Diagnostic {
        Diagnostic(code: code, severity: code.encoderSeverity, message: message, scope: .contentState, pointer: pointer)
    }
}

/// What encoding produced.
public struct EncodeResult: Sendable, Hashable {
    /// The JSON text; empty when the state could not be written.
    public var bytes: [UInt8]
    /// What the encoder did (defaults elided, fields dropped or shortened) and any errors.
    public var diagnostics: [Diagnostic]
    /// The payload's byte budget, when it was written.
    public var budget: ByteBudget?

    /// Creates a result.
    /// - Parameters:
    ///   - bytes: The JSON text.
    ///   - diagnostics: What happened.
    ///   - budget: The byte budget.
    public init(bytes: [UInt8], diagnostics: [Diagnostic], budget: ByteBudget? = nil) {
        self.bytes = bytes
        self.diagnostics = diagnostics
        self.budget = budget
    }

    /// Whether the payload was written and fits: no error among the diagnostics.
    public var succeeded: Bool { !bytes.isEmpty && !diagnostics.contains { $0.severity == .error } }
}

// The diagnostic codes of the encoder.
extension DiagnosticCode {
    /// The state does not fit the version: a required field without a value, an invalid value,
    /// a field the version does not have (error).
    public static let invalidState = DiagnosticCode(rawValue: "invalid-state")
    /// A value equal to its default was left out (info).
    public static let elidedDefault = DiagnosticCode(rawValue: "elided-default")
    /// A `drop-priority` field was left out to fit the budget (info).
    public static let droppedToFit = DiagnosticCode(rawValue: "dropped-to-fit")
    /// A `truncate` string was shortened to fit the budget (info).
    public static let truncatedToFit = DiagnosticCode(rawValue: "truncated-to-fit")
    /// A URL that iOS 16 refuses was written in the form every iOS of the app reads alike (info).
    public static let urlMadePortable = DiagnosticCode(rawValue: "url-made-portable")

    /// The severity the encoder gives this code.
    package var encoderSeverity: Severity {
        switch self {
        case .invalidState, .overBudget, .retiredVersion: .error
        case .elidedDefault, .droppedToFit, .truncatedToFit, .urlMadePortable: .info
        default: .error  // a code a later version adds
        }
    }

    /// Every code this version names.
    package static let encoderCodes: [DiagnosticCode] = [
        .invalidState,
        .elidedDefault,
        .droppedToFit,
        .truncatedToFit,
        .overBudget,
        .urlMadePortable,
        .retiredVersion,
    ]
}
