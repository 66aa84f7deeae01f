import LiveState

// The stable codes of diagnostics about schema files and schema models.
//
// `SchemaValidator` reports the codes that need no YAML; `LiveStateYAML`'s `SchemaLoader`
// reports all of them. Every diagnostic with one of these codes has scope `.schema` and a
// JSON Pointer into the schema document, such as `/versions/1/content-state/eta/default`.
extension DiagnosticCode {
    /// The file is missing, a directory, unreadable or larger than the loader's limit.
    public static let schemaIO = DiagnosticCode(rawValue: "schema-io")
    /// libyaml cannot parse the text, or the file holds more than one document.
    public static let yamlSyntax = DiagnosticCode(rawValue: "yaml-syntax")
    /// Nesting is deeper, aliases expand to more nodes, or the document holds more nodes or
    /// versions than the loader's limits allow.
    public static let yamlLimit = DiagnosticCode(rawValue: "yaml-limit")
    /// A mapping has a key the schema format does not define there.
    public static let schemaUnknownKey = DiagnosticCode(rawValue: "schema-unknown-key")
    /// A required key is missing: `activity`, `versions`, `version`, `content-state` or a field's `type`.
    public static let schemaMissingKey = DiagnosticCode(rawValue: "schema-missing-key")
    /// A key's value has the wrong YAML shape: a mapping where a sequence belongs, text where a number belongs.
    public static let schemaWrongType = DiagnosticCode(rawValue: "schema-wrong-type")
    /// A field's `type` is not one of the field types.
    public static let schemaUnknownType = DiagnosticCode(rawValue: "schema-unknown-type")
    /// A `default` or `fallback` does not fit its field: wrong type, outside the constraints, not an enum value.
    public static let schemaInvalidDefault = DiagnosticCode(rawValue: "schema-invalid-default")
    /// A name appears twice: a mapping key, a field name, or a field name equal to another field's alias.
    public static let schemaDuplicateName = DiagnosticCode(rawValue: "schema-duplicate-name")
    /// A name removed in an earlier version returns with another type.
    public static let schemaTombstoneReuse = DiagnosticCode(rawValue: "schema-tombstone-reuse")
    /// `removed` names a field the previous version did not have, or one the same version still has.
    public static let schemaRemovedUnknown = DiagnosticCode(rawValue: "schema-removed-unknown")
    /// Version numbers are not positive, not strictly increasing, or repeated.
    public static let schemaVersionOrder = DiagnosticCode(rawValue: "schema-version-order")
    /// `activity` differs from the file's stem.
    public static let schemaActivityMismatch = DiagnosticCode(rawValue: "schema-activity-mismatch")
    /// A constraint makes no sense: `minimum` above `maximum`, a negative length, a constraint
    /// the type does not have, empty or mixed enum values, an array without `items`, an object
    /// without `fields`, `clients.strict` naming a version that does not exist.
    public static let schemaInvalidConstraint = DiagnosticCode(rawValue: "schema-invalid-constraint")
    /// The file is empty or declares no versions.
    public static let schemaEmpty = DiagnosticCode(rawValue: "schema-empty")
    /// `attributes-type` is not a name Swift can declare a type by.
    public static let schemaInvalidName = DiagnosticCode(rawValue: "schema-invalid-name")

    /// Every code this version names.
    package static let schemaCodes: [DiagnosticCode] = [
        .schemaIO,
        .yamlSyntax,
        .yamlLimit,
        .schemaUnknownKey,
        .schemaMissingKey,
        .schemaWrongType,
        .schemaUnknownType,
        .schemaInvalidDefault,
        .schemaDuplicateName,
        .schemaTombstoneReuse,
        .schemaRemovedUnknown,
        .schemaVersionOrder,
        .schemaActivityMismatch,
        .schemaInvalidConstraint,
        .schemaEmpty,
        .schemaInvalidName,
    ]
}
