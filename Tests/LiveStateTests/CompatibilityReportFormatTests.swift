import Foundation
import Testing
@testable import LiveState
import LiveStateTestSupport
import LiveStateTooling

/// `Fixtures/compat/golden.yaml` built in Swift, with the positions the YAML loader gives its keys.
let goldenCompatibilitySchema: Schema = {
    func at(_ line: Int, _ column: Int = 7) -> SourcePosition { SourcePosition(offset: 0, line: line, column: column) }
    func field(_ field: Field, _ position: SourcePosition) -> Field {
        var field = field
        field.position = position
        return field
    }
    let orderId = F.string("orderId", maxLength: 40)
    let store = F.string("store", default: "", maxLength: 32)
    let courier = Field(name: "courier", type: .object(fields: []), defaultValue: .object([.init("name", .string(""))]))
    func courierV2(_ base: Int) -> Field {
        var courier = courier
        courier.type = .object(fields: [field(F.string("name", default: "", maxLength: 24), at(base + 4, 11))])
        return field(courier, at(base))
    }
    func tags(_ maxItems: Int) -> Field {
        Field(name: "tags", type: .array(items: F.string("", maxLength: 8)), defaultValue: .array([]), constraints: .init(maxItems: maxItems))
    }
    let v1 = SchemaVersion(version: 1, contentState: [
        field(F.string("title", maxLength: 32), at(11)),
        field(F.string("subTitle", maxLength: 64), at(12)),
        field(F.status(["pending", "done"], fallback: "pending"), at(13)),
        field(F.string("note", optional: true, maxLength: 100), at(14)),
        field(Field(name: "courier", type: .object(fields: [field(F.string("name", maxLength: 16), at(18, 11))])), at(15)),
    ], attributes: [field(orderId, at(20))])
    let v2 = SchemaVersion(version: 2, contentState: [
        field(F.string("title", maxLength: 32), at(24)),
        field(F.string("subtitle", default: "", maxLength: 64, aliases: ["subTitle"]), at(25)),
        field(F.status(["pending", "done", "late"], default: "pending", fallback: "pending"), at(26)),
        field(F.string("note", default: "", maxLength: 100), at(27)),
        courierV2(28),
        field(Field(name: "eta", type: .date, defaultValue: .date(0)), at(33)),
        field(tags(4), at(34)),
    ], attributes: [field(orderId, at(36)), field(store, at(37))])
    let v3 = SchemaVersion(version: 3, contentState: [
        field(F.string("title", maxLength: 32), at(42)),
        field(F.string("subtitle", default: "", maxLength: 64, aliases: ["subTitle"]), at(43)),
        field(F.status(["pending", "done", "late"], default: "pending", fallback: "pending"), at(44)),
        field(F.string("note", default: "", maxLength: 100), at(45)),
        courierV2(46),
        field(tags(8), at(51)),
    ], attributes: [field(orderId, at(53)), field(store, at(54))], removed: ["eta"])
    return Schema(
        activity: "golden", attributesType: "GoldenAttributes", compatibility: .fullTransitive,
        strictClients: [1], versions: [v1, v2, v3], file: "golden.yaml")
}()

/// Compares `text` with a golden file under `Fixtures/compat/golden/` (`Golden.check`;
/// `LIVESTATE_UPDATE_GOLDEN=1` rewrites it).
func expectGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/compat/golden").appendingPathComponent(name)
    try Golden.check(text, at: url, update: "LIVESTATE_UPDATE_GOLDEN", rerun: "swift test --filter CompatibilityReportFormatTests",
                     sourceLocation: sourceLocation)
}

@Suite struct CompatibilityReportFormatTests {
    private let report = CompatibilityChecker().check(goldenCompatibilitySchema)

    @Test func goldenSchemaFailsItsFullTransitiveGateOnTheStrictVersion() {
        #expect(report.mode == .fullTransitive)
        #expect(report.pairs.count == 6)
        #expect(!report.passes(failOn: .error))
        #expect(report.findings.filter { $0.severity == .error }.allSatisfy { $0.readerVersion == 1 })
    }

    @Test func textIsOneCompilerStyleLinePerFinding() throws {
        let text = report.rendered(as: .text)
        #expect(text.split(separator: "\n").count == report.findings.count)
        #expect(text.split(separator: "\n").allSatisfy { $0.hasPrefix("golden.yaml:") && $0.hasSuffix("]") })
        try expectGolden(text, "report.txt")
    }

    @Test func jsonHasDiagnosticsAndFindingsWithVersions() throws {
        let text = report.rendered(as: .json)
        #expect(text.contains(#""diagnostics": ["#) && text.contains(#""findings": ["#) && text.contains(#""readerVersion": 1"#))
        try expectGolden(text, "report.json")
    }

