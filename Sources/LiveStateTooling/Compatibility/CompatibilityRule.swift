import LiveState

/// One rule of the compatibility checker: its stable id, default severity and why it exists.
///
/// The catalog is public API and what `livestate diff --list-rules` prints. Ids never change
/// meaning; new rules may be added. A finding's severity is the rule's default unless the rule's
/// reasoning says when it differs (a strict client, a field that falls back to its default,
/// default elision).
public struct CompatibilityRule: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The stable kebab-case id, such as `field-removed-required`.
    public var id: String
    /// The severity findings of this rule usually have.
    public var defaultSeverity: Severity
    /// One line: what the rule detects.
    public var summary: String
    /// A paragraph: what the device does, and when the severity differs from the default.
    public var reasoning: String

    /// Creates a rule.
    /// - Parameters:
    ///   - id: The stable kebab-case id.
    ///   - defaultSeverity: The usual severity.
    ///   - summary: What the rule detects.
    ///   - reasoning: Why, and when the severity differs.
    public init(id: String, defaultSeverity: Severity, summary: String, reasoning: String) {
        self.id = id
        self.defaultSeverity = defaultSeverity
        self.summary = summary
        self.reasoning = reasoning
    }

    /// `id (severity): summary`.
    public var description: String { "\(id) (\(defaultSeverity.rawValue)): \(summary)" }

    /// The rule with the given id.
    /// - Parameter id: A rule id.
    /// - Returns: The rule, or `nil` when the catalog has no such id.
    public static func rule(id: String) -> CompatibilityRule? {
        catalog.first(where: { $0.id == id })
    }
}

extension CompatibilityRule {
    // MARK: Fields added and removed

    /// A newer app reads an older payload that lacks a field the app added with a default.
    public static let fieldAddedWithDefault = CompatibilityRule(
        id: "field-added-with-default", defaultSeverity: .info,
        summary: "a field added with a default (or optional) is missing from older payloads; the newer app uses the default",
        reasoning: """
            The tolerant decoder fills a missing key with the field's default, or nil for an optional \
            field, so the newer app decodes older payloads and shows the default until the server \
            sends the field.
            """)

    /// A newer app requires a field that older payloads never carry.
    public static let fieldAddedWithoutDefault = CompatibilityRule(
        id: "field-added-without-default", defaultSeverity: .error,
        summary: "a required field added in the newer version is missing from every older payload",
        reasoning: """
            A required field (no default, not optional) that the older payloads do not carry makes \
            the newer app drop every one of them. Give the field a default or make it optional. \
            Inside an object or array whose own field has a default and on-invalid: default, the \
            object falls back to its default instead, and the finding is a warning.
            """)

    /// A newer strict app requires a field that older payloads never carry.
    public static let fieldAddedStrictClient = CompatibilityRule(
        id: "field-added-strict-client", defaultSeverity: .error,
        summary: "a field added in a strict (synthesized Codable) app version is missing from older payloads",
        reasoning: """
            An app version under clients.strict decodes with synthesized Codable, which ignores the \
            schema's defaults: a missing non-optional key fails the whole decode and the update is \
            dropped silently (APNs still answers 200).
            """)

    /// An older app reads a newer payload that carries a field it does not know.
    public static let fieldAddedIgnored = CompatibilityRule(
        id: "field-added-ignored", defaultSeverity: .info,
        summary: "a field added in the newer version is ignored by the older app",
        reasoning: """
            JSONDecoder and the tolerant decoder ignore keys they do not know, so the older app \
            decodes the payload and never shows the new field.
            """)

    /// An older app's field with a default is missing from newer payloads.
    public static let fieldRemovedDefaulted = CompatibilityRule(
        id: "field-removed-defaulted", defaultSeverity: .warning,
        summary: "a field removed in the newer version takes its default (or nil) in the older app",
        reasoning: """
            The older app decodes newer payloads, but shows the field's default forever. The finding \
            is info when the older version already marks the field deprecated.
            """)

    /// An older app requires a field that newer payloads no longer carry.
    public static let fieldRemovedRequired = CompatibilityRule(
        id: "field-removed-required", defaultSeverity: .error,
        summary: "a field the older app requires was removed in the newer version",
        reasoning: """
            Every newer payload lacks a key the older app requires, so the older app drops every \
            update. Keep sending the field (deprecate it) until no app version that requires it is \
            in the field. Inside an object whose own field has a default and on-invalid: default, \
            the object falls back to its default instead, and the finding is a warning.
            """)

