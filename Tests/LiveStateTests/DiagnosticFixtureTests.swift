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
        let match = try #require(found.first { $0.code.rawValue == code }, "\(fixture): \(found.map(\.code))")
        #expect(match.file == fixture)
        #expect(match.position != nil, "\(fixture): \(match)")
        let named = DiagnosticCode(rawValue: code)
        let expected = DiagnosticCode.decoderCodes.contains(named) ? named.decoderSeverity : named.validatorSeverity
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
        let later = DiagnosticCode(rawValue: "a-later-code")
        #expect(later.rawValue == "a-later-code")
        #expect(!DiagnosticCode.decoderCodes.contains(later))
        #expect(later.decoderSeverity == .error)
        #expect(later.validatorSeverity == .error)
        #expect(DiagnosticCode(rawValue: "unknown-key") == .unknownKey)
        #expect(DiagnosticCode(rawValue: "missing-aps").validatorSeverity == .error)
        #expect(DiagnosticCode(rawValue: "start-only-key").validatorSeverity == .warning)
        #expect("\(DiagnosticCode.schemaUnknownKey)" == DiagnosticCode.schemaUnknownKey.rawValue)
        // A code is written as its text, and read back from it.
        let written = try? JSONEncoder().encode(Diagnostic(code: .unknownKey, severity: .warning, message: "m"))
        #expect(written.flatMap { String(decoding: $0, as: UTF8.self).contains(#""code":"unknown-key""#) } == true)
        #expect(written.flatMap { try? JSONDecoder().decode(Diagnostic.self, from: $0).code } == .unknownKey)
    }

    /// One type names every part's codes: each text has one name, and two parts that report the
    /// same finding (`over-budget`, `retired-version`) share it rather than spell it twice.
    @Test func everyPartsCodesAreNamedOnce() {
        let families = [DiagnosticCode.decoderCodes, DiagnosticCode.validatorCodes, DiagnosticCode.encoderCodes, DiagnosticCode.schemaCodes,
                        DiagnosticCode.fleetCodes, DiagnosticCode.pushHistoryCodes]
        for codes in families {
            #expect(Set(codes).count == codes.count, "each named code once in its part")
        }
        var parts: [DiagnosticCode: Int] = [:]
        for codes in families { for code in codes { parts[code, default: 0] += 1 } }
        #expect(parts.filter { $0.value > 1 }.keys.sorted { $0.rawValue < $1.rawValue } == [.overBudget, .retiredVersion])
        // The encoder writes nothing for a retired version; to the validator it is a warning.
        #expect(DiagnosticCode.retiredVersion.encoderSeverity == .error)
        #expect(DiagnosticCode.retiredVersion.validatorSeverity == .warning)
    }

    @Test func everyCodeHasAFixture() {
        let covered = Set(Self.fixtures.map(Self.code(of:)))
        let codes = DiagnosticCode.decoderCodes.map(\.rawValue) + DiagnosticCode.validatorCodes.map(\.rawValue)
        for code in codes {
            #expect(covered.contains(code), "no fixture for \(code)")
        }
    }
}
