import LiveState

/// One reader–writer comparison: what app version `reader` does with payloads written for
/// version `writer`, field by field, in both scopes.
///
/// The walk mirrors the tolerant decoder (`ContentStateDecoder`): a missing key takes the
/// field's default (or nil when optional) or makes the enclosing object invalid; an invalid
/// value takes the field's default under `on-invalid: default`, or makes the enclosing object
/// invalid, up to the content-state itself, where the app drops the update. `Reaction` carries
/// that chain down the walk. A strict reader (synthesized `Codable`) has no defaults, fallbacks,
/// aliases or constraints: every missing non-optional key and every value of the wrong type
/// drops the update.
struct PairComparison {
    let schema: Schema
    let reader: SchemaVersion
    let writer: SchemaVersion
    /// The writer's place in `schema.versions`.
    let writerIndex: Int
    let options: CompatibilityChecker.Options
    /// Whether the reader decodes with synthesized `Codable`.
    let isStrict: Bool
    private(set) var findings: [CompatibilityFinding] = []

    init(schema: Schema, reader: SchemaVersion, writer: SchemaVersion, writerIndex: Int, options: CompatibilityChecker.Options) {
        self.schema = schema
        self.reader = reader
        self.writer = writer
        self.writerIndex = writerIndex
        self.options = options
        self.isStrict = schema.isStrict(reader.version)
    }

    /// The reader's version number.
    var readerNumber: Int { reader.version }
    /// The writer's version number.
    var writerNumber: Int { writer.version }
    var readerIsNewer: Bool { reader.version > writer.version }
    var direction: CompatibilityDirection { readerIsNewer ? .newAppReadsOld : .oldAppReadsNew }
    /// The scope being compared: the attributes are read from a push-to-start alone (an
    /// update's are ignored), so what a reader drops there is the start, not an update.
    var scope: DiagnosticScope = .contentState
    /// What a reader that cannot decode the scope drops: `the update`, or `the push-to-start`.
    var droppedPush: String { scope == .attributes ? "the push-to-start" : "the update" }

    /// What happens to the reader when a value at some level is invalid (or a required key missing).
    enum Reaction: Equatable {
        /// The invalid object reaches the content-state: the app drops the update.
        case drops
        /// The field at `pointer` takes its default (`isNull`: becomes null).
        case fallsBack(pointer: String, isNull: Bool)
    }

    /// Where the walk is: the scope, each side's pointer, and the reaction of the enclosing level.
    struct Place {
        var scope: DiagnosticScope
        var readerPointer = ""
        var writerPointer = ""
        /// What an invalid value at this level does: the enclosing field's reaction.
        var onInvalid = Reaction.drops
        /// The nearest declared positions, for fields (array items) without their own.
        var readerPosition: SourcePosition?
        var writerPosition: SourcePosition?
        /// Whether the fields compared are array elements, which are never missing.
        var isElement = false
        /// Whether the value is a key the reader reads under an alias of its field, or inside
        /// one (`readUnderAlias`): findings name it by the writer's pointer, as read as the
        /// reader's field (`subject(of:)`).
        var readsAlias = false

        func entering(reader: Field, writer: Field, token: String, onInvalid: Reaction) -> Place {
            Place(
                scope: scope,
                readerPointer: JSONPointer.appending(token, to: readerPointer),
                writerPointer: JSONPointer.appending(token, to: writerPointer),
                onInvalid: onInvalid,
                readerPosition: reader.position ?? readerPosition,
                writerPosition: writer.position ?? writerPosition,
                readsAlias: readsAlias)
        }
    }

    // MARK: - Running

    /// Compares both scopes, then the version-wide rules.
    mutating func run() {
        compareObjects(reader: reader.contentState, writer: writer.contentState, at: Place(scope: .contentState))
        scope = .attributes
        compareObjects(reader: reader.attributes, writer: writer.attributes, at: Place(scope: .attributes))
        scope = .contentState
        if !readerIsNewer { checkTombstones() }
        checkSize()
    }

    // MARK: - Objects

