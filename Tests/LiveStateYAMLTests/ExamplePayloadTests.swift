import Foundation
import Testing
@_spi(Scanner) import LiveState
import LiveStateYAML
import LiveStateTestSupport
import LiveStateTooling

/// The bundled schemas and their example payloads, as the README's main command runs them.
enum Examples {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/golden/decode")

    struct Payload: CustomTestStringConvertible, Sendable {
        var activity: String
        var path: String
        var version: Int?
        var testDescription: String { path }
    }

    static func payloads(failing: Bool) -> [Payload] {
        let schemas = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("schemas").path)) ?? []
        var payloads: [Payload] = []
        for schema in schemas.sorted() where schema.hasSuffix(".yaml") {
            let activity = String(schema.dropLast(5))
            let folder = "schemas/examples/\(activity)" + (failing ? "/failing" : "")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
            for name in names.sorted() where name.hasSuffix(".json") {
                let version = failing ? nil : Int(name.dropFirst().prefix { $0.isNumber })
                payloads.append(Payload(activity: activity, path: "\(folder)/\(name)", version: version))
            }
        }
        return payloads
    }

    static func schema(_ activity: String) throws -> Schema {
        try SchemaLoader().load(contentsOf: root.appendingPathComponent("schemas/\(activity).yaml").path)
    }
}

@Suite struct ExamplePayloadTests {
    @Test func everyActivityHasCleanAndFailingExamples() {
        let clean = Set(Examples.payloads(failing: false).map(\.activity))
        let failing = Set(Examples.payloads(failing: true).map(\.activity))
        #expect(clean == ["delivery", "flash-sale", "grocery", "match-score", "pizza"])
        #expect(failing == clean)
    }

    /// Every clean example lints clean for the version it was written for, and decodes to the
    /// state in its golden file (`LIVESTATE_UPDATE_GOLDEN=1` rewrites them).
    @Test(arguments: Examples.payloads(failing: false))
    func cleanExampleDecodesToItsGoldenState(payload: Examples.Payload) throws {
        let schema = try Examples.schema(payload.activity)
        let version = try #require(payload.version)
        let bytes = try Data(contentsOf: Examples.root.appendingPathComponent(payload.path))
        let result = try PayloadValidator(schema: schema, version: version).validate(bytes, file: payload.path)
        #expect(!result.diagnostics.contains { $0.severity > .info }, "\(result.diagnostics)")
        #expect(result.appDecodes)
        let state = JSONWriter.pretty(result.state ?? .null) + "\n"
        let goldenFile = Examples.golden.appendingPathComponent(payload.path.replacingOccurrences(of: "schemas/examples/", with: ""))
        try Golden.check(state, at: goldenFile, update: "LIVESTATE_UPDATE_GOLDEN", rerun: "swift test --filter ExamplePayloadTests")
    }

    /// Every failing example produces the code its `_expect` key names, against the newest version.
    @Test(arguments: Examples.payloads(failing: true))
    func failingExampleProducesItsExpectedCode(payload: Examples.Payload) throws {
        let schema = try Examples.schema(payload.activity)
        let bytes = try Data(contentsOf: Examples.root.appendingPathComponent(payload.path))
        let text = String(decoding: bytes, as: UTF8.self)
        let expect = try #require(text.range(of: #""_expect"\s*:\s*"([a-z-]+)""#, options: .regularExpression).map {
            String(text[$0]).split(separator: "\"").last.map(String.init) ?? ""
        })
        let result = try PayloadValidator(schema: schema).validate(bytes, file: payload.path)
        #expect(result.diagnostics.contains { $0.code.rawValue == expect }, "\(expect): \(result.diagnostics.map(\.code))")
    }
}

