@_spi(Scanner) import LiveState

extension CompatibilityReport {
    /// The report in a format.
    /// - Parameter format: The format.
    /// - Returns: The text, ending with a newline unless it is empty.
    public func rendered(as format: CompatibilityReportFormat) -> String {
        switch format {
        case .text: textRendering()
        case .json: jsonRendering()
        case .yaml: yamlRendering()
        case .markdown: markdownRendering()
        case .github: githubRendering()
        }
    }

    /// One line: `delivery: forward-transitive, 3 pairs: 2 errors, 1 warning, 4 infos`, with the
    /// activity `Diagnostic.printable`, as the finding lines are.
    public var summary: String {
        Diagnostic.printable("\(activity): \(mode.rawValue), \(summaryCounts)" + (fleet.map { "; " + $0.sentence(losing: "updates") } ?? ""))
    }

    /// `3 pairs: 2 errors, 1 warning, 4 infos`.
    private var summaryCounts: String {
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        return "\(counted(pairs.count, "pair")): "
            + "\(counted(count(.error), "error")), \(counted(count(.warning), "warning")), \(counted(count(.info), "info"))"
    }

    // MARK: text

    /// One line per finding, as a listing shows them: 100 of a rule in one file, and a count of
    /// the rest (1,000 versions under `full-transitive` made 499,500 lines).
    private func textRendering() -> String {
        findings.map(\.diagnostic).listed.map { $0.description + "\n" }.joined()
    }

    // MARK: json

    /// The report as the JSON value the `json` format prints.
    /// `fleet` is there only for a report weighed by a fleet.
    public var jsonValue: Value {
        var members: [Value.Member] = [
            .init("activity", .string(activity)),
            .init("file", file.map(Value.string) ?? .null),
            .init("mode", .string(mode.rawValue)),
            .init("passes", .bool(passes(failOn: .error))),
            .init("pairs", .array(pairs.map(Self.jsonValue))),
            .init("findings", .array(findings.map(Self.jsonValue))),
            .init("diagnostics", .array(diagnostics.map(\.jsonValue))),
        ]
        if let fleet { members.append(.init("fleet", fleet.jsonValue)) }
        return .object(members)
    }

    private static func jsonValue(_ pair: CompatibilityPair) -> Value {
        .object([
            .init("readerVersion", .int(pair.readerVersion)),
            .init("writerVersion", .int(pair.writerVersion)),
            .init("direction", .string(pair.direction.rawValue)),
        ])
    }

    private static func jsonValue(_ finding: CompatibilityFinding) -> Value {
        .object([
            .init("rule", .string(finding.rule)),
            .init("severity", .string(finding.severity.rawValue)),
            .init("direction", .string(finding.direction.rawValue)),
            .init("readerVersion", .int(finding.readerVersion)),
            .init("writerVersion", .int(finding.writerVersion)),
            .init("message", .string(finding.message)),
            .init("file", finding.file.map(Value.string) ?? .null),
            .init("line", finding.position.map { .int($0.line) } ?? .null),
            .init("column", finding.position.map { .int($0.column) } ?? .null),
            .init("scope", .string(finding.scope.rawValue)),
            .init("pointer", .string(finding.pointer)),
        ])
    }

    private func jsonRendering() -> String {
        JSONWriter.pretty(jsonValue) + "\n"
    }

    // MARK: yaml

    /// The findings of each pair, grouped once: asking `findings(for:)` of every pair scanned
    /// every finding per pair (1,000 versions under `full-transitive` never ended).
    private var findingsByPair: [PairKey: [CompatibilityFinding]] {
        Dictionary(grouping: findings) { PairKey(reader: $0.readerVersion, writer: $0.writerVersion) }
    }

    private struct PairKey: Hashable {
        var reader: Int
        var writer: Int
    }

