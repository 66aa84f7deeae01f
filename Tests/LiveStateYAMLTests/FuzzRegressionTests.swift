import Foundation
import LiveState
import LiveStateTooling
import LiveStateYAML
import Testing

/// Every input that ever made a fuzz target fail (`Fuzz/FailCases/`), as a byte-literal test of
/// what the library must do with it. `Fuzz/run.sh` also replays the files themselves through the
/// fuzz binaries, with every invariant, before it fuzzes (CI's `Fuzz/ci.sh`).
@Suite struct FuzzRegressionTests {
    static let schemas = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("schemas")

    static func validator(_ schema: String, version: Int) throws -> PayloadValidator {
        try PayloadValidator(schema: try SchemaLoader().load(contentsOf: schemas.appendingPathComponent(schema).path), version: version)
    }

    /// FuzzDecode `unix-date-year-overflow-*`: the year of a far-future `date` overflowed `Int`
    /// and trapped the validator (so `lint` and the sidecar).
    @Test(arguments: [
        // unix-date-year-overflow-minimal
        ("grocery.yaml", 3, #"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"deliverBy":1e300}}}"#, "/deliverBy", "1e+300"),
        // unix-date-year-overflow-date
        ("grocery.yaml", 3, #"{"aps":{"timestamp":1795000600,"event":"update","content-state":{"statusText":"Packing","minutesLeft":20,"progress":0.3,"riderName":"","stage":"packing","deliverBy":"#
            + "816" + String(repeating: "9", count: 110) + "694600}}}", "/deliverBy", "8.17e+118"),
        // unix-date-year-overflow-date-range
        ("pizza.yaml", 2, #"{"aps":{"timestamp":1795800600,"event":"update","content-state":{"name":"Ada","status":2,"timer":[816692800,8166477507"#
            + String(repeating: "7", count: 82) + "]" + #","driverName":"Marco"}}}"#, "/timer/1", "8.166477507777777e+91"),
    ])
    func aFarFutureDateIsAWarningNotATrap(_ schema: String, _ version: Int, _ body: String, _ pointer: String, _ shown: String) throws {
        let result = try Self.validator(schema, version: version).validate(Array(body.utf8))
        let finding = try #require(result.diagnostics.first { $0.code == "unix-date-in-date-field" }, "\(result.diagnostics)")
        #expect(finding.pointer == pointer)
        #expect(finding.severity == .warning)
        #expect(finding.message.hasPrefix("\(shown) looks like UNIX time: the device reads seconds since 2001-01-01, so this is far in the future"), "\(finding.message)")
    }

    /// FuzzDecode `enum-fallback-after-invalid-element`: an array whose element is invalid takes
    /// its default on the tape, which read no further; but the elements after it are still
    /// decoded on the device, and one that takes the items' enum fallback (or, as the validator
    /// reads, a date that looks like UNIX time) is reported. The one-pass read and the full
    /// decode differ in nothing.
    @Test func findingsOfElementsAfterAnInvalidOneAreKept() throws {
        let schema = try SchemaLoader().load(
            contentsOf: Self.schemas.deletingLastPathComponent().appendingPathComponent("Fuzz/Schemas/rules.yaml").path)
        let decoder = try ContentStateDecoder(schema: schema, version: 1)
        let state = #"{"titue":"t","drink":"d\u00e9j\u00e0","mode":"\u00e9","state":"o\u006e","marks":[1,"["],"ranks":null,"stamps":["x"]}"#
        _ = DecodeResultTests.expectSame(decoder, Array(state.utf8), "fail case")
        let result = decoder.decode(contentState: Array(state.utf8))
        #expect(result.diagnostics.contains { $0.pointer == "/marks/1" && $0.code == "unknown-enum-value" })
        let validator = try PayloadValidator(schema: schema, version: 1)
        let body = Array(#"{"aps":{"timestamp":1,"event":"update","content-state":{"title":"t","stamps":["x",1732800000]}}}"#.utf8)
        _ = ValidatorOnePassTests.expectSame(validator, body, "unix date after an invalid element")
        #expect(validator.validate(body).diagnostics.contains { $0.pointer == "/stamps/1" && $0.code == "unix-date-in-date-field" })
    }

    /// FuzzSchemaYAML `on-null-with-a-null-default*`: a field with `on-null: default` whose
    /// default is `null` made the rule walk read a `null` as the default, itself `null`, without
    /// end (a stack overflow while the schema validator checked the default). Such a field
    /// takes no default for a `null` (`Field.nullReplacement`), and the schema does not load.
    @Test func onNullWithANullDefaultDoesNotLoad() {
        let yaml = """
            activity: x
            versions:
              - version: 1
                content-state:
                  home: { type: int, default: null, on-null: default }
            """
        #expect {
            try SchemaLoader().load(yaml: Array(yaml.utf8), file: "x.yaml")
        } throws: { error in
            guard let error = error as? SchemaLoadError else { return false }
            return error.diagnostics.map(\.description) == [
                "x.yaml:5:35: error: default of field 'home' is invalid: null, but the field is not optional (at /versions/0/content-state/home/default) [schema-invalid-default]",
                "x.yaml:5:50: error: field 'home' has on-null: default but no default for null to take (at /versions/0/content-state/home/on-null) [schema-invalid-constraint]",
            ]
        }
        var field = Field(name: "home", type: .int, defaultValue: .null, nullTakesDefault: true)
        #expect(field.nullReplacement == nil && !field.takesNull)
        #expect(field.violation(of: .null) != nil)
        field.defaultValue = .int(0)
        #expect(field.nullReplacement == .int(0) && field.takesNull)
        #expect(field.violation(of: .null) == nil)
    }

    /// FuzzSchemaYAML `url-default-foundation-rejects*`: the loader took a `url` default that
    /// `URL(string:)` (so the device) refuses.
    @Test func aURLDefaultTheDeviceRefusesDoesNotLoad() {
        let yaml = """
            activity: x
            versions:
              - version: 1
                content-state:
                  link: { type: url, default: "https://es:mple.com/track" }
            """
        #expect {
            try SchemaLoader().load(yaml: Array(yaml.utf8), file: "x.yaml")
        } throws: { error in
            guard let error = error as? SchemaLoadError else { return false }
            return error.diagnostics.contains {
                $0.code == "schema-invalid-default" && $0.pointer == "/versions/0/content-state/link/default"
                    && $0.message == "default of field 'link' is invalid: 'https://es:mple.com/track' is no URL on iOS 17 and later (min-ios 16.1): "
                    + "URL(string:) there parses by RFC 3986, which refuses it; iOS 16 reads it"
                    && $0.position?.line == 5 && $0.position?.column == 35
            }
        }
    }

    /// FuzzSchemaYAML `stray-continuation-byte-after-a-line-feed`: a continuation byte (0x82)
    /// right after a line feed was read as part of the line feed's character, so the reader
    /// error at it was placed on the line before (2:11, not 3:1).
    @Test func aStrayContinuationByteIsPlacedOnItsOwnLine() throws {
        let bytes = Array("actkvity: schema-missing-key-version-number\nversions:\n".utf8) + [0x82] + Array(" - content-state: {}\n".utf8)
        let error = try #require(throws: SchemaLoadError.self) { try SchemaLoader().load(yaml: bytes, file: "-") }
        #expect(error.diagnostics.first?.code == .yamlSyntax)
        #expect(error.diagnostics.first?.position == SourcePosition(offset: 54, line: 3, column: 1))
    }

    /// FuzzDecode `strict-decode-keys-in-no-set-order`: a strict version's `decode(T)` is
    /// `JSONDecoder`'s, whose keyed container lists its keys in no set order; the fuzz probe
    /// reads them by name. The value is the same on the tape and in the full decode.
    @Test func aStrictDecodeGivesOneValueOnTheTapeAndInFull() throws {
        struct Grocery: Decodable, Equatable {
            var statusText: String
            var minutesLeft: Int
            var progress: Double
            var riderName: String
        }
        let validator = try Self.validator("grocery.yaml", version: 1)
        let bytes = Array(#"{"statusText":"Delivered","minutesLeft":0,"progress":1,"riderName":"Sam"}"#.utf8)
        let onTape = try validator.decoder.decode(contentState: bytes).decode(Grocery.self)
        #expect(onTape == Grocery(statusText: "Delivered", minutesLeft: 0, progress: 1, riderName: "Sam"))
    }
}