/// What an app version decodes, the encoder writes back for that version, and the app reads it
/// as it was: over every example, clean and failing, under every version of its schema.
@Suite struct DecodedStateRoundTripTests {
    @Test(arguments: Examples.payloads(failing: false) + Examples.payloads(failing: true))
    func aDecodedStateIsWrittenAndReadBackUnchanged(payload: Examples.Payload) throws {
        let schema = try Examples.schema(payload.activity)
        let bytes = try Data(contentsOf: Examples.root.appendingPathComponent(payload.path))
        for version in schema.versions where version.retired == nil {
            let decoder = try ContentStateDecoder(schema: schema, version: version.version)
            guard let state = decoder.decode(payload: bytes).state else { continue }
            let encoded = try ContentStateEncoder(schema: schema, version: version.version, fit: false)
                .encode(state)
            #expect(encoded.succeeded, "v\(version.version): \(encoded.diagnostics.map(\.message))")
            guard encoded.succeeded else { continue }
            // The encoder's budget is the validator's for the same bytes.
            let payload = try ContentStateEncoder(schema: schema, version: version.version)
                .encodePayload(state, envelope: .init(event: .update, timestamp: 1_795_000_000))
            if payload.succeeded {
                let validated = try PayloadValidator(schema: schema, version: version.version).validate(payload.bytes).budget
                #expect(payload.budget?.body == validated.body, "v\(version.version)")
                #expect(payload.budget?.contentState == validated.contentState, "v\(version.version)")
                #expect(payload.budget?.deviceWorstCase == validated.deviceWorstCase, "v\(version.version)")
            }
            let again = decoder.decode(contentState: encoded.bytes)
            #expect(again.state == state, "v\(version.version)")
            #expect(!again.allDiagnostics.contains { $0.severity >= .warning }, "v\(version.version): \(again.allDiagnostics.map(\.message))")
        }
    }
}

/// What the compatibility check says of a pair of versions holds for real payloads: a payload
/// written for one version that another version drops is a pair the check calls an error, and
/// one it reads with a default or a fallback in place of a value is a pair it speaks of.
@Suite struct CompatibilityVerdictTests {
    @Test(arguments: Examples.payloads(failing: false) + Examples.payloads(failing: true))
    func whatAnotherVersionMakesOfAPayloadIsInTheCheck(payload: Examples.Payload) throws {
        let schema = try Examples.schema(payload.activity)
        let bytes = try Data(contentsOf: Examples.root.appendingPathComponent(payload.path))
        let checker = CompatibilityChecker()
        let versions = schema.versions.filter { $0.retired == nil }.map(\.version)
        for writer in versions {
            guard let state = try ContentStateDecoder(schema: schema, version: writer).decode(payload: bytes).state else { continue }
            let encoded = try ContentStateEncoder(schema: schema, version: writer).encode(state)
            guard encoded.succeeded else { continue }
            for reader in versions where reader != writer {
                let read = try ContentStateDecoder(schema: schema, version: reader).decode(contentState: encoded.bytes)
                let findings = checker.findings(schema, reader: reader, writer: writer)
                // A default taken for an invalid value is a pair the check warns of; an enum's
                // fallback, one it names (an info: the fallback is declared for new values). An
                // unknown key is a warning of the decoder's and an info of the check's.
                let codes = Set(read.allDiagnostics.map(\.code))
                if read.appDecodes, codes.contains("invalid-defaulted") {
                    #expect(findings.contains { $0.severity >= .warning },
                            "app v\(reader) takes a default in a v\(writer) payload, but the check finds \(findings.map(\.message))")
                }
                if read.appDecodes, codes.contains("unknown-enum-value") {
                    #expect(findings.contains { $0.rule.hasPrefix("enum-value-") },
                            "app v\(reader) takes a fallback in a v\(writer) payload, but the check finds \(findings.map(\.message))")
                }
                guard !read.appDecodes else { continue }
                #expect(findings.contains { $0.severity == .error },
                        "app v\(reader) drops a v\(writer) payload (\(read.allDiagnostics.filter { $0.severity == .error }.map(\.message))), but the check finds \(findings.map(\.message))")
            }
        }
    }
}