    /// Matches the reader's fields with the writer's by name, then by alias, and compares each pair.
    mutating func compareObjects(reader readerFields: [Field], writer writerFields: [Field], at place: Place) {
        var matched = Set<Int>()
        for field in readerFields {
            if let index = writerFields.firstIndex(where: { $0.name == field.name }) {
                matched.insert(index)
                compareField(reader: field, writer: writerFields[index], at: place, readerName: field.name, writerName: field.name)
            } else if let index = writerFields.firstIndex(where: { field.aliases.contains($0.name) }) {
                // The reader lists the writer's key as an alias.
                matched.insert(index)
                let old = writerFields[index]
                if isStrict {
                    renamedUnknown(reader: field, writer: old, at: place)
                } else {
                    renamedKnown(reader: field, writer: old, at: place)
                    compareField(reader: field, writer: old, at: place, readerName: field.name, writerName: old.name)
                }
            } else if let index = writerFields.firstIndex(where: { writer in
                writer.aliases.contains(field.name) && !readerFields.contains { $0.name == writer.name }
            }) {
                // The writer renamed the reader's key and lists it as an alias the reader cannot
                // know; not when the reader has the writer's field under its own name too, which
                // makes the reader's field a new one that shares the old name.
                matched.insert(index)
                renamedUnknown(reader: field, writer: writerFields[index], at: place)
            } else {
                missing(field, at: place)
            }
        }
        for (index, field) in writerFields.enumerated() where !matched.contains(index) {
            if let (reader, own) = aliasReader(of: field, reader: readerFields, writer: writerFields) {
                readUnderAlias(writer: field, reader: reader, leftOutOnlyByElision: !own.isOptional, at: place)
            } else {
                ignored(field, at: place)
            }
        }
    }

    /// The reader's field that reads `field`'s key under an alias in payloads that leave the
    /// reader's own name out, and the writer's field of that name, which its payloads may omit
    /// (optional, or with a default). A strict reader reads no alias.
    private func aliasReader(of field: Field, reader readerFields: [Field], writer writerFields: [Field]) -> (Field, own: Field)? {
        guard !isStrict else { return nil }
        for reader in readerFields where reader.aliases.contains(field.name) {
            if let own = writerFields.first(where: { $0.name == reader.name && ($0.isOptional || $0.defaultValue != nil) }) {
                return (reader, own)
            }
        }
        return nil
    }

    /// A writer's field whose key the reader reads under an alias of its own field `reader`,
    /// when a payload leaves that field's name out: its values are compared as that field's.
    /// `leftOutOnlyByElision`: the writer's field of the reader's name has a default and is not
    /// optional, so only a server that elides defaults leaves it out: a warning then, unless
    /// `--assume-default-elision` says servers do (as for `default-changed`).
    private mutating func readUnderAlias(writer field: Field, reader: Field, leftOutOnlyByElision: Bool, at parent: Place) {
        var place = parent
        place.readerPointer = JSONPointer.appending(reader.name, to: parent.readerPointer)
        place.writerPointer = JSONPointer.appending(field.name, to: parent.writerPointer)
        place.readerPosition = reader.position ?? parent.readerPosition
        place.writerPosition = field.position ?? parent.writerPosition
        let elides = leftOutOnlyByElision ? " (a server that elides defaults does)" : ""
        let read = "v\(writerNumber) payloads that leave out '\(display(place.readerPointer))'\(elides) may carry '\(display(place.writerPointer))', "
            + "which app v\(readerNumber) reads under its alias as '\(display(place.readerPointer))'"
        let capped = leftOutOnlyByElision && !options.assumeDefaultElision
        let promotion = TypePromotion.classify(writer: field, reader: reader)
        switch promotion {
        case .same, .compatible, .epochChanged:
            report(.fieldRenamedAliasKnown, .info, read, at: place, pointer: place.writerPointer, position: place.writerPosition)
            // What follows compares the key's values with the field's rules: named by the key.
            place.readsAlias = true
            compareTypes(reader: reader, writer: field, at: place, promotion: promotion)
        case .narrowed(let why):
            reportNarrowed(reader: reader, "\(read): it is \(TypePromotion.describe(field)) in v\(writerNumber) and "
                           + "\(TypePromotion.describe(reader)) in v\(readerNumber), and \(why)", at: place, capped: capped)
        case .incompatible:
            let reaction = invalidReaction(of: reader, at: place)
            report(.typeChanged, capped ? .warning : severity(reaction),
                   "\(read): it is \(TypePromotion.describe(field)) in v\(writerNumber) and \(TypePromotion.describe(reader)) in "
                   + "v\(readerNumber), which decodes none of its values; \(consequence(reaction))", at: place)
        }
    }

