/// The stable codes of diagnostics about schema files and schema models.
///
/// `SchemaValidator` reports the codes that need no YAML; `LiveStateYAML`'s `SchemaLoader`
/// reports all of them. Every diagnostic with one of these codes has scope `.schema` and a
/// JSON Pointer into the schema document, such as `/versions/1/content-state/eta/default`.
public enum SchemaDiagnosticCode: String, Sendable, Hashable, CaseIterable {
    /// The file is missing, a directory, unreadable or larger than the loader's limit.
    case io = "schema-io"
    /// libyaml cannot parse the text, or the file holds more than one document.
    case yamlSyntax = "yaml-syntax"
    /// Nesting is deeper, or aliases expand to more nodes, than the loader's limits allow.
    case yamlLimit = "yaml-limit"
    /// A mapping has a key the schema format does not define there.
    case unknownKey = "schema-unknown-key"
    /// A required key is missing: `activity`, `versions`, `version`, `content-state` or a field's `type`.
    case missingKey = "schema-missing-key"
    /// A key's value has the wrong YAML shape: a mapping where a sequence belongs, text where a number belongs.
    case wrongType = "schema-wrong-type"
    /// A field's `type` is not one of the field types.
    case unknownType = "schema-unknown-type"
    /// A `default` or `fallback` does not fit its field: wrong type, outside the constraints, not an enum value.
    case invalidDefault = "schema-invalid-default"
    /// A name appears twice: a mapping key, a field name, or a field name equal to another field's alias.
    case duplicateName = "schema-duplicate-name"
    /// A name removed in an earlier version returns with another type.
    case tombstoneReuse = "schema-tombstone-reuse"
    /// `removed` names a field the previous version did not have, or one the same version still has.
    case removedUnknown = "schema-removed-unknown"
    /// Version numbers are not positive, not strictly increasing, or repeated.
    case versionOrder = "schema-version-order"
    /// `activity` differs from the file's stem.
    case activityMismatch = "schema-activity-mismatch"
    /// A constraint makes no sense: `minimum` above `maximum`, a negative length, a constraint
    /// the type does not have, empty or mixed enum values, an array without `items`, an object
    /// without `fields`, `clients.strict` naming a version that does not exist.
    case invalidConstraint = "schema-invalid-constraint"
    /// The file is empty or declares no versions.
    case empty = "schema-empty"

    /// A one-line explanation of the code, for `--explain` style listings.
    public var explanation: String {
        switch self {
        case .io: "the schema file is missing, a directory, unreadable or too large"
        case .yamlSyntax: "the file is not valid YAML, or holds more than one document"
        case .yamlLimit: "nesting or alias expansion goes beyond the loader's limits"
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
        }
    }
}
