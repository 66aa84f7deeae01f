import Foundation
import LiveStateTestSupport
import Testing
@testable import LiveState
import LiveStateTooling

/// One payload fixture per diagnostic code of the decoder and the validator, checked against
/// `scoreSchema`. A file is named `<code>.json`, or `<code>.<how>.json` where `how` is `v1`
/// (lint for app version 1), `broadcast`, `all` (every version), `decode` (the decoder alone) or
/// `retired` (lint for app version 1, retired).
@Suite struct DiagnosticFixtureTests {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("payloads")

    static let fixtures: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    static func code(of fixture: String) -> String {
        String(fixture.prefix { $0 != "." })
    }

    static func diagnostics(for fixture: String) throws -> [Diagnostic] {
        let bytes = try Data(contentsOf: folder.appendingPathComponent(fixture))
        let parts = fixture.split(separator: ".")
        let how = parts.count == 3 ? String(parts[1]) : ""
        switch how {
        case "v1":
            return try PayloadValidator(schema: scoreSchema, version: 1).validate(bytes, file: fixture).diagnostics
        case "broadcast":
            return try PayloadValidator(schema: scoreSchema, options: .init(broadcast: true)).validate(bytes, file: fixture).diagnostics
        case "all":
            return PayloadValidator.validateAllVersions(scoreSchema, bytes, file: fixture).diagnostics
        case "decode":
            return try ContentStateDecoder(schema: scoreSchema).decode(payload: bytes, file: fixture).allDiagnostics
        case "retired":
            var schema = scoreSchema
            schema.versions[0].retired = Retirement(date: "2026-11-01", reason: "0.1% of devices")
            return try PayloadValidator(schema: schema, version: 1).validate(bytes, file: fixture).diagnostics
        default:
            return try PayloadValidator(schema: scoreSchema).validate(bytes, file: fixture).diagnostics
        }
    }

    @Test(arguments: fixtures)
    func fixtureProducesItsCode(fixture: String) throws {
        let code = Self.code(of: fixture)
        let found = try Self.diagnostics(for: fixture)
        let match = try #require(found.first { $0.code == code }, "\(fixture): \(found.map(\.code))")
        #expect(match.file == fixture)
        #expect(match.position != nil, "\(fixture): \(match)")
        let decodeCode = DecodeCode(rawValue: code)
        let expected = DecodeCode.allCases.contains(decodeCode) ? decodeCode.severity : ValidationCode(rawValue: code).severity
        #expect(match.severity == expected)
    }

    /// Every fixture's findings as `lint` prints them (file:line:column, severity, message,
    /// pointer, code), pinned in `Fixtures/payloads.rendered.txt`: a changed word or position
    /// fails here, not only a changed code.
    @Test func everyFixturesFindingsAreWordedAndPlacedAsCommitted() throws {
        var text = ""
        for fixture in Self.fixtures {
            text += "== \(fixture)\n"
            for diagnostic in try Self.diagnostics(for: fixture) { text += diagnostic.description + "\n" }
        }
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/payloads.rendered.txt")
        try Golden.check(text, at: golden, update: "LIVESTATE_UPDATE_GOLDEN", rerun: "swift test --filter DiagnosticFixtureTests")
    }

    /// Codes are open structs, not enums: a code a later version adds is kept as it came and
    /// breaks no user's switch (which needs a `default`), and the named ones compare as before.
    @Test func aCodeThisVersionDoesNotNameIsKeptAsItCame() {
        let later = DecodeCode(rawValue: "a-later-code")
        #expect(later.rawValue == "a-later-code")
        #expect(!DecodeCode.allCases.contains(later))
        #expect(later.severity == .error)
        #expect(DecodeCode(rawValue: "unknown-key") == .unknownKey)
        #expect(ValidationCode(rawValue: "missing-aps").severity == .error)
        #expect(ValidationCode(rawValue: "start-only-key").severity == .warning)
        #expect("\(SchemaDiagnosticCode.unknownKey)" == SchemaDiagnosticCode.unknownKey.rawValue)
        #expect(SchemaDiagnosticCode(rawValue: "a-later-code").explanation.contains("does not name"))
        for codes in [DecodeCode.allCases.map(\.rawValue), ValidationCode.allCases.map(\.rawValue), SchemaDiagnosticCode.allCases.map(\.rawValue),
                      FleetCode.allCases.map(\.rawValue), EncodeCode.allCases.map(\.rawValue)] {
            #expect(Set(codes).count == codes.count, "each named code once")
        }
    }

    @Test func everyCodeHasAFixture() {
        let covered = Set(Self.fixtures.map(Self.code(of:)))
        let codes = DecodeCode.allCases.map(\.rawValue) + ValidationCode.allCases.map(\.rawValue)
        for code in codes {
            #expect(covered.contains(code), "no fixture for \(code)")
        }
    }
}
