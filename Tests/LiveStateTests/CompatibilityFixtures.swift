import Testing
@testable import LiveState
import LiveStateTooling

/// One schema fixture and the finding it must produce for one reader–writer pair.
struct CompatibilityCase: Sendable, CustomTestStringConvertible {
    var name: String
    var schema: Schema
    var reader: Int
    var writer: Int
    var options = CompatibilityChecker.Options()
    var rule: CompatibilityRule
    var severity: Severity
    var pointer: String
    var scope = DiagnosticScope.contentState

    var testDescription: String { "\(rule.id): \(name)" }

    /// The findings of the fixture's pair.
    func findings() -> [CompatibilityFinding] {
        CompatibilityChecker(options: options).findings(schema, reader: reader, writer: writer)
    }
}

/// A schema with the given versions, numbered from 1.
func compatSchema(
    _ contentStates: [Field]..., strict: [Int] = [], attributes: [[Field]] = [], removed: [[String]] = []
) -> Schema {
    let versions = contentStates.enumerated().map { index, fields in
        SchemaVersion(
            version: index + 1, contentState: fields,
            attributes: index < attributes.count ? attributes[index] : [],
            removed: index < removed.count ? removed[index] : [])
    }
    return Schema(activity: "fixture", strictClients: strict, versions: versions)
}

/// Small field builders for fixtures.
enum F {
    static func string(_ name: String, default value: String? = nil, optional: Bool = false, maxLength: Int? = 32,
                       rejectsInvalid: Bool = false, aliases: [String] = [], deprecated: Bool = false) -> Field {
        Field(name: name, type: .string, defaultValue: value.map(Value.string), isOptional: optional, rejectsInvalid: rejectsInvalid,
              constraints: .init(maxLength: maxLength), aliases: aliases, isDeprecated: deprecated)
    }

    static func int(_ name: String, default value: Int? = nil, minimum: Double? = nil, maximum: Double? = nil,
                    rejectsInvalid: Bool = false) -> Field {
        Field(name: name, type: .int, defaultValue: value.map(Value.int), rejectsInvalid: rejectsInvalid, constraints: .init(minimum: minimum, maximum: maximum))
    }

    static func double(_ name: String, default value: Double? = nil, minimum: Double? = nil, maximum: Double? = nil) -> Field {
        Field(name: name, type: .double, defaultValue: value.map(Value.double), constraints: .init(minimum: minimum, maximum: maximum))
    }

    static func date(_ name: String, default value: Double? = nil) -> Field {
        Field(name: name, type: .date, defaultValue: value.map(Value.date))
    }

    static func status(_ values: [String], name: String = "status", default value: String? = nil, fallback: String? = nil) -> Field {
        Field(name: name, type: .enumeration(.strings(values)), defaultValue: value.map(Value.string), fallback: fallback.map(Value.string))
    }
}

extension CompatibilityCase {
    init(_ name: String, _ schema: Schema, reader: Int, writer: Int, options: CompatibilityChecker.Options = .init(),
         _ rule: CompatibilityRule, _ severity: Severity, _ pointer: String, scope: DiagnosticScope = .contentState) {
        self.init(name: name, schema: schema, reader: reader, writer: writer, options: options,
                  rule: rule, severity: severity, pointer: pointer, scope: scope)
    }
}

private let title = F.string("title")
private let elision = CompatibilityChecker.Options(assumeDefaultElision: true)
private let courierV1 = Field(name: "courier", type: .object(fields: [F.string("name", default: "")]),
                              defaultValue: .object([.init("name", .string(""))]))
private let courierV2 = Field(name: "courier", type: .object(fields: [F.string("name", default: ""), F.int("rating")]),
                              defaultValue: .object([.init("name", .string("")), .init("rating", .int(0))]))