    /// An older strict app's field is missing from newer payloads.
    public static let fieldRemovedStrictClient = CompatibilityRule(
        id: "field-removed-strict-client", defaultSeverity: .error,
        summary: "a field removed in the newer version is non-optional in a strict (synthesized Codable) older app",
        reasoning: """
            Synthesized Codable ignores defaults: a missing non-optional key fails the decode, so the \
            strict app version drops every newer payload, even when its schema gives the field a default.
            """)

    /// A newer app reads an older payload that carries a field the app removed.
    public static let fieldRemovedIgnored = CompatibilityRule(
        id: "field-removed-ignored", defaultSeverity: .info,
        summary: "a field removed in the newer version is ignored when the newer app reads older payloads",
        reasoning: """
            Unknown keys are ignored, so the newer app decodes older payloads that still carry the field.
            """)

    // MARK: Renames

    /// A field was renamed, and the reader knows the other name through `aliases`.
    public static let fieldRenamedAliasKnown = CompatibilityRule(
        id: "field-renamed-alias-known", defaultSeverity: .info,
        summary: "a field renamed with aliases: the reader maps the old name to the new one",
        reasoning: """
            The reading version lists the payload's key under aliases, so the tolerant decoder takes \
            the value under the old name. It does so too when a newer version keeps the field and adds \
            another under the alias's name: a payload that leaves the field out is read from the \
            other's key, whose values are then compared as the field's (type-changed when they differ).
            """)

    /// A field was renamed, and the reader does not know the name the payload uses.
    public static let fieldRenamedAliasUnknown = CompatibilityRule(
        id: "field-renamed-alias-unknown", defaultSeverity: .error,
        summary: "a field renamed with aliases: the reader does not know the name the payload uses",
        reasoning: """
            Aliases work for the version that declares them. An older app never learns the new name, \
            so it misses the key on every newer payload: it drops the update when the field is required \
            or the app is strict, and otherwise loses the value for good, which is a warning, as the \
            same outcome of a removal is. Strict (synthesized Codable) versions never honour aliases.
            """)

    // MARK: Optionality and defaults

    /// The newer reader requires a key the older writer may omit or send as null.
    public static let fieldMadeRequired = CompatibilityRule(
        id: "field-made-required", defaultSeverity: .error,
        summary: "a field optional (or defaulted) in the older version is non-optional in the newer app",
        reasoning: """
            Older payloads may omit the key or send null (also where the older app reads null as its \
            default, on-null: default). A newer app that requires the key drops the update; one with \
            a default takes it for a missing key, and treats null as invalid unless it has on-null: \
            default (on-invalid: default falls back, a warning; reject drops the update). When the older \
            field only has a default, the key is missing only if the server elides defaults: an error \
            with assumeDefaultElision, otherwise a warning.
            """)

    /// The newer writer may omit or null a key the older reader requires.
    public static let fieldMadeOptional = CompatibilityRule(
        id: "field-made-optional", defaultSeverity: .error,
        summary: "a field non-optional in the older app is optional (or defaulted) in the newer version",
        reasoning: """
            Newer payloads may omit the key or send null (also where the newer app reads null as its \
            default, on-null: default). An older app that requires the key drops the update; one with \
            a default takes it for a missing key, and treats null as invalid unless it has on-null: \
            default (on-invalid: default falls back, a warning; reject drops the update). When the newer \
            field only gained a default, the key is missing only if the server elides defaults: an \
            error with assumeDefaultElision, otherwise a warning.
            """)

    /// A strict reader's non-optional key may be missing or null in the writer's payloads.
    public static let strictClientOmittableKey = CompatibilityRule(
        id: "strict-client-omittable-key", defaultSeverity: .error,
        summary: "a strict (synthesized Codable) app version requires a key the writer may omit",
        reasoning: """
            The writer's version gives the field a default or makes it optional, so a server may leave \
            the key out (or send null). Synthesized Codable has no defaults: the strict app version \
            drops the update. Keep sending every key the strict version declares.
            """)

