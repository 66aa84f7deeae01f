import LiveState

/// Why a generator could not turn a schema into code.
public struct CodegenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong: `unknownVersion`, `invalidSchema`, `invalidTypeName` or
    /// `unparsableURLDefault`, kebab-case in the raw value (`unknown-version`).
    public var code: DiagnosticCode
    /// What is wrong, in a sentence.
    public var message: String
    /// The JSON Pointer of the schema part at fault, as a schema file spells it, when there is one.
    public var pointer: String?
    /// The schema's problems, when the schema itself is invalid (`invalid-schema`).
    public var diagnostics: [Diagnostic]

    /// Creates an error.
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - message: The sentence.
    ///   - pointer: The schema part at fault.
    ///   - diagnostics: The schema's own problems.
    public init(code: DiagnosticCode, message: String, pointer: String? = nil, diagnostics: [Diagnostic] = []) {
        self.code = code
        self.message = message
        self.pointer = pointer
        self.diagnostics = diagnostics
    }

    /// `message [code]`.
    public var description: String { "\(message) [\(code)]" }

    /// The error as a diagnostic of scope `schema`, for a schema loaded from `file`.
    /// - Parameter file: The schema file.
    /// - Returns: The diagnostic.
    public func diagnostic(file: String?) -> Diagnostic {
        Diagnostic(code: code, severity: .error, message: message, file: file, scope: .schema, pointer: pointer)
    }

    static func unknownVersion(_ version: Int, in schema: Schema) -> CodegenError {
        let unknown = Diagnostic.unknownVersion(version, available: schema.versions.map(\.version))
        return CodegenError(code: unknown.code, message: unknown.message)
    }
}
