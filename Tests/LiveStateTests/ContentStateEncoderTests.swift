import Foundation
import LiveStateTestSupport
import Testing
@_spi(Scanner) @testable import LiveState
@testable import LiveStateTooling

/// A schema with every field type, defaults, and fields the encoder may drop or shorten.
let encodingSchema = Schema(
    activity: "card", attributesType: "CardAttributes",
    versions: [
        SchemaVersion(version: 1, contentState: [
            Field(name: "title", type: .string, defaultValue: .string(""), constraints: .init(maxLength: 64)),
            Field(name: "progress", type: .double, defaultValue: .double(0), constraints: .init(minimum: 0, maximum: 1)),
        ]),
        SchemaVersion(version: 2, contentState: [
            Field(name: "title", type: .string, defaultValue: .string(""), constraints: .init(maxLength: 64)),
            Field(name: "progress", type: .double, defaultValue: .double(0), constraints: .init(minimum: 0, maximum: 1)),
            Field(name: "count", type: .int, defaultValue: .int(0), constraints: .init(minimum: -1000, maximum: 1000)),
            Field(name: "express", type: .bool, defaultValue: .bool(false)),
            Field(name: "eta", type: .date, defaultValue: .date(0)),
            Field(name: "window", type: .dateRange, isOptional: true),
            Field(name: "link", type: .url, isOptional: true),
            Field(name: "status", type: .enumeration(.strings(["pending", "on/way", "done"])), defaultValue: .string("pending"), fallback: .string("pending")),
            Field(name: "level", type: .enumeration(.integers([1, 2, 3])), defaultValue: .int(1)),
            Field(name: "courier", type: .object(fields: [
                Field(name: "name", type: .string, defaultValue: .string(""), constraints: .init(maxLength: 32)),
                Field(name: "rating", type: .double, defaultValue: .double(0), constraints: .init(minimum: 0, maximum: 5)),
            ]), defaultValue: .object([.init("name", .string("")), .init("rating", .double(0))])),
            Field(name: "items", type: .array(items: Field(name: "", type: .string, constraints: .init(maxLength: 48))), defaultValue: .array([]), constraints: .init(maxItems: 60)),
            Field(name: "note", type: .string, isOptional: true, constraints: .init(maxLength: 3000), truncate: true),
            Field(name: "badge", type: .string, defaultValue: .string(""), constraints: .init(maxLength: 1000), dropPriority: 1),
            Field(name: "banner", type: .string, defaultValue: .string(""), constraints: .init(maxLength: 1000), dropPriority: 2),
        ]),
    ])

func encoder(elideDefaults: Bool = false, fit: Bool = false, broadcast: Bool = false, version: Int = 2) -> ContentStateEncoder {
    try! ContentStateEncoder(schema: encodingSchema, version: version, elideDefaults: elideDefaults, fit: fit, broadcast: broadcast)
}

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

@Suite struct ContentStateEncoderTests {
    @Test func writesSchemaOrderCompactWithDefaultsFilled() {
        let result = encoder().encode(.object([.init("progress", .double(0.6)), .init("title", .string("a/b \"c\""))]))
        #expect(result.succeeded)
        #expect(text(result.bytes) == #"{"title":"a/b \"c\"","progress":0.6,"count":0,"express":false,"eta":0,"status":"pending","level":1,"courier":{"name":"","rating":0},"items":[],"badge":"","banner":""}"#)
    }

    @Test func writesNumbersInShortestRoundTripForm() {
        let state = Value.object([.init("progress", .double(0.1)), .init("eta", .date(752000000.5)), .init("courier", .object([.init("name", .string("Li")), .init("rating", .double(4.9))]))])
        let written = text(encoder().encode(state).bytes)
        #expect(written.contains(#""progress":0.1,"#))
        #expect(written.contains(#""eta":752000000.5,"#))
        #expect(written.contains(#""rating":4.9}"#))
    }

    @Test func writesAWholeBody() throws {
        let envelope = ContentStateEncoder.Envelope(event: .start, timestamp: 1795000000, staleDate: 1795003600, relevanceScore: 50,
                                                    alert: .object([.init("title", .string("Hi")), .init("body", .string("There"))]),
                                                    attributes: .object([.init("orderId", .string("A1"))]))
        let result = encoder(elideDefaults: true).encodePayload(.object([.init("title", .string("x"))]), envelope: envelope)
        #expect(text(result.bytes) == #"{"aps":{"timestamp":1795000000,"event":"start","attributes-type":"CardAttributes","attributes":{"orderId":"A1"},"alert":{"title":"Hi","body":"There"},"relevance-score":50,"stale-date":1795003600,"content-state":{"title":"x"}}}"#)
        #expect(result.budget?.body == result.bytes.count)
    }

    /// A state file read for a strict version is read as a server means it: an optional key it
    /// leaves out is written as the field's default, which synthesized `Codable` then reads, not
    /// as `null` (read strictly, it was `nil`, and written `null`); a null an `on-null: default`
    /// field takes is written as the default, as for any version.
    @Test func aStrictVersionsStateFileGetsItsDefaultsWritten() throws {
        let schema = Schema(activity: "score", attributesType: "ScoreAttributes", strictClients: [1], versions: [
            SchemaVersion(version: 1, contentState: [
                Field(name: "home", type: .int, defaultValue: .int(0)),
                Field(name: "note", type: .string, defaultValue: .string("none"), isOptional: true),
                Field(name: "away", type: .int, defaultValue: .int(0), nullTakesDefault: true),
            ]),
        ])
        let encoded = try ContentStateEncoder(schema: schema, version: 1).encode(stateJSON: Array(#"{"home":2,"away":null}"#.utf8))
        #expect(encoded.succeeded, "\(encoded.diagnostics)")
        #expect(text(encoded.bytes) == #"{"home":2,"note":"none","away":0}"#)
    }

    /// A null in a field whose null takes its default (`on-null: default`) stands for the
    /// default: written as the default (another version may need the key), left out when
    /// defaults are elided, in a nested object too; in a field without the rule it is refused.
    @Test func aNullThatTakesTheDefaultIsWrittenAsTheDefault() throws {
        let home = { (nullTakesDefault: Bool) in
            Field(name: "home", type: .int, defaultValue: .int(0), rejectsInvalid: true, nullTakesDefault: nullTakesDefault)
        }
        let schema = { (field: Field) in Schema(activity: "score", attributesType: "ScoreAttributes", versions: [SchemaVersion(version: 1, contentState: [field])]) }
        let state = Value.object([.init("home", .null)])
        let taking = try ContentStateEncoder(schema: schema(home(true)), version: 1)
        #expect(text(taking.encode(state).bytes) == #"{"home":0}"#)
        let eliding = try ContentStateEncoder(schema: schema(home(true)), version: 1, elideDefaults: true)
        #expect(text(eliding.encode(state).bytes) == "{}")
        let refusing = try ContentStateEncoder(schema: schema(home(false)), version: 1).encode(state)
        #expect(!refusing.succeeded)
        #expect(refusing.diagnostics.map(\.pointer) == ["/home"])
        let score = Field(name: "score", type: .object(fields: [home(true)]), defaultValue: .object([.init("home", .int(0))]))
        let nested = try ContentStateEncoder(schema: schema(score), version: 1)
        #expect(text(nested.encode(.object([.init("score", .object([.init("home", .null)]))])).bytes) == #"{"score":{"home":0}}"#)
        // The long way (a URL made portable) reads the null as the fast one does.
        let link = Field(name: "link", type: .url, defaultValue: .string("https://example.com"))
        let both = Schema(activity: "score", attributesType: "ScoreAttributes", versions: [SchemaVersion(version: 1, contentState: [home(true), link])])
        let spaced = Value.object([.init("home", .null), .init("link", .string("https://example.com/a b"))])
        let long = try ContentStateEncoder(schema: both, version: 1).encode(spaced)
        #expect(long.diagnostics.map(\.code) == ["url-made-portable"])
        #expect(text(long.bytes) == #"{"home":0,"link":"https://example.com/a%20b"}"#)
        let longElided = try ContentStateEncoder(schema: both, version: 1, elideDefaults: true).encode(spaced)
        #expect(text(longElided.bytes) == #"{"link":"https://example.com/a%20b"}"#)
    }

    @Test func invalidStateIsRefused() {
        let result = encoder().encode(.object([.init("progress", .double(2)), .init("bogus", .int(1))]))
        #expect(result.bytes.isEmpty)
        #expect(!result.succeeded)
        #expect(result.diagnostics.map(\.code) == ["invalid-state", "invalid-state"])
        #expect(result.diagnostics.map(\.pointer) == ["/progress", "/bogus"])
    }

    /// The state's own members keep the rule every object value's members keep, asked of one
    /// place (`ObjectPlan.field(ofMember:)`): a field, given once, every required one given. The
    /// state's words name the version; a nested object's are the value check's.
    @Test func theStatesMembersKeepTheRuleOfEveryObjects() throws {
        let schema = Schema(activity: "m", versions: [SchemaVersion(version: 4, contentState: [
            Field(name: "a/b", type: .string),
            Field(name: "card", type: .object(fields: [Field(name: "name", type: .string)]), isOptional: true),
        ])])
        let encoder = try ContentStateEncoder(schema: schema)
        let given: [Value.Member] = [
            .init("card", .null), .init("zz", .int(1)), .init("card", .null), .init("zz", .int(2)),
        ]
        let result = encoder.encode(.object(given))
        #expect(result.bytes.isEmpty)
        #expect(result.diagnostics.map(\.message) == [
            "required field 'a/b' has no value",
            "version 4 has no field 'zz'",
            "member 'card' appears twice",
            "version 4 has no field 'zz'",
        ])
        #expect(result.diagnostics.map(\.pointer) == ["/a~1b", "/zz", "/card", "/zz"])
        // The same rules one object down, in the value check's words.
        let card = try #require(schema.versions[0].contentState.last)
        #expect(card.violation(of: .object([.init("zz", .int(1))])) == "unknown member 'zz'")
        #expect(card.violation(of: .object([.init("name", .string("n")), .init("name", .string("m"))])) == "member 'name' appears twice")
        #expect(card.violation(of: .object([])) == "missing required member 'name'")
        // Given once and known, the state is written.
        #expect(encoder.encode(.object([.init("a/b", .string("x"))])).succeeded)
    }

