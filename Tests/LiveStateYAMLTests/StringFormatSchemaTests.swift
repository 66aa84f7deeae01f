import Foundation
import LiveState
import LiveStateTooling
import LiveStateYAML
import Testing

/// `format: uuid` and `format: base64` in schema files: loaded, checked, compared between
/// versions and sized.
@Suite struct StringFormatSchemaTests {
    static func load(_ versions: String, strict: [Int] = []) throws -> Schema {
        let yaml = """
            activity: ride
            \(strict.isEmpty ? "" : "clients: { strict: [\(strict.map(String.init).joined(separator: ", "))] }\n")versions:
            \(versions)
            """
        return try SchemaLoader().load(yaml: Array(yaml.utf8), file: "ride.yaml")
    }

    static func loadErrors(_ versions: String) -> [Diagnostic] {
        do {
            _ = try load(versions)
            return []
        } catch let error as SchemaLoadError {
            return error.diagnostics
        } catch {
            return []
        }
    }

    /// Each field, alone in a version, fails to load with the message at a pointer ending so.
    static func expectLoadErrors(_ cases: [(field: String, message: String, pointer: String)]) {
        for (field, message, pointer) in cases {
            let errors = loadErrors("""
                  - version: 1
                    content-state:
                      \(field)
                """)
            #expect(errors.contains { $0.message == message && $0.pointer?.hasSuffix(pointer) == true }, "\(field): \(errors.map(\.message))")
        }
    }

    @Test func theLoaderReadsAStringsFormat() throws {
        let schema = try Self.load("""
              - version: 1
                content-state:
                  trip: { type: string, format: uuid }
                  receipt: { type: string, format: base64, max-length: 64 }
                  stops: { type: array, items: { type: string, format: uuid } }
            """)
        let fields = try #require(schema.versions.first?.contentState)
        #expect(fields.map(\.stringFormat) == [.uuid, .base64, nil])
        guard case .array(let items) = fields[2].type else {
            Issue.record("stops is not an array")
            return
        }
        #expect(items.stringFormat == .uuid)
        #expect(fields.allSatisfy { $0.numberFormat == nil })
    }

    @Test func aFormatWhereItDoesNotApplyIsAnError() {
        Self.expectLoadErrors([
            ("n: { type: int, format: uuid }", "format uuid applies to string fields, not int", "/format"),
            ("n: { type: url, format: base64 }", "format base64 applies to string fields, not url", "/format"),
            ("n: { type: string, format: uint8 }", "format uint8 applies to int fields, not string", "/format"),
            ("n: { type: string, format: uuid, truncate: true }",
             "truncate applies to plain strings, not format uuid: a shortened UUID is no UUID", "/truncate"),
        ])
    }