    private mutating func compareField(reader: Field, writer: Field, at parent: Place, readerName: String, writerName: String) {
        var place = parent
        place.readerPointer = JSONPointer.appending(readerName, to: parent.readerPointer)
        place.writerPointer = JSONPointer.appending(writerName, to: parent.writerPointer)
        place.readerPosition = reader.position ?? parent.readerPosition
        place.writerPosition = writer.position ?? parent.writerPosition
        compareField(reader: reader, writer: writer, at: place)
    }

    /// Compares one field present on both sides; `place` points at the field itself.
    mutating func compareField(reader: Field, writer: Field, at place: Place) {
        let promotion = TypePromotion.classify(writer: writer, reader: reader)
        if !place.isElement {
            comparePresence(reader: reader, writer: writer, at: place, promotion: promotion)
        }
        compareTypes(reader: reader, writer: writer, at: place, promotion: promotion)
    }

    // MARK: - Missing, ignored and renamed fields

    /// What the reader holds for `field` when its key is missing: its default, or `null` when
    /// optional; for a strict reader (synthesized `Codable`, which applies no default) `null`
    /// for an optional field, and nothing for another.
    private func readerMissingValue(_ field: Field) -> Value? {
        isStrict ? (field.isOptional ? .null : nil) : field.missingValue
    }

    /// The reader has a field the writer's version does not have.
    private mutating func missing(_ field: Field, at parent: Place) {
        let pointer = JSONPointer.appending(field.name, to: parent.readerPointer)
        let name = display(pointer)
        let position = field.position ?? parent.readerPosition
        if readerIsNewer {
            if isStrict && !field.isOptional {
                report(.fieldAddedStrictClient, .error,
                       "'\(name)' was added in v\(changed(pointer)) and is missing from every v\(writerNumber) payload; \(strictDrop)",
                       at: parent, pointer: pointer, position: position)
            } else if let value = readerMissingValue(field) {
                report(.fieldAddedWithDefault, .info,
                       "'\(name)' was added in v\(changed(pointer)); v\(writerNumber) payloads lack it, so it \(takes(value))",
                       at: parent, pointer: pointer, position: position)
            } else {
                report(.fieldAddedWithoutDefault, severity(parent.onInvalid),
                       "'\(name)' was added in v\(changed(pointer)) without a default and is missing from every v\(writerNumber) payload; \(consequence(parent.onInvalid))",
                       at: parent, pointer: pointer, position: position)
            }
        } else {
            if isStrict && !field.isOptional {
                report(.fieldRemovedStrictClient, .error,
                       "'\(name)' was removed in v\(changed(pointer)); \(strictDrop) on the missing key",
                       at: parent, pointer: pointer, position: position)
            } else if let value = readerMissingValue(field) {
                report(.fieldRemovedDefaulted, field.isDeprecated ? .info : .warning,
                       "'\(name)' was removed in v\(changed(pointer)); app v\(readerNumber) \(field.isDeprecated ? "(where it is deprecated) " : "")\(shows(value)) forever",
                       at: parent, pointer: pointer, position: position)
            } else {
                report(.fieldRemovedRequired, severity(parent.onInvalid),
                       "'\(name)' was removed in v\(changed(pointer)) but is required in v\(readerNumber); \(consequence(parent.onInvalid))",
                       at: parent, pointer: pointer, position: position)
            }
        }
    }

