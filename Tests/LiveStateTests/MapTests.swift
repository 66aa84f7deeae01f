import Foundation
import Testing
@_spi(Scanner) @testable import LiveState

/// `type: map`, a Swift `[String: T]`: its values read against `items`, its keys as data. The
/// verdicts against `JSONDecoder`, the tape against the full decoder, typed access, and the
/// encoder.
@Suite struct MapTests {
    struct Item: Codable, Equatable {
        var name: String
    }

    struct Board: Codable, Equatable {
        var labels: [String: String]
        var scores: [String: Int]
        var rounds: [[String: Int]]
        var items: [String: Item]
    }

    static let schema = Schema(
        activity: "board",
        strictClients: [1],
        versions: [
            SchemaVersion(version: 1, contentState: [
                Field(name: "labels", type: .map(items: Field(name: "", type: .string, constraints: .init(maxLength: 8)))),
                Field(name: "scores", type: .map(items: Field(name: "", type: .int, constraints: .init(minimum: 0)))),
                Field(name: "rounds", type: .array(items: Field(name: "", type: .map(items: Field(name: "", type: .int))))),
                Field(name: "items", type: .map(items: Field(name: "", type: .object(fields: [Field(name: "name", type: .string)])))),
            ]),
            SchemaVersion(version: 2, contentState: [
                Field(
                    name: "labels", type: .map(items: Field(name: "", type: .string, constraints: .init(maxLength: 8))),
                    defaultValue: .object([]), constraints: .init(maxItems: 2)),
                Field(
                    name: "scores", type: .map(items: Field(name: "", type: .int, constraints: .init(minimum: 0))),
                    defaultValue: .object([.init("home", .int(0))])),
                Field(name: "rounds", type: .array(items: Field(name: "", type: .map(items: Field(name: "", type: .int)))), defaultValue: .array([])),
                Field(
                    name: "items", type: .map(items: Field(name: "", type: .object(fields: [Field(name: "name", type: .string)]))),
                    isOptional: true),
            ]),
        ])

    static let valid = #"{"labels":{"a":"x","b/c":"y"},"scores":{"home":1,"away":2},"rounds":[{"r1":3},{}],"items":{"k":{"name":"n"}}}"#