    private func yamlRendering() -> String {
        let byPair = findingsByPair
        var lines: [String] = [
            "# Compatibility of \(Self.yamlCommentName(activity))\(file.map { " (\(Self.yamlCommentName($0)))" } ?? "") under \(mode.rawValue), written by `livestate diff --format yaml`.",
            "# Regenerate it rather than editing it.",
            "activity: \(yamlScalar(activity))",
        ]
        if let file { lines.append("schema: \(yamlScalar(file))") }
        lines.append("mode: \(mode.rawValue)")
        lines.append("passes: \(passes(failOn: .error))")
        lines.append("summary: { errors: \(count(.error)), warnings: \(count(.warning)), infos: \(count(.info)) }")
        if let fleet {
            lines.append("fleet: { devices: \(fleet.total), dropping: \(fleet.dropping), degraded: \(fleet.degraded), "
                + "max-drop: \"\(fleet.maxDrop)\", accepted: \(fleet.accepted) }")
        }
        lines.append(versions.isEmpty ? "versions: []" : "versions:")
        let pairsByReader = Dictionary(grouping: pairs, by: \.readerVersion)
        for version in versions {
            lines.append("  - version: \(version)")
            if strictClients.contains(version) { lines.append("    strict: true") }
            let read = pairsByReader[version] ?? []
            // The findings about the version's own payloads (`unbounded-size`), which no other
            // version's app is needed for: listed as what the version reads from itself.
            let own = byPair[PairKey(reader: version, writer: version)] ?? []
            if read.isEmpty && own.isEmpty {
                lines.append("    reads: []")
                continue
            }
            lines.append("    reads:")
            for pair in read {
                lines.append("      - writer: \(pair.writerVersion)")
                lines.append("        direction: \(pair.direction.rawValue)")
                Self.appendYAML(byPair[PairKey(reader: pair.readerVersion, writer: pair.writerVersion)] ?? [], to: &lines)
            }
            if !own.isEmpty {
                lines.append("      - writer: \(version)")
                Self.appendYAML(own, to: &lines)
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// `findings:` of a `reads` entry, each with its rule, severity, place and message.
    private static func appendYAML(_ found: [CompatibilityFinding], to lines: inout [String]) {
        if found.isEmpty {
            lines.append("        findings: []")
            return
        }
        lines.append("        findings:")
        for finding in found {
            lines.append("          - rule: \(finding.rule)")
            lines.append("            severity: \(finding.severity.rawValue)")
            lines.append("            scope: \(finding.scope.rawValue)")
            lines.append("            pointer: \(yamlScalar(finding.pointer))")
            if let position = finding.position {
                lines.append("            line: \(position.line)")
                lines.append("            column: \(position.column)")
            }
            lines.append("            message: \(yamlScalar(finding.message))")
        }
    }

    /// A name in a YAML comment: as it is, or, when `yamlScalar` has to escape something in it,
    /// as that quoted scalar. A comment runs to the end of its line, so a line break in a schema
    /// path ended it and the rest of the path was read as YAML, and a control character is not
    /// allowed in a YAML stream even in a comment.
    private static func yamlCommentName(_ name: String) -> String {
        let scalar = yamlScalar(name)
        return scalar.utf8.count == name.utf8.count + 2 ? name : scalar
    }

    // MARK: markdown

    private func markdownRendering() -> String {
        var lines: [String] = ["## \(Self.codeSpan(activity)): \(mode.rawValue)", ""]
        if let file { lines += ["Schema: \(Self.codeSpan(file)).", ""] }
        lines.append("\(passes(failOn: .error) ? "Passes" : "Fails") the gate. \(summaryCounts).")
        if let fleet { lines += ["", "Fleet: \(fleet.sentence(losing: "updates"))."] }
        if pairs.isEmpty {
            lines += ["", "The mode checks no pairs."]
        }
        let byPair = findingsByPair
        // As a listing shows findings: the first 100 of a rule, the rest counted at the end (a
        // pull request comment holds 65,536 characters; 300 versions made 47 MB).
        // A pair whose findings are all past that gets no section, nor does a pair of no
        // findings past the first 100 such.
        var listedOfRule: [String: Int] = [:]
        func listed(_ all: [CompatibilityFinding]) -> [CompatibilityFinding] {
            all.filter { finding in
                listedOfRule[finding.rule, default: 0] += 1
                return listedOfRule[finding.rule, default: 0] <= Diagnostic.listedPerCode
            }
        }
        var quietPairs = 0
        var unlistedPairs = 0
        for pair in pairs {
            let all = byPair[PairKey(reader: pair.readerVersion, writer: pair.writerVersion)] ?? []
            let found = listed(all)
            if all.isEmpty { quietPairs += 1 }
            guard !found.isEmpty || (all.isEmpty && quietPairs <= Diagnostic.listedPerCode) else {
                unlistedPairs += 1
                continue
            }
            let strict = strictClients.contains(pair.readerVersion) ? ", strict client" : ""
            lines += ["", "### App v\(pair.readerVersion) reads v\(pair.writerVersion) payloads (\(pair.direction.rawValue)\(strict))", ""]
            if all.isEmpty {
                lines.append("No findings.")
                continue
            }
            lines += Self.markdownTable(found)
        }
        // The findings about one version's own payloads (`unbounded-size`), of no pair: a
        // section per version that has them, after the pairs'.
        for version in versions {
            let found = listed(byPair[PairKey(reader: version, writer: version)] ?? [])
            guard !found.isEmpty else { continue }
            lines += ["", "### v\(version) payloads", ""]
            lines += Self.markdownTable(found)
        }
        let unlisted = listedOfRule.filter { $0.value > Diagnostic.listedPerCode }.sorted { $0.key < $1.key }
        if !unlisted.isEmpty || unlistedPairs > 0 {
            lines += ["", "### Not listed", ""]
            if unlistedPairs > 0 { lines.append("- \(ValueText.grouped(unlistedPairs)) more pairs have no section.") }
            for (rule, count) in unlisted {
                lines.append("- \(ValueText.grouped(count - Diagnostic.listedPerCode)) more `\(rule)` findings; the first \(Diagnostic.listedPerCode) are listed.")
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// A table of findings, one row each: severity, rule, field, where in the schema file, and
    /// the message without the `app v1 reading v2 payloads: ` lead the heading already says.
    private static func markdownTable(_ found: [CompatibilityFinding]) -> [String] {
        var lines = ["| severity | rule | field | location | message |", "|---|---|---|---|---|"]
        for finding in found {
            let field = "\(finding.scope.rawValue) \(codeSpan(finding.pointer.isEmpty ? "/" : finding.pointer))"
            lines.append("| \(finding.severity.rawValue) | `\(finding.rule)` | \(cell(field)) | \(cell(text(location(finding.file, finding.position)))) | \(cell(text(stripPrefix(finding)))) |")
        }
        return lines
    }

    /// `file:line:column`, or as much of it as is known.
    private static func location(_ file: String?, _ position: SourcePosition?) -> String {
        var location = file ?? ""
        if let position { location += (location.isEmpty ? "" : ":") + position.description }
        return location
    }

    /// The message without the `app v1 reading v2 payloads: ` lead the table's heading already says.
    private static func stripPrefix(_ finding: CompatibilityFinding) -> String {
        guard let range = finding.message.range(of: ": ") else { return finding.message }
        return String(finding.message[range.upperBound...])
    }

    /// `text` in a table cell: `|` escaped, which would end the cell, in a code span too (GFM).
    static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|")
    }

    /// `text` as a code span whatever it holds: `Diagnostic.printable`, as a code span cannot
    /// hold a line break (a CR ended a table row) and renders NUL as U+FFFD; fenced by one
    /// backtick more than its longest run of them, and padded when it starts or ends with one
    /// (CommonMark), so that a key with a backtick does not close the span and let the rest
    /// render as Markdown or HTML.
    private static func codeSpan(_ text: String) -> String {
        let text = Diagnostic.printable(text)
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = text.hasPrefix("`") || text.hasSuffix("`") ? " " : ""
        return fence + pad + text + pad + fence
    }

    /// Text from the input outside a code span, so that it renders as itself (CommonMark 0.31,
    /// GFM): `Diagnostic.printable`, as a code span is, then a backslash escape before each
    /// character that could start Markdown: `` ` ``, `*`, `~` (GFM strikethrough), `$` (GitHub's
    /// math), a `_` that is not inside a word, the `(` of `](` (which makes a link or an image
    /// of what the brackets hold), and a backslash that stands before punctuation (which it
    /// would escape); `&`, `<` and `>` as entities, so that a key such as `<b>` is not HTML.
    /// Other characters, and so the text of ordinary names and messages, are left as they are.
    private static func text(_ text: String) -> String {
        // Code points, as CommonMark reads them: a `*` with a combining mark is one `Character`.
        let scalars = Array(Diagnostic.printable(text).unicodeScalars)
        var result = ""
        result.unicodeScalars.reserveCapacity(scalars.count)
        for (index, scalar) in scalars.enumerated() {
            let before = index > 0 ? scalars[index - 1] : nil
            let after = index + 1 < scalars.count ? scalars[index + 1] : nil
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "`", "*", "~", "$": result += "\\" + String(scalar)
            case "_" where !(isWordCharacter(before) && isWordCharacter(after)): result += "\\_"
            case "(" where before == "]": result += "\\("
            case "\\" where after.map(isASCIIPunctuation) == true: result += "\\\\"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `scalar` is a letter or a digit: a `_` between two does not start emphasis.
    private static func isWordCharacter(_ scalar: Unicode.Scalar?) -> Bool {
        scalar.map { $0.properties.isAlphabetic || $0.properties.numericType != nil } ?? false
    }

    /// Whether a CommonMark backslash escapes `scalar`: ASCII punctuation.
    private static func isASCIIPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        ##"!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"##.unicodeScalars.contains(scalar)
    }

    // MARK: github

    /// One workflow command per finding, listed as the text is.
    private func githubRendering() -> String {
        Self.githubCommands(findings.map(\.diagnostic))
    }

    /// One workflow command per diagnostic, listed as the text is: `::error`, `::warning` or
    /// `::notice`, with the file, line, column and code.
    private static func githubCommands(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.listed.map { finding in
            let command = switch finding.severity {
            case .error: "error"
            case .warning: "warning"
            case .info: "notice"
            }
            var properties: [String] = []
            if let file = finding.file { properties.append("file=\(githubProperty(file))") }
            if let position = finding.position {
                properties.append("line=\(position.line)")
                properties.append("col=\(position.column)")
            }
            let rule = finding.code.rawValue
            properties.append("title=\(githubProperty(rule))")
            let message = finding.shownMessage + finding.placeText + " [\(rule)]"
            return "::\(command) \(properties.joined(separator: ","))::\(githubData(message))\n"
        }.joined()
    }

    /// `text` as a workflow command's message, escaped as `@actions/core` escapes it (`%`, CR
    /// and LF as `%25`, `%0D`, `%0A`), and every other control character
    /// `Diagnostic.printable`, as text output writes it: the Actions log renders an escape
    /// sequence, which colored or hid the log's text.
    private static func githubData(_ text: String) -> String {
        Diagnostic.printable(text, keeping: ["\r", "\n"])
            .replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// `githubData`, and `:` and `,` as `%3A` and `%2C`: a property's value.
    private static func githubProperty(_ text: String) -> String {
        githubData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    // MARK: a stop

    /// What `livestate diff` writes in `format` when it stops before it checks any pair (a
    /// schema that does not load, a version the schema does not have, a fleet file that does not
    /// load): the findings that stopped it, in the shape the format gives findings, so that a
    /// job reading the format sees why. `github`: a workflow command each (an `::error` on the
    /// schema file); `yaml`: a `diagnostics` list whose entries have the members of the `json`
    /// diagnostics; `markdown`: a table; `json`: `{"diagnostics": [...]}`; `text`: a
    /// compiler-style line each.
    /// - Parameters:
    ///   - diagnostics: The findings that stopped the check.
    ///   - format: The format.
    /// - Returns: The text, ending with a newline.
    public static func rendered(stoppedBy diagnostics: [Diagnostic], as format: CompatibilityReportFormat) -> String {
        let listed = diagnostics.listed
        switch format {
        case .text:
            return listed.map { $0.description + "\n" }.joined()
        case .json:
            return JSONWriter.pretty(.object([.init("diagnostics", .array(listed.map(\.jsonValue)))])) + "\n"
        case .github:
            return githubCommands(diagnostics)
        case .yaml:
            var lines = ["# What stopped `livestate diff --format yaml` before it checked any pair.", listed.isEmpty ? "diagnostics: []" : "diagnostics:"]
            for diagnostic in listed {
                lines.append("  - code: \(diagnostic.code.rawValue)")
                lines.append("    severity: \(diagnostic.severity.rawValue)")
                lines.append("    message: \(yamlScalar(diagnostic.shownMessage))")
                lines.append("    file: \(diagnostic.file.map(yamlScalar) ?? "null")")
                lines.append("    line: \(diagnostic.position.map { String($0.line) } ?? "null")")
                lines.append("    column: \(diagnostic.position.map { String($0.column) } ?? "null")")
                lines.append("    scope: \(diagnostic.scope?.rawValue ?? "null")")
                lines.append("    pointer: \(diagnostic.pointer.map(yamlScalar) ?? "null")")
            }
            return lines.map { $0 + "\n" }.joined()
        case .markdown:
            var lines = ["## Not checked", "", "`livestate diff` stopped before it checked any pair.", "",
                         "| severity | code | location | message |", "|---|---|---|---|"]
            for diagnostic in listed {
                let message = diagnostic.shownMessage + diagnostic.placeText
                lines.append("| \(diagnostic.severity.rawValue) | \(cell(codeSpan(diagnostic.code.rawValue))) | \(cell(text(location(diagnostic.file, diagnostic.position)))) | \(cell(text(message))) |")
            }
            return lines.map { $0 + "\n" }.joined()
        }
    }
}

/// A double-quoted YAML scalar, as the report and catalog renderings and the import's schema
/// writer write one. Characters a YAML reader refuses raw (C0 and C1 controls, DEL, the
/// byte-order mark, U+FFFE and U+FFFF) or that YAML 1.1 counts as line breaks (U+2028, U+2029)
/// are escaped, as are the quote and the backslash.
package func yamlScalar(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        default:
            switch scalar.value {
            case 0..<0x20, 0x7F...0x9F:
                out += "\\x" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
            case 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF:
                out += "\\u" + String(scalar.value, radix: 16, uppercase: true)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