    /// The version that added or removed the field at `pointer`, which the newer of the pair
    /// has and the older has not, or the other way round: the first version after the older
    /// whose having it differs from the older's. A pair of versions apart (`full-transitive`)
    /// named its own newer version ("'b' was added in v3" of a field v2 added).
    /// - Parameters:
    ///   - holds: What of the field changed (an enum's raw value): the version is the first
    ///     whose field there holds it, or not, where the older's does not, or does.
    ///   - olderPointer: Where the older of the pair has the field, when the pair reads it under
    ///     another name (an alias). Each version in between is asked for the field it renamed:
    ///     followed from the newer version down, by name or by an alias the later version lists,
    ///     as a reader matches a writer's key (`compareObjects`). Asked by the newer name alone,
    ///     a value removed before a rename was said removed by the pair's newer; asked by the two
    ///     names of the pair, a version with a third name in a chain of renames lacked it.
    func changed(_ pointer: String, olderPointer: String? = nil, holds: (Field) -> Bool = { _ in true }) -> Int {
        let (older, newer) = readerIsNewer ? (writer, reader) : (reader, writer)
        func fields(of version: SchemaVersion) -> [Field] { scope == .attributes ? version.attributes : version.contentState }
        // The field's path in each version, from the newer down, while the chain holds.
        var paths: [Int: [String]] = [:]
        if olderPointer != nil, var path = JSONPointer.tokens(of: pointer) {
            var later = newer
            for version in schema.versions.reversed() where version.version < newer.version && version.version >= older.version {
                guard let earlier = Self.path(following: path, from: fields(of: later), to: fields(of: version)) else { break }
                paths[version.version] = earlier
                (path, later) = (earlier, version)
            }
        }
        func has(_ version: SchemaVersion) -> Bool {
            let found = paths[version.version].flatMap { Self.field(at: $0[...], in: fields(of: version)) }
                ?? Self.field(at: pointer, in: fields(of: version)) ?? olderPointer.flatMap { Self.field(at: $0, in: fields(of: version)) }
            return found.map(holds) ?? false
        }
        let hadIt = has(older)
        for version in schema.versions where version.version > older.version && version.version < newer.version && has(version) != hadIt {
            return version.version
        }
        return newer.version
    }

    /// The path, in `earlier`, of the field that the field at `tokens` in `later` reads: at each
    /// level the field of the same name, or else one whose name the later field lists as an
    /// alias; `nil` when a level has neither.
    private static func path(following tokens: [String], from later: [Field], to earlier: [Field]) -> [String]? {
        var (later, earlier) = (later, earlier)
        var path: [String] = []
        var index = 0
        while index < tokens.count {
            guard let laterField = later.first(where: { $0.name == tokens[index] }),
                  let earlierField = earlier.first(where: { $0.name == tokens[index] }) ?? earlier.first(where: { laterField.aliases.contains($0.name) })
            else { return nil }
            path.append(earlierField.name)
            index += 1
            var (laterType, earlierType) = (laterField.type, earlierField.type)
            // Through an array's items (`-`) and a map's values (`*`).
            while index < tokens.count, tokens[index] == "-" || tokens[index] == "*" {
                switch (laterType, earlierType) {
                case (.array(let laterItems), .array(let earlierItems)) where tokens[index] == "-",
                     (.map(let laterItems), .map(let earlierItems)) where tokens[index] == "*":
                    (laterType, earlierType) = (laterItems.type, earlierItems.type)
                default: return nil
                }
                path.append(tokens[index])
                index += 1
            }
            guard index < tokens.count else { break }
            guard case .object(let laterFields) = laterType, case .object(let earlierFields) = earlierType else { return nil }
            (later, earlier) = (laterFields, earlierFields)
        }
        return path
    }

    /// The field of `fields` at `pointer` (`-` is an array's items, `*` a map's), if any.
    private static func field(at pointer: String, in fields: [Field]) -> Field? {
        JSONPointer.tokens(of: pointer).flatMap { field(at: $0[...], in: fields) }
    }

    /// The field of `fields` at the path `tokens`, if any.
    private static func field(at tokens: ArraySlice<String>, in fields: [Field]) -> Field? {
        func find(_ tokens: ArraySlice<String>, in fields: [Field]) -> Field? {
            guard let first = tokens.first, let field = fields.first(where: { $0.name == first }) else { return nil }
            return inside(tokens.dropFirst(), field)
        }
        func inside(_ tokens: ArraySlice<String>, _ field: Field) -> Field? {
            guard let next = tokens.first else { return field }
            switch field.type {
            case .object(let fields): return find(tokens, in: fields)
            case .array(let items) where next == "-": return inside(tokens.dropFirst(), items)
            case .map(let items) where next == "*": return inside(tokens.dropFirst(), items)
            default: return nil
            }
        }
        return find(tokens, in: fields)
    }

    /// The writer has a field the reader does not know.
    private mutating func ignored(_ field: Field, at parent: Place) {
        let pointer = JSONPointer.appending(field.name, to: parent.writerPointer)
        let position = field.position ?? parent.writerPosition
        if readerIsNewer {
            report(.fieldRemovedIgnored, .info,
                   "'\(display(pointer))' was removed in v\(changed(pointer)); app v\(readerNumber) ignores it in v\(writerNumber) payloads",
                   at: parent, pointer: pointer, position: position)
        } else {
            report(.fieldAddedIgnored, .info,
                   "'\(display(pointer))' was added in v\(changed(pointer)); app v\(readerNumber) ignores it",
                   at: parent, pointer: pointer, position: position)
        }
    }