    /// Reader and writer disagree on the value a missing key stands for.
    public static let defaultChanged = CompatibilityRule(
        id: "default-changed", defaultSeverity: .warning,
        summary: "the field's default differs between the versions",
        reasoning: """
            An encoder that elides defaults omits a value equal to the writer's default; a reader with \
            another default then sees another value than the server meant. An error with \
            assumeDefaultElision, a warning without it. LiveState's own encoder elides only where \
            every client version has the same default.
            """)

    // MARK: Types

    /// The field's type changed, and every value the writer sends still decodes.
    public static let typeChangedCompatible = CompatibilityRule(
        id: "type-changed-compatible", defaultSeverity: .info,
        summary: "the type changed, but every JSON value the writer sends decodes in the reader",
        reasoning: """
            The JSON promotion table: an int is a valid double; url and a string enum are JSON strings \
            a string reader takes; an int enum is an int. Check that the meaning did not change. (A \
            date read as a number, or a number as a date, is date-epoch-changed.)
            """)

    /// A date became a number, or a number a date: the same JSON number in another epoch.
    public static let dateEpochChanged = CompatibilityRule(
        id: "date-epoch-changed", defaultSeverity: .warning,
        summary: "a date became a double or int, or a number became a date: every value decodes, 31 years off",
        reasoning: """
            A date field is a JSON number of seconds since 2001-01-01 (Foundation's default Date \
            coding); a double or int field usually holds UNIX seconds, since 1970. The value decodes \
            either way, so nothing is dropped, but an app that reads the other epoch shows a time \
            978307200 seconds (31 years) off. Convert where the app reads the value, or keep the type.
            """)

    /// The field's type changed, and only some values the writer sends decode.
    public static let typeNarrowed = CompatibilityRule(
        id: "type-narrowed", defaultSeverity: .error,
        summary: "the type changed so that some values the writer sends do not decode in the reader",
        reasoning: """
            An int reader rejects a double such as 1.5 (JSONDecoder accepts 2.0); a url rejects strings that \
            URL(string:) does not read, and an iOS 16 version's url refuses strings (a space, é) that a \
            version for iOS 17 and later may send; a Float or Decimal reader refuses a Double's non-zero \
            numbers too close to zero for it; an enum rejects raw values it does not list. The reader drops the \
            update, unless the field (or an enclosing one) has on-invalid: default and a default, or \
            the enum has a fallback (an enum of integers' fallback takes an unlisted whole number, not a number with a fraction): then it is a warning. Strict app versions always drop it.
            """)

    /// The field's type changed to one no value of the old type decodes as.
    public static let typeChanged = CompatibilityRule(
        id: "type-changed", defaultSeverity: .error,
        summary: "the type changed to one that no value the writer sends decodes as",
        reasoning: """
            Another JSON kind (string, number, bool, array, object) fails the decode: the reader drops \
            the update, unless the field (or an enclosing one) has on-invalid: default and a default, \
            in which case it shows the default forever (a warning). Strict app versions always drop it.
            """)

    /// The writer sends enum raw values the older reader does not list.
    public static let enumValueAddedWithFallback = CompatibilityRule(
        id: "enum-value-added-with-fallback", defaultSeverity: .info,
        summary: "enum values added in the newer version map to the older app's fallback",
        reasoning: """
            The older app's field declares a fallback, so an unknown raw value decodes as the fallback. \
            An error for strict app versions: synthesized Codable has no fallback and drops the update.
            """)

    /// The writer sends enum raw values the older reader does not list and cannot map.
    public static let enumValueAddedWithoutFallback = CompatibilityRule(
        id: "enum-value-added-without-fallback", defaultSeverity: .error,
        summary: "enum values added in the newer version are invalid in the older app, which has no fallback",
        reasoning: """
            An unknown raw value without a fallback is an invalid value: the older app drops the update, \
            or, with a default and on-invalid: default, shows the default (a warning). Declare a fallback \
            in every version before adding values.
            """)

    /// Older payloads may carry enum raw values the newer reader removed; it has a fallback.
    public static let enumValueRemovedWithFallback = CompatibilityRule(
        id: "enum-value-removed-with-fallback", defaultSeverity: .info,
        summary: "enum values removed in the newer version map to the newer app's fallback in older payloads",
        reasoning: """
            Older payloads may still carry the removed raw value; the newer app decodes it as its \
            fallback. An error for strict app versions, which have no fallback.
            """)