    @Test func yamlListsEachVersionWithWhatItReads() throws {
        try expectGolden(report.rendered(as: .yaml), "report.yaml")
    }

    @Test func markdownHasATablePerPair() throws {
        let text = report.rendered(as: .markdown)
        #expect(text.components(separatedBy: "\n### ").count - 1 == report.pairs.count)
        try expectGolden(text, "report.md")
    }

    @Test func githubIsOneWorkflowCommandPerFinding() throws {
        let text = report.rendered(as: .github)
        let lines = text.split(separator: "\n")
        #expect(lines.count == report.findings.count)
        #expect(lines.allSatisfy { $0.hasPrefix("::error file=golden.yaml,line=") || $0.hasPrefix("::warning ") || $0.hasPrefix("::notice ") })
        try expectGolden(text, "report.github.txt")
    }

    @Test func githubEscapesPercentAndNewlinesInMessagesAndPropertySeparatorsInFiles() {
        let finding = CompatibilityFinding(
            rule: "type-changed", severity: .warning, direction: .oldAppReadsNew, readerVersion: 1, writerVersion: 2,
            message: "50% off\nnow", file: "a,b:c.yaml", position: SourcePosition(offset: 0, line: 3, column: 4), pointer: "/x")
        let report = CompatibilityReport(activity: "x", mode: .forward, pairs: [finding.pair], findings: [finding])
        #expect(report.rendered(as: .github) == "::warning file=a%2Cb%3Ac.yaml,line=3,col=4,title=type-changed::50%25 off%0Anow (at /x) [type-changed]\n")
    }

    /// A key with a backtick closed the field's code span, and `<b>` in a message was HTML.
    @Test func markdownKeepsKeysAndMessagesAsText() {
        let finding = CompatibilityFinding(
            rule: "type-changed", severity: .warning, direction: .oldAppReadsNew, readerVersion: 1, writerVersion: 2,
            message: "app v1 reading v2 payloads: 'a`<b>' & more", file: "x.yaml", position: nil, pointer: "/a`<b>")
        let report = CompatibilityReport(activity: "x", mode: .forward, pairs: [finding.pair], findings: [finding])
        let row = report.rendered(as: .markdown).split(separator: "\n").first { $0.hasPrefix("| warning") }
        #expect(row == "| warning | `type-changed` | content-state ``/a`<b>`` | x.yaml | 'a\\`&lt;b&gt;' &amp; more |")
    }

