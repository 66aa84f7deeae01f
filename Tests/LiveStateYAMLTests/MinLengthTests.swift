import Foundation
@testable import LiveState
import LiveStateTooling
import LiveStateYAML
import Testing

/// `min-length`, added as one case of `Field.Constraint` and one line of `allowsLength`: the
/// loader, the schema validator, both decoders, the encoder, the compatibility checker and the
/// generators pick it up without a change of their own (JSON Schema says it in its own words).
@Suite struct MinLengthTests {
    private let yaml = """
        activity: codes
        versions:
          - version: 1
            content-state:
              code:  { type: string, max-length: 8 }
              label: { type: string, default: "none" }
          - version: 2
            content-state:
              code:  { type: string, min-length: 4, max-length: 8 }
              label: { type: string, default: "none", min-length: 1 }
              link:  { type: url, optional: true, min-length: 12 }
              kind:  { type: enum, values: [ab, abcd], default: ab }
          - version: 3
            content-state:
              code:  { type: string, min-length: 4, max-length: 8 }
              label: { type: string, default: "none", min-length: 1 }
              link:  { type: url, optional: true, min-length: 12 }
              kind:  { type: string, default: "abc", min-length: 3 }
        """

    private func schema() throws -> Schema {
        try SchemaLoader().load(yaml: Array(yaml.utf8), file: "codes.yaml")
    }

    @Test func theLoaderReadsIt() throws {
        let field = try #require(try schema().versions[1].contentState.first { $0.name == "code" })
        #expect(field.constraints == Field.Constraints(minLength: 4, maxLength: 8))
    }

    @Test func theSchemaValidatorChecksItsTypeSignAndOrder() {
        func messages(_ field: Field) -> [String] {
            let schema = Schema(activity: "a", versions: [SchemaVersion(version: 1, contentState: [field])])
            return SchemaValidator.validate(schema).map(\.message)
        }
        var count = Field(name: "count", type: .int)
        count.constraints.minLength = 1
        #expect(messages(count) == ["min-length applies to string and url fields, not int"])
        var negative = Field(name: "code", type: .string)
        negative.constraints.minLength = -1
        #expect(messages(negative) == ["min-length of field 'code' is negative (-1)"])
        var crossed = Field(name: "code", type: .string, constraints: .init(maxLength: 8))
        crossed.constraints.minLength = 9
        #expect(messages(crossed) == ["min-length 9 of field 'code' is greater than its max-length 8"])
    }

    @Test func theTapeAndTheReferenceDecodeRefuseAShortString() throws {
        let decoder = try ContentStateDecoder(schema: try schema(), version: 2)
        let bytes = Array(#"{"code":"ab","label":""}"#.utf8)
        let result = decoder.decode(contentState: bytes)
        #expect(!result.appDecodes)
        let messages = result.diagnostics.map(\.message)
        #expect(messages.contains { $0.hasPrefix("2 bytes is shorter than min-length 4") })
        #expect(messages.contains { $0.hasPrefix("0 bytes is shorter than min-length 1; 'label' takes its default \"none\"") })
        // The reference decode (no tape) says no too, in the same words.
        let inFull = decoder.decodeInFull(contentState: bytes)
        #expect(!inFull.appDecodes)
        #expect(inFull.diagnostics == result.diagnostics)
        // At the bound, both accept.
        let exact = Array(#"{"code":"abcd","label":"x"}"#.utf8)
        let decoded = decoder.decode(contentState: exact)
        #expect(decoded.appDecodes && !decoded.diagnostics.contains { $0.message.contains("min-length") })
        #expect(decoder.decode(contentState: exact).appDecodes)
    }

    @Test func theEncoderRefusesAShortString() throws {
        let encoder = try ContentStateEncoder(schema: try schema(), version: 2)
        let result = encoder.encode(.object([.init("code", .string("abc"))]))
        #expect(result.diagnostics.map(\.code) == ["invalid-state"])
        #expect(result.diagnostics.first?.message.contains("3 bytes is shorter than min-length 4") == true)
        #expect(encoder.encode(.object([.init("code", .string("abcd"))])).diagnostics.isEmpty)
    }

    @Test func theEncoderNeverShortensAStringBelowItsMinLength() throws {
        let long = String(repeating: "x", count: 3_900)
        let yaml = """
            activity: notes
            versions:
              - version: 1
                content-state:
                  note:  { type: string, truncate: true, min-length: 3500 }
                  extra: { type: string, default: "" }
            """
        let schema = try SchemaLoader().load(yaml: Array(yaml.utf8), file: "notes.yaml")
        let encoder = try ContentStateEncoder(schema: schema, fit: true)
        let state = Value.object([.init("note", .string(long)), .init("extra", .string(String(repeating: "y", count: 1_000)))])
        let result = encoder.encode(state)
        // Cut down to its min-length, no further (before, it was left whole): 3,500 bytes of
        // note and 1,000 of extra, still over.
        #expect(result.diagnostics.map(\.message) == [
            "'note' is shortened from 3900 to 3500 bytes to fit the budget",
            "the payload does not fit even with every drop-priority field every app version reads without dropped and every "
                + "truncate string shortened as far as its constraints allow: content-state \(#"{"note":"","extra":""}"#.utf8.count + 4500) "
                + "of 4096, device worst case 4522 of 4096",
        ])
    }

    @Test func compatibilityReportsATightenedLowerBound() throws {
        let findings = CompatibilityChecker().findings(try schema(), reader: 2, writer: 1)
        let code = findings.filter { $0.pointer == "/code" && $0.rule == "constraint-tightened" }
        #expect(code.map(\.message).contains { $0.contains("'code' min-length: v2 has min-length 4, v1 has no min-length") })
        // An enum's raw values bound the writer's lengths: "ab" is shorter than v3's min-length 3.
        let kind = CompatibilityChecker().findings(try schema(), reader: 3, writer: 2).filter { $0.pointer == "/kind" }
        #expect(kind.map(\.message).contains { $0.contains("v3 has min-length 3, v2 allows down to 2 bytes") })
    }

    @Test func generatorsSayIt() throws {
        let json = try JSONSchemaGenerator().generate(try schema(), version: 2)
        #expect(json.contains(#""x-livestate-min-bytes": 4"#))
        #expect(json.contains(#""minLength": 1"#))
        let swift = try SwiftGenerator().generate(try schema(), version: 2)
        #expect(swift.contains("try $0.string(minLength: 4, maxLength: 8)"))
        #expect(swift.contains("try $0.url(minLength: 12)"))
    }
}