    /// Payloads with each member replaced: by valid and invalid maps, by other types, by
    /// repeated keys.
    static let payloads: [String] = {
        let members = [
            ("labels", #"{"a":"x"}"#), ("scores", #"{"home":1}"#), ("rounds", #"[{"r1":3}]"#), ("items", #"{"k":{"name":"n"}}"#),
        ]
        let replacements = [
            "{}", "[]", "1", "null", #""x""#, #"{"a":1}"#, #"{"a":null}"#, #"{"a":"toolongvalue"}"#, #"{"a":"x","b":"y","c":"z"}"#,
            #"{"a":-1}"#, #"{"a":1.5}"#, #"{"a":"x","a":"y"}"#, #"{"a":"x","a":1}"#, #"{"a":1,"a":"x"}"#, #"{"a":1,"a":2}"#,
            #"[{"a":1},{"b":"x"}]"#, #"[{"a":1},null]"#, #"[{"a":1,"a":2}]"#, #"{"k":{"name":1}}"#, #"{"k":{}}"#,
            #"{"k":{"name":"n","extra":1}}"#, #"{"k":{"name":"n","name":"m"}}"#, #"{"\u0061":"x","a":"y"}"#, #"{"":"x"}"#,
            #"{"a~b/c":"x"}"#,
        ]
        return LiveStateTests.payloads(valid: valid, members: members, replacements: replacements)
    }()

    /// A strict version's verdict is synthesized `Codable`'s with `JSONDecoder`, repeated keys
    /// included: it keeps the first value and does not read the later.
    @Test func theStrictVerdictIsJSONDecoders() throws {
        #expect(try StrictAgreement.expect(Board.self, schema: Self.schema, version: 1, payloads: Self.payloads) > 40)
    }

    /// The tape and the full decoder say the same, for a strict and a tolerant version.
    @Test func theTapeAndTheFullDecoderAgree() throws {
        try TapeAgreement.expect(Self.schema, versions: [1, 2], payloads: Self.payloads)
    }

    /// A map's members in input order; each value's finding at its key's pointer, escaped.
    @Test func valuesAreCheckedAndPlacedUnderTheirKeys() throws {
        let decoder = try ContentStateDecoder(schema: Self.schema, version: 2)
        let valid = decoder.decode(contentState: Array(Self.valid.utf8))
        #expect(valid.appDecodes)
        #expect(valid.state?["labels"] == .object([.init("a", .string("x")), .init("b/c", .string("y"))]))
        #expect(valid.allDiagnostics.isEmpty, "\(valid.allDiagnostics.map(\.description))")
        // The node API walks a map as an object of its keys.
        #expect(valid.root?["labels"]?.names == ["a", "b/c"])
        #expect(valid.root?["labels"]?["b/c"]?.string == "y")
        #expect(valid.root?["items"]?["k"]?["name"]?.string == "n")
        #expect(valid.root?["rounds"]?[0]?["r1"]?.int == 3)

        let payload = #"{"labels":{"a/b":"toolongvalue"},"scores":{"home":-1},"rounds":[{"r":1},{"r":"x"}]}"#
        let result = decoder.decode(contentState: Array(payload.utf8), file: "p.json")
        #expect(result.appDecodes)
        #expect(result.state?["labels"] == .object([]))
        #expect(result.state?["scores"] == .object([.init("home", .int(0))]))
        #expect(result.state?["rounds"] == .array([]))
        #expect(result.state?["items"] == .null)
        #expect(result.allDiagnostics.map(\.description) == [
            "p.json:1:18: warning: at /labels/a~1b: 12 bytes is longer than max-length 8; 'labels' takes its default {} (at /labels) [invalid-defaulted]",
            "p.json:1:51: warning: at /scores/home: -1 is less than minimum 0; 'scores' takes its default {\"home\":0} (at /scores) [invalid-defaulted]",
            "p.json:1:78: warning: at /rounds/1/r: expected an integer, found a string; 'rounds' takes its default [] (at /rounds) [invalid-defaulted]",
        ])
    }

    /// A key that comes again keeps its first value, as `JSONDecoder` keeps it; its later value
    /// is not read, and named when this app version would not read it as sent.
    @Test func aRepeatedKeyKeepsItsFirstValue() throws {
        let decoder = try ContentStateDecoder(schema: Self.schema, version: 2)
        let payload = #"{"labels":{"a":"x","a":"y"}}"#
        let result = decoder.decode(contentState: Array(payload.utf8), file: "p.json")
        #expect(result.state?["labels"] == .object([.init("a", .string("x"))]))
        #expect(result.allDiagnostics.map(\.code).contains(.duplicateKey))
        #expect(result.allDiagnostics.first { $0.code == .duplicateKey }?.pointer == "/labels/a")

        let invalidLater = decoder.decode(contentState: Array(#"{"labels":{"a":"x","a":5}}"#.utf8))
        #expect(invalidLater.state?["labels"] == .object([.init("a", .string("x"))]))
        #expect(invalidLater.allDiagnostics.filter { $0.code == .duplicateKey }.map(\.message) == [
            "key 'a' appears again, with a value this app version does not read as sent (expected a string, found a number); the first value is read, "
                + DecodeContext.firstOfRepeatedKey,
        ])
    }

    /// Keys that Swift's `String` takes for one (canonically equivalent spellings, written raw
    /// or escaped, in a map of any size) are one key, as `JSONDecoder`'s dictionary holds them.
    @Test func canonicallyEquivalentKeysAreOneKey() throws {
        let decoder = try ContentStateDecoder(schema: Self.schema, version: 1)
        let many = (0..<40).map { "\"k\($0)\":\"v\"" }.joined(separator: ",")
        for labels in [
            "{\"\u{E9}\":\"x\",\"e\u{301}\":\"y\"}", #"{"\u00e9":"x","e\u0301":"y"}"#, "{\"\u{E9}\":\"x\",\"e\\u0301\":\"y\"}",
            "{\(many),\"\u{E9}\":\"x\",\"e\u{301}\":\"y\"}", "{\"K\":\"x\",\"\u{212A}\":\"y\"}",
        ] {
            let payload = #"{"labels":"# + labels + #","scores":{},"rounds":[],"items":{}}"#
            let foundation = try JSONDecoder().decode(Board.self, from: Data(payload.utf8))
            let result = decoder.decode(contentState: Array(payload.utf8))
            #expect(result.appDecodes, "\(payload): \(result.allDiagnostics.map(\.message))")
            #expect(try result.decode(Board.self) == foundation, "\(payload)")
            #expect(result.allDiagnostics.map(\.code) == [.duplicateKey], "\(payload): \(result.allDiagnostics.map(\.message))")
        }
    }

    /// A repeated key's value with a problem inside it is named by its whole pointer.
    @Test func aRepeatedKeysProblemIsPlacedFromTheRoot() throws {
        let decoder = try ContentStateDecoder(schema: Self.schema, version: 2)
        let result = decoder.decode(contentState: Array(#"{"items":{"k":{"name":"n"},"k":{"name":1}}}"#.utf8))
        let message = result.allDiagnostics.first { $0.code == .duplicateKey }?.message
        #expect(message?.hasPrefix("key 'k' appears again, with a value this app version does not read as sent (at /items/k/name: expected a string") == true,
                "\(message ?? "")")
    }

    /// `max-items` counts a map's entries.
    @Test func maxItemsCountsEntries() throws {
        let decoder = try ContentStateDecoder(schema: Self.schema, version: 2)
        let result = decoder.decode(contentState: Array(#"{"labels":{"a":"x","b":"y","c":"z"}}"#.utf8))
        #expect(result.state?["labels"] == .object([]))
        #expect(result.allDiagnostics.contains { $0.message.hasPrefix("3 items is more than max-items 2") }, "\(result.allDiagnostics.map(\.message))")
    }

    /// `max-key-length`: a longer key makes the map invalid (a schema's rule: a strict app
    /// takes it), in the decoder, the encoder and the rule walk.
    @Test func maxKeyLengthBoundsEachKey() throws {
        var fields = Self.schema.versions[1].contentState
        fields[0].constraints.maxKeyLength = 3
        var strictFields = Self.schema.versions[0].contentState
        strictFields[0].constraints.maxKeyLength = 3
        let schema = Schema(activity: "board", strictClients: [1], versions: [
            SchemaVersion(version: 1, contentState: strictFields), SchemaVersion(version: 2, contentState: fields),
        ])
        let payload = #"{"labels":{"abc":"x","abcd":"y"},"scores":{},"rounds":[],"items":{}}"#
        let tolerant = try ContentStateDecoder(schema: schema, version: 2).decode(contentState: Array(payload.utf8), file: "p.json")
        #expect(tolerant.state?["labels"] == .object([]))
        #expect(tolerant.allDiagnostics.map(\.description) == [
            "p.json:1:22: warning: at /labels/abcd: the key is 4 bytes, longer than max-key-length 3; 'labels' takes its default {} (at /labels) [invalid-defaulted]",
        ])
        let strict = try ContentStateDecoder(schema: schema, version: 1).decode(contentState: Array(payload.utf8))
        #expect(strict.appDecodes, "\(strict.allDiagnostics.map(\.message))")
        #expect(strict.allDiagnostics.contains { $0.code == .outOfRange })
        #expect(fields[0].violation(of: .object([.init("abcd", .string("y"))]))?.contains("the key is 4 bytes, longer than max-key-length 3") == true)
        #expect(fields[0].violation(of: .object([.init("abc", .string("y"))])) == nil)
    }

    /// The encoder writes a map's entries, checks each value, and refuses a key given twice.
    @Test func theEncoderWritesAndChecksAMap() throws {
        let encoder = try ContentStateEncoder(schema: Self.schema, version: 1)
        let board = Board(labels: ["a": "x"], scores: ["home": 3], rounds: [["r": 1]], items: ["k": Item(name: "n")])
        let encoded = try encoder.encode(board)
        #expect(encoded.succeeded, "\(encoded.diagnostics.map(\.message))")
        #expect(try JSONDecoder().decode(Board.self, from: Data(encoded.bytes)) == board)

        let state: (Value, Value) -> Value = { labels, scores in
            .object([.init("labels", labels), .init("scores", scores), .init("rounds", .array([])), .init("items", .object([]))])
        }
        let tooLong = encoder.encode(state(.object([.init("a", .string("toolongvalue"))]), .object([])))
        #expect(!tooLong.succeeded)
        #expect(tooLong.diagnostics.map(\.description) == ["<input>: error: 'labels': /a: 12 bytes is longer than max-length 8 (at /labels) [invalid-state]"],
                "\(tooLong.diagnostics.map(\.description))")
        let twice = encoder.encode(state(.object([.init("a", .string("x")), .init("a", .string("y"))]), .object([])))
        #expect(!twice.succeeded)
        let wrongType = encoder.encode(state(.array([]), .object([])))
        #expect(!wrongType.succeeded)
    }

    /// A default is checked by the map's rules, as `check` reports it.
    @Test func aDefaultIsCheckedByTheMapsRules() {
        let field = Self.schema.versions[1].contentState[0]
        #expect(field.violation(of: .object([.init("a", .string("x"))])) == nil)
        #expect(field.violation(of: .object([.init("a", .int(1))])) != nil)
        #expect(field.violation(of: .object([.init("a", .string("1")), .init("b", .string("2")), .init("c", .string("3"))])) != nil)
        #expect(field.violation(of: .array([])) != nil)
    }
}