    @Test func readStateFillsDefaultsAndRefusesWhatDoesNotFit() throws {
        let (state, problems) = encoder().readState(Array(#"{"title":"x","progress":0.5}"#.utf8))
        #expect(problems.isEmpty)
        #expect(state?["count"] == .int(0))
        let (bad, badProblems) = encoder().readState(Array(#"{"title":5,"status":"lost","other":1}"#.utf8))
        #expect(bad == nil)
        #expect(badProblems.map(\.severity) == [.error, .error, .error])
        #expect(badProblems.last?.message == "version 2 has no field 'other'")
        // What the app would do is said of the app version, with why nothing is written.
        #expect(badProblems.first?.message == "expected a string, found a number; 'title' takes its default \"\" in app version 2; "
            + "the state does not fit the version, so nothing is written", "\(badProblems.map(\.message))")
    }

    /// A `format: decimal` number that a `Double` does not hold exactly is refused where it
    /// is, at any depth: the app's `Decimal` holds every digit, and the encoder would have
    /// written another value. One a `Double` holds exactly is written.
    @Test func readStateRefusesADecimalItWouldRewrite() throws {
        func decimal(_ name: String) -> Field {
            var field = Field(name: name, type: .double, isOptional: true)
            field.setNumberFormat(.decimal)
            return field
        }
        let schema = Schema(activity: "a", versions: [SchemaVersion(version: 1, contentState: [
            decimal("price"),
            Field(name: "order", type: .object(fields: [decimal("total")]), isOptional: true),
            Field(name: "lines", type: .array(items: decimal("")), isOptional: true),
            Field(name: "taxes", type: .map(items: decimal("")), isOptional: true),
            Field(name: "ratio", type: .double, isOptional: true),
        ])])
        let encoder = try ContentStateEncoder(schema: schema)
        let kept = encoder.readState(Array(#"{"price":19.99,"order":{"total":123456789012345},"lines":[0.1,1e-5,9007199254740992],"ratio":0.1000000000000000000001}"#.utf8))
        #expect(kept.diagnostics.isEmpty, "\(kept.diagnostics)")
        #expect(kept.state != nil)
        let state = #"{"price":123456789012345678,"order":{"total":0.1000000000000000000001},"lines":[1,3.14159265358979323846],"#
            + #""taxes":{"a/b":19.99000000000000000001}}"#
        let (refused, problems) = encoder.readState(Array(state.utf8), file: "s.json")
        #expect(refused == nil)
        func refusal(_ column: Int, _ written: String, _ read: String, _ pointer: String) -> String {
            "s.json:1:\(column): error: \(written) is more precise than a Double, in which LiveState holds numbers: the app's Decimal would read "
                + "\(read) from what the encoder writes, not the value given; send at most 15 significant digits, which a Double always holds "
                + "(at \(pointer)) [invalid-state]"
        }
        #expect(problems.map(\.description) == [
            refusal(10, "123456789012345678", "123456789012345680", "/price"),
            refusal(46, "0.1000000000000000000001", "0.1", "/order/total"),
            refusal(83, "3.14159265358979323846", "3.141592653589793", "/lines/1"),
            refusal(122, "19.99000000000000000001", "19.99", "/taxes/a~1b"),
        ])
        // 17 digits that a Double does not hold (past 2^53) are refused too.
        #expect(encoder.readState(Array(#"{"price":12345678901234567}"#.utf8)).diagnostics.map(\.code) == [DiagnosticCode.invalidState])
        // Given under an alias, at any depth, it is found where it is.
        var aliased = decimal("price")
        aliased.aliases = ["cost"]
        let renamed = try ContentStateEncoder(schema: Schema(activity: "a", versions: [SchemaVersion(version: 1, contentState: [
            aliased, Field(name: "order", type: .object(fields: [aliased]), isOptional: true, aliases: ["basket"]),
        ])]))
        let (none, found) = renamed.readState(Array(#"{"cost":123456789012345678,"basket":{"cost":0.1000000000000000000001}}"#.utf8))
        #expect(none == nil)
        #expect(found.map(\.pointer) == ["/cost", "/basket/cost"], "\(found)")
    }

    /// A state that gives a field under two of its names (its own and an alias) with two
    /// values gets the value the decoder's rule keeps (the field's own name, then the earliest
    /// alias) written, and a warning at each other one; the same value twice says nothing.
    @Test func readStateWarnsOfAFieldGivenTwiceUnderItsNames() throws {
        let schema = Schema(activity: "a", versions: [SchemaVersion(version: 1, contentState: [
            Field(name: "title", type: .string, defaultValue: .string(""), aliases: ["heading", "caption"]),
            Field(name: "eta", type: .date, defaultValue: .date(0), aliases: ["when"]),
        ])])
        let encoder = try ContentStateEncoder(schema: schema)
        let (state, problems) = encoder.readState(Array(#"{"caption":"c","heading":"h","when":5,"eta":5,"title":"t"}"#.utf8), file: "s.json")
        #expect(state?["title"] == .string("t"))
        #expect(problems.map(\.description) == [
            "s.json:1:2: warning: 'caption' gives 'title' again, with another value than 'title', whose value is written (at /caption) [duplicate-key]",
            "s.json:1:16: warning: 'heading' gives 'title' again, with another value than 'title', whose value is written (at /heading) [duplicate-key]",
        ])
        let (aliases, aliasProblems) = encoder.readState(Array(#"{"caption":"c","heading":"h"}"#.utf8))
        #expect(aliases?["title"] == .string("h"))
        #expect(aliasProblems.map(\.message) == ["'caption' gives 'title' again, with another value than 'heading', whose value is written"])
        #expect(encoder.readState(Array(#"{"heading":"h","title":"h"}"#.utf8)).diagnostics.isEmpty)
        // The same name twice is one duplicate-key finding, the decoder's.
        let (_, again) = encoder.readState(Array(#"{"title":"a","title":"b","caption":"a"}"#.utf8))
        #expect(again.map(\.message) == ["key 'title' appears again; the first value is read, as JSONDecoder keeps it (JSONSerialization keeps the last; which one the device keeps is not documented)"])
    }

    /// The same inside objects, arrays' objects and arrays of arrays of objects, with their
    /// pointers.
    @Test func readStateWarnsOfAFieldGivenTwiceInsideObjects() throws {
        let stop = Field(name: "stop", type: .object(fields: [Field(name: "label", type: .string, defaultValue: .string(""), aliases: ["name"])]),
                         defaultValue: .object([.init("label", .string(""))]))
        let schema = Schema(activity: "a", versions: [SchemaVersion(version: 1, contentState: [
            Field(name: "title", type: .string, defaultValue: .string("")),
            stop,
            Field(name: "stops", type: .array(items: stop), defaultValue: .array([])),
            Field(name: "legs", type: .array(items: Field(name: "leg", type: .array(items: stop))), defaultValue: .array([])),
        ])])
        let encoder = try ContentStateEncoder(schema: schema)
        let json = #"{"title":"t","stop":{"name":"a","label":"b"},"stops":[{"label":"c"},{"name":"d","label":"e"}],"legs":[[],[{"label":"f","name":"g"}]]}"#
        let (state, problems) = encoder.readState(Array(json.utf8), file: "s.json")
        #expect(state?["stop"]?["label"] == .string("b"))
        #expect(problems.map(\.description) == [
            "s.json:1:22: warning: 'name' gives 'label' again, with another value than 'label', whose value is written (at /stop/name) [duplicate-key]",
            "s.json:1:70: warning: 'name' gives 'label' again, with another value than 'label', whose value is written (at /stops/1/name) [duplicate-key]",
            "s.json:1:120: warning: 'name' gives 'label' again, with another value than 'label', whose value is written (at /legs/1/0/name) [duplicate-key]",
        ])
        // A schema without aliases reads no state twice.
        let plain = try ContentStateEncoder(schema: Schema(activity: "a", versions: [SchemaVersion(version: 1, contentState: [
            Field(name: "title", type: .string, defaultValue: .string("")),
        ])]))
        #expect(plain.readState(Array(#"{"title":"t"}"#.utf8)).diagnostics.isEmpty)
    }

    @Test func elidesOnlyDefaultsEveryVersionShares() {
        // title and progress exist in version 1 with the same defaults; the rest only in version 2.
        let result = encoder(elideDefaults: true).encode(.object([.init("title", .string("")), .init("count", .int(3))]))
        #expect(text(result.bytes) == #"{"count":3}"#)
        #expect(result.diagnostics.allSatisfy { $0.code == "elided-default" && $0.severity == .info })
    }

    @Test func elisionNeverLeavesOutForAStrictClientOrAnotherDefault() {
        var schema = encodingSchema
        schema.versions[0].contentState[1].defaultValue = .double(0.5)
        let differentDefault = try! ContentStateEncoder(schema: schema, elideDefaults: true)
        #expect(text(differentDefault.encode(.object([])).bytes).contains(#""progress":0"#))
        schema.strictClients = [1]
        let strict = try! ContentStateEncoder(schema: schema, elideDefaults: true)
        #expect(text(strict.encode(.object([])).bytes).contains(#""title":"""#))
    }

    @Test func encodesAnyEncodableType() throws {
        struct Card: Encodable {
            var title = "Hi"
            var eta = Date(timeIntervalSinceReferenceDate: 100)
            var window: ClosedRange<Date> = Date(timeIntervalSinceReferenceDate: 1)...Date(timeIntervalSinceReferenceDate: 2)
            var link = URL(string: "app://order/1")!
            var level: Int8 = 2
            var items = ["a"]
        }
        let result = try encoder().encode(Card())
        #expect(result.succeeded, "\(result.diagnostics)")
        let written = text(result.bytes)
        #expect(written.contains(#""eta":100,"window":[1,2],"link":"app://order/1","#))
        #expect(written.contains(#""level":2,"#))
    }

    @Test func encodableWithUnknownFieldIsRefused() throws {
        struct Extra: Encodable { var title = "x"; var extra = 1 }
        let result = try encoder().encode(Extra())
        #expect(result.bytes.isEmpty)
        // What the state does not fit, alone: an empty state's findings were added before.
        #expect(result.diagnostics.map(\.message) == ["version 2 has no field 'extra'"])
    }

    /// A state given as JSON, read and written in one call, bare or in a body: a date in UNIX
    /// seconds is a warning said once, at its place in the text; the body's verdict adds what
    /// the state's findings do not say.
    @Test func aStateGivenAsJSONIsReadAndWrittenInOneCall() throws {
        let json = Array(#"{"title":"x","eta":1795000000}"#.utf8)
        let envelope = ContentStateEncoder.Envelope(event: .start, timestamp: 1_795_000_000)
        for envelope in [nil, envelope] {
            let result = encoder().encode(stateJSON: json, file: "s.json", envelope: envelope)
            let unix = result.diagnostics.filter { $0.code == "unix-date-in-date-field" }
            #expect(unix.map(\.description) == [
                "s.json:1:20: warning: 1795000000 looks like UNIX time: the device reads seconds since 2001-01-01, so this is the year 2057; send 816692800 (at /eta) [unix-date-in-date-field]",
            ])
            // A start without an alert is the body's own finding, kept.
            #expect(result.diagnostics.contains { $0.code == "missing-aps-key" } == (envelope != nil), "\(result.diagnostics)")
            #expect(result.succeeded == (envelope == nil))
        }
        let refused = encoder().encode(stateJSON: Array(#"{"title":5}"#.utf8), envelope: envelope)
        #expect(refused.bytes.isEmpty)
        // The state's finding alone: no body was written to get a verdict. Its code is the one
        // for every value a state cannot have; the decoder's (`invalid-defaulted`) names a
        // warning, what a tolerant app does with it (the encoder audit's L2).
        #expect(refused.diagnostics.map(\.code) == ["invalid-state"])
        #expect(refused.diagnostics.first?.severity == .error)
        #expect(refused.diagnostics.first?.message.hasSuffix(
            "'title' takes its default \"\" in app version 2; the state does not fit the version, so nothing is written") == true,
                "\(refused.diagnostics)")
        let unknownCase = encoder().encode(stateJSON: Array(#"{"status":"lost"}"#.utf8), envelope: envelope)
        #expect(unknownCase.diagnostics.map(\.code) == ["invalid-state"] && unknownCase.diagnostics.first?.pointer == "/status")
    }
}

/// A written body gets `PayloadValidator`'s verdict for the version; the content-state alone does not.
@Suite struct EncodedPayloadVerdictTests {
    private let state = Value.object([.init("title", .string("On its way"))])

    /// Each other live version that cannot decode a written body is warned of (a server sends
    /// it to every device); the encoder a sender builds (`checkingBodiesWith: nil`) leaves that
    /// to the sender, which checks every version itself.
    @Test func eachOtherVersionInTheFieldThatCannotDecodeTheBodyIsWarnedOf() throws {
        let schema = Schema(activity: "card", attributesType: "CardAttributes", versions: [
            SchemaVersion(version: 1, contentState: [Field(name: "title", type: .string), Field(name: "count", type: .int)]),
            SchemaVersion(version: 2, contentState: [Field(name: "title", type: .string)]),
        ])
        let update = ContentStateEncoder.Envelope(event: .update, timestamp: 1_795_000_000)
        let result = try ContentStateEncoder(schema: schema, version: 2).encodePayload(state, envelope: update)
        #expect(result.succeeded)
        let drop = try #require(result.diagnostics.first { $0.code == .droppedByVersion })
        #expect(drop.severity == .warning && drop.pointer == "/count")
        #expect(drop.message == "app version 1: the app drops this update; first error: missing-required-key at /count in the content-state")
        let old = try ContentStateEncoder(schema: schema, version: 1)
            .encodePayload(.object([.init("title", .string("On its way")), .init("count", .int(1))]), envelope: update)
        #expect(old.succeeded && !old.diagnostics.contains { $0.code == .droppedByVersion }, "version 2 ignores count: \(old.diagnostics)")
        let forSender = try ContentStateEncoder(schema: schema, version: 2, checkingBodiesWith: nil).encodePayload(state, envelope: update)
        #expect(forSender.diagnostics.isEmpty)
        // Asked as lint asks: a strict version that synthesized `Codable` fails on, and a start
        // whose attributes a version cannot read, drop the push though a tolerant reading has a
        // state (both went unsaid).
        let strict = Schema(activity: "card", attributesType: "CardAttributes", strictClients: [1], versions: [
            SchemaVersion(version: 1, contentState: [Field(name: "title", type: .string), Field(name: "note", type: .string, defaultValue: .string(""))],
                          attributes: [Field(name: "order", type: .string)]),
            SchemaVersion(version: 2, contentState: [Field(name: "title", type: .string)], attributes: [Field(name: "shop", type: .string)]),
        ])
        let strictDrop = try ContentStateEncoder(schema: strict, version: 2).encodePayload(state, envelope: update)
        #expect(strictDrop.diagnostics.map(\.code) == [.droppedByVersion] && strictDrop.diagnostics.first?.pointer == "/note", "\(strictDrop.diagnostics)")
        let start = ContentStateEncoder.Envelope(event: .start, timestamp: 1_795_000_000,
                                                 alert: .object([.init("title", .string("T")), .init("body", .string("B"))]),
                                                 attributes: .object([.init("shop", .string("S"))]), inputPushToken: true)
        let startDrop = try ContentStateEncoder(schema: strict, version: 2).encodePayload(state, envelope: start)
        #expect(startDrop.diagnostics.map(\.message) == [
            "app version 1: the activity does not start; first error: missing-required-key at /order in the attributes",
        ], "\(startDrop.diagnostics)")
        // A typed state: its body is asked about too; its content-state alone, the fast path, not.
        struct Card: Encodable { var title = "On its way" }
        let typed = try ContentStateEncoder(schema: schema, version: 2)
        #expect(try typed.encode(Card(), envelope: update).diagnostics.map(\.code) == [.droppedByVersion])
        #expect(try typed.encode(Card()).diagnostics.isEmpty)
        #expect(typed.encode(stateJSON: Array(#"{"title":"On its way"}"#.utf8)).diagnostics.map(\.code) == [.droppedByVersion])
    }

    @Test func aStartWithoutAlertOrAttributesIsNotASuccess() {
        let result = encoder().encodePayload(state, envelope: .init(event: .start, timestamp: 1_795_000_000))
        #expect(!result.succeeded)
        #expect(!result.bytes.isEmpty, "the body is still there to look at")
        let alert = result.diagnostics.first { $0.code == "missing-aps-key" }
        #expect(alert?.pointer == "/aps/alert" && alert?.position == nil)
        let complete = encoder().encodePayload(state, envelope: .init(
            event: .start, timestamp: 1_795_000_000, alert: .object([.init("title", .string("Card")), .init("body", .string("On its way"))]),
            attributes: .object([])))
        #expect(complete.succeeded, "\(complete.diagnostics)")
    }

    /// The verdict follows the encoder's options as they are when it writes (the sidecar sets
    /// them per request): a broadcast cannot start an activity.
    @Test func theVerdictIsForTheOptionsInForce() {
        var encoder = encoder()
        encoder.broadcast = true
        let start = ContentStateEncoder.Envelope(
            event: .start, timestamp: 1_795_000_000, alert: .object([.init("title", .string("Card")), .init("body", .string("On its way"))]),
            attributes: .object([]))
        #expect(encoder.encodePayload(state, envelope: start).diagnostics.map(\.code).contains("broadcast-start"))
    }

    @Test func warningsJoinTheResultAndInfosDoNot() {
        let result = encoder(elideDefaults: true).encodePayload(state, envelope: .init(timestamp: 1_795_000_000, staleDate: 1_794_999_000))
        #expect(result.succeeded)
        #expect(result.diagnostics.map(\.code).contains("stale-date-before-timestamp"))
        #expect(!result.diagnostics.map(\.code).contains("defaulted"))
        #expect(encoder().encode(state).diagnostics.isEmpty)
    }

    /// A caller that checks bodies itself builds the encoder with no validator (the sender), or
    /// with one it already has (the sidecar): the verdict is that validator's, for its version.
    @Test func theBodyIsCheckedWithTheValidatorGivenOrNotAtAll() throws {
        let start = ContentStateEncoder.Envelope(event: .start, timestamp: 1_795_000_000)
        let unchecked = try ContentStateEncoder(schema: encodingSchema, version: 2, checkingBodiesWith: nil)
        let written = unchecked.encodePayload(state, envelope: start)
        #expect(written.succeeded && written.diagnostics.isEmpty, "\(written.diagnostics)")
        #expect(written.bytes == encoder().encodePayload(state, envelope: start).bytes)

        let validator = try PayloadValidator(schema: encodingSchema, version: 2)
        let checked = try ContentStateEncoder(schema: encodingSchema, version: 2, checkingBodiesWith: validator.checker)
        #expect(checked.encodePayload(state, envelope: start).diagnostics.map(\.code).contains("missing-aps-key"))
    }
}

@Suite struct FitTests {
    func big(_ count: Int) -> String { String(repeating: "x", count: count) }

    @Test func overBudgetWithoutFitIsAnError() {
        let result = encoder().encode(.object([.init("note", .string(big(2900))), .init("badge", .string(big(900))), .init("banner", .string(big(900)))]))
        #expect(!result.succeeded)
        #expect(result.diagnostics.last?.code == "over-budget")
        #expect(result.diagnostics.last?.message.contains("--fit") == true)
        // A bare content-state has no body to name.
        #expect(result.diagnostics.last?.message.contains("(content-state ") == true, "\(result.diagnostics.map(\.message))")
        #expect(result.diagnostics.last?.message.contains("body") == false)
    }

    @Test func fitDropsLowestPriorityFirstThenTruncates() throws {
        let state = Value.object([.init("note", .string(big(2900))), .init("badge", .string(big(900))), .init("banner", .string(big(900)))])
        let result = encoder(fit: true).encodePayload(state, envelope: .init(timestamp: 1_795_000_000))
        #expect(result.succeeded, "\(result.diagnostics)")
        // badge (drop-priority 1) goes first, then banner (2), then note is shortened, as far as needed.
        let steps = result.diagnostics.map { "\($0.code) \($0.pointer ?? "")" }
        #expect(!steps.isEmpty)
        #expect(steps == Array(["dropped-to-fit /badge", "dropped-to-fit /banner", "truncated-to-fit /note"].prefix(steps.count)))
        #expect(result.bytes.count <= 4096)
    }

    /// A `drop-priority` field equal to the default every version shows without it is left out
    /// first, whatever its priority, and said to lose nothing: `badge`'s value went first (its
    /// priority is lower), and `banner`'s default was "left out; the app shows its default", as
    /// though a value had been lost (the encoder audit's L3).
    @Test func aFieldEqualToItsDefaultIsDroppedFirstAndSaidToLoseNothing() throws {
        // The note's length that puts the body over by 1 to 12 bytes: `,"banner":""` is 12.
        let over = try #require((2000...3200).lazy.map { length -> (Int, Int)? in
            let state = Value.object([.init("note", .string(big(length))), .init("badge", .string(big(900))), .init("banner", .string(""))])
            let budget = encoder().encodePayload(state, envelope: .init(timestamp: 1_795_000_000)).budget
            let excess = budget.map { max($0.body, $0.deviceWorstCase ?? 0) - $0.limit } ?? 0
            return (1...12).contains(excess) ? (length, excess) : nil
        }.first { $0 != nil } ?? nil)
        let state = Value.object([.init("note", .string(big(over.0))), .init("badge", .string(big(900))), .init("banner", .string(""))])
        let result = encoder(fit: true).encodePayload(state, envelope: .init(timestamp: 1_795_000_000))
        #expect(result.succeeded, "\(result.diagnostics)")
        #expect(result.diagnostics.map { "\($0.code) \($0.pointer ?? "")" } == ["dropped-to-fit /banner"])
        #expect(result.diagnostics.first?.message == "'banner' (drop-priority 2) is left out to fit the budget; it equals the default every app version shows without it")
    }

    @Test func truncatesOnACharacterBoundaryWithAnEllipsis() throws {
        // 3000 bytes as sent, 4000 as the device may write them ('/' escaped): only the
        // re-encoding is over budget.
        let note = String(repeating: "é/", count: 1000)
        let result = encoder(fit: true).encodePayload(.object([.init("note", .string(note))]), envelope: .init(timestamp: 1_795_000_000))
        #expect(result.succeeded, "\(result.diagnostics)")
        let validator = try PayloadValidator(schema: encodingSchema)
        let lint = validator.validate(result.bytes)
        #expect(!lint.hasErrors, "\(lint.diagnostics)")
        guard case .string(let shortened)? = lint.state?["note"] else { Issue.record("no note"); return }
        #expect(shortened.hasSuffix("…"))
        #expect(shortened.hasPrefix("é/é/"))
        #expect(String(shortened.dropLast()).allSatisfy { $0 == "é" || $0 == "/" })
    }

    /// A body over its limit by a few bytes, whose `truncate` string is full of `/`: the cut,
    /// counted as the device writes it (a `/` is two bytes there), saves half as much in the
    /// body, so it is cut again until the body fits (it was refused, "shortened as far as its
    /// constraints allow", after one cut of 150 to 147 bytes).
    @Test func aCutCountedInDeviceBytesIsRepeatedUntilTheBodyFits() throws {
        let schema = Schema(activity: "t", versions: [SchemaVersion(version: 1, contentState: [
            Field(name: "pad", type: .string, defaultValue: .string("")),
            Field(name: "note", type: .string, defaultValue: .string(""), truncate: true),
        ])])
        let note = String(repeating: "a/", count: 75)
        let probe = try ContentStateEncoder(schema: schema)
            .encodePayload(.object([.init("note", .string(note))]), envelope: .init(timestamp: 1_795_000_000))
        for over in [1, 2, 3, 10, 40] {
            let state = Value.object([.init("pad", .string(big(4096 - probe.bytes.count + over))), .init("note", .string(note))])
            let result = try ContentStateEncoder(schema: schema, fit: true).encodePayload(state, envelope: .init(timestamp: 1_795_000_000))
            #expect(result.succeeded, "over by \(over): \(result.diagnostics.map(\.message))")
            #expect(result.bytes.count <= 4096 && result.bytes.count >= 4096 - 6, "over by \(over): \(result.bytes.count)")
        }
    }

    /// A cut stops at the field's `min-length`, rather than leaving the field whole, and a
    /// string no longer than "…" is never "shortened" to it.
    @Test func aCutStopsAtMinLength() {
        #expect(ContentStateEncoder.shorten(String(repeating: "x", count: 200), by: 150, minLength: 100).utf8.count == 100)
        #expect(ContentStateEncoder.shorten(String(repeating: "x", count: 200), by: 150).utf8.count == 50)
        #expect(ContentStateEncoder.shorten(String(repeating: "é", count: 100), by: 150, minLength: 100).utf8.count == 101)
        #expect(ContentStateEncoder.shorten("", by: 10) == "")
        #expect(ContentStateEncoder.shorten("ab", by: 10) == "ab")
        #expect(ContentStateEncoder.shorten("abcd", by: 10) == "…")
    }

    @Test func cannotFitIsAnError() {
        // 60 items of 48 slashes: 3060 bytes as sent, about 6000 as the device may write them,
        // and items may be neither dropped nor shortened.
        let items = Value.array((0..<60).map { _ in .string(String(repeating: "/", count: 48)) })
        let many = encoder(fit: true).encode(.object([.init("items", items)]))
        let succeeded = many.succeeded
        #expect(!succeeded)
        #expect(many.diagnostics.last?.code == "over-budget")
        #expect(many.diagnostics.last?.message.contains("does not fit even") == true)
    }

    /// A strict version (synthesized `Codable`) drops an update without a key it declares that
    /// is not optional, whatever its default: fitting keeps such a field and says why.
    @Test func fitKeepsAFieldAStrictVersionNeeds() throws {
        var schema = encodingSchema
        schema.versions[0].contentState.append(Field(name: "badge", type: .string, defaultValue: .string("")))
        schema.strictClients = [1]
        let state = Value.object([.init("note", .string(big(2900))), .init("badge", .string(big(900))), .init("banner", .string(big(900)))])
        let result = try ContentStateEncoder(schema: schema, version: 2, fit: true).encodePayload(state, envelope: .init(timestamp: 1_795_000_000))
        #expect(!result.diagnostics.contains { $0.pointer == "/badge" }, "\(result.diagnostics)")
        #expect(result.diagnostics.contains { $0.code == "dropped-to-fit" && $0.pointer == "/banner" })
        #expect(text(result.bytes).contains(#""badge":"xxx"#))
        // Version 1 reads the fitted body, as it does every update with a badge.
        let lint = try PayloadValidator(schema: schema, version: 1).validate(result.bytes)
        #expect(lint.appDecodes, "\(lint.diagnostics)")
        // Too big even so: the error names the field kept and the version that needs it.
        let huge = Value.object([.init("badge", .string(big(1000))), .init("items", .array((0..<60).map { _ in .string(big(48)) })),
                                 .init("title", .string(big(64))), .init("banner", .string(big(1000))), .init("note", .string(big(10)))])
        let over = try ContentStateEncoder(schema: schema, version: 2, fit: true).encode(huge)
        #expect(over.diagnostics.last?.code == "over-budget")
        #expect(over.diagnostics.last?.message.hasSuffix("; 'badge' (drop-priority 1) is kept, as app version 1 drops an update without it") == true,
                "\(over.diagnostics)")
    }

    @Test func broadcastFitsAgainst5120() {
        let state = Value.object([.init("note", .string(big(2900))), .init("badge", .string(big(900))), .init("banner", .string(big(900)))])
        let result = encoder(fit: true, broadcast: true).encodePayload(state, envelope: .init(timestamp: 1_795_000_000))
        // The body may pass 4096 for broadcast, but the content-state limit on the device still holds.
        #expect(result.succeeded, "\(result.diagnostics)")
        #expect((result.budget?.contentState ?? .max) <= 4096)
    }
}

/// Random states that the version admits, from a seeded generator so failures reproduce.
struct StateGenerator {
    var rng: SplitMix64

    mutating func string(maxLength: Int?) -> String {
        let alphabet: [String] = ["a", "Z", "0", " ", "/", "\"", "\\", "é", "€", "😀", "\n", "\u{1}", "~"]
        var text = ""
        let limit = min(maxLength ?? 40, 40)
        while true {
            let next = alphabet.randomElement(using: &rng)!
            if text.utf8.count + next.utf8.count > limit || Int.random(in: 0..<8, using: &rng) == 0 { break }
            text += next
        }
        return text
    }

    mutating func number(_ field: Field) -> Double {
        let low = field.constraints.minimum ?? -1e6
        let high = field.constraints.maximum ?? 1e9
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return low
        case 1: return high
        default: return Double.random(in: low...high, using: &rng)
        }
    }

    mutating func value(_ field: Field) -> Value {
        if field.isOptional && Bool.random(using: &rng) { return .null }
        switch field.type {
        case .string: return .string(string(maxLength: field.constraints.maxLength))
        case .url: return .string("app://x/" + String(Int.random(in: 0..<1000, using: &rng)))
        case .int: return .int(Int(number(field).rounded(.towardZero)))
        case .double: return .double(number(field))
        case .date: return .date(number(field).magnitude)
        case .bool: return .bool(Bool.random(using: &rng))
        case .dateRange:
            let lower = Double.random(in: 0...1e9, using: &rng)
            return .dateRange(lower: lower, upper: lower + Double.random(in: 0...1e4, using: &rng))
        case .enumeration(let values): return values.values.randomElement(using: &rng)!
        case .array(let items):
            let count = Int.random(in: 0...min(field.constraints.maxItems ?? 5, 5), using: &rng)
            return .array((0..<count).map { _ in value(items) })
        case .object(let fields): return .object(fields.map { .init($0.name, value($0)) })
        case .map(let items):
            let count = Int.random(in: 0...min(field.constraints.maxItems ?? 5, 5), using: &rng)
            return .object((0..<count).map { .init("k\($0)", value(items)) })
        }
    }

    mutating func state(_ version: SchemaVersion) -> Value {
        .object(version.contentState.compactMap { field in
            Bool.random(using: &rng) || field.isRequired ? .init(field.name, value(field)) : nil
        })
    }
}

@Suite struct EncodingPropertyTests {
    @Test func decodeOfEncodeIsTheSameState() throws {
        var generator = StateGenerator(rng: .init(state: 42))
        let encoder = encoder()
        let decoder = try ContentStateDecoder(schema: encodingSchema, version: 2)
        for _ in 0..<500 {
            let state = generator.state(encoder.version)
            let result = encoder.encode(state)
            #expect(result.succeeded, "\(state): \(result.diagnostics)")
            let decoded = decoder.decode(contentState: result.bytes)
            #expect(decoded.diagnostics.allSatisfy { $0.code == "defaulted" }, "\(text(result.bytes)): \(decoded.diagnostics)")
            // Encoding completes the state with defaults; decoding the output gives exactly that.
            let complete = encoder.fullState(encoder.version.contentState.compactMap { field in
                guard case .object(let given) = state, let member = given.first(where: { $0.name == field.name }) else { return nil }
                return member
            })
            let expected = Value.object(complete.filter { !($0.value.isNull && (encoder.version.field($0.name)?.defaultValue == nil)) })
            var actual = decoded.state
            if case .object(let members)? = actual {
                actual = .object(members.filter { !($0.value.isNull && (encoder.version.field($0.name)?.defaultValue == nil)) })
            }
            #expect(actual == expected, "\(text(result.bytes))")
        }
    }

    @Test func fitAlwaysProducesAPayloadLintAccepts() throws {
        var generator = StateGenerator(rng: .init(state: 7))
        let encoder = encoder(elideDefaults: true, fit: true)
        let validator = try PayloadValidator(schema: encodingSchema)
        var fitted = 0
        for round in 0..<300 {
            guard case .object(var members) = generator.state(encoder.version) else { continue }
            // Make one in three states large enough to need fitting.
            if round % 3 == 0 {
                members.removeAll { ["note", "badge", "banner"].contains($0.name) }
                members.append(.init("note", .string(String(repeating: "ab/é", count: Int.random(in: 400...590, using: &generator.rng)))))
                members.append(.init("badge", .string(String(repeating: "b", count: 900))))
                members.append(.init("banner", .string(String(repeating: "c", count: 900))))
            }
            let result = encoder.encodePayload(.object(members), envelope: .init(timestamp: 1795000000))
            guard result.succeeded else {
                // Only a state too large even after fitting may fail.
                #expect(result.diagnostics.last?.code == "over-budget", "\(result.diagnostics)")
                continue
            }
            if result.diagnostics.contains(where: { $0.code.rawValue.hasSuffix("-to-fit") }) { fitted += 1 }
            let lint = validator.validate(result.bytes)
            #expect(!lint.hasErrors, "\(text(result.bytes)): \(lint.diagnostics)")
            #expect(lint.budget.deviceWorstCase ?? .max <= 4096)
        }
        #expect(fitted > 50)
    }
}

/// The one-pass writer: strings copied in runs found 8 bytes at a time, numbers without
/// `String`, members found by position, and the device's worst case measured while writing.
@Suite struct OnePassEncodingTests {
    /// JSON string escaping the plain way, one byte at a time: what the writer must match.
    func referenceString(_ string: String) -> String {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0x08: out += Array("\\b".utf8)
            case 0x0C: out += Array("\\f".utf8)
            case 0..<0x20: out += Array(("\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }

    func written(_ string: String) -> (text: String, slashes: Int) {
        var writer = StateWriter(capacity: 4)
        defer { writer.release() }
        let slashes = writer.writeString(string)
        return (text(Array(writer.bytes)), slashes)
    }

    @Test func escapesOnlyWhatJSONRequiresAtEveryPosition() {
        #expect(written("").text == #""""#)
        #expect(written("a/b").text == #""a/b""#)
        #expect(written("a/b").slashes == 1)
        #expect(written("say \"hi\"\\ now\n\t\r\u{8}\u{C}\u{1}\u{1F}").text == #""say \"hi\"\\ now\n\t\r\b\f\u0001\u001f""#)
        #expect(written("é😀 über/straße").text == "\"é😀 über/straße\"")
        // Every special byte at every offset of strings from 0 to 40 bytes: both the
        // 8-byte words and the tail.
        let specials: [String] = ["\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "é", "\u{7F}"]
        for length in 0...40 {
            for special in specials {
                for offset in stride(from: 0, through: length, by: 3) {
                    let plain = String(repeating: "x", count: length)
                    let index = plain.index(plain.startIndex, offsetBy: offset)
                    let string = String(plain[..<index]) + special + String(plain[index...])
                    let result = written(string)
                    #expect(result.text == referenceString(string), "\(string.debugDescription)")
                    #expect(result.slashes == string.utf8.count { $0 == UInt8(ascii: "/") })
                    #expect(result.text.utf8.count + result.slashes == ByteBudget.escapedLength(string))
                }
            }
        }
    }

    /// The word-at-a-time tests flag bytes next to a special byte that are not special
    /// themselves (a borrow between bytes): each pair of special and neighbouring bytes, side by
    /// side at each offset of the 8-byte words, the tail and a string shorter than 8.
    @Test func escapesExactlyTheSpecialBytesWhenTheyStandSideBySide() {
        let bytes: [String] = ["\u{0}", "\u{1F}", " ", "!", "\"", "#", ".", "/", "0", "[", "\\", "]", "\u{7F}", "é"]
        for length in [3, 7, 9, 16, 21] {
            for first in bytes {
                for second in bytes {
                    for offset in 0...length {
                        let plain = String(repeating: "x", count: length)
                        let index = plain.index(plain.startIndex, offsetBy: offset)
                        let string = String(plain[..<index]) + first + second + String(plain[index...])
                        let result = written(string)
                        #expect(result.text == referenceString(string), "\(string.debugDescription)")
                        #expect(result.slashes == string.utf8.count { $0 == UInt8(ascii: "/") }, "\(string.debugDescription)")
                        // The budget measures by the same scan the writer writes by.
                        #expect(result.text.utf8.count + result.slashes == ByteBudget.escapedLength(string), "\(string.debugDescription)")
                    }
                }
            }
        }
    }

    @Test func writesNumbersAsBefore() {
        func number(_ double: Double) -> String {
            var writer = JSONWriter()
            writer.writeNumber(double)
            return text(writer.bytes)
        }
        #expect(number(0.1) == "0.1")
        #expect(number(1e-7) == "1e-07")
        #expect(number(-0.0) == "-0")
        #expect(number(1e21) == "1e+21")
        #expect(number(9_007_199_254_740_991) == "9007199254740991")
        #expect(number(-9_007_199_254_740_991) == "-9007199254740991")
        #expect(number(9_007_199_254_740_992) == "9007199254740992.0")
        #expect(number(.nan) == "null")
        #expect(number(-.infinity) == "null")
        #expect(number(752000000) == "752000000")
        #expect(number(-3) == "-3")
        #expect(number(0.6) == "0.6")
        #expect(number(.leastNonzeroMagnitude) == "5e-324")
        var writer = JSONWriter()
        writer.write(.array([.int(0), .int(7), .int(-7), .int(10), .int(Int.max), .int(Int.min), .int(1_000_000)]))
        #expect(text(writer.bytes) == "[0,7,-7,10,9223372036854775807,-9223372036854775808,1000000]")
    }

    @Test func shortDecimalsAreExactlyTheDescription() {
        var rng = SplitMix64(state: 0x5EED)
        var samples: [Double] = [0.1, 0.6, 4.9, 0.0001, 0.00015, 1e-4, 0.3, 0.30000000000000004, 1.005, 4.35, 2.675,
                                 99_999_999.999999, 999_999_999.5, 123_456_789.125, 0.000999, 1e-4.nextDown, 1e9.nextDown, 0.5]
        for decimals in 1...8 {
            let scale = (0..<decimals).reduce(1.0) { value, _ in value * 10 }
            for _ in 0..<3000 {
                samples.append(Double(Int.random(in: -1_000_000_000_000...1_000_000_000_000, using: &rng)) / scale)
                samples.append(Double(Int.random(in: -10_000...10_000, using: &rng)) / scale)
            }
        }
        for _ in 0..<20000 {
            samples.append(Double.random(in: -1e9...1e9, using: &rng))
            samples.append(Double.random(in: 0...1, using: &rng))
            samples.append(Double(bitPattern: UInt64.random(in: 0x3F10_0000_0000_0000...0x41D0_0000_0000_0000, using: &rng)))
        }
        var short = 0
        for double in samples where double.isFinite && double != double.rounded(.towardZero) {
            var writer = StateWriter(capacity: 8)
            defer { writer.release() }
            let extra = writer.writeNumber(double)
            let written = text(Array(writer.bytes))
            #expect(written == double.description, "\(double)")
            #expect(written.utf8.count + extra == ByteBudget.worstCaseNumber(double))
            var probe = StateWriter(capacity: 8)
            if probe.writeShortDecimal(double) != nil { short += 1 }
            probe.release()
        }
        // The fast form takes most numbers with few decimals.
        #expect(short > 20000)
    }

    @Test func integersAreWrittenAsTheirDescriptionByBothWriters() {
        var samples = [0, 9, 10, 11, 99, 100, -1, -9, -10, 1_000_000, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            samples += [power - 1, power, power + 1, -power]
        }
        for int in samples {
            var state = StateWriter(capacity: 4)
            state.writeInt(int)
            #expect(text(Array(state.bytes)) == String(int))
            state.release()
            var json = JSONWriter(capacity: 4)
            json.writeInt(int)
            #expect(text(json.bytes) == String(int))
        }
    }

    @Test func aWriterIntoAnArrayKeepsWhatItWroteWhetherItFitsOrOutgrowsIt() {
        let fitting = StateWriter.writingArray(capacity: 64) { writer -> Int in
            writer.writeString("short/")
        }
        #expect(text(fitting.bytes) == #""short/""#)
        #expect(fitting.result == 1)
        // 16 bytes lent, about 3,000 written: the writer moves to buffers of its own, and the
        // array holds every byte.
        let long = String(repeating: "0123456789/", count: 270)
        let outgrown = StateWriter.writingArray(capacity: 16) { writer -> Int in
            var slashes = writer.writeString(long)
            writer.append(UInt8(ascii: ","))
            slashes += writer.writeString(long)
            return slashes
        }
        #expect(text(outgrown.bytes) == "\"\(long)\",\"\(long)\"")
        #expect(outgrown.result == 540)
    }

    @Test func aStateLongerThanTheFirstBufferIsWrittenWhole() {
        // Over the 992 bytes the encoder first writes into, under the 4 KB budget.
        let note = String(repeating: "ab/", count: 600)
        let state = Value.object([.init("title", .string("t")), .init("note", .string(note))])
        let result = encoder().encode(state)
        #expect(result.succeeded, "\(result.diagnostics)")
        #expect(result.bytes.count > 1800)
        #expect(text(result.bytes).contains("\"note\":\"\(note)\""))
        let decoded = try! ContentStateDecoder(schema: encodingSchema, version: 2).decode(contentState: result.bytes)
        guard case .object(let members)? = decoded.state else { Issue.record("not decoded"); return }
        #expect(members.first { $0.name == "note" }?.value == .string(note))
    }

    @Test func membersOutOfOrderWriteTheSameBytes() {
        let inOrder = Value.object([.init("title", .string("a")), .init("progress", .double(0.25)), .init("count", .int(3)), .init("note", .string("n"))])
        let shuffled = Value.object([.init("note", .string("n")), .init("count", .int(3)), .init("title", .string("a")), .init("progress", .double(0.25))])
        let first = encoder().encode(inOrder)
        let second = encoder().encode(shuffled)
        #expect(first.succeeded)
        #expect(first == second)
        #expect(text(first.bytes).hasPrefix(#"{"title":"a","progress":0.25,"count":3,"#))
    }

    /// A state given one member twice is refused, as an object inside it is (the second value
    /// was dropped without a word before). The decoder's rule for JSON bytes, where the device
    /// keeps the first, is another matter: `readState` never hands the encoder such a state.
    @Test func aRepeatedMemberIsRefused() {
        let result = encoder().encode(.object([.init("title", .string("first")), .init("title", .string("second"))]))
        #expect(!result.succeeded)
        #expect(result.diagnostics.map(\.message) == ["member 'title' appears twice"])
    }

    @Test func invalidNestedValuesAreRefusedWithTheirPlace() {
        let result = encoder().encode(.object([
            .init("courier", .object([.init("name", .string("Li")), .init("rating", .double(9))])),
            .init("items", .array([.string("ok"), .int(3)])),
            .init("level", .int(7)),
        ]))
        #expect(result.bytes.isEmpty)
        #expect(result.diagnostics.map(\.message) == [
            "'level': the integer 7 is not one of 1, 2, 3",
            "'courier': /rating: 9 is greater than maximum 5",
            "'items': /1: expected a string, found the integer 3",
        ])
    }

    @Test func worstCaseMeasuredWhileWritingMatchesTheDeviceState() throws {
        var generator = StateGenerator(rng: .init(state: 99))
        let decoder = try ContentStateDecoder(schema: encodingSchema, version: 2)
        for elideDefaults in [false, true] {
            let encoder = encoder(elideDefaults: elideDefaults)
            let elidable = Set(zip(encoder.version.contentState, encoder.elidableFields).filter(\.1).map(\.0.name))
            for _ in 0..<300 {
                guard case .object(var members) = generator.state(encoder.version) else { continue }
                members.shuffle(using: &generator.rng)
                let result = encoder.encode(.object(members))
                #expect(result.succeeded, "\(result.diagnostics)")
                guard let state = decoder.decode(contentState: result.bytes).state else {
                    Issue.record("\(text(result.bytes)) does not decode")
                    continue
                }
                #expect(result.budget?.deviceWorstCase == ByteBudget.deviceWorstCase(state), "\(text(result.bytes))")
                #expect(result.budget?.contentState == result.bytes.count)
                // The long way (every field checked, then written) writes the same.
                let slow = encoder.write(encoder.fullState(Self.inSchemaOrder(members, encoder)).filter { member in
                    !(member.value.isNull && encoder.version.field(member.name)?.defaultValue == nil)
                        && !(elideDefaults && elidable.contains(member.name) && encoder.version.field(member.name)?.defaultValue == member.value)
                }, envelope: nil)
                #expect(slow.bytes == result.bytes)
                #expect(slow.budget.worstCase == result.budget?.deviceWorstCase)
            }
        }
    }

    static func inSchemaOrder(_ members: [Value.Member], _ encoder: ContentStateEncoder) -> [Value.Member] {
        encoder.version.contentState.compactMap { field in members.first { $0.name == field.name } }
    }

    @Test func specialNumbersAndSlashesCountInTheWorstCase() throws {
        let state = Value.object([
            .init("title", .string("a/b/c")), .init("progress", .double(0.1)), .init("count", .int(-5)),
            .init("eta", .date(-0.0)), .init("window", .dateRange(lower: 1e-7, upper: 1e21)),
            .init("status", .string("on/way")), .init("link", .string("https://example.com/a/b")),
        ])
        let result = encoder().encode(state)
        #expect(result.succeeded, "\(result.diagnostics)")
        #expect(text(result.bytes).contains(#""eta":-0,"window":[1e-07,1e+21],"link":"https://example.com/a/b","status":"on/way""#))
        let decoded = try ContentStateDecoder(schema: encodingSchema, version: 2).decode(contentState: result.bytes)
        #expect(result.budget?.deviceWorstCase == decoded.state.map(ByteBudget.deviceWorstCase))
    }

    @Test func overBudgetWithoutFitStillWritesAndMeasures() {
        let result = encoder().encode(.object([.init("note", .string(String(repeating: "/", count: 2100)))]))
        #expect(!result.succeeded)
        #expect(!result.bytes.isEmpty)
        #expect(result.diagnostics.map(\.code) == ["over-budget"])
        // 2100 escaped slashes. Over the limit, the worst case is measured exactly: the left-out
        // `window` and `link`, optionals without a default, are left out by synthesized
        // `Encodable` too (its bound counted them as `"window":null,"link":null`, 26 bytes).
        #expect(result.budget?.deviceWorstCase == result.bytes.count + 2100)
    }
}

/// The `Encodable` path writes the encoded tree as JSON, reads it back as the app version reads
/// it (`readState`: defaults, numbers as the field's type, a `Date`'s seconds, a range's two
/// bounds) and encodes that state. What it writes must read back to the same bytes, and a
/// problem must be the error `readState` words for it.
@Suite struct EncodableTests {
    func check<T: Encodable>(_ value: T, _ encoder: ContentStateEncoder = encoder(), succeeds: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try encoder.encode(value)
        #expect(result.succeeded == succeeds, "\(result.diagnostics)", sourceLocation: sourceLocation)
        guard succeeds else {
            #expect(result.bytes.isEmpty || result.diagnostics.contains { $0.severity == .error }, sourceLocation: sourceLocation)
            return
        }
        let (state, problems) = encoder.readState(result.bytes)
        // A date past 2032 looks like UNIX time, and is said so, as it is in a body.
        #expect(problems.allSatisfy { $0.code == "unix-date-in-date-field" }, "\(problems)", sourceLocation: sourceLocation)
        #expect(encoder.encode(state ?? .null).bytes == result.bytes, sourceLocation: sourceLocation)
        let envelope = ContentStateEncoder.Envelope(event: .update, timestamp: 1795000000)
        let body = try encoder.encode(value, envelope: envelope)
        #expect(body.bytes == encoder.encodePayload(state ?? .null, envelope: envelope).bytes, sourceLocation: sourceLocation)
    }

    struct Courier: Encodable { var name = "Li"; var rating = 4.5 }
    enum Status: String, Encodable { case pending, onTheWay = "on/way", done, lost }

    @Test func validStatesReadBackToThemselves() throws {
        struct Full: Encodable {
            var title = "Hi \"there\" / é"
            var progress = 0.1
            var count = -3
            var express = true
            var eta = Date(timeIntervalSinceReferenceDate: 12.5)
            var window: ClosedRange<Date>? = Date(timeIntervalSinceReferenceDate: 1)...Date(timeIntervalSinceReferenceDate: 2)
            var link: URL? = URL(string: "https://example.com/x?y=1")
            var status = Status.onTheWay
            var level = 3
            var courier = Courier()
            var items = ["a", "b/c"]
            var note: String?
            var badge = "gold"
        }
        try check(Full(), succeeds: true)
        struct Reordered: Encodable { var items = ["x"]; var courier = Courier(); var title = "t" }
        try check(Reordered(), succeeds: true)
        struct Numbers: Encodable { var progress = 1; var eta = 5.0; var count: Int8 = 4; var window = [3, 4] }
        try check(Numbers(), succeeds: true)
        struct Nulls: Encodable {
            var note: String? = nil
            var link: URL? = nil
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(note, forKey: .note)
                try container.encode(link, forKey: .link)
            }
            enum CodingKeys: String, CodingKey { case note, link }
        }
        try check(Nulls(), succeeds: true)
        struct Empty: Encodable {}
        try check(Empty(), succeeds: true)
        struct PartialCourier: Encodable { struct Name: Encodable { var name = "Bo" }; var courier = Name() }
        try check(PartialCourier(), succeeds: true)
    }

    /// The decoder's rules decide what the tree is: an `Int` in a `double` field, a `Double`
    /// in a `date` field and two numbers in a `date-range` one are the field's type.
    @Test func numbersAndRangesAreReadAsTheFieldsTypes() throws {
        struct Numbers: Encodable { var progress = 1; var eta = 5.5; var window = [3, 4] }
        let written = text(try encoder().encode(Numbers()).bytes)
        #expect(written.contains(#""progress":1,"#))
        #expect(written.contains(#""eta":5.5,"#))
        #expect(written.contains(#""window":[3,4]"#))
        let (state, _) = encoder().readState(Array(written.utf8))
        #expect(state?["progress"] == .double(1) && state?["eta"] == .date(5.5) && state?["window"] == .dateRange(lower: 3, upper: 4))
    }

    @Test func problemsAreRefused() throws {
        struct WrongType: Encodable { var title = 5 }
        try check(WrongType(), succeeds: false)
        struct OutOfRange: Encodable { var progress = 2.0; var count = 5000 }
        try check(OutOfRange(), succeeds: false)
        struct UnknownEnum: Encodable { var status = Status.lost; var level = 9 }
        try check(UnknownEnum(), succeeds: false)
        struct Unknown: Encodable { var title = "x"; var extra = 1 }
        try check(Unknown(), succeeds: false)
        struct NestedUnknown: Encodable { struct C: Encodable { var name = "a"; var age = 3 }; var courier = C() }
        try check(NestedUnknown(), succeeds: false)
        struct Reversed: Encodable { var window = Date(timeIntervalSinceReferenceDate: 5)...Date(timeIntervalSinceReferenceDate: 5) ; var eta = Date(timeIntervalSinceReferenceDate: 2e9) }
        try check(Reversed(), succeeds: true)
        struct ShortRange: Encodable { var window = [1.0] }
        try check(ShortRange(), succeeds: false)
        struct BadURL: Encodable { var link = "https://a b" }
        try check(BadURL(), succeeds: false)
        struct TooMany: Encodable { var items = Array(repeating: "x", count: 61) }
        try check(TooMany(), succeeds: false)
        struct TooLong: Encodable { var title = String(repeating: "y", count: 65) }
        try check(TooLong(), succeeds: false)
        struct FractionalInt: Encodable { var count = 2.5 }
        try check(FractionalInt(), succeeds: false)
        struct IntegralDoubleForInt: Encodable { var count = 2.0 }
        try check(IntegralDoubleForInt(), succeeds: true)
        struct NegativeZero: Encodable { var progress = -0.0; var eta = -0.0 }
        try check(NegativeZero(), succeeds: true)
        struct NotFinite: Encodable { var progress = Double.nan }
        try check(NotFinite(), succeeds: false)
        struct NullRequired: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encodeNil(forKey: .title)
            }
            enum Key: String, CodingKey { case title }
        }
        try check(NullRequired(), succeeds: false)
        try check(3, succeeds: false)
        try check(["a", "b"], succeeds: false)
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    @Test func valueEncoderReplacesARepeatedKeyInItsPlace() throws {
        struct Repeats: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: AnyKey.self)
                try container.encode("a", forKey: AnyKey("title"))
                try container.encode(2, forKey: AnyKey("count"))
                try container.encode("b", forKey: AnyKey("title"))
                try container.encode("k1", forKey: AnyKey("K"))
                // The Kelvin sign is canonically equivalent to "K": the same key, as before.
                try container.encode("k2", forKey: AnyKey("\u{212A}"))
                try container.encode(["x", "y"], forKey: AnyKey("items"))
                var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("courier"))
                try nested.encode("Li", forKey: AnyKey("name"))
                try container.encode(Date(timeIntervalSinceReferenceDate: 3), forKey: AnyKey("count"))
            }
        }
        let tree = try ValueEncoder.encode(Repeats())
        #expect(tree == .object([
            .init("title", .string("b")), .init("count", .date(3)), .init("K", .string("k2")),
            .init("items", .array([.string("x"), .string("y")])), .init("courier", .object([.init("name", .string("Li"))])),
        ]))
    }

    @Test func aliasesAndRequiredFields() throws {
        let schema = Schema(activity: "card", versions: [
            SchemaVersion(version: 1, contentState: [
                Field(name: "title", type: .string),
                Field(name: "subtitle", type: .string, defaultValue: .string(""), aliases: ["subTitle"]),
            ]),
        ])
        let encoder = try ContentStateEncoder(schema: schema)
        struct Aliased: Encodable { var title = "a"; var subTitle = "b" }
        try check(Aliased(), encoder, succeeds: true)
        struct Missing: Encodable { var subtitle = "b" }
        try check(Missing(), encoder, succeeds: false)
        struct Both: Encodable { var title = "a"; var subtitle = "c" }
        try check(Both(), encoder, succeeds: true)
    }
}

