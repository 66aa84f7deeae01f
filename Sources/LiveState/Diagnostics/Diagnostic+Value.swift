extension Diagnostic {
    /// The diagnostic as the JSON object the CLI and the HTTP sidecar print:
    /// `{code, severity, message, file, line, column, scope, pointer}`, `null` where unknown.
    public var jsonValue: Value {
        .object([
            .init("code", .string(code)),
            .init("severity", .string(severity.rawValue)),
            .init("message", .string(message)),
            .init("file", file.map(Value.string) ?? .null),
            .init("line", position.map { .int($0.line) } ?? .null),
            .init("column", position.map { .int($0.column) } ?? .null),
            .init("scope", scope.map { .string($0.rawValue) } ?? .null),
            .init("pointer", pointer.map(Value.string) ?? .null),
        ])
    }
}
