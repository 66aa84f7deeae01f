/// A JSON document that is not strict RFC 8259 JSON, or that exceeds a scan limit.
///
/// `position` points at the byte where the problem was found; its line and column are
/// computed only when the error is made, never while scanning.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of problem: ``DiagnosticCode/jsonSyntax`` when the bytes are not valid JSON,
    /// ``DiagnosticCode/jsonLimit`` when the document exceeds `JSONScanOptions.maxDepth` or
    /// `maxInputBytes`.
    public var code: DiagnosticCode
    /// What was found and what was expected, e.g. `expected ':' after an object key, found '1'`.
    public var message: String
    /// Where the problem was found.
    public var position: SourcePosition

    /// Creates an error.
    /// - Parameters:
    ///   - code: The class of problem: `.jsonSyntax` or `.jsonLimit`.
    ///   - message: What was found and what was expected.
    ///   - position: Where the problem was found.
    public init(code: DiagnosticCode, message: String, position: SourcePosition) {
        self.code = code
        self.message = message
        self.position = position
    }

    /// The compiler-style line: `line:column: error: message [code]`.
    public var description: String {
        "\(position.line):\(position.column): error: \(message) [\(code)]"
    }
}

extension JSONError {
    /// The error as the one finding about a document that is not JSON, where the scanner found
    /// it, with the JSON Pointer of the value it is in (`JSONValidator.firstError`): where the
    /// bytes are wrong, the same for every schema and version: `""`, the whole document, for an
    /// error in the top-level value's own syntax.
    /// - Parameters:
    ///   - bytes: The whole document the error is in.
    ///   - options: The limits it was read with.
    ///   - file: The file name to put in the finding.
    ///   - scope: What the document is: a bare content-state, or a whole body (`.envelope`).
    package func diagnostic(in bytes: UnsafeRawBufferPointer, options: JSONScanOptions, file: String?, scope: DiagnosticScope) -> Diagnostic {
        var pointer: String?
        if let first = JSONValidator.firstError(in: bytes, options: options), first.error.position.offset == position.offset {
            pointer = first.pointer
        }
        return Diagnostic(code: code, severity: .error, message: message, file: file, position: position, scope: scope, pointer: pointer)
    }
}