/// One fixture per rule and per severity a rule can take.
let compatibilityCases: [CompatibilityCase] = [
    // Added fields.
    .init("a field added with a default takes it in the newer app",
          compatSchema([title], [title, F.int("eta", default: 0)]), reader: 2, writer: 1, .fieldAddedWithDefault, .info, "/eta"),
    .init("an optional field added is null in the newer app",
          compatSchema([title], [title, F.string("note", optional: true)]), reader: 2, writer: 1, .fieldAddedWithDefault, .info, "/note"),
    .init("a required field added makes the newer app drop older payloads",
          compatSchema([title], [title, F.string("orderId")]), reader: 2, writer: 1, .fieldAddedWithoutDefault, .error, "/orderId"),
    .init("a required member added to a defaulted object makes the object fall back",
          compatSchema([title, courierV1], [title, courierV2]), reader: 2, writer: 1, .fieldAddedWithoutDefault, .warning, "/courier/rating"),
    .init("a strict newer app drops older payloads without the added key, default or not",
          compatSchema([title], [title, F.int("eta", default: 0)], strict: [2]), reader: 2, writer: 1, .fieldAddedStrictClient, .error, "/eta"),
    .init("an older app ignores an added field",
          compatSchema([title], [title, F.int("eta", default: 0)]), reader: 1, writer: 2, .fieldAddedIgnored, .info, "/eta"),

    // Removed fields.
    .init("an older app shows the default of a removed field",
          compatSchema([title, F.string("badge", default: "")], [title]), reader: 1, writer: 2, .fieldRemovedDefaulted, .warning, "/badge"),
    .init("removing a field the older app deprecated is informational",
          compatSchema([title, F.string("badge", default: "", deprecated: true)], [title]), reader: 1, writer: 2, .fieldRemovedDefaulted, .info, "/badge"),
    .init("removing a field the older app requires drops newer payloads",
          compatSchema([title, F.string("orderId")], [title]), reader: 1, writer: 2, .fieldRemovedRequired, .error, "/orderId"),
    .init("removing a field from a strict older app drops newer payloads even with a default",
          compatSchema([title, F.string("badge", default: "")], [title], strict: [1]), reader: 1, writer: 2, .fieldRemovedStrictClient, .error, "/badge"),
    .init("a newer app ignores a removed field in older payloads",
          compatSchema([title, F.string("badge", default: "")], [title]), reader: 2, writer: 1, .fieldRemovedIgnored, .info, "/badge"),

    // Renames.
    .init("a newer app reads the old name through its alias",
          compatSchema([F.string("subTitle")], [F.string("subtitle", default: "", aliases: ["subTitle"])]),
          reader: 2, writer: 1, .fieldRenamedAliasKnown, .info, "/subtitle"),
    .init("an older app does not know the new name",
          compatSchema([F.string("subTitle")], [F.string("subtitle", default: "", aliases: ["subTitle"])]),
          reader: 1, writer: 2, .fieldRenamedAliasUnknown, .error, "/subtitle"),
    .init("a strict newer app does not honour its own alias",
          compatSchema([F.string("subTitle")], [F.string("subtitle", aliases: ["subTitle"])], strict: [2]),
          reader: 2, writer: 1, .fieldRenamedAliasUnknown, .error, "/subtitle"),

    // Optionality.
    .init("a field made required drops older payloads that omit it",
          compatSchema([F.string("note", optional: true)], [F.string("note")]), reader: 2, writer: 1, .fieldMadeRequired, .error, "/note"),
    .init("a defaulted field made required is a warning without default elision",
          compatSchema([F.string("note", default: "")], [F.string("note")]), reader: 2, writer: 1, .fieldMadeRequired, .warning, "/note"),
    .init("a defaulted field made required is an error with default elision",
          compatSchema([F.string("note", default: "")], [F.string("note")]), reader: 2, writer: 1, options: elision, .fieldMadeRequired, .error, "/note"),
    .init("a field made optional drops newer payloads that omit it in the older app",
          compatSchema([F.string("note")], [F.string("note", optional: true)]), reader: 1, writer: 2, .fieldMadeOptional, .error, "/note"),
    .init("null in a field made optional falls back to the older app's default",
          compatSchema([F.string("note", default: "")], [F.string("note", optional: true)]), reader: 1, writer: 2, .fieldMadeOptional, .warning, "/note"),
    .init("null in a field made optional is rejected by an older field with on-invalid reject",
          compatSchema([F.string("note", default: "", rejectsInvalid: true)], [F.string("note", optional: true)]),
          reader: 1, writer: 2, .fieldMadeOptional, .error, "/note"),
    .init("a strict older app drops payloads that leave out a key given a default",
          compatSchema([title], [F.string("title", default: "")], strict: [1]), reader: 1, writer: 2, .strictClientOmittableKey, .error, "/title"),
    .init("a strict older app drops payloads that leave out a key made optional",
          compatSchema([title], [F.string("title", optional: true)], strict: [1]), reader: 1, writer: 2, .strictClientOmittableKey, .error, "/title"),

    // Defaults.
    .init("a changed default is a warning without default elision",
          compatSchema([F.string("mode", default: "a")], [F.string("mode", default: "b")]), reader: 1, writer: 2, .defaultChanged, .warning, "/mode"),
    .init("a changed default is an error with default elision",
          compatSchema([F.string("mode", default: "a")], [F.string("mode", default: "b")]), reader: 2, writer: 1, options: elision, .defaultChanged, .error, "/mode"),

    // Types.
    .init("an int writer is safe for a double reader",
          compatSchema([F.int("count", default: 0)], [F.double("count", default: 0)]), reader: 2, writer: 1, .typeChangedCompatible, .info, "/count"),
    .init("a date read as a double is 31 years off, in both directions",
          compatSchema([F.date("eta", default: 0)], [F.double("eta", default: 0)]), reader: 1, writer: 2, .dateEpochChanged, .warning, "/eta"),
    .init("a double read as a date is 31 years off",
          compatSchema([F.date("eta", default: 0)], [F.double("eta", default: 0)]), reader: 2, writer: 1, .dateEpochChanged, .warning, "/eta"),
    .init("a double writer is narrowed for an int reader",
          compatSchema([F.int("count")], [F.double("count")]), reader: 1, writer: 2, .typeNarrowed, .error, "/count"),
    .init("a string writer is narrowed for an enum reader with a fallback",
          compatSchema([F.string("phase", default: "")], [F.status(["live", "done"], name: "phase", default: "live", fallback: "live")]),
          reader: 2, writer: 1, .typeNarrowed, .warning, "/phase"),
    .init("another JSON kind drops the update for a required reader",
          compatSchema([Field(name: "flag", type: .bool)], [F.string("flag")]), reader: 1, writer: 2, .typeChanged, .error, "/flag"),
    .init("another JSON kind falls back for a defaulted reader",
          compatSchema([Field(name: "flag", type: .bool, defaultValue: .bool(false))], [F.string("flag", default: "")]),
          reader: 1, writer: 2, .typeChanged, .warning, "/flag"),

    // Enum values.
    .init("an added enum value maps to the older app's fallback",
          compatSchema([F.status(["a", "b"], fallback: "a")], [F.status(["a", "b", "c"], fallback: "a")]),
          reader: 1, writer: 2, .enumValueAddedWithFallback, .info, "/status"),
    .init("a strict older app has no fallback for an added enum value",
          compatSchema([F.status(["a", "b"], fallback: "a")], [F.status(["a", "b", "c"], fallback: "a")], strict: [1]),
          reader: 1, writer: 2, .enumValueAddedWithFallback, .error, "/status"),
    .init("an added enum value drops the update in an older app without a fallback",
          compatSchema([F.status(["a", "b"])], [F.status(["a", "b", "c"])]), reader: 1, writer: 2, .enumValueAddedWithoutFallback, .error, "/status"),
    .init("an added enum value falls back to the default of an older app without a fallback",
          compatSchema([F.status(["a", "b"], default: "a")], [F.status(["a", "b", "c"], default: "a")]),
          reader: 1, writer: 2, .enumValueAddedWithoutFallback, .warning, "/status"),
    .init("a removed enum value in older payloads maps to the newer app's fallback",
          compatSchema([F.status(["a", "b", "c"], fallback: "a")], [F.status(["a", "b"], fallback: "a")]),
          reader: 2, writer: 1, .enumValueRemovedWithFallback, .info, "/status"),
    .init("a removed enum value in older payloads drops the update in a newer app without a fallback",
          compatSchema([F.status(["a", "b", "c"])], [F.status(["a", "b"])]), reader: 2, writer: 1, .enumValueRemovedWithoutFallback, .error, "/status"),

    // Constraints.
    .init("a tightened max-length rejects older payloads in the newer app",
          compatSchema([F.string("title", maxLength: 64)], [F.string("title", maxLength: 32)]), reader: 2, writer: 1, .constraintTightened, .error, "/title"),
    .init("a tightened maximum makes a defaulted field fall back",
          compatSchema([F.int("minutes", default: 0, maximum: 120)], [F.int("minutes", default: 0, maximum: 60)]),
          reader: 2, writer: 1, .constraintTightened, .warning, "/minutes"),
    .init("a loosened max-length rejects newer payloads in the older app",
          compatSchema([F.string("title", maxLength: 32)], [F.string("title", maxLength: 64)]), reader: 1, writer: 2, .constraintLoosened, .error, "/title"),
    .init("a loosened minimum is informational for a strict older app, which checks no constraints",
          compatSchema([F.int("minutes", minimum: 0)], [F.int("minutes", minimum: -5)], strict: [1]), reader: 1, writer: 2, .constraintLoosened, .info, "/minutes"),

    // Whole versions.
    .init("a tombstoned name returning with another type",
          compatSchema([title, F.int("code", default: 0)], [title], [title, F.string("code", default: "")], removed: [[], ["code"]]),
          reader: 2, writer: 3, .tombstoneReuse, .error, "/code"),
    .init("a content-state whose worst case is over 4096 bytes",
          compatSchema([title], [title, Field(name: "items", type: .array(items: F.string("", maxLength: 200)), defaultValue: .array([]), constraints: .init(maxItems: 30))]),
          reader: 1, writer: 2, .worstCaseSizeOverBudget, .error, ""),
    .init("a worst case over budget that dropping drop-priority fields fits",
          compatSchema([title], [title, Field(name: "items", type: .array(items: F.string("", maxLength: 200)), defaultValue: .array([]), constraints: .init(maxItems: 30), dropPriority: 1)]),
          reader: 1, writer: 2, .worstCaseSizeOverBudget, .warning, ""),
    .init("a string without max-length",
          compatSchema([title], [title, F.string("note", optional: true, maxLength: nil)]), reader: 1, writer: 2, .unboundedSize, .warning, "/note"),
    .init("an array without max-items",
          compatSchema([title], [title, Field(name: "tags", type: .array(items: F.string("")), defaultValue: .array([]))]),
          reader: 1, writer: 2, .unboundedSize, .warning, "/tags"),
    .init("attributes are compared in their own scope",
          compatSchema([title], [title], attributes: [[F.string("orderId")], [F.string("orderId"), F.string("store")]]),
          reader: 2, writer: 1, .fieldAddedWithoutDefault, .error, "/store", scope: .attributes),
]