/// Foundation's `JSONDecoder` and synthesized `init(rawValue:)` compare keys and enum raw
/// values as `String`s: a canonically equivalent spelling with other bytes (`cafe` + U+0301 for
/// `café`) matches. The decoder (with its tape and in full), the encoder and the schema validator
/// read it the same way.
@Suite struct CanonicalEquivalenceTests {
    static let precomposed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"
    static let schema = Schema(activity: "menu", versions: [
        SchemaVersion(version: 1, contentState: [
            Field(name: "dish", type: .enumeration(.strings([precomposed]))),
            Field(name: precomposed, type: .int),
        ]),
    ])

    @Test func anEnumValueInAnotherNormalizationIsAMember() throws {
        #expect(Self.precomposed == Self.decomposed)
        let field = Self.schema.versions[0].contentState[0]
        #expect(field.violation(of: .string(Self.decomposed)) == nil)
        let encoder = try ContentStateEncoder(schema: Self.schema, version: 1)
        let state = Value.object([.init("dish", .string(Self.decomposed)), .init(Self.precomposed, .int(1))])
        let encoded = encoder.encode(state)
        #expect(!encoded.bytes.isEmpty, "\(encoded.diagnostics)")
    }

    @Test func theDecoderMatchesKeysAndEnumValuesInAnotherNormalization() throws {
        let decoder = try ContentStateDecoder(schema: Self.schema, version: 1)
        let payload = Array(#"{"dish":"\#(Self.decomposed)","\#(Self.decomposed)":1}"#.utf8)
        let result = decoder.decode(contentState: payload)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        // The schema's spelling, as the app's enum case has it.
        #expect(result.state?["dish"] == .string(Self.precomposed))
        #expect(result.state?[Self.precomposed] == .int(1))
        // The reference decode (no tape) agrees.
        let inFull = decoder.decodeInFull(contentState: payload)
        #expect(inFull.diagnostics.isEmpty)
        #expect(inFull.state == result.state)
    }

    @Test func aKeyInTwoSpellingsIsADuplicateAndTheFirstIsKept() throws {
        // Foundation keeps the first of the two, as it does for the same bytes twice.
        let decoder = try ContentStateDecoder(schema: Self.schema, version: 1)
        let payload = Array(#"{"dish":"\#(Self.precomposed)","\#(Self.precomposed)":1,"\#(Self.decomposed)":2}"#.utf8)
        let result = decoder.decode(contentState: payload)
        #expect(result.state?[Self.precomposed] == .int(1))
        #expect(result.diagnostics.map(\.code) == ["duplicate-key"])
    }
}

/// Eliding a default is one rule, whichever way the encoder writes a state: in one pass, or
/// the long way (here forced by a URL it makes portable). An object field given as its default
/// `{}` is left out both ways, not only in one pass.
@Suite struct ElisionAgreementTests {
    @Test func anObjectDefaultIsElidedInOnePassAndTheLongWayAlike() throws {
        let schema = Schema(activity: "elide", versions: [
            SchemaVersion(version: 1, contentState: [
                Field(name: "title", type: .string),
                Field(name: "courier", type: .object(fields: [Field(name: "name", type: .string, defaultValue: .string(""))]),
                      defaultValue: .object([])),
                Field(name: "link", type: .url, isOptional: true),
            ]),
        ], minIOS: .liveActivities)
        let encoder = try ContentStateEncoder(schema: schema, elideDefaults: true)
        let onePass = encoder.encode(.object([.init("title", .string("x")), .init("courier", .object([]))]))
        let longWay = encoder.encode(.object([
            .init("title", .string("x")), .init("courier", .object([])), .init("link", .string("https://example.com/a b")),
        ]))
        #expect(String(decoding: onePass.bytes, as: UTF8.self) == #"{"title":"x"}"#)
        #expect(String(decoding: longWay.bytes, as: UTF8.self) == #"{"title":"x","link":"https://example.com/a%20b"}"#)
        #expect(onePass.diagnostics.map(\.code) == ["elided-default"])
        #expect(Set(longWay.diagnostics.map(\.code)) == ["elided-default", "url-made-portable"])
        #expect(longWay.diagnostics.first { $0.code == "elided-default" }?.pointer == "/courier")
    }
}

/// A state's own members keep the rule every object's do: each field once. A member given twice
/// is refused at the top as it is inside an object, not written with the first value.
@Suite struct RepeatedMemberTests {
    @Test func aMemberGivenTwiceIsRefusedAtTheTopAsInside() throws {
        let schema = Schema(activity: "twice", versions: [
            SchemaVersion(version: 1, contentState: [
                Field(name: "title", type: .string),
                Field(name: "courier", type: .object(fields: [Field(name: "name", type: .string)])),
            ]),
        ])
        let encoder = try ContentStateEncoder(schema: schema)
        let top = encoder.encode(.object([
            .init("title", .string("a")), .init("title", .string("b")), .init("courier", .object([.init("name", .string("x"))])),
        ]))
        #expect(!top.succeeded && top.bytes.isEmpty)
        #expect(top.diagnostics.map(\.message) == ["member 'title' appears twice"])
        #expect(top.diagnostics.map(\.pointer) == ["/title"])
        let nested = encoder.encode(.object([
            .init("title", .string("a")), .init("courier", .object([.init("name", .string("x")), .init("name", .string("y"))])),
        ]))
        #expect(!nested.succeeded)
        #expect(nested.diagnostics.map(\.message) == ["'courier': member 'name' appears twice"])
    }
}

/// An integer an `Int` does not hold, given for an enum of integers, is said to be too large,
/// not "not an integer" (the ugly-input audit's L11); a number with a fraction is still no
/// integer raw value.
@Suite struct IntegerEnumWordingTests {
    @Test func aTooLargeIntegerIsSaidToBeTooLarge() throws {
        let decoder = try ContentStateDecoder(schema: encodingSchema, version: 2)
        let huge = decoder.decode(contentState: Array(#"{"level":123456789012345678901234567890}"#.utf8))
        #expect(huge.diagnostics.first { $0.pointer == "/level" }?.message
            == "123456789012345678901234567890 is too large for an Int, so it is no raw value; 'level' takes its default 1", "\(huge.diagnostics)")
        let fraction = decoder.decode(contentState: Array(#"{"level":1.5}"#.utf8))
        #expect(fraction.diagnostics.first { $0.pointer == "/level" }?.message == "1.5 is not an integer raw value; 'level' takes its default 1")
    }
}
