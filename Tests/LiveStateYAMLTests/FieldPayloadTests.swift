import Foundation
import Testing
import LiveState
import LiveStateTooling
import LiveStateYAML

/// APNs bodies written the way real senders write them (APNSwift, pushy, node-apn,
/// sideshow/apns2, Apple's documentation examples), with the verdict the validator must give
/// each one: `Fixtures/field/expectations.json`.
enum FieldPayloads {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/field")

    /// A warning or error the validator must make.
    struct Finding: Decodable, Sendable {
        var code: String
        var severity: Severity
        var pointer: String?
        var scope: DiagnosticScope
        var line: Int
        var column: Int
        /// Fragments the finding's message must contain.
        var contains: [String]?

        var key: String { FieldPayloads.key(code, severity, pointer, scope, "\(line):\(column)") }
    }

    /// One fixture and its verdict.
    struct Entry: Decodable, Sendable, CustomTestStringConvertible {
        var file: String
        var schema: String
        /// The app version to validate for; `nil` for the newest.
        var version: Int?
        var allVersions: Bool
        var broadcast: Bool
        /// Whether the app applies the push; with `allVersions`, whether every version does.
        var appDecodes: Bool
        /// Every warning and error. `nil` for `allVersions` entries, whose wording is checked instead.
        var findings: [Finding]?
        /// Whose style the body imitates and why the verdict is right.
        var source: String

        var testDescription: String { file }
    }

    static func load() throws -> [Entry] {
        try JSONDecoder().decode([Entry].self, from: Data(contentsOf: folder.appendingPathComponent("expectations.json")))
    }

    static let entries = (try? load()) ?? []

    /// What a finding is compared by: everything but its message.
    static func key(_ code: String, _ severity: Severity, _ pointer: String?, _ scope: DiagnosticScope?, _ position: String) -> String {
        "\(position) \(severity.rawValue) \(code) scope=\(scope?.rawValue ?? "nil") pointer=\(pointer ?? "nil")"
    }

    static func key(_ diagnostic: Diagnostic) -> String {
        key(diagnostic.code.rawValue, diagnostic.severity, diagnostic.pointer, diagnostic.scope,
            diagnostic.position.map { "\($0.line):\($0.column)" } ?? "nil")
    }
}

@Suite struct FieldPayloadTests {
    @Test func everyFixtureHasOneEntry() throws {
        let entries = try FieldPayloads.load()
        let files = try FileManager.default.contentsOfDirectory(atPath: FieldPayloads.folder.path)
            .filter { $0.hasSuffix(".json") && $0 != "expectations.json" }
        #expect(Set(files) == Set(entries.map(\.file)))
        #expect(entries.count == Set(entries.map(\.file)).count, "a file is listed twice")
        for entry in entries {
            #expect((entry.findings == nil) == entry.allVersions, "\(entry.file): findings are listed unless allVersions")
        }
    }

    @Test(arguments: FieldPayloads.entries)
    func validatorGivesTheVerdict(entry: FieldPayloads.Entry) throws {
        let schema = try Examples.schema(entry.schema)
        let bytes = try Data(contentsOf: FieldPayloads.folder.appendingPathComponent(entry.file))
        let options = PayloadValidator.Options(broadcast: entry.broadcast)

        if entry.allVersions {
            let (results, diagnostics) = PayloadValidator.validateAllVersions(schema, bytes, file: entry.file, options: options)
            #expect(results.allSatisfy { $0.result.appDecodes } == entry.appDecodes, "\(diagnostics)")
            try checkVersionWording(diagnostics, newest: results.last?.result.diagnostics ?? [], appDecodes: entry.appDecodes)
            return
        }

        let result = try PayloadValidator(schema: schema, version: entry.version, options: options).validate(bytes, file: entry.file)
        #expect(result.appDecodes == entry.appDecodes, "\(result.diagnostics)")
        let found = result.diagnostics.filter { $0.severity > .info }
        let expected = try #require(entry.findings)
        #expect(found.map { FieldPayloads.key($0) }.sorted() == expected.map(\.key).sorted())
        for finding in expected {
            let messages = found.filter { FieldPayloads.key($0) == finding.key }.map(\.message)
            for fragment in finding.contains ?? [] {
                #expect(messages.contains { $0.contains(fragment) }, "\(finding.key): no message contains \"\(fragment)\": \(messages)")
            }
        }
    }

    /// Under `--all-versions`, a finding about one app version (anything but the newest version's
    /// own findings, as it reports them alone) starts "app version N: ", and no message says it
    /// twice; a `dropped-by-version` error says "drops" once, and there is one exactly when some
    /// version does not apply the push.
    private func checkVersionWording(_ diagnostics: [Diagnostic], newest: [Diagnostic], appDecodes: Bool) throws {
        let tag = try Regex("app version [0-9]+: ")
        for diagnostic in diagnostics {
            let message = diagnostic.message
            #expect(message.matches(of: tag).count <= 1, "tagged twice: \(message)")
            if !newest.contains(diagnostic) {
                #expect(message.prefixMatch(of: tag) != nil, "not tagged with its app version: \(message)")
            }
            if diagnostic.code == "dropped-by-version" {
                #expect(message.components(separatedBy: "drops").count == 2, "\"drops\" not said once: \(message)")
            }
        }
        #expect(diagnostics.contains { $0.code == "dropped-by-version" } == !appDecodes)
    }
}
