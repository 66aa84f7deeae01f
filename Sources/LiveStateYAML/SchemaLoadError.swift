import LiveState

/// Why a schema file did not load: every error found in it.
///
/// Each diagnostic has severity `.error`, scope `.schema`, the file, a 1-based line and
/// column, a JSON Pointer into the YAML document (`/versions/1/content-state/eta/default`)
/// and one of the schema codes (`DiagnosticCode.schemaIO`, `.yamlSyntax`, …) as its code. They are sorted by position.
public struct SchemaLoadError: Error, Sendable, CustomStringConvertible {
    /// The errors, in file order; never empty.
    public var diagnostics: [Diagnostic]

    /// Creates a load error.
    /// - Parameter diagnostics: The errors found.
    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// One compiler-style line per diagnostic: `file:line:column: error: message (at pointer) [code]`.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