    /// The reader finds the writer's key under one of its aliases.
    private mutating func renamedKnown(reader field: Field, writer old: Field, at parent: Place) {
        let pointer = JSONPointer.appending(field.name, to: parent.readerPointer)
        let oldPointer = JSONPointer.appending(old.name, to: parent.writerPointer)
        // Said as it happened: a newer reader renamed the field; an older one already listed the
        // newer name among its aliases.
        report(.fieldRenamedAliasKnown, .info, readerIsNewer
               ? "'\(display(oldPointer))' was renamed '\(display(pointer))' in v\(readerNumber), which lists the old name under aliases and reads it from v\(writerNumber) payloads"
               : "v\(writerNumber) payloads carry '\(display(oldPointer))', which app v\(readerNumber) lists among the aliases of '\(display(pointer))' and reads",
               at: parent, pointer: pointer, position: field.position ?? parent.readerPosition)
    }

    /// The payload carries the field under a name the reader does not know.
    private mutating func renamedUnknown(reader field: Field, writer other: Field, at parent: Place) {
        let readerPointer = JSONPointer.appending(field.name, to: parent.readerPointer)
        let writerPointer = JSONPointer.appending(other.name, to: parent.writerPointer)
        let newer = readerIsNewer ? (field, readerPointer) : (other, writerPointer)
        // As severe as a removal with the same outcome (`missing`): an error where the update is
        // dropped, a warning where the app loses the value and shows its default.
        let outcome: String
        let severity: Severity
        if isStrict {
            outcome = field.isOptional
                ? "app v\(readerNumber) decodes with synthesized Codable, which has no aliases, and loses the value"
                : "app v\(readerNumber) decodes with synthesized Codable, which has no aliases, and drops \(droppedPush)"
            severity = field.isOptional ? .warning : .error
        } else if let value = field.missingValue {
            outcome = "app v\(readerNumber) misses the key and \(shows(value)) forever"
            severity = .warning
        } else {
            outcome = "app v\(readerNumber) misses the required key; \(consequence(parent.onInvalid))"
            severity = self.severity(parent.onInvalid)
        }
        report(.fieldRenamedAliasUnknown, severity,
               "v\(writerNumber) payloads carry '\(display(writerPointer))', and app v\(readerNumber) reads it only as '\(display(readerPointer))'; \(outcome)",
               at: parent, pointer: newer.1, position: newer.0.position ?? (readerIsNewer ? parent.readerPosition : parent.writerPosition))
    }

    // MARK: - Optionality and defaults

