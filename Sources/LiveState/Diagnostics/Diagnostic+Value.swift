extension Diagnostic {
    /// The diagnostic as the JSON object the CLI and the HTTP sidecar print:
    /// `{code, severity, message, file, line, column, scope, pointer}`, `null` where unknown.
    public var jsonValue: Value {
        .object([
            .init("code", .string(code.rawValue)),
            .init("severity", .string(severity.rawValue)),
            .init("message", .string(shownMessage)),
            .init("file", file.map(Value.string) ?? .null),
            .init("line", position.map { .int($0.line) } ?? .null),
            .init("column", position.map { .int($0.column) } ?? .null),
            .init("scope", scope.map { .string($0.rawValue) } ?? .null),
            .init("pointer", pointer.map(Value.string) ?? .null),
        ])
    }
}

extension Diagnostic {
    /// Writes `jsonValue` straight to `writer`, byte for byte the same, without building the
    /// tree: what the HTTP sidecar does for every diagnostic of every response.
    /// - Parameter writer: The writer to append to.
    package func write(to writer: inout JSONWriter) {
        CollectionOfOne(self).write(to: &writer)
    }

    fileprivate func write(into writer: inout StateWriter) {
        writer.append(#"{"code":"#)
        _ = writer.writeString(code.rawValue)
        writer.append(#","severity":"#)
        _ = writer.writeString(severity.rawValue)
        writer.append(#","message":"#)
        _ = writer.writeString(shownMessage)
        writer.append(#","file":"#)
        if let file { _ = writer.writeString(file) } else { writer.append("null") }
        writer.append(#","line":"#)
        if let position { writer.writeInt(position.line) } else { writer.append("null") }
        writer.append(#","column":"#)
        if let position { writer.writeInt(position.column) } else { writer.append("null") }
        writer.append(#","scope":"#)
        if let scope { _ = writer.writeString(scope.rawValue) } else { writer.append("null") }
        writer.append(#","pointer":"#)
        if let pointer { _ = writer.writeString(pointer) } else { writer.append("null") }
        writer.append("}")
    }
}

extension Collection<Diagnostic> {
    /// Writes the diagnostics as a JSON array of `jsonValue` objects, as a listing shows them
    /// (`listed`), without building the trees, through one buffer for the whole array.
    /// - Parameter writer: The writer to append to.
    package func write(to writer: inout JSONWriter) {
        if count > Diagnostic.listedPerCode {
            writeDiagnostics(Array(self).listed, to: &writer)
        } else {
            writeDiagnostics(self, to: &writer)
        }
    }
}

extension Array<Diagnostic> {
    /// Writes the diagnostics as a JSON array of `jsonValue` objects, as the `Collection` method
    /// does, compiled for arrays: a server writes one per response, and the generic method,
    /// called from another module, walks the array through witness tables.
    /// - Parameter writer: The writer to append to.
    package func write(to writer: inout JSONWriter) {
        writeDiagnostics(listed, to: &writer)
    }
}

private func writeDiagnostics(_ diagnostics: some Collection<Diagnostic>, to writer: inout JSONWriter) {
    var buffer = StateWriter(capacity: 256 * Swift.max(diagnostics.count, 1))
    defer { buffer.release() }
    buffer.append("[")
    var first = true
    for diagnostic in diagnostics {
        if !first { buffer.append(",") }
        first = false
        diagnostic.write(into: &buffer)
    }
    buffer.append("]")
    writer.append(bytes: buffer.bytes)
}
