import Foundation
@_spi(Testing) @testable import LiveState
import LiveStateTooling
import LiveStateYAML
import Testing

/// `min-items`, added as one case of `Field.Constraint` and one line of `allowsCount`, with its
/// name in JSON Schema: the loader, the schema validator, the tape and the reference decode, the
/// encoder, the compatibility checker and the Swift generator pick it up without a change of
/// their own, as `MinLengthTests` shows for `min-length`.
@Suite struct MinItemsTests {
    private let yaml = """
        activity: route
        versions:
          - version: 1
            content-state:
              stops: { type: array, items: { type: string }, max-items: 8 }
              legs:  { type: array, default: [0], items: { type: int } }
          - version: 2
            content-state:
              stops: { type: array, items: { type: string }, min-items: 1, max-items: 8 }
              legs:  { type: array, default: [0], items: { type: int }, min-items: 1 }
              window: { type: date-range, optional: true }
          - version: 3
            content-state:
              stops: { type: array, items: { type: string }, min-items: 1, max-items: 8 }
              legs:  { type: array, default: [0], items: { type: int }, min-items: 1 }
              window: { type: array, optional: true, items: { type: double }, min-items: 3 }
        """

    private func schema() throws -> Schema {
        try SchemaLoader().load(yaml: Array(yaml.utf8), file: "route.yaml")
    }

    @Test func theLoaderReadsIt() throws {
        let field = try #require(try schema().versions[1].contentState.first { $0.name == "stops" })
        #expect(field.constraints == Field.Constraints(minItems: 1, maxItems: 8))
        #expect(field.constraints.bounds.map(\.constraint) == [.minItems, .maxItems])
    }

    @Test func itIsWordedWithTheSchemaFilesName() {
        let constraints: Field.Constraints = .init(minItems: 2, maxItems: 3)
        #expect(constraints.countProblem(1) == "1 items is fewer than min-items 2")
        #expect(constraints.countProblem(4) == "4 items is more than max-items 3")
        #expect(constraints.countProblem(2) == nil && constraints.countProblem(3) == nil)
    }

    @Test func theSchemaValidatorChecksItsTypeSignOrderAndTheDefault() {
        func messages(_ field: Field) -> [String] {
            let schema = Schema(activity: "a", versions: [SchemaVersion(version: 1, contentState: [field])])
            return SchemaValidator.validate(schema).map(\.message)
        }
        let ints = Field(name: "", type: .int)
        #expect(messages(Field(name: "name", type: .string, constraints: .init(minItems: 1)))
            == ["min-items applies to array and map fields, not string"])
        #expect(messages(Field(name: "legs", type: .array(items: ints), constraints: .init(minItems: -1)))
            == ["min-items of field 'legs' is negative (-1)"])
        #expect(messages(Field(name: "legs", type: .array(items: ints), constraints: .init(minItems: 3, maxItems: 2)))
            == ["min-items 3 of field 'legs' is greater than its max-items 2"])
        let emptyDefault = messages(Field(name: "legs", type: .array(items: ints), defaultValue: .array([]), constraints: .init(minItems: 1)))
        #expect(emptyDefault.count == 1)
        #expect(emptyDefault.first?.contains("0 items is fewer than min-items 1") == true, "\(emptyDefault)")
    }

    /// Too few elements: a required field rejects the payload, a field with a default takes it,
    /// on the tape, and the view's results are the reference decode's.
    @Test func theTapeAndTheReferenceDecodeRefuseTooFewItems() throws {
        let decoder = try ContentStateDecoder(schema: try schema(), version: 2)
        let rejected = Array(#"{"stops":[],"legs":[1]}"#.utf8)
        _ = DecodeResultTests.expectSame(decoder, rejected, "stops")
        let result = decoder.decode(contentState: rejected, file: "p.json")
        #expect(!result.appDecodes)
        #expect(result.diagnostics.map(\.description).contains {
            $0.hasPrefix("p.json:1:10: error: 0 items is fewer than min-items 1") && $0.hasSuffix("(at /stops) [out-of-range]")
        }, "\(result.diagnostics.map(\.description))")

        let defaulted = Array(#"{"stops":["a"],"legs":[]}"#.utf8)
        _ = DecodeResultTests.expectSame(decoder, defaulted, "legs")
        let kinds = try DecodeResultTests.kindsOnTape(decoder, #"{"stops":["a"],"legs":[]}"#)
        #expect(kinds.contains(.defaultTaken))
        let taken = decoder.decode(contentState: defaulted, file: "p.json")
        #expect(taken.appDecodes)
        #expect(taken.state?["legs"] == .array([.int(0)]))
        #expect(taken.diagnostics.map(\.description) == [
            "p.json:1:23: warning: 0 items is fewer than min-items 1; 'legs' takes its default [0] (at /legs) [invalid-defaulted]",
        ])

        // At the bound, both accept.
        let exact = Array(#"{"stops":["a"],"legs":[2]}"#.utf8)
        _ = DecodeResultTests.expectSame(decoder, exact, "exact")
        #expect(decoder.decode(contentState: exact).appDecodes)
        #expect(decoder.decode(contentState: exact).diagnostics.isEmpty)
    }

    @Test func theEncoderRefusesTooFewItems() throws {
        let encoder = try ContentStateEncoder(schema: try schema(), version: 2)
        let result = encoder.encode(.object([.init("stops", .array([]))]))
        #expect(result.diagnostics.map(\.code) == ["invalid-state"])
        #expect(result.diagnostics.first?.message.contains("0 items is fewer than min-items 1") == true, "\(result.diagnostics)")
        #expect(encoder.encode(.object([.init("stops", .array([.string("a")]))])).diagnostics.isEmpty)
    }

    @Test func compatibilityReportsATightenedLowerBound() throws {
        let findings = CompatibilityChecker().findings(try schema(), reader: 2, writer: 1)
        let stops = findings.filter { $0.pointer == "/stops" && $0.rule == "constraint-tightened" }
        #expect(stops.map(\.message).contains { $0.contains("'stops' min-items: v2 has min-items 1, v1 has no min-items") }, "\(findings.map(\.message))")
        // A date range is two numbers: an array of three or more takes none of them.
        let window = CompatibilityChecker().findings(try schema(), reader: 3, writer: 2).filter { $0.pointer == "/window" }
        #expect(window.map(\.message).contains { $0.contains("a date-range is two numbers: 2 items is fewer than min-items 3") }, "\(window.map(\.message))")
        #expect(CompatibilityRule.constraintTightened.summary.hasPrefix(
            "minimum, maximum, min-length, max-length, min-items, max-items or max-key-length tightened"))
    }

    @Test func generatorsSayIt() throws {
        let json = try JSONSchemaGenerator().generate(try schema(), version: 2)
        #expect(json.contains(#""minItems": 1"#))
        let swift = try SwiftGenerator().generate(try schema(), version: 2)
        #expect(swift.contains("$0.array(minItems: 1, maxItems: 8)"), "\(swift)")
    }
}
