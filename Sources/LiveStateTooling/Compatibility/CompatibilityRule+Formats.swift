@_spi(Scanner) import LiveState

extension CompatibilityRule {
    /// The catalog as `livestate diff --list-rules` prints it.
    /// - Parameter format: `text` (id, severity, summary, then the reasoning indented),
    ///   `json` (an array of `{id, severity, summary, reasoning}`), `yaml`, or `markdown` (a
    ///   table of the same four); `github` prints text.
    /// - Returns: The text, ending with a newline.
    public static func renderedCatalog(as format: CompatibilityReportFormat) -> String {
        switch format {
        case .text, .github:
            return catalog.map { rule in
                "\(rule.id) [\(rule.defaultSeverity.rawValue)]\n    \(rule.summary)\n    \(rule.reasoning)\n"
            }.joined(separator: "\n")
        case .json:
            return JSONWriter.pretty(.array(catalog.map(\.jsonValue))) + "\n"
        case .yaml:
            return catalog.map { rule in
                "- id: \(rule.id)\n  severity: \(rule.defaultSeverity.rawValue)\n"
                    + "  summary: \(yamlScalar(rule.summary))\n  reasoning: \(yamlScalar(rule.reasoning))\n"
            }.joined()
        case .markdown:
            let rows = catalog.map { rule in
                "| `\(rule.id)` | \(rule.defaultSeverity.rawValue) | \(CompatibilityReport.cell(rule.summary)) | \(CompatibilityReport.cell(rule.reasoning)) |\n"
            }
            return "| rule | default severity | summary | reasoning |\n|---|---|---|---|\n" + rows.joined()
        }
    }

    /// The rule as `{id, severity, summary, reasoning}`.
    public var jsonValue: Value {
        .object([
            .init("id", .string(id)),
            .init("severity", .string(defaultSeverity.rawValue)),
            .init("summary", .string(summary)),
            .init("reasoning", .string(reasoning)),
        ])
    }
}
