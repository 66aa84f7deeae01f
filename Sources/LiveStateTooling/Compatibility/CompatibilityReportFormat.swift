import LiveState

/// The formats `livestate diff` writes a compatibility report in.
public enum CompatibilityReportFormat: String, Sendable, Hashable, CaseIterable {
    /// Compiler style, one finding a line: `file:line:column: severity: message (at pointer) [rule]`.
    case text
    /// One JSON document: `diagnostics` as every command prints them, plus `findings` with the
    /// direction and both versions, and the pairs checked.
    case json
    /// The versions with their compatibility findings, to commit beside the schema.
    case yaml
    /// A table per pair, for pull-request comments and docs.
    case markdown
    /// GitHub Actions workflow commands: `::error file=…,line=…,col=…::message`.
    case github
}