    @Test func aDefaultOfTheWrongFormIsAnError() {
        let errors = Self.loadErrors("""
              - version: 1
                content-state:
                  trip: { type: string, format: uuid, default: "none" }
                  receipt: { type: string, format: base64, default: "aGk" }
                  fine: { type: string, format: base64, default: "" }
            """)
        #expect(errors.map(\.code) == [.schemaInvalidDefault, .schemaInvalidDefault], "\(errors.map(\.message))")
        #expect(errors.first?.message.hasPrefix("default of field 'trip' is invalid: 'none' is not a UUID: it is 4 bytes long") == true,
                "\(errors.map(\.message))")
    }

    /// A format added to a field that older versions send as any string: an app that holds it in
    /// a `UUID` refuses what they send.
    @Test func aFormatAddedNarrowsTheField() throws {
        let schema = try Self.load("""
              - version: 1
                content-state:
                  trip: { type: string, default: "" }
              - version: 2
                content-state:
                  trip: { type: string, format: uuid, default: "00000000-0000-0000-0000-000000000000" }
              - version: 3
                content-state:
                  trip: { type: string, format: uuid }
            """, strict: [3])
        let tolerant = CompatibilityChecker().findings(schema, reader: 2, writer: 1).map(\.diagnostic).filter { $0.code == "type-narrowed" }
        #expect(tolerant.count == 1, "\(tolerant.map(\.message))")
        #expect(tolerant.map(\.severity) == [.warning])
        #expect(tolerant.first?.message.contains("'trip' is a String in v1, which may send text that is not a UUID; app v2 holds it in a UUID")
                == true, "\(tolerant.map(\.message))")
        let strict = CompatibilityChecker().findings(schema, reader: 3, writer: 1).map(\.diagnostic)
        #expect(strict.contains { $0.code == "type-narrowed" && $0.severity == .error }, "\(strict.map(\.message))")
        // The same format on both sides, and a format taken away, narrow nothing.
        #expect(!CompatibilityChecker().findings(schema, reader: 3, writer: 2).contains { $0.diagnostic.code == "type-narrowed" })
        #expect(!CompatibilityChecker().findings(schema, reader: 1, writer: 2).contains { $0.diagnostic.code == "type-narrowed" })
    }

    /// Another type sent to a formatted string: a URL is no UUID; an enum's raw values are
    /// checked one by one.
    @Test func anotherTypeReadAsAFormattedStringIsComparedByTheRule() throws {
        let schema = try Self.load("""
              - version: 1
                content-state:
                  a: { type: url, default: "/" }
                  b: { type: enum, values: [E621E1F8-C36C-495A-93FC-0C247A3E6E5F, none], default: none }
                  c: { type: enum, values: [aGk=, AA==], default: AA== }
              - version: 2
                content-state:
                  a: { type: string, format: uuid, default: "00000000-0000-0000-0000-000000000000" }
                  b: { type: string, format: uuid, default: "00000000-0000-0000-0000-000000000000" }
                  c: { type: string, format: base64, default: "" }
            """)
        let findings = CompatibilityChecker().findings(schema, reader: 2, writer: 1).map(\.diagnostic)
        let narrowed = findings.filter { $0.code == "type-narrowed" }
        #expect(narrowed.map(\.pointer) == ["/a", "/b"], "\(findings.map(\.message))")
        #expect(narrowed.last?.message.contains("the app's UUID reads only a UUID, which the enum's raw value 'none' is not") == true,
                "\(narrowed.map(\.message))")
        #expect(narrowed.first?.message.contains("'a' is url in v1 and string (format uuid) in v2: the app's UUID reads only a UUID, which a URL need not be")
                == true, "\(narrowed.map(\.message))")
    }

    /// Every UUID is 36 bytes: a `max-length` or `min-length` of 36 added later tightens
    /// nothing, a plain string of `max-length` 64 takes every one, and UUID defaults in another
    /// case are the same default. A UUID is never base64: `type-changed`.
    @Test func aUUIDsLengthAndCaseChangeNothing() throws {
        let schema = try Self.load("""
              - version: 1
                content-state:
                  trip: { type: string, format: uuid }
                  seat: { type: string, format: uuid, default: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f" }
                  ref: { type: string, format: uuid }
                  code: { type: string, format: uuid, default: "00000000-0000-0000-0000-000000000000" }
              - version: 2
                content-state:
                  trip: { type: string, format: uuid, max-length: 36, min-length: 36 }
                  seat: { type: string, format: uuid, default: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F" }
                  ref: { type: string, max-length: 64 }
                  code: { type: string, format: base64, default: "" }
            """)
        let findings = CompatibilityChecker(options: .init(assumeDefaultElision: true)).findings(schema, reader: 2, writer: 1)
            .filter { $0.rule != "unbounded-size" }
        // Only 'code': no UUID is base64, so no value decodes.
        #expect(findings.map(\.rule) == ["type-changed"], "\(findings.map(\.message))")
        #expect(findings.first?.message == "app v2 reading v1 payloads: 'code' is string (format uuid) in v1 (a JSON string) and string "
                + "(format base64) in v2, which decodes none of its values; 'code' takes its default in app v2", "\(findings.map(\.message))")
    }

    /// Lengths that leave no value of the format are refused when the schema loads.
    @Test func lengthsThatLeaveNoValueAreAnError() {
        Self.expectLoadErrors([
            ("m: { type: string, format: uuid, max-length: 10 }", "max-length 10 of field 'm' leaves no UUID: every UUID is 36 bytes", "/max-length"),
            ("n: { type: string, format: uuid, min-length: 40 }", "min-length 40 of field 'n' leaves no UUID: every UUID is 36 bytes", "/min-length"),
            ("s: { type: string, format: base64, min-length: 1, max-length: 3 }",
             "min-length 1 and max-length 3 of field 's' leave no base64 text: base64 is a multiple of 4 bytes long", "/max-length"),
        ])
    }

    /// Every UUID is a relative URL, on every iOS: a `url` reads it (the other way narrows).
    @Test func aURLFieldReadsEveryUUID() throws {
        let schema = try Self.load("""
              - version: 1
                content-state: { link: { type: url } }
              - version: 2
                content-state: { link: { type: string, format: uuid } }
            """, strict: [1, 2])
        let older = CompatibilityChecker().findings(schema, reader: 1, writer: 2).filter { $0.rule != "unbounded-size" }
        #expect(older.map(\.rule) == ["type-changed-compatible"], "\(older.map(\.message))")
        #expect(older.first?.message.contains("every UUID is a relative URL, so every value decodes") == true)
        let newer = CompatibilityChecker().findings(schema, reader: 2, writer: 1).filter { $0.rule != "unbounded-size" }
        #expect(newer.map(\.rule) == ["type-narrowed"] && newer.map(\.severity) == [.error], "\(newer.map(\.message))")
        for uuid in ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"] {
            #expect(URLRule(minIOS: .liveActivities).problem(uuid) == nil)
        }
    }

    /// A UUID's text is 36 bytes: a field without `max-length` has a bounded size.
    @Test func aUUIDHasABoundedSize() throws {
        let schema = try Self.load("""
              - version: 1
                content-state:
                  trip: { type: string, format: uuid }
                  receipt: { type: string, format: base64 }
            """)
        let size = WorstCaseSize(fields: try #require(schema.versions.first?.contentState))
        #expect(size.unbounded.map(\.pointer) == ["/receipt"])
        let bounded = WorstCaseSize(fields: [try #require(schema.versions.first?.contentState.first)])
        #expect(bounded.bytes == 2 + #""trip":"#.utf8.count + 38)
    }
}
