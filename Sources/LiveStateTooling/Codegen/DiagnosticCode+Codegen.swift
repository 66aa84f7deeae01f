import LiveState

// The codes of `CodegenError`: why `SwiftGenerator` or `JSONSchemaGenerator` made no code. A
// version the schema does not have is `unknownVersion`, as everywhere else.
extension DiagnosticCode {
    /// The schema has errors (`SchemaValidator`), or a default does not fit its field's type.
    public static let invalidSchema = DiagnosticCode(rawValue: "invalid-schema")
    /// The attributes type or the namespace is not a Swift type name the generator can use.
    public static let invalidTypeName = DiagnosticCode(rawValue: "invalid-type-name")
    /// A `url` default that Foundation's `URL(string:)` does not parse, so the generated
    /// `URL(string:)!` would trap.
    public static let unparsableURLDefault = DiagnosticCode(rawValue: "unparsable-url-default")

    /// Every code a generator throws.
    package static let codegenCodes: [DiagnosticCode] = [.unknownVersion, .invalidSchema, .invalidTypeName, .unparsableURLDefault]
}
