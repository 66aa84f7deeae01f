import LiveState
import LiveStateTooling
import Testing

/// Each code a generator throws, triggered by the smallest schema that earns it, with its full
/// sentence.
@Suite struct CodegenErrorTests {
    private static func schema(attributesType: String? = nil, _ fields: [Field]) -> Schema {
        Schema(activity: "probe", attributesType: attributesType, versions: [SchemaVersion(version: 1, contentState: fields)])
    }

    private static let title = Field(name: "title", type: .string, defaultValue: .string(""))
    /// A default that does not fit its field's type: the schema validator's one error.
    private static let badDefault = schema([Field(name: "title", type: .string, defaultValue: .int(3))])

    struct Case: Sendable, CustomTestStringConvertible {
        var code: DiagnosticCode
        var schema: Schema
        var namespace: String?
        var version: Int?
        var message: String
        var pointer: String?
        var testDescription: String { code.rawValue }
    }

    static let cases: [Case] = [
        Case(code: .unknownVersion, schema: schema([title]), version: 7, message: "the schema has no version 7; it has 1"),
        Case(
            code: .invalidSchema, schema: badDefault,
            message: "the schema has 1 error(s); fix them before generating code"),
        Case(
            // A Swift type name, so the schema validator takes it, but one the generated code uses.
            code: .invalidTypeName, schema: schema(attributesType: "ContentState", [title]),
            message: "attributes-type 'ContentState' is not a Swift type name this generator can use", pointer: "/attributes-type"),
        Case(
            code: .invalidTypeName, schema: schema([title]), namespace: "9lives",
            message: "namespace '9lives' is not a Swift type name this generator can use"),
    ]

    @Test(arguments: cases) func eachCodeHasItsSentence(_ test: Case) throws {
        let generator = SwiftGenerator(options: .init(namespace: test.namespace))
        let error = try #require(throws: CodegenError.self) { try generator.generate(test.schema, version: test.version) }
        #expect(error.code == test.code)
        #expect(error.description == "\(test.message) [\(test.code)]")
        let at = test.pointer.map { " (at \($0))" } ?? ""
        #expect(error.diagnostic(file: "p.yaml").description == "p.yaml: error: \(test.message)\(at) [\(test.code)]")
    }

    @Test func theJSONSchemaGeneratorSaysTheSame() throws {
        let error = try #require(throws: CodegenError.self) { try JSONSchemaGenerator().generate(Self.badDefault) }
        #expect(error.code == .invalidSchema)
        #expect(error.diagnostics.count == 1)
        let unknown = try #require(throws: CodegenError.self) { try JSONSchemaGenerator().generate(Self.schema([Self.title]), version: 2) }
        #expect(unknown.description == "the schema has no version 2; it has 1 [unknown-version]")
    }

    /// Each code of `codegenCodes` is one a case above triggers, but `unparsable-url-default`: the
    /// schema validator, which asks `URLRule`, already refuses the `url` defaults tried that this
    /// platform's `URL(string:)` refuses (`""`, `http://[::1`, `http://a b/`), so the generator's
    /// guard against a `URL(string:)!` that would trap is met only where Foundation is stricter.
    @Test func everyCodeIsTriggered() {
        let triggered = Set(Self.cases.map(\.code))
        #expect(DiagnosticCode.codegenCodes.allSatisfy { triggered.contains($0) || $0 == .unparsableURLDefault })
    }
}