    /// A finding of one version's own payloads (`unbounded-size`), of no pair, was left out of
    /// the yaml and the markdown, which the json, the text and the workflow commands carry and
    /// the markdown's own summary counted.
    @Test func yamlAndMarkdownListTheFindingsOfAVersionsOwnPayloads() {
        let schema = compatSchema([F.string("title", maxLength: nil)], [F.string("title", maxLength: nil), F.string("note", default: "", maxLength: nil)])
        let report = CompatibilityChecker().check(schema, mode: .forwardTransitive)
        #expect(report.findings.map(\.rule) == ["field-added-ignored", "unbounded-size", "unbounded-size", "unbounded-size"])
        let yaml = report.rendered(as: .yaml)
        #expect(yaml.components(separatedBy: "          - rule: ").count - 1 == report.findings.count, "\(yaml)")
        #expect(yaml.hasSuffix("""
              - version: 2
                reads:
                  - writer: 2
                    findings:
                      - rule: unbounded-size
                        severity: warning
                        scope: content-state
                        pointer: "/title"
                        message: "v2 payloads: 'title' has no max-length, so the worst-case size of v2's content-state is unbounded"
                      - rule: unbounded-size
                        severity: warning
                        scope: content-state
                        pointer: "/note"
                        message: "v2 payloads: 'note' has no max-length, so the worst-case size of v2's content-state is unbounded"

            """), "\(yaml)")
        #expect(yaml.contains("  - version: 1\n    reads:\n      - writer: 2\n        direction: old-app-reads-new\n"), "\(yaml)")
        let markdown = report.rendered(as: .markdown)
        #expect(markdown.components(separatedBy: "\n| warning | `unbounded-size` |").count - 1 == 3, "\(markdown)")
        #expect(markdown.contains("""
            ### v1 payloads

            | severity | rule | field | location | message |
            |---|---|---|---|---|
            | warning | `unbounded-size` | content-state `/title` |  | 'title' has no max-length, so the worst-case size of v1's content-state is unbounded |
            """), "\(markdown)")
    }

    /// The yaml's header comment named the schema path raw: a line break in it ended the
    /// comment and the rest was read as YAML, and a control character may not stand in a YAML
    /// stream at all. A name that needs escaping is written as the `schema:` value is.
    @Test func yamlCommentWritesANameThatNeedsEscapingAsItsScalar() {
        let report = CompatibilityReport(activity: "a\u{2028}b", file: "nl\nx/cr\rx/esc\u{1B}[2J.yaml", mode: .forward, pairs: [], findings: [])
        let lines = report.rendered(as: .yaml).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == #"# Compatibility of "a\u2028b" ("nl\nx/cr\x0Dx/esc\x1B[2J.yaml") under forward, written by `livestate diff --format yaml`."#)
        #expect(lines.dropFirst().first == "# Regenerate it rather than editing it.")
        #expect(lines.contains(#"schema: "nl\nx/cr\x0Dx/esc\x1B[2J.yaml""#))
        let plain = CompatibilityReport(activity: "pizza", file: "schemas/pizza v2.yaml", mode: .forward, pairs: [], findings: [])
        #expect(plain.rendered(as: .yaml).hasPrefix("# Compatibility of pizza (schemas/pizza v2.yaml) under forward, written by"))
    }

    /// The message and location cells were Markdown: a name made a link, emphasis or a code
    /// span, `\|` lost its backslash, a CR ended the row, an LF became a space and NUL was
    /// written raw. Each now renders as the text the json holds, control characters written
    /// as the text output writes them.
    @Test func markdownCellsRenderAsTheirText() {
        let name = "[x](https://e.example) *e* `t` \\|p _u_ a_b ~s~ $m$ cr\rx nul\u{0}x lf\nx"
        let finding = CompatibilityFinding(
            rule: "field-added-ignored", severity: .info, direction: .oldAppReadsNew, readerVersion: 1, writerVersion: 2,
            message: "app v1 reading v2 payloads: '\(name)' was added in v2; app v1 ignores it", file: "[l](https:e.example)/p.yaml",
            position: SourcePosition(offset: 0, line: 3, column: 7), pointer: "/" + name)
        let report = CompatibilityReport(activity: "x", file: "[l](https:e.example)/p.yaml", mode: .forward, pairs: [finding.pair], findings: [finding])
        let markdown = report.rendered(as: .markdown)
        let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("| info") }
        #expect(rows.map(String.init) == [
            #"| info | `field-added-ignored` | content-state ``/[x](https://e.example) *e* `t` \\|p _u_ a_b ~s~ $m$ cr\u{D}x nul\u{0}x lf\u{A}x`` "#
                + #"| [l]\(https:e.example)/p.yaml:3:7 "#
                + #"| '[x]\(https://e.example) \*e\* \`t\` \\\|p \_u\_ a_b \~s\~ \$m\$ cr\u{D}x nul\u{0}x lf\u{A}x' was added in v2; app v1 ignores it |"#,
        ])
        #expect(markdown.contains("Schema: `[l](https:e.example)/p.yaml`."))
        #expect(!markdown.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    /// The workflow commands passed ESC and the other control characters but CR and LF raw;
    /// the Actions log renders escape sequences. They are written as the text writes them.
    @Test func githubWritesControlCharactersAsTheTextDoes() {
        let finding = CompatibilityFinding(
            rule: "type-changed", severity: .warning, direction: .oldAppReadsNew, readerVersion: 1, writerVersion: 2,
            message: "'k\u{1B}[2J\u{7}' changed\r\n", file: "esc\u{1B}[31mred/p.yaml", position: SourcePosition(offset: 0, line: 3, column: 4), pointer: "/x")
        let report = CompatibilityReport(activity: "x", mode: .forward, pairs: [finding.pair], findings: [finding])
        #expect(report.rendered(as: .github)
            == #"::warning file=esc\u{1B}[31mred/p.yaml,line=3,col=4,title=type-changed::'k\u{1B}[2J\u{7}' changed%0D%0A (at /x) [type-changed]"# + "\n")
    }

    /// What stopped a diff before it checked anything is written in the format asked for: a
    /// `github` run printed no annotation for a schema that does not load.
    @Test func aStopIsWrittenInTheFormatAskedFor() {
        let error = Diagnostic(
            code: "schema-unknown-type", severity: .error, message: "unknown type 'strng'", file: "f11.yaml",
            position: SourcePosition(offset: 0, line: 6, column: 22), scope: .schema, pointer: "/versions/0/content-state/x/type")
        let bare = Diagnostic(code: "io-error", severity: .error, message: "no such file")
        #expect(CompatibilityReport.rendered(stoppedBy: [error, bare], as: .github) == """
            ::error file=f11.yaml,line=6,col=22,title=schema-unknown-type::unknown type 'strng' (at /versions/0/content-state/x/type) [schema-unknown-type]
            ::error title=io-error::no such file [io-error]

            """)
        #expect(CompatibilityReport.rendered(stoppedBy: [error, bare], as: .yaml) == """
            # What stopped `livestate diff --format yaml` before it checked any pair.
            diagnostics:
              - code: schema-unknown-type
                severity: error
                message: "unknown type 'strng'"
                file: "f11.yaml"
                line: 6
                column: 22
                scope: schema
                pointer: "/versions/0/content-state/x/type"
              - code: io-error
                severity: error
                message: "no such file"
                file: null
                line: null
                column: null
                scope: null
                pointer: null

            """)
        #expect(CompatibilityReport.rendered(stoppedBy: [error], as: .markdown).hasSuffix("""
            | severity | code | location | message |
            |---|---|---|---|
            | error | `schema-unknown-type` | f11.yaml:6:22 | unknown type 'strng' (at /versions/0/content-state/x/type) |

            """))
        #expect(CompatibilityReport.rendered(stoppedBy: [error], as: .text) == error.description + "\n")
        #expect(CompatibilityReport.rendered(stoppedBy: [error], as: .json).contains(#""code": "schema-unknown-type""#))
    }

    @Test func emptyReportsRenderTheirShape() {
        let report = CompatibilityChecker().check(goldenCompatibilitySchema, mode: CompatibilityMode.none)
        #expect(report.rendered(as: .text).isEmpty)
        #expect(report.rendered(as: .github).isEmpty)
        #expect(report.rendered(as: .markdown).contains("The mode checks no pairs."))
        #expect(report.rendered(as: .yaml).contains("    reads: []"))
    }

    @Test func catalogRendersForListRules() throws {
        let text = CompatibilityRule.renderedCatalog(as: .text)
        for rule in CompatibilityRule.catalog {
            #expect(text.contains("\(rule.id) [\(rule.defaultSeverity.rawValue)]\n"))
        }
        try expectGolden(text, "rules.txt")
        try expectGolden(CompatibilityRule.renderedCatalog(as: .json), "rules.json")
        try expectGolden(CompatibilityRule.renderedCatalog(as: .markdown), "rules.md")
        try expectGolden(CompatibilityRule.renderedCatalog(as: .yaml), "rules.yaml")
    }
}

/// A report of many pairs and findings renders in bounded text for a pull request comment, and
/// in time (each pair's findings are grouped once).
@Suite struct CompatibilityReportListingTests {
    static let report: CompatibilityReport = {
        var pairs: [CompatibilityPair] = []
        var findings: [CompatibilityFinding] = []
        for reader in 1...60 {
            for writer in 1...60 where writer != reader {
                pairs.append(CompatibilityPair(readerVersion: reader, writerVersion: writer))
                findings.append(CompatibilityFinding(
                    rule: "type-changed", severity: .error, direction: writer > reader ? .oldAppReadsNew : .newAppReadsOld,
                    readerVersion: reader, writerVersion: writer, message: "app v\(reader) reading v\(writer) payloads: 'x' changed", pointer: "/x"))
            }
        }
        return CompatibilityReport(activity: "many", mode: .fullTransitive, versions: Array(1...60), pairs: pairs, findings: findings)
    }()

    @Test func markdownListsTheFirstHundredOfARuleAndCountsTheRest() {
        let markdown = Self.report.rendered(as: .markdown)
        #expect(markdown.components(separatedBy: "| error | `type-changed` |").count - 1 == 100)
        #expect(markdown.contains("- 3,440 more pairs have no section."), "\(markdown.suffix(300))")
        #expect(markdown.contains("- 3,440 more `type-changed` findings; the first 100 are listed."))
        // YAML keeps every finding, under its pair.
        let yaml = Self.report.rendered(as: .yaml)
        #expect(yaml.components(separatedBy: "- rule: type-changed").count - 1 == 3_540)
        #expect(yaml.contains("  - version: 60\n    reads:\n      - writer: 1\n        direction: new-app-reads-old\n        findings:\n          - rule: type-changed"))
    }

    /// A rule over its 100 in pairs that all have a section: no line counts pairs without one.
    @Test func markdownSaysNothingOfPairsWhenEveryPairHasASection() {
        var findings: [CompatibilityFinding] = []
        for field in 0 ..< 150 {
            findings.append(CompatibilityFinding(
                rule: "field-added-ignored", severity: .warning, direction: .oldAppReadsNew, readerVersion: 1, writerVersion: 2,
                message: "app v1 reading v2 payloads: 'f\(field)' is ignored", pointer: "/f\(field)"))
        }
        let report = CompatibilityReport(activity: "many", mode: .forward, versions: [1, 2],
                                         pairs: [CompatibilityPair(readerVersion: 1, writerVersion: 2)], findings: findings)
        let markdown = report.rendered(as: .markdown)
        #expect(markdown.contains("- 50 more `field-added-ignored` findings; the first 100 are listed."))
        #expect(!markdown.contains("more pairs have no section"), "\(markdown.suffix(300))")
    }
}