    /// Checks that every key the reader needs is there, and that defaults agree.
    private mutating func comparePresence(reader: Field, writer: Field, at place: Place, promotion: TypePromotion) {
        let name = subject(of: place)
        let writerMayOmit = writer.isOptional || writer.defaultValue != nil
        if isStrict {
            if !reader.isOptional && writerMayOmit {
                let why = writer.isOptional ? "is optional in v\(writerNumber), so a payload may leave it out or send null" : "has a default in v\(writerNumber), so a payload may leave it out"
                report(.strictClientOmittableKey, .error, "'\(name)' \(why); \(strictDrop) without it", at: place)
            }
            return
        }
        let rule: CompatibilityRule = readerIsNewer ? .fieldMadeRequired : .fieldMadeOptional
        // A payload may carry null where the writer's app version takes it: as nil, or as the
        // default (`on-null: default`).
        if writer.takesNull && !reader.takesNull {
            let takesNull = writer.isOptional
                ? "is optional in v\(writerNumber)" : "reads null as its default in v\(writerNumber) (on-null: default)"
            if reader.missingValue == nil {
                report(rule, severity(place.onInvalid),
                       "'\(name)' \(takesNull) and required in v\(readerNumber): a payload without it (or with null) makes \(consequence(place.onInvalid, form: .afterMakes))",
                       at: place)
            } else {
                let reaction = invalidReaction(of: reader, at: place)
                // The writer's null means its default; a reader that takes the same default for
                // the invalid null shows what was meant (a warning said it lost something).
                if !writer.isOptional, reaction == .fallsBack(pointer: place.readerPointer, isNull: false),
                   let meant = writer.defaultValue, meant == reader.defaultValue {
                    report(rule, .info,
                           "'\(name)' \(takesNull) and not in v\(readerNumber), which reads null as invalid and takes its default: "
                           + "the same \(ValueText.render(meant)) the null means",
                           at: place)
                    return
                }
                report(rule, severity(reaction),
                       "'\(name)' \(takesNull) and not in v\(readerNumber): a missing key takes v\(readerNumber)'s default, but null is invalid; \(consequence(reaction))",
                       at: place)
            }
            return
        }
        if writer.defaultValue != nil && !writer.isOptional && reader.missingValue == nil {
            let severity = options.assumeDefaultElision ? severity(place.onInvalid) : .warning
            report(rule, severity,
                   "'\(name)' has a default in v\(writerNumber) and is required in v\(readerNumber): a server that elides defaults leaves the key out, and then \(consequence(place.onInvalid))",
                   at: place)
            return
        }
        guard promotion != .incompatible, let writerMissing = writer.missingValue, let readerMissing = reader.missingValue else { return }
        if Self.differsBeyondMembers(writerMissing, readerMissing, writer: writer, reader: reader) {
            let readerText = reader.defaultValue.map(ValueText.render) ?? "null"
            if writer.defaultValue == nil {
                report(.defaultChanged, .warning,
                       "'\(name)' is optional without a default in v\(writerNumber): a payload leaves it out to mean null, and app v\(readerNumber) shows its default \(readerText)",
                       at: place)
            } else {
                let writerText = ValueText.render(writerMissing)
                let elision = options.assumeDefaultElision
                    ? "a payload that elides the default leaves the key out, and app v\(readerNumber) sees \(readerText) instead of \(writerText)"
                    : "if a server elides defaults, app v\(readerNumber) sees \(readerText) instead of \(writerText)"
                report(.defaultChanged, options.assumeDefaultElision ? .error : .warning,
                       "'\(name)' defaults to \(writerText) in v\(writerNumber) and to \(readerText) in v\(readerNumber); \(elision)",
                       at: place)
            }
        }
    }

    /// Whether the values a missing key stands for differ, beyond what the members' own
    /// defaults explain (those are reported at the members).
    static func differsBeyondMembers(_ writerValue: Value, _ readerValue: Value, writer: Field, reader: Field) -> Bool {
        // A UUID in either case, base64 of the same bytes: the same value to both apps.
        if let format = reader.stringFormat, writer.stringFormat == format, case .string(let a) = writerValue, case .string(let b) = readerValue {
            return !format.same(a, b)
        }
        guard case .object(let writerFields) = writer.type, case .object(let readerFields) = reader.type,
              case .object(let writerMembers) = writerValue, case .object(let readerMembers) = readerValue else {
            return !jsonEqual(writerValue, readerValue)
        }
        for member in readerMembers {
            guard let other = writerMembers.first(where: { $0.name == member.name }),
                  !jsonEqual(other.value, member.value) else { continue }
            let writerField = writerFields.first { $0.name == member.name }
            let readerField = readerFields.first { $0.name == member.name }
            if let writerField, let readerField, let a = writerField.missingValue, let b = readerField.missingValue, !jsonEqual(a, b) {
                continue
            }
            return true
        }
        return false
    }

    /// Whether two values are the same JSON: numbers compare by value, object members by name.
    static func jsonEqual(_ lhs: Value, _ rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.int, _), (.double, _), (.date, _):
            guard let left = lhs.number, let right = rhs.number else { return false }
            return left == right
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { jsonEqual($0, $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count && left.allSatisfy { member in
                right.contains { $0.name == member.name && jsonEqual($0.value, member.value) }
            }
        case (.dateRange(let a, let b), .array(let right)), (.array(let right), .dateRange(let a, let b)):
            return right.count == 2 && right[0].number == a && right[1].number == b
        default:
            return lhs == rhs
        }
    }

    // MARK: - Reactions and reporting

    /// What an invalid value of `field` does: its default under `on-invalid: default`, else
    /// whatever an invalid value does one level up. An invalid array element always makes the
    /// whole array invalid, as in the decoder.
    func invalidReaction(of field: Field, at place: Place) -> Reaction {
        guard !place.isElement, field.invalidReplacement != nil else { return place.onInvalid }
        return .fallsBack(pointer: place.readerPointer, isNull: field.nullReadsAsMissing)
    }