    /// Older payloads may carry enum raw values the newer reader removed; it has no fallback.
    public static let enumValueRemovedWithoutFallback = CompatibilityRule(
        id: "enum-value-removed-without-fallback", defaultSeverity: .error,
        summary: "enum values removed in the newer version are invalid in the newer app, which has no fallback",
        reasoning: """
            Older payloads may still carry the removed raw value: the newer app drops the update, or, \
            with a default and on-invalid: default, shows the default (a warning).
            """)

    // MARK: Constraints

    /// Every constraint's key, as the constraint rules' summaries list them.
    private static let constraintNames = ValueText.listed(Field.Constraint.allCases.map(\.rawValue), "or")

    /// The newer reader's constraint rejects values the older writer allows.
    public static let constraintTightened = CompatibilityRule(
        id: "constraint-tightened", defaultSeverity: .error,
        summary: "\(constraintNames) tightened: older payloads may break the newer app's constraint",
        reasoning: """
            The older version allows values the newer app rejects. The tolerant decoder drops the \
            update, or falls back to the default with on-invalid: default (a warning). Synthesized \
            Codable does not check constraints, so for strict app versions it is info.
            """)

    /// The newer writer allows values the older reader's constraint rejects.
    public static let constraintLoosened = CompatibilityRule(
        id: "constraint-loosened", defaultSeverity: .error,
        summary: "\(constraintNames) loosened: newer payloads may break the older app's constraint",
        reasoning: """
            The newer version allows values the older app rejects. The tolerant decoder drops the \
            update, or falls back to the default with on-invalid: default (a warning). Synthesized \
            Codable does not check constraints, so for strict app versions it is info.
            """)

    // MARK: Whole versions

    /// A name listed under `removed` returns with another type.
    public static let tombstoneReuse = CompatibilityRule(
        id: "tombstone-reuse", defaultSeverity: .error,
        summary: "a name removed (tombstoned) in an earlier version returns with another type",
        reasoning: """
            App versions from before the removal still decode the name with its old type; a server \
            that sends the new type makes them drop the update or lose the value. Pick a new name.
            """)

    /// The static worst case of a version's content-state is over the byte budget.
    public static let worstCaseSizeOverBudget = CompatibilityRule(
        id: "worst-case-size-over-budget", defaultSeverity: .error,
        summary: "the largest content-state the version allows is over the 4096-byte budget",
        reasoning: """
            Computed from max-length (strings counted at max-length bytes plus quotes, before escaping; \
            the device's re-encoding may add a `\\/` for every `/`), max-items, the longest enum value, \
            integers at the width of their bounds and doubles and dates at 24 bytes (17 significant \
            digits, as the device re-encodes them). Over 4096 bytes APNs answers 413 and the device \
            rejects the update. A warning when dropping drop-priority fields and emptying truncate \
            strings (the encoder's --fit) brings it within the budget. Checked once for every live \
            version, whichever pairs the gate reads; with --fleet it weighs every device, since APNs \
            refuses the body whichever app would read it.
            """)

    /// A version's content-state has no size bound.
    public static let unboundedSize = CompatibilityRule(
        id: "unbounded-size", defaultSeverity: .warning,
        summary: "a string without max-length or an array without max-items makes the worst-case size unbounded",
        reasoning: """
            Without a bound, nothing stops a payload from passing 4096 bytes; give the field a \
            max-length or max-items so the worst case can be checked against the budget. Checked \
            once for every live version, as worst-case-size-over-budget is.
            """)

    /// Every rule, in the order `--list-rules` prints them.
    public static let catalog: [CompatibilityRule] = [
        fieldAddedWithDefault, fieldAddedWithoutDefault, fieldAddedStrictClient, fieldAddedIgnored,
        fieldRemovedDefaulted, fieldRemovedRequired, fieldRemovedStrictClient, fieldRemovedIgnored,
        fieldRenamedAliasKnown, fieldRenamedAliasUnknown,
        fieldMadeRequired, fieldMadeOptional, strictClientOmittableKey, defaultChanged,
        typeChangedCompatible, dateEpochChanged, typeNarrowed, typeChanged,
        enumValueAddedWithFallback, enumValueAddedWithoutFallback,
        enumValueRemovedWithFallback, enumValueRemovedWithoutFallback,
        constraintTightened, constraintLoosened,
        tombstoneReuse, worstCaseSizeOverBudget, unboundedSize,
    ]
}
