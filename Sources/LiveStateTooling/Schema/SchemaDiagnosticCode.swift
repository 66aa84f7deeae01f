import LiveState

/// The stable codes of diagnostics about schema files and schema models.
///
/// `SchemaValidator` reports the codes that need no YAML; `LiveStateYAML`'s `SchemaLoader`
/// reports all of them. Every diagnostic with one of these codes has scope `.schema` and a
/// JSON Pointer into the schema document, such as `/versions/1/content-state/eta/default`.
public struct SchemaDiagnosticCode: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The code, as it appears in diagnostics and documents.
    public let rawValue: String

    /// A code by its text; codes this version does not name are kept as they are.
    /// - Parameter rawValue: The kebab-case code.
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// The file is missing, a directory, unreadable or larger than the loader's limit.
    public static let io = SchemaDiagnosticCode(rawValue: "schema-io")
    /// libyaml cannot parse the text, or the file holds more than one document.
    public static let yamlSyntax = SchemaDiagnosticCode(rawValue: "yaml-syntax")
    /// Nesting is deeper, aliases expand to more nodes, or the document holds more nodes or
    /// versions than the loader's limits allow.
    public static let yamlLimit = SchemaDiagnosticCode(rawValue: "yaml-limit")
    /// A mapping has a key the schema format does not define there.
    public static let unknownKey = SchemaDiagnosticCode(rawValue: "schema-unknown-key")
    /// A required key is missing: `activity`, `versions`, `version`, `content-state` or a field's `type`.
    public static let missingKey = SchemaDiagnosticCode(rawValue: "schema-missing-key")
    /// A key's value has the wrong YAML shape: a mapping where a sequence belongs, text where a number belongs.
    public static let wrongType = SchemaDiagnosticCode(rawValue: "schema-wrong-type")
    /// A field's `type` is not one of the field types.
    public static let unknownType = SchemaDiagnosticCode(rawValue: "schema-unknown-type")
    /// A `default` or `fallback` does not fit its field: wrong type, outside the constraints, not an enum value.
    public static let invalidDefault = SchemaDiagnosticCode(rawValue: "schema-invalid-default")
    /// A name appears twice: a mapping key, a field name, or a field name equal to another field's alias.
    public static let duplicateName = SchemaDiagnosticCode(rawValue: "schema-duplicate-name")
    /// A name removed in an earlier version returns with another type.
    public static let tombstoneReuse = SchemaDiagnosticCode(rawValue: "schema-tombstone-reuse")
    /// `removed` names a field the previous version did not have, or one the same version still has.
    public static let removedUnknown = SchemaDiagnosticCode(rawValue: "schema-removed-unknown")
    /// Version numbers are not positive, not strictly increasing, or repeated.
    public static let versionOrder = SchemaDiagnosticCode(rawValue: "schema-version-order")
    /// `activity` differs from the file's stem.
    public static let activityMismatch = SchemaDiagnosticCode(rawValue: "schema-activity-mismatch")
    /// A constraint makes no sense: `minimum` above `maximum`, a negative length, a constraint
    /// the type does not have, empty or mixed enum values, an array without `items`, an object
    /// without `fields`, `clients.strict` naming a version that does not exist.
    public static let invalidConstraint = SchemaDiagnosticCode(rawValue: "schema-invalid-constraint")
    /// The file is empty or declares no versions.
    public static let empty = SchemaDiagnosticCode(rawValue: "schema-empty")
    /// `attributes-type` is not a name Swift can declare a type by.
    public static let invalidName = SchemaDiagnosticCode(rawValue: "schema-invalid-name")

    /// A one-line explanation of the code, for `--explain` style listings.
    public var explanation: String {
        switch self {
        case .io: "the schema file is missing, a directory, unreadable or too large"
        case .yamlSyntax: "the file is not valid YAML, or holds more than one document"
        case .yamlLimit: "nesting, alias expansion, nodes or versions go beyond the loader's limits"
        case .unknownKey: "a key the schema format does not define at that place"
        case .missingKey: "a required key is missing"
        case .wrongType: "a key's value has the wrong YAML shape or kind"
        case .unknownType: "a field's type is not one of the field types"
        case .invalidDefault: "a default or fallback does not fit its field"
        case .duplicateName: "a key, field name or alias appears twice"
        case .tombstoneReuse: "a removed name returns with another type"
        case .removedUnknown: "removed names a field the previous version did not have, or one still present"
        case .versionOrder: "versions are not positive, strictly increasing integers"
        case .activityMismatch: "activity differs from the file's stem"
        case .invalidConstraint: "a constraint is contradictory or does not apply to the field's type"
        case .empty: "the file is empty or declares no versions"
        case .invalidName: "attributes-type is not a Swift type name"
        default: "a code this version of LiveState does not name"
        }
    }

    /// Every code this version names.
    public static let allCases: [SchemaDiagnosticCode] = [
        .io,
        .yamlSyntax,
        .yamlLimit,
        .unknownKey,
        .missingKey,
        .wrongType,
        .unknownType,
        .invalidDefault,
        .duplicateName,
        .tombstoneReuse,
        .removedUnknown,
        .versionOrder,
        .activityMismatch,
        .invalidConstraint,
        .empty,
        .invalidName,
    ]
}