    /// Error when the reader drops the update, warning when a field falls back; strict readers always drop.
    func severity(_ reaction: Reaction) -> Severity {
        if isStrict { return .error }
        return reaction == .drops ? .error : .warning
    }

    /// How a clause's verbs are written: on their own ("app v1 drops the update"), or bare,
    /// after "makes" ("makes app v1 drop the update").
    enum ClauseForm {
        case finite
        case afterMakes

        /// The verb `bare` in this form: `drop` or `drops`.
        func verb(_ bare: String) -> String {
            self == .finite ? bare + "s" : bare
        }
    }

    /// What the reader ends up doing, as a clause, its verbs in `form`.
    func consequence(_ reaction: Reaction, form: ClauseForm = .finite) -> String {
        if isStrict { return strictDrop(form) }
        switch reaction {
        case .drops:
            return "app v\(readerNumber) \(form.verb("drop")) \(droppedPush)"
        case .fallsBack(let pointer, let isNull):
            return isNull
                ? "'\(display(pointer))' \(form.verb("become")) null"
                : "'\(display(pointer))' \(form.verb("take")) its default in app v\(readerNumber)"
        }
    }

    var strictDrop: String { strictDrop(.finite) }

    /// A strict reader's drop, as a clause, its verbs in `form`.
    func strictDrop(_ form: ClauseForm) -> String {
        "app v\(readerNumber) \(form.verb("decode")) with synthesized Codable and \(form.verb("drop")) \(droppedPush)"
    }

    /// `takes its default X` or `is null`.
    func takes(_ value: Value) -> String {
        value.isNull ? "takes null" : "takes its default \(ValueText.render(value))"
    }

    /// `shows its default X` or `shows null`.
    func shows(_ value: Value) -> String {
        value.isNull ? "shows null" : "shows its default \(ValueText.render(value))"
    }

    /// A pointer as a name for messages: `courier/name`, each key spelled as it is, as `lint`
    /// quotes keys: the field `a/b~c` is `a/b~c`, not its pointer's `a~1b~0c`, which is the
    /// name another field may have. The finding's pointer says the path exactly.
    func display(_ pointer: String) -> String {
        JSONPointer.tokens(of: pointer)?.joined(separator: "/") ?? pointer
    }

    /// How a finding at `place` names the value, between quotes: the reader's field
    /// (`courier/name`), or a key read under an alias as the field it is read as
    /// (`s1x' read as 's1`).
    func subject(of place: Place) -> String {
        guard place.readsAlias else { return display(place.readerPointer) }
        return "\(display(place.writerPointer))' read as '\(display(place.readerPointer))"
    }

    /// Adds a finding about the field at `place`: the position and pointer of the newer side.
    mutating func report(_ rule: CompatibilityRule, _ severity: Severity, _ message: String, at place: Place) {
        let pointer = readerIsNewer ? place.readerPointer : place.writerPointer
        let position = readerIsNewer ? place.readerPosition : place.writerPosition
        report(rule, severity, message, at: place, pointer: pointer, position: position)
    }

    /// Adds a finding with an explicit pointer and position.
    mutating func report(
        _ rule: CompatibilityRule, _ severity: Severity, _ message: String,
        at place: Place, pointer: String, position: SourcePosition?
    ) {
        report(rule, severity, message, scope: place.scope, pointer: pointer, position: position)
    }

    /// Rewrites the message of the finding at `index`, once a later one shows it said too much.
    mutating func rewordFinding(at index: Int, _ reword: (String) -> String) {
        findings[index].message = reword(findings[index].message)
    }

    /// Adds a finding; the message gets the pair as its prefix.
    mutating func report(
        _ rule: CompatibilityRule, _ severity: Severity, _ message: String,
        scope: DiagnosticScope, pointer: String, position: SourcePosition?, prefix: String? = nil
    ) {
        let lead = prefix ?? "app v\(readerNumber) reading v\(writerNumber) payloads: "
        findings.append(CompatibilityFinding(
            rule: rule.id, severity: severity, direction: direction,
            readerVersion: reader.version, writerVersion: writer.version,
            message: lead + message, file: schema.file, position: position,
            scope: scope, pointer: pointer))
    }
}
