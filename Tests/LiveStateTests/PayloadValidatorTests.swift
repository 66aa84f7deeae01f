import Foundation
import Testing
@testable import LiveState
import LiveStateTooling

/// A small schema with attributes for push-to-start, built in code.
let scoreSchema = Schema(
    activity: "score", attributesType: "ScoreAttributes", strictClients: [1],
    versions: [
        SchemaVersion(version: 1, contentState: [
            Field(name: "score", type: .string),
            Field(name: "minute", type: .int, defaultValue: .int(0)),
        ], attributes: [Field(name: "teamA", type: .string), Field(name: "teamB", type: .string)]),
        SchemaVersion(version: 2, contentState: [
            Field(name: "score", type: .string, defaultValue: .string("")),
            Field(name: "scoreA", type: .int, defaultValue: .int(0)),
            Field(name: "startsAt", type: .date, defaultValue: .date(0)),
            Field(name: "ratio", type: .double, defaultValue: .double(0)),
            Field(name: "note", type: .string, defaultValue: .string("")),
            Field(name: "phase", type: .enumeration(.strings(["live", "final"])), defaultValue: .string("live"), fallback: .string("live")),
            Field(name: "period", type: .int, defaultValue: .int(1), rejectsInvalid: true, constraints: .init(minimum: 1, maximum: 4)),
        ], attributes: [Field(name: "teamA", type: .string), Field(name: "teamB", type: .string)]),
    ])

func lint(_ body: String, version: Int? = nil, broadcast: Bool = false) -> ValidationResult {
    let validator = try! PayloadValidator(schema: scoreSchema, version: version, options: .init(broadcast: broadcast))
    return validator.validate(Array(body.utf8), file: "p.json")
}

func body(_ aps: String, extra: String = "") -> String {
    #"{"aps":{"# + aps + "}" + extra + "}"
}

@Suite struct PayloadValidatorTests {
    @Test func cleanUpdateHasNoFindingsAboveInfo() {
        let result = lint(body(#""timestamp":1795000000,"event":"update","content-state":{"score":"2-1","scoreA":2}"#))
        #expect(result.diagnostics.allSatisfy { $0.severity == .info }, "\(result.diagnostics)")
        #expect(result.appDecodes)
        #expect(result.event == .update)
        #expect(result.state?["scoreA"] == .int(2))
    }

    @Test func appDataBesideAPSIsFine() {
        let result = lint(body(#""timestamp":1795000000,"event":"end""#, extra: #","deepLink":"app://x","aps2":{}"#))
        #expect(!result.hasErrors, "\(result.diagnostics)")
    }

    @Test func missingTimestampAndEventAreErrors() {
        let result = lint(body(#""content-state":{}"#))
        let missing = result.diagnostics.filter { $0.code == "missing-aps-key" }
        #expect(missing.map(\.pointer) == ["/aps/timestamp", "/aps/event"])
        #expect(missing.allSatisfy { $0.scope == .envelope && $0.position?.column == 8 })
        // Each says what follows, as every error that drops the push does.
        // Without an event the push is no update: the device cannot tell what it is.
        #expect(missing.map(\.message) == [
            "aps has no timestamp (integer UNIX seconds); the device drops this push",
            "aps has no event (start, update or end); the device drops this push, as it cannot tell what it is",
        ])
        #expect(!result.appDecodes)
    }

    /// A library whose state model holds the envelope writes it one level too deep, inside the
    /// content-state: the errors that `aps` lacks its timestamp and event say which keys to move
    /// up, and the state's own errors name no update.
    @Test func anEnvelopeWrittenInsideTheContentStateIsNamed() {
        let result = lint(#"{"aps":{"alert":{"title":"Goal"},"content-state":{"content-state":{"title":"x"},"event":"update","timestamp":1795000000}}}"#)
        let missing = result.diagnostics.filter { $0.code == "missing-aps-key" }
        let hint = " (the content-state holds 'event', 'timestamp' and 'content-state': the envelope is written one level too deep, "
            + "inside content-state, where the device reads none of it; move them up into aps)"
        #expect(missing.map(\.message) == [
            "aps has no timestamp (integer UNIX seconds); the device drops this push" + hint,
            "aps has no event (start, update or end); the device drops this push, as it cannot tell what it is" + hint,
        ])
        #expect(result.diagnostics.allSatisfy { !$0.message.contains("drops this update") }, "\(result.diagnostics.map(\.message))")
        // Only the keys there are named.
        let one = lint(#"{"aps":{"event":"update","content-state":{"title":"x","timestamp":1795000000}}}"#)
        #expect(one.diagnostics.first { $0.code == "missing-aps-key" }?.message
            == "aps has no timestamp (integer UNIX seconds); the app drops this update (the content-state holds 'timestamp': the envelope "
                + "is written one level too deep, inside content-state, where the device reads none of it; move it up into aps)")
    }

    @Test func timestampInMillisecondsIsCaught() throws {
        let result = lint(body(#""timestamp":1795000000000,"event":"update","content-state":{}"#))
        let finding = try #require(result.diagnostics.first { $0.code == "date-in-milliseconds" })
        #expect(finding.pointer == "/aps/timestamp")
        #expect(finding.position?.column == 21)
        #expect(finding.message.contains("1795000000"))
        #expect(!result.diagnostics.contains { $0.code == "missing-aps-key" })
        // On an end's dismissal-date, the consequence is Apple's four-hour removal.
        let end = lint(body(#""timestamp":1795000000,"event":"end","dismissal-date":1795000600000,"content-state":{}"#))
        #expect(end.diagnostics.first { $0.code == "date-in-milliseconds" }?.message
            == "dismissal-date 1795000600000 is in milliseconds; the device reads UNIX seconds, a date thousands of years ahead "
            + "(the ended activity stays up to the system's four hours instead of leaving at that time): send 1795000600")
        // The device applies it, with a date thousands of years ahead.
        #expect(result.appDecodes)
        #expect(result.hasErrors)
    }

    /// Microseconds (Go's `UnixMicro`) and nanoseconds (`UnixNano`, `time.time_ns()`) are named
    /// as such and turned into seconds in one step, not divided by a thousand as milliseconds are.
    /// A number that is no date a sender means in any unit (from 2001 to 2100) gets no guess:
    /// `Int.max`, a "never" sentinel, was "in nanoseconds: send 9223372036" (the year 2262).
    @Test(arguments: [
        (1_795_000_000_123, "milliseconds", 1_795_000_000),
        (99_999_999_999_999, nil, nil),
        (100_000_000_000_000, nil, nil),
        (1_795_000_000_123_456, "microseconds", 1_795_000_000),
        (1_795_000_000_123_456_789, "nanoseconds", 1_795_000_000),
        (Int.max, nil, nil),
    ] as [(Int, String?, Int?)])
    func finerUnitsThanMillisecondsAreNamed(sent: Int, unit: String?, seconds: Int?) throws {
        let result = lint(body(#""timestamp":\#(sent),"event":"update","content-state":{}"#))
        let finding = try #require(result.diagnostics.first { $0.code == "date-in-milliseconds" })
        let said = unit.map { "is in \($0)" } ?? "is no date in UNIX seconds or a finer unit"
        #expect(finding.message == "timestamp \(sent) \(said); the device reads UNIX seconds, a date thousands of years ahead "
            + "(every later update is older, whether pushed with a timestamp in seconds or made by the app itself, and the device ignores it): "
            + "send \(seconds.map(String.init) ?? "the date in UNIX seconds")")
        // The advice is right the first time: what it says to send is UNIX seconds.
        guard let seconds else { return }
        let resent = lint(body(#""timestamp":\#(seconds),"event":"update","content-state":{}"#))
        #expect(!resent.diagnostics.contains { $0.code == "date-in-milliseconds" })
    }

    /// An `aps` key sent twice with the same value is a warning; with another value, an error
    /// (`JSONDecoder` keeps the first, `JSONSerialization` the last, and which the device keeps
    /// decides what it does), though the verdict stays the first value's, as every reader takes it.
    @Test func anAPSKeyRepeatedWithAnotherValueIsAnError() throws {
        for (members, severity) in [(#""timestamp":1795000000,"timestamp":1795000000"#, Severity.warning),
                                    (#""timestamp":1795000000,"timestamp":1"#, .error),
                                    (#""timestamp":1795000000,"event":"update","event":"end""#, .error),
                                    // The same value written otherwise is the same value (the review).
                                    (#""timestamp":1795000000,"timestamp":1795000000.0"#, .warning),
                                    (#""timestamp":1795000000,"event":"update","event":"upd\u0061te""#, .warning),
                                    (#""timestamp":1795000000,"alert":{"title":"a","body":"b"},"alert":{ "body" : "b", "title":"a" }"#, .warning)] {
            let event = members.contains("event") ? "" : #","event":"update""#
            let result = lint(body(members + event + #","content-state":{}"#))
            let repeated = try #require(result.diagnostics.first { $0.code == "duplicate-key" }, "\(result.diagnostics)")
            #expect(repeated.severity == severity, "\(members): \(repeated.message)")
            #expect(repeated.message.contains("with another value") == (severity == .error))
            #expect(result.appDecodes, "the first value's verdict: \(result.diagnostics)")
        }
        // Many repeats are each read once: the first values are found in one pass, and parsed once.
        let repeats = String(repeating: #","timestamp":1"#, count: 20_000)
        let many = lint(body(#""timestamp":1795000000,"event":"update""# + repeats + #","content-state":{}"#))
        let repeated = many.diagnostics.filter { $0.code == "duplicate-key" }
        #expect(repeated.count == 20_000 && repeated.allSatisfy { $0.severity == .error })
    }

    @Test func fractionalOrStringTimestampIsInvalid() {
        #expect(lint(body(#""timestamp":1795000000.5,"event":"end""#)).diagnostics.contains { $0.code == "invalid-aps-value" })
        #expect(lint(body(#""timestamp":"1795000000","event":"end""#)).diagnostics.contains { $0.code == "invalid-aps-value" })
    }

    /// A negative date is a date before 1970: in the past like `0`, judged by the same rules
    /// (a timestamp too old, a stale date before the timestamp, a dismissal date in the past,
    /// which Apple documents as "dismiss now").
    @Test func negativeDatesAreDatesInThePast() {
        func codes(_ aps: String) -> [String] {
            lint(body(aps)).diagnostics.filter { $0.severity > .info }.map(\.code.rawValue)
        }
        #expect(codes(#""timestamp":-1,"event":"end""#) == ["end-timestamp-too-old"])
        #expect(codes(#""timestamp":0,"event":"end""#) == ["end-timestamp-too-old"])
        #expect(codes(#""timestamp":-1,"event":"update","content-state":{"score":"1-0"}"#) == ["timestamp-too-old"])
        #expect(codes(#""timestamp":1795000000,"event":"end","dismissal-date":-1"#) == [])
        #expect(codes(#""timestamp":1795000000,"event":"update","content-state":{"score":"1-0"},"stale-date":-1"#)
            == ["stale-date-before-timestamp"])
        #expect(lint(body(#""timestamp":1795000000,"event":"end","dismissal-date":-1"#)).appDecodes)
    }

    @Test func unknownEventIsAnErrorWithAHint() throws {
        let result = lint(body(#""timestamp":1795000000,"event":"updated","content-state":{}"#))
        let finding = try #require(result.diagnostics.first { $0.code == "invalid-event" })
        #expect(finding.message.contains("did you mean 'update'"))
        #expect(lint(body(#""timestamp":1795000000,"event":1"#)).diagnostics.contains { $0.code == "invalid-event" })
    }

    @Test func updateNeedsContentStateAndEndDoesNot() {
        #expect(lint(body(#""timestamp":1795000000,"event":"update""#)).diagnostics.contains { $0.code == "missing-aps-key" && $0.pointer == "/aps/content-state" })
        let end = lint(body(#""timestamp":1795000000,"event":"end","dismissal-date":1795003600"#))
        #expect(!end.hasErrors)
        #expect(end.appDecodes)
    }

    @Test func startNeedsAttributesTypeAttributesAndAlert() {
        let result = lint(body(#""timestamp":1795000000,"event":"start","content-state":{}"#))
        let pointers = result.diagnostics.filter { $0.code == "missing-aps-key" }.map(\.pointer)
        #expect(pointers == ["/aps/attributes-type", "/aps/attributes", "/aps/alert"])
    }

    @Test func startIsCheckedAgainstTheSchemasAttributes() throws {
        let result = lint(body(#""timestamp":1795000000,"event":"start","content-state":{},"attributes-type":"ScoreAttrs","attributes":{"teamA":"A"},"alert":{"title":"Go","body":1}"#))
        #expect(result.diagnostics.contains { $0.code == "attributes-type-mismatch" && $0.message.contains("ScoreAttributes") })
        let missing = try #require(result.diagnostics.first { $0.code == "missing-required-key" })
        #expect(missing.scope == .attributes)
        #expect(missing.pointer == "/teamB")
        #expect(result.diagnostics.contains { $0.code == "invalid-aps-value" && $0.pointer == "/aps/alert/body" })
    }

    @Test func cleanStartPasses() {
        let result = lint(body(#""timestamp":1795000000,"event":"start","content-state":{"score":"0-0"},"attributes-type":"ScoreAttributes","attributes":{"teamA":"A","teamB":"B"},"alert":{"title":"Kick-off","body":{"loc-key":"K","loc-args":[]}},"input-push-token":1"#))
        #expect(!result.hasErrors, "\(result.diagnostics)")
    }

    @Test func broadcastCannotStart() {
        let start = #""timestamp":1795000000,"event":"start","content-state":{},"attributes-type":"ScoreAttributes","attributes":{"teamA":"A","teamB":"B"},"alert":{"title":"t","body":"b"}"#
        #expect(lint(body(start), broadcast: true).diagnostics.contains { $0.code == "broadcast-start" })
        #expect(!lint(body(start)).diagnostics.contains { $0.code == "broadcast-start" })
    }

    /// A start's key on a channel's update breaks Apple's broadcast rules (an error), but nothing
    /// reports the device dropping the update: it still applies, so no version counts it dropped.
    @Test func aStartKeyOnABroadcastUpdateIsAnErrorTheDeviceApplies() throws {
        let update = #""timestamp":1795000000,"event":"update","content-state":{"score":"1-0"},"input-push-channel":"Y2g=""#
        let broadcast = lint(body(update), broadcast: true)
        let finding = try #require(broadcast.diagnostics.first { $0.code == "broadcast-start-only-key" })
        #expect(finding.severity == .error)
        #expect(finding.pointer == "/aps/input-push-channel")
        #expect(finding.message.contains("the update still applies"))
        #expect(broadcast.hasErrors)
        #expect(broadcast.appDecodes)
        let device = lint(body(update))
        #expect(device.diagnostics.contains { $0.code == "start-only-key" && $0.severity == .warning })
        #expect(!device.hasErrors)
    }

    @Test func heuristicsAreWarnings() throws {
        let result = lint(body(#""timestamp":1795000000,"event":"update","content-state":{"startsAt":1795000000},"dismissal-date":1795003600,"stale-date":1794000000,"sound":"x""#))
        let codes = Dictionary(grouping: result.diagnostics, by: \.code)
        for code: DiagnosticCode in ["unix-date-in-date-field", "dismissal-date-outside-end", "stale-date-before-timestamp", "no-effect-aps-key"] {
            let finding = try #require(codes[code]?.first, "\(code)")
            #expect(finding.severity == .warning)
        }
        #expect(codes["unix-date-in-date-field"]?.first?.pointer == "/startsAt")
        #expect(codes["unix-date-in-date-field"]?.first?.message.contains("816692800") == true)
        #expect(!result.hasErrors)
    }

    static let start = #""timestamp":1795000000,"event":"start","content-state":{"score":"0-0"},"attributes-type":"ScoreAttributes","attributes":{"teamA":"A","teamB":"B"},"alert":{"title":"t","body":"b"}"#

    @Test func inputPushKeysAreCheckedOnStart() throws {
        // The start applies, with no token or channel to update the activity through: an error
        // that fails the check, while `appDecodes` stays true.
        for value in ["2", "true", #""1""#] {
            let token = lint(body(Self.start + #","input-push-token":"# + value))
            #expect(token.diagnostics.filter { $0.severity > .info }.map(\.code) == ["invalid-input-push"], "\(value)")
            #expect(token.hasErrors && token.appDecodes, "\(value)")
        }
        for value in [#""not base64!""#, "7"] {
            let channel = lint(body(Self.start + #","input-push-channel":"# + value))
            #expect(channel.diagnostics.filter { $0.severity > .info }.map(\.code) == ["invalid-input-push", "channel-start-before-ios18"], "\(value)")
            #expect(channel.hasErrors && channel.appDecodes, "\(value)")
        }
        // Neither (or a null one, read as left out): on iOS 18 the new activity gets no push
        // token. A broadcast never starts, which is said otherwise.
        let neither = lint(body(Self.start))
        let missing = try #require(neither.diagnostics.first { $0.severity > .info })
        #expect(neither.diagnostics.filter { $0.severity > .info }.map(\.code) == ["no-input-push"])
        #expect(missing.severity == .warning && missing.pointer == "/aps/input-push-token" && missing.position?.column == 8 && neither.appDecodes)
        #expect(missing.message.hasPrefix(#"a start without "input-push-token": 1 (or input-push-channel): on iOS 18 and later the new activity gets no push token"#))
        #expect(lint(body(Self.start + #","input-push-token":null"#)).diagnostics.filter { $0.severity > .info }.map(\.code) == ["no-input-push", "no-effect-aps-key"])
        #expect(lint(body(Self.start + #","input-push-token":1"#)).diagnostics.filter { $0.severity > .info }.isEmpty)
        let broadcast = try PayloadValidator(schema: scoreSchema, options: .init(broadcast: true)).validate(Array(body(Self.start).utf8))
        #expect(!broadcast.diagnostics.contains { $0.code == "no-input-push" })
        let both = lint(body(Self.start + #","input-push-token":1,"input-push-channel":"dGVzdA==""#))
        let conflict = try #require(both.diagnostics.first { $0.severity > .info })
        #expect(both.diagnostics.filter { $0.severity > .info }.map(\.code) == ["input-push-conflict", "channel-start-before-ios18"])
        #expect(conflict.message.contains("on one start"))
    }

    /// A start stale on arrival may not show at all; an update is only stale.
    @Test func aStaleStartMayNotShow() throws {
        let start = lint(body(Self.start + #","stale-date":1794999000"#))
        let finding = try #require(start.diagnostics.first { $0.code == "stale-date-before-timestamp" })
        #expect(finding.message.hasSuffix("stale on arrival, and may not show at all (one requested in the app with a stale date already past never did)"))
        let update = lint(body(#""timestamp":1795000000,"event":"update","content-state":{"score":"0-0"},"stale-date":1794999000"#))
        #expect(update.diagnostics.first { $0.code == "stale-date-before-timestamp" }?.message.hasSuffix("the activity is stale on arrival") == true)
    }

    /// Apple: a push-to-start with input-push-channel does not start on a device before iOS 18.
    /// An app version that runs there is told so (a warning: a server may send such starts only
    /// to devices on iOS 18); one whose min-ios is 18 is not.
    @Test func aChannelStartIsForIOS18() throws {
        let text = body(Self.start + #","input-push-channel":"dGVzdA==""#)
        for (minIOS, warned) in [(IOSVersion(17, 2), true), (IOSVersion(18), false)] {
            var schema = scoreSchema
            schema.minIOS = minIOS
            let result = try PayloadValidator(schema: schema).validate(Array(text.utf8))
            let finding = result.diagnostics.first { $0.code == "channel-start-before-ios18" }
            #expect((finding != nil) == warned, "\(minIOS)")
            #expect(finding.map { $0.severity == .warning && $0.message.contains("runs on iOS \(minIOS) and later") } ?? true)
            #expect(result.appDecodes)
        }
    }

    /// The device ignores a start's keys on update and end: one warning per key that names the
    /// event, and nothing about their values, however wrong.
    @Test(arguments: ["update", "end"])
    func startOnlyKeysAreIgnoredOutsideStart(event: String) throws {
        let keys = #""attributes-type":"OtherAttributes","attributes":{"teamA":1},"input-push-token":2,"input-push-channel":"dGVzdA==""#
        let result = lint(body(#""timestamp":1795000000,"event":"\#(event)","content-state":{"score":"1-0"},"# + keys))
        #expect(result.diagnostics.filter { $0.severity > .info }.map(\.code) == Array(repeating: "start-only-key", count: 4))
        #expect(result.diagnostics.filter { $0.severity > .info }.map(\.pointer) == [
            "/aps/attributes-type", "/aps/attributes", "/aps/input-push-token", "/aps/input-push-channel",
        ])
        let first = try #require(result.diagnostics.first { $0.code == "start-only-key" })
        #expect(first.message == "attributes-type only counts on start; the device ignores it on this \(event): leave it out")
        #expect(first.severity == .warning)
        #expect(result.appDecodes)
    }

    @Test func startWhoseAttributesFailStartsNothing() throws {
        let result = lint(body(#""timestamp":1795000000,"event":"start","content-state":{"score":"0-0"},"attributes-type":"ScoreAttributes","attributes":{"teamA":"A"},"alert":{"title":"t","body":"b"}"#))
        let missing = try #require(result.diagnostics.first { $0.code == "missing-required-key" })
        #expect(missing.scope == .attributes)
        #expect(missing.message == "required key 'teamB' is missing; the activity does not start")
        #expect(!result.appDecodes)
    }

    /// A strict app version's attributes type decodes with synthesized `Codable` too (its
    /// `ContentState` is nested in it): a default or an optional field's tolerance is the
    /// schema's, not the app's, and the start fails where `Codable` does. A version that is not
    /// strict reads the same attributes by the schema's rules.
    @Test func aStrictVersionsAttributesDecodeAsSynthesizedCodable() throws {
        let attributes = [
            Field(name: "team", type: .string),
            Field(name: "city", type: .string, defaultValue: .string("")),
            Field(name: "seats", type: .int, isOptional: true),
        ]
        let schema = Schema(activity: "s", attributesType: "SAttributes", strictClients: [1], versions: [
            SchemaVersion(version: 1, contentState: [Field(name: "score", type: .string)], attributes: attributes),
            SchemaVersion(version: 2, contentState: [Field(name: "score", type: .string)], attributes: attributes),
        ])
        func start(_ attributes: String, version: Int) throws -> ValidationResult {
            let validator = try PayloadValidator(schema: schema, version: version)
            let aps = #""timestamp":1795000000,"event":"start","content-state":{"score":"0-0"},"attributes-type":"SAttributes","attributes":"# + attributes + #","alert":{"title":"t","body":"b"}"#
            return validator.validate(Array(body(aps).utf8), file: "p.json")
        }
        let clean = #"{"team":"A","city":"Rome","seats":3}"#
        #expect(try start(clean, version: 1).appDecodes)
        let withoutCity = #"{"team":"A","seats":3}"#
        let strict = try start(withoutCity, version: 1)
        #expect(!strict.appDecodes)
        let verdict = try #require(strict.diagnostics.first { $0.code == "strict-decode-failure" })
        #expect(verdict.scope == .attributes && verdict.pointer == "/city" && verdict.severity == .error)
        #expect(verdict.message == "key 'city' is missing; the app decodes with synthesized Codable, which fails on it, so the activity does not start")
        #expect(try start(withoutCity, version: 2).appDecodes)
        let seatsAsText = #"{"team":"A","city":"Rome","seats":"3"}"#
        let refused = try start(seatsAsText, version: 1)
        #expect(!refused.appDecodes)
        #expect(refused.diagnostics.contains { $0.code == "strict-decode-failure" && $0.pointer == "/seats" })
        let tolerated = try start(seatsAsText, version: 2)
        #expect(tolerated.appDecodes)
        #expect(tolerated.diagnostics.contains { $0.code == "invalid-defaulted" && $0.pointer == "/seats" })
        // One cause, one error: the tolerant decoder's refusal carries the strict verdict.
        let teamAsNumber = try start(#"{"team":1,"city":"Rome"}"#, version: 1)
        #expect(teamAsNumber.diagnostics.filter { $0.severity == .error }.map(\.code) == ["wrong-type"])
        #expect(teamAsNumber.diagnostics.first { $0.code == "wrong-type" }?.message.hasSuffix("(the app decodes with synthesized Codable, which fails on it too)") == true)
    }

    /// Synthesized `Codable` checks none of the schema's constraints: a strict version applies
    /// a push whose values break one, content-state and attributes alike. The finding stays an
    /// error (the schema refuses the value) and says the push applies; a tolerant version
    /// drops it, and says so. (The error said the strict app dropped it, while `appDecodes` said
    /// it applied it; a start was called failed.)
    @Test func aStrictVersionAppliesValuesOnlyTheSchemasConstraintsRefuse() throws {
        let state = [Field(name: "progress", type: .double, constraints: .init(minimum: 0, maximum: 1))]
        let attributes = [Field(name: "team", type: .string, constraints: .init(maxLength: 4))]
        let schema = Schema(activity: "s", attributesType: "SAttributes", strictClients: [1], versions: [
            SchemaVersion(version: 1, contentState: state, attributes: attributes),
            SchemaVersion(version: 2, contentState: state, attributes: attributes),
        ])
        let applies = "so the schema refuses it, but this app version decodes with synthesized Codable, which does not check that: the push applies"
        func start(_ state: String, _ attributes: String, version: Int) throws -> ValidationResult {
            let validator = try PayloadValidator(schema: schema, version: version)
            let aps = #""timestamp":1795000000,"event":"start","content-state":"# + state + #","attributes-type":"SAttributes","attributes":"# + attributes + #","alert":{"title":"t","body":"b"}"#
            return validator.validate(Array(body(aps).utf8), file: "p.json")
        }
        let strict = try start(#"{"progress":1.5}"#, #"{"team":"Barcelona"}"#, version: 1)
        #expect(strict.appDecodes)
        #expect(strict.diagnostics.filter { $0.severity == .error }.map(\.code) == ["out-of-range", "out-of-range"])
        #expect(strict.diagnostics.first { $0.scope == .contentState }?.message == "1.5 is greater than maximum 1; 'progress' has no default, " + applies)
        #expect(strict.diagnostics.first { $0.scope == .attributes }?.message.hasSuffix(applies) == true)
        let tolerant = try start(#"{"progress":1.5}"#, #"{"team":"Barcelona"}"#, version: 2)
        #expect(!tolerant.appDecodes)
        #expect(tolerant.diagnostics.filter { $0.severity == .error }.allSatisfy { $0.message.hasSuffix("so the activity does not start") })
        // Where synthesized Codable fails on something, the push is dropped: every error says so.
        let dropped = try start(#"{"progress":"full"}"#, #"{"team":"Barcelona"}"#, version: 1)
        #expect(!dropped.appDecodes)
        #expect(dropped.diagnostics.first { $0.scope == .attributes }?.message.hasSuffix(applies) == true)
        #expect(dropped.diagnostics.first { $0.code == "wrong-type" }?.message.contains("so the activity does not start") == true)
        // The decoder's result words it so too.
        let decoded = try ContentStateDecoder(schema: schema, version: 1).decode(contentState: Data(#"{"progress":1.5}"#.utf8))
        #expect(decoded.appDecodes && decoded.state == nil)
        #expect(decoded.allDiagnostics.map(\.message) == ["1.5 is greater than maximum 1; 'progress' has no default, " + applies])
        #expect(decoded.diagnostics.first?.message.hasSuffix("so the app drops this update") == true)
    }

    /// The same for a field with a default, or an optional one: the schema's reading takes the
    /// default, but synthesized `Codable` takes none and applies the value as sent, which the
    /// schema refuses. It was a warning, and `decode` exited 0 showing the default.
    @Test func aStrictVersionAppliesAValueItsDefaultWouldReplace() throws {
        let fields = [
            Field(name: "title", type: .string, defaultValue: .string("x"), constraints: .init(maxLength: 4)),
            Field(name: "note", type: .string, isOptional: true, constraints: .init(maxLength: 4)),
        ]
        let schema = Schema(activity: "s", strictClients: [1], versions: [
            SchemaVersion(version: 1, contentState: fields), SchemaVersion(version: 2, contentState: fields),
        ])
        let strict = try ContentStateDecoder(schema: schema, version: 1).decode(contentState: Data(#"{"title":"too long","note":"longer"}"#.utf8))
        #expect(strict.appDecodes)
        #expect(strict.allDiagnostics.map(\.severity) == [.error, .error])
        #expect(strict.allDiagnostics.first?.message == "8 bytes is longer than max-length 4; 'title' takes its default \"x\" in the schema's reading; "
            + "but this app version decodes with synthesized Codable, which takes no default and does not check that: the push applies with "
            + "the value sent, which the schema refuses")
        // A tolerant version takes the default, and says so in a warning.
        let tolerant = try ContentStateDecoder(schema: schema, version: 2).decode(contentState: Data(#"{"title":"too long"}"#.utf8))
        #expect(tolerant.allDiagnostics.filter { $0.code == "invalid-defaulted" }.map(\.severity) == [.warning])
        // Where Codable fails on something, the push is dropped, and the rest stay as they were.
        let dropped = try ContentStateDecoder(schema: schema, version: 1).decode(contentState: Data(#"{"title":"too long","note":5}"#.utf8))
        #expect(!dropped.appDecodes)
    }

    /// Live Activity keys beside `aps`: a warning at each one `aps` does not hold, and, where the
    /// body has no `aps`, the `missing-aps` error names them (an envelope written without it).
    @Test func liveActivityKeysBesideAPSAreNamed() throws {
        let unwrapped = try PayloadValidator(schema: scoreSchema).validate(Data(#"{"timestamp":1795000000,"event":"update","content-state":{"score":"1-0"}}"#.utf8))
        #expect(unwrapped.diagnostics.map(\.message) == [#"the body has no aps object; its keys timestamp, event and content-state belong inside it: {"aps": {…}}"#])
        let two = try PayloadValidator(schema: scoreSchema).validate(Data(#"{"timestamp":1795000000,"event":"update"}"#.utf8))
        #expect(two.diagnostics.map(\.message) == [#"the body has no aps object; its keys timestamp and event belong inside it: {"aps": {…}}"#])
        let one = try PayloadValidator(schema: scoreSchema).validate(Data(#"{"timestamp":1795000000}"#.utf8))
        #expect(one.diagnostics.map(\.message) == [#"the body has no aps object; its key timestamp belongs inside it: {"aps": {…}}"#])
        // A key written twice is one key to move (it was listed twice).
        let twice = try PayloadValidator(schema: scoreSchema).validate(Data(#"{"timestamp":1,"timestamp":2}"#.utf8))
        #expect(twice.diagnostics.first { $0.code == "missing-aps" }?.message == #"the body has no aps object; its key timestamp belongs inside it: {"aps": {…}}"#)
        let beside = try PayloadValidator(schema: scoreSchema).validate(Data(#"{"aps":{"timestamp":1795000000,"event":"end","content-state":{"score":"1-0"}},"event":"goal","stale-date":1795000600}"#.utf8))
        #expect(beside.appDecodes)
        #expect(beside.diagnostics.filter { $0.severity >= .warning }.map { "\($0.code) \($0.pointer ?? "")" } == ["aps-key-outside-aps /stale-date"])
    }

    /// A localized title or body (`{"loc-key": …, "loc-args": […]}`) is read: a `loc-key` that
    /// is not a string and `loc-args` that are not strings are `invalid-aps-value`, and one
    /// without a `loc-key` has no text, which a start's alert needs (they all passed unread).
    @Test func aLocalizedTitleOrBodyIsRead() throws {
        func start(_ alert: String) -> ValidationResult {
            lint(body(#""timestamp":1795000000,"event":"start","input-push-token":1,"content-state":{"score":"0-0"},"attributes-type":"ScoreAttributes","attributes":{"teamA":"A","teamB":"B"},"alert":"# + alert))
        }
        let clean = start(#"{"title":{"loc-key":"KICKOFF","loc-args":["A","B"]},"body":{"loc-key":"KICKOFF_BODY"}}"#)
        #expect(clean.diagnostics.filter { $0.severity >= .warning }.isEmpty, "\(clean.diagnostics)")
        let wrong = start(#"{"title":{"loc-key":5,"loc-args":"A"},"body":{"loc-key":"B","loc-args":["x",2]}}"#)
        #expect(wrong.diagnostics.filter { $0.code == "invalid-aps-value" }.map(\.pointer) == ["/aps/alert/title/loc-key", "/aps/alert/title/loc-args", "/aps/alert/body/loc-args"])
        #expect(wrong.diagnostics.first { $0.pointer == "/aps/alert/title/loc-key" }?.message
            == "loc-key must be a string, the key of the text in the app's Localizable.strings; a number names no text")
        let noKey = start(#"{"title":{"loc-key":""},"body":{"loc-args":["x"]}}"#)
        #expect(noKey.diagnostics.map(\.code).contains("incomplete-alert"))
        #expect(!noKey.diagnostics.contains { $0.code == "invalid-aps-value" })
    }

    /// A timestamp that is not an integer says which of three it is: a whole number written
    /// with a fraction or an exponent (a warning with the integer to send: the number is the
    /// same), a fraction, or too large.
    @Test func aTimestampThatIsNotAnIntegerSaysWhy() {
        func message(_ timestamp: String) -> String? {
            lint(body(#""timestamp":"# + timestamp + #","event":"end""#)).diagnostics.first { $0.pointer == "/aps/timestamp" }?.message
        }
        #expect(message("1.795e9") == "timestamp is the whole number 1795000000 written with a fraction or an exponent; Apple documents an integer: send 1795000000")
        #expect(message("1795000000.0") == "timestamp is the whole number 1795000000 written with a fraction or an exponent; Apple documents an integer: send 1795000000")
        let whole = lint(body(#""timestamp":1795000000.0,"event":"update","content-state":{"score":"1-0"}"#))
        #expect(whole.diagnostics.filter { $0.severity > .info }.map(\.code) == ["date-notation"])
        #expect(whole.appDecodes && !whole.hasErrors)
        // Read as the integer: the rules across keys see it.
        #expect(lint(body(#""timestamp":1.6e9,"event":"update","content-state":{"score":"1-0"}"#)).diagnostics.map(\.code)
            .contains("timestamp-too-old"))
        #expect(message("1795000000.5") == "timestamp must be an integer of UNIX seconds, not a fraction")
        #expect(message("1e30") == "timestamp must be an integer of UNIX seconds, not a number that large")
        #expect(message("1795000000") == nil)
    }

    /// A body over the APNs limit names its largest parts, so that the bulk is found where it
    /// is: an alert, a key beside `aps` (it named only the content-state's fields).
    @Test func anOverBudgetBodyNamesItsLargestParts() throws {
        let text = #"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"score":"1-0"},"alert":{"title":"t","body":""#
            + String(repeating: "x", count: 4000) + #""}},"analytics":{"campaign":""# + String(repeating: "c", count: 80) + #""}}"#
        let over = try #require(lint(text).diagnostics.first { $0.code == "over-budget" })
        #expect(over.message.contains("; largest members, key and value: /aps/alert 4031 B, /analytics 107 B; largest content-state fields: score 13 B"), "\(over.message)")
        let budget = try ByteBudget.measure(body: Array(text.utf8))
        #expect(budget.largestParts.map(\.name) == ["/aps/alert", "/analytics"])
        #expect(lint(body(#""timestamp":1795000000,"event":"end""#)).diagnostics.allSatisfy { $0.code != "over-budget" })
    }

    @Test func contentStateFindingsAreWordedForTheEventThatFollowsThem() throws {
        let result = lint(#"{"aps":{"content-state":{"period":9},"timestamp":1795000000,"event":"start","attributes-type":"ScoreAttributes","attributes":{"teamA":"A","teamB":"B"},"alert":{"title":"t","body":"b"}}}"#)
        let error = try #require(result.diagnostics.first { $0.code == "out-of-range" })
        #expect(error.message.hasSuffix("so the activity does not start"), "\(error.message)")
        let end = lint(body(#""timestamp":1795000000,"event":"end","content-state":{"period":9}"#))
        #expect(end.diagnostics.first { $0.code == "out-of-range" }?.message.hasSuffix("so the app drops this end") == true)
    }

    @Test func knownAPNsKeysGetTheirOwnFix() throws {
        let result = lint(body(#""timestamp":1795000000,"event":"update","content-state":{},"sound":"default","badge":1,"content-available":1,"events":"update","start-date":1"#))
        let byPointer = Dictionary(uniqueKeysWithValues: result.diagnostics.filter { $0.severity == .warning }.map { ($0.pointer ?? "", $0) })
        #expect(byPointer["/aps/sound"]?.code == "no-effect-aps-key")
        #expect(byPointer["/aps/sound"]?.message.contains(#"put it in the alert"#) == true)
        #expect(byPointer["/aps/badge"]?.code == "no-effect-aps-key")
        #expect(byPointer["/aps/content-available"]?.code == "no-effect-aps-key")
        #expect(byPointer["/aps/events"]?.code == "unknown-aps-key")
        #expect(byPointer["/aps/events"]?.message.hasSuffix("did you mean 'event'?") == true)
        #expect(byPointer["/aps/start-date"]?.message == "aps key 'start-date' is not an APNs key; APNs and the device ignore it (data for the app belongs beside aps)")
    }

    @Test func typosAreOneEditOrACaseAway() {
        #expect(APSKeys.isTypo("events", of: "event"))
        #expect(APSKeys.isTypo("evnt", of: "event"))
        #expect(APSKeys.isTypo("evant", of: "event"))
        #expect(APSKeys.isTypo("stale_date", of: "stale-date"))
        #expect(APSKeys.isTypo("contentState", of: "content-state"))
        #expect(!APSKeys.isTypo("start-date", of: "stale-date"))
        #expect(!APSKeys.isTypo("event", of: "event"))
        #expect(!APSKeys.isTypo("vent", of: "events"))
    }

    @Test func oldTimestampsAreIgnoredOnUpdateAndEnd() throws {
        let update = lint(body(#""timestamp":1168364460,"event":"update","content-state":{}"#))
        let old = try #require(update.diagnostics.first { $0.code == "timestamp-too-old" })
        #expect(old.severity == .error)
        #expect(old.pointer == "/aps/timestamp")
        #expect(old.position?.column == 21)
        #expect(!update.appDecodes)
        // An end: Apple documents that an older end is ignored, a forum report that one still
        // ended; a warning, worded so.
        #expect(!lint(body(#""timestamp":1666569600,"event":"end""#)).diagnostics.contains { $0.code.rawValue.hasSuffix("timestamp-too-old") })
        let end = lint(body(#""timestamp":1666569599,"event":"end""#))
        let oldEnd = try #require(end.diagnostics.first { $0.code == "end-timestamp-too-old" })
        #expect(oldEnd.severity == .warning)
        #expect(oldEnd.message.contains("the device may ignore this end"))
        #expect(!end.diagnostics.contains { $0.code == "timestamp-too-old" })
        let start = Self.start.replacingOccurrences(of: "1795000000", with: "1168364460")
        #expect(!lint(body(start)).diagnostics.contains { $0.code == "timestamp-too-old" })
    }

    @Test func alertsAreObjectsWithTitleAndBody() {
        func codes(_ alert: String, event: String = "start") -> [String] {
            let aps = Self.start.replacingOccurrences(of: #""alert":{"title":"t","body":"b"}"#, with: #""alert":"# + alert) + #","input-push-token":1"#
            return lint(body(aps.replacingOccurrences(of: #""event":"start""#, with: #""event":"\#(event)""#)))
                .diagnostics.filter { $0.severity > .info && $0.code != "start-only-key" }.map(\.code.rawValue)
        }
        #expect(codes(#""Kick-off""#) == ["string-alert"])
        #expect(codes(#""Goal""#, event: "update") == ["string-alert"])
        // Neither a title nor a body: such a start was reported never to arrive (APNSwift #232).
        #expect(codes("{}") == ["empty-alert"])
        #expect(codes(#"{"sound":"default"}"#) == ["empty-alert"])
        #expect(codes(#"{"subtitle":"s"}"#) == ["empty-alert"])
        // An ordinary notification's text keys: the text is there, in keys Apple does not
        // document for Live Activities; a warning that names them and the Live Activity form.
        #expect(codes(#"{"title-loc-key":"T","loc-key":"B","loc-args":["A"]}"#) == ["incomplete-alert"])
        let localized = Self.start.replacingOccurrences(
            of: #""alert":{"title":"t","body":"b"}"#, with: #""alert":{"title-loc-key":"T","loc-key":"B"}"#)
        #expect(lint(body(localized)).diagnostics.first { $0.code == "incomplete-alert" }?.message
            == #"a start's alert has no title or body, only 'title-loc-key', 'loc-key', the keys of an ordinary notification's alert, "#
            + #"which Apple does not document for Live Activities: send "title": {"loc-key": …} and "body": {"loc-key": …, "loc-args": […]}"#)
        #expect(codes(#"{"title":"t","body":""}"#) == ["incomplete-alert"])
        #expect(codes(#"{"title":"","body":""}"#) == ["incomplete-alert"])
        #expect(codes(#"{"body":"b"}"#) == ["incomplete-alert"])
        #expect(codes(#"{"title":{"loc-key":"T"},"body":{"loc-key":"B","loc-args":["A"]}}"#) == [])
        // On update and end an alert without a title or a body has no text to show; the push applies.
        #expect(codes("{}", event: "update") == ["incomplete-alert"])
        #expect(codes(#"{"sound":"default"}"#, event: "end") == ["incomplete-alert"])
        #expect(codes(#"{"loc-key":"B"}"#, event: "update") == ["incomplete-alert"])
        #expect(codes(#"{"title":"t"}"#, event: "update") == [])
        // Empty text is no text, as on a start: `{"title": ""}` (a relay's silent update) shows
        // nothing, as `{}` does; one of the two with text is enough on an update.
        #expect(codes(#"{"title":""}"#, event: "update") == ["incomplete-alert"])
        #expect(codes(#"{"title":"","body":""}"#, event: "end") == ["incomplete-alert"])
        #expect(codes(#"{"title":"","body":"b"}"#, event: "update") == [])
        let update = Self.start.replacingOccurrences(of: #""alert":{"title":"t","body":"b"}"#, with: #""alert":{}"#)
            .replacingOccurrences(of: #""event":"start""#, with: #""event":"update""#)
        #expect(lint(body(update)).appDecodes)
        #expect(lint(body(update)).diagnostics.first { $0.code == "incomplete-alert" }?.message
            == #"an update's alert has no title or body, so it has no text to show; send "alert": {"title": …, "body": …}, or leave alert out"#)
        let empty = update.replacingOccurrences(of: #""alert":{}"#, with: #""alert":{"title":""}"#)
        #expect(lint(body(empty)).diagnostics.first { $0.code == "incomplete-alert" }?.message
            == #"an update's alert has only an empty title or body, so it has no text to show; send "alert": {"title": …, "body": …}, or leave alert out"#)
        #expect(codes("1") == ["invalid-aps-value"])
        // A sound names a sound file, or "default"; any other shape but APNs' object plays none.
        #expect(codes(#"{"title":"t","body":"b","sound":"chime.aiff"}"#) == [])
        #expect(codes(#"{"title":"t","body":"b","sound":{"critical":1,"name":"default","volume":0.5}}"#) == [])
        for sound in ["1", "true", "null", #"["default"]"#] {
            #expect(codes(#"{"title":"t","body":"b","sound":"# + sound + "}", event: "update") == ["no-effect-aps-key"], "\(sound)")
        }
        let result = lint(body(#""timestamp":1795000000,"event":"update","content-state":{"score":1},"alert":{"title":"t","body":"b","sound":1}"#))
        #expect(result.diagnostics.filter { $0.code == "no-effect-aps-key" }.map(\.description) == [
            #"p.json:1:117: warning: alert sound must be the name of a sound file in the app bundle, or "default"; a number plays no sound when the alert shows (at /aps/alert/sound) [no-effect-aps-key]"#,
        ])
    }

    @Test func bytesThatAreNotJSONGetOnlyTheirSyntaxError() {
        // The pointer names the value the error is in, from the body's root: none for the
        // body's own syntax.
        let cases: [(text: String, pointer: String?)] = [
            (#"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"score":7,"x":1"#, "/aps/content-state"),
            (#"{"aps":{"alert":{"title":"Goal","body":"1-0",}}}"#, "/aps/alert"),
            (#"{"aps":{"content-state":{"score":[1,2,tru]}}}"#, "/aps/content-state/score/2"),
            // In the top-level value's own syntax: the whole document, "".
            ("[", ""),
            (#"{"aps":{"event":"update"},}"#, ""),
        ]
        for (text, pointer) in cases {
            let result = lint(text)
            #expect(result.diagnostics.map(\.code) == ["json-syntax"], "\(text)")
            #expect(result.diagnostics.first?.pointer == pointer, "\(text)")
            #expect(result.diagnostics.first?.scope == .envelope)
            #expect(!result.appDecodes)
            // One wording of a syntax error: the decoder's of the same body (with its tape and
            // in full) is the validator's, word for word, place for place.
            let decoder = try! ContentStateDecoder(schema: scoreSchema)
            #expect(decoder.decode(payload: Array(text.utf8), file: "p.json").diagnostics == result.diagnostics, "\(text)")
            #expect(decoder.decodeInFull(payload: Array(text.utf8), file: "p.json").diagnostics == result.diagnostics, "\(text)")
        }
    }

    @Test func relevanceScoreMustBeANumber() {
        #expect(!lint(body(#""timestamp":1795000000,"event":"end","relevance-score":250.5"#)).hasErrors)
        #expect(lint(body(#""timestamp":1795000000,"event":"end","relevance-score":"high""#)).diagnostics.contains { $0.code == "invalid-aps-value" })
    }

    @Test func bodyWithoutAPSIsReported() {
        #expect(lint(#"{"data":{}}"#).diagnostics.map(\.code) == ["missing-aps"])
        #expect(lint(#"[1]"#).diagnostics.map(\.code) == ["missing-aps"])
        #expect(lint(#"{"aps":[]}"#).diagnostics.map(\.code) == ["invalid-aps-value"])
    }

    @Test func duplicateAPSKeysAreWarnings() {
        let result = lint(body(#""timestamp":1795000000,"event":"end","event":"start""#))
        #expect(result.diagnostics.map(\.code) == ["duplicate-key"])
        #expect(result.event == .end)
    }

    @Test func syntaxErrorsCarryPositions() throws {
        let result = lint("{\"aps\":{\n\"timestamp\":1,}}")
        let error = try #require(result.diagnostics.first)
        #expect(error.code == "json-syntax")
        #expect(error.position?.line == 2)
        #expect(!result.appDecodes)
    }

    @Test func strictClientVerdictIsPartOfLint() throws {
        let result = lint(body(#""timestamp":1795000000,"event":"update","content-state":{"score":"1-0"}"#), version: 1)
        let strict = try #require(result.diagnostics.first { $0.code == "strict-decode-failure" })
        #expect(strict.message == "key 'minute' is missing; the app decodes with synthesized Codable, which fails on it, so the app drops this update")
        #expect(!result.appDecodes)
    }

    /// One cause, one error: a key both decoders miss is one `missing-required-key`.
    @Test func strictVerdictJoinsTheErrorItRepeats() throws {
        let result = lint(body(#""timestamp":1795000000,"event":"update","content-state":{"scoreA":1}"#), version: 1)
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.code) == ["missing-required-key"])
        let error = try #require(result.diagnostics.first { $0.code == "missing-required-key" })
        #expect(error.message.contains("synthesized Codable"))
        #expect(!result.appDecodes)
    }

    @Test func allVersionsSaysWhichAppVersionsDrop() {
        let bytes = Array(body(#""timestamp":1795000000,"event":"update","content-state":{"scoreA":1}"#).utf8)
        let (results, diagnostics) = PayloadValidator.validateAllVersions(scoreSchema, bytes, file: "p.json")
        #expect(results.map(\.version) == [1, 2])
        #expect(results.map(\.result.appDecodes) == [false, true])
        let dropped = diagnostics.filter { $0.code == "dropped-by-version" }
        #expect(dropped.count == 1)
        #expect(dropped.first?.message == "app version 1: the app drops this update; first error: missing-required-key at /score in the content-state")
        for diagnostic in diagnostics where diagnostic.scope != .envelope {
            #expect(diagnostic.message.hasPrefix("app version "), "\(diagnostic.message)")
            #expect(!diagnostic.message.dropFirst(12).contains("app version"), "\(diagnostic.message)")
        }
    }

    /// A version that does not apply a push says why in the push's terms, and claims of the
    /// device only what is known: APNs refuses bytes that are not JSON (they said "the device
    /// drops this push"), and what the device does with an `aps` value of the wrong kind is not
    /// documented (they said "the app drops this update"). A start's `attributes` that is not
    /// an object keeps its own consequence.
    @Test func allVersionsSaysWhatBecomesOfThePushAsFarAsItIsKnown() {
        let cases: [(String, String)] = [
            (#"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"score":1},}}"#,
             "APNs refuses a body that is not JSON, so it never reaches the app; first error: json-syntax at /aps"),
            (body(#""timestamp":1795000000,"event":"update","relevance-score":"0.5","content-state":{"score":1}"#),
             "counted as dropped: what the device does with such an aps value is not documented; first error: invalid-aps-value at /aps/relevance-score"),
            (body(#""timestamp":1795000000.5,"event":"update","content-state":{"score":1}"#),
             "counted as dropped: what the device does with such an aps value is not documented; first error: invalid-aps-value at /aps/timestamp"),
            (body(#""timestamp":1795000000,"event":"start","attributes-type":"ScoreAttributes","attributes":[],"alert":{"title":"a","body":"b"},"content-state":{"score":1}"#),
             "the activity does not start; first error: invalid-aps-value at /aps/attributes"),
        ]
        for (text, expected) in cases {
            let (_, diagnostics) = PayloadValidator.validateAllVersions(scoreSchema, Array(text.utf8), file: "p.json")
            let dropped = diagnostics.filter { $0.code == "dropped-by-version" }.map(\.message)
            #expect(dropped.last == "app version 2: " + expected, "\(text): \(dropped)")
        }
    }
}

@Suite struct ByteBudgetTests {
    @Test func fieldNamesAreTheKeysAsSentForUnknownEscapedAndAliasedKeys() throws {
        let schema = Schema(activity: "names", strictClients: [], versions: [SchemaVersion(version: 1, contentState: [
            Field(name: "title", type: .string, defaultValue: .string("")),
            Field(name: "subtitle", type: .string, defaultValue: .string(""), aliases: ["subTitle"]),
        ])])
        let validator = try PayloadValidator(schema: schema)
        let text = body(#""timestamp":1795000000,"event":"update","content-state":{"t\u0069tle":"a","subTitle":"b","x/y":1,"title":"c"}"#)
        let result = validator.validate(Array(text.utf8))
        // A key sent twice (here once escaped) is one entry with both members' bytes, in the
        // one pass and in `measure`, so that the JSON report's `fields` holds each name once.
        #expect(result.budget.fields.map(\.name) == ["title", "subTitle", "x/y"])
        let twice = #""t\u0069tle":"a","#.utf8.count + #""title":"c""#.utf8.count
        #expect(result.budget.fields.map(\.bytes) == [twice, #""subTitle":"b","#.utf8.count, #""x/y":1,"#.utf8.count])
        let measured = try ByteBudget.measure(body: Array(text.utf8))
        #expect(measured.fields == result.budget.fields)
        let json = measured.jsonValue
        #expect(json["fields"] == .object([.init("title", .int(twice)), .init("subTitle", .int(15)), .init("x/y", .int(8))]))
    }

    @Test func measuresBodyContentStateAndFields() throws {
        let text = body(#""timestamp":1795000000,"event":"update","content-state":{"score":"2-1","ratio":1.91,"note":"a/b"}"#)
        let result = lint(text)
        #expect(result.budget.body == text.utf8.count)
        #expect(result.budget.limit == 4096)
        #expect(result.budget.contentState == #"{"score":"2-1","ratio":1.91,"note":"a/b"}"#.utf8.count)
        #expect(result.budget.fields.map(\.name) == ["score", "ratio", "note"])
        #expect(result.budget.fields.map(\.bytes) == [#""score":"2-1","#.utf8.count, #""ratio":1.91,"#.utf8.count, #""note":"a/b""#.utf8.count])
        // The decoded state: defaults filled, ratio at 17 digits, note with '/' escaped.
        let expected = #"{"score":"2-1","scoreA":0,"startsAt":0,"ratio":1.9099999999999999,"note":"a\/b","phase":"live","period":1}"#.utf8.count
        #expect(result.budget.deviceWorstCase == expected)
    }

    /// Each non-integer number counts as Darwin prints it: a value binary holds exactly keeps
    /// its short form, any other takes 17 significant digits.
    @Test func worstCaseNumbersAreDarwinsRendering() {
        let expected: [(Double, String)] = [
            (0.5, "0.5"), (2.5, "2.5"), (0.25, "0.25"), (-0.125, "-0.125"), (1e-7, "9.9999999999999995e-08"),
            (0.6, "0.59999999999999998"), (1.91, "1.9099999999999999"), (4.9, "4.9000000000000004"),
            (-37.77493, "-37.774929999999998"), (752000000.5, "752000000.5"), (1.5e300, "1.5000000000000001e+300"),
            (.leastNonzeroMagnitude, "4.9406564584124654e-324"), (0.375, "0.375"),
            (0.00048828125, "0.00048828125"), (3.0517578125e-05, "3.0517578125e-05"), (-1234.5, "-1234.5"),
        ]
        for (value, rendered) in expected {
            #expect(ByteBudget.worstCaseNumber(value) == rendered.utf8.count, "\(value): \(rendered)")
        }
        #expect(ByteBudget.worstCaseNumber(2) == 1)
        #expect(ByteBudget.worstCaseNumber(-752000000) == 10)
        // Both Foundations write -0.0 as "-0".
        #expect(ByteBudget.worstCaseNumber(-0.0) == 2)
        #expect(ByteBudget.deviceLeastCase(.double(-0.0)) == 2)
        // From 2^53, swift-foundation's shortest form has an exponent and is the longer one.
        #expect(ByteBudget.worstCaseNumber(9_007_199_254_740_994) == "9.007199254740994e+15".utf8.count)
        #expect(ByteBudget.worstCaseNumber(12_345_678_901_234_568) == "1.2345678901234568e+16".utf8.count)
        #expect(ByteBudget.deviceLeastCase(.double(9_007_199_254_740_994)) == "9007199254740994".utf8.count)
        #expect(ByteBudget.worstCaseNumber(1e17) == "1e+17".utf8.count)
        // 2^53 itself: "9007199254740992" from both (its description ends in ".0").
        #expect(ByteBudget.worstCaseNumber(9_007_199_254_740_992) == 16)
    }

    /// A state is measured by the Foundation that writes it longer: 150 whole numbers past 2^53
    /// re-encode to 4,097 bytes at their shortest (`9.007199254740994e+15`), though `%.17g`
    /// prints them in 16 digits; 400 `-0.0` count their signs.
    @Test func theWorstCaseIsTheLongerFoundationsForEveryNumber() throws {
        let schema = Schema(activity: "r", versions: [SchemaVersion(version: 1, contentState: [
            Field(name: "nums", type: .array(items: Field(name: "", type: .double)), defaultValue: .array([])),
            Field(name: "pad", type: .string, defaultValue: .string("")),
        ])])
        func result(_ number: String, _ count: Int, pad: Int) throws -> ValidationResult {
            let numbers = Array(repeating: number, count: count).joined(separator: ",")
            let state = #"{"nums":[\#(numbers)],"pad":"\#(String(repeating: "x", count: pad))"}"#
            let text = body(#""timestamp":1795000000,"event":"update","content-state":\#(state)"#)
            return try PayloadValidator(schema: schema, options: .init(broadcast: true)).validate(Array(text.utf8))
        }
        // {"nums":[…],"pad":"…"}: 20 bytes around the numbers and the padding.
        let big = try result("9007199254740994", 150, pad: 4097 - 20 - (150 * 22 - 1))
        #expect(big.budget.deviceWorstCase == 4097)
        let finding = try #require(big.diagnostics.first { $0.code == "reencoded-over-budget" })
        #expect(finding.message.contains("to between \(4097 - 150 * 5) and 4097 bytes"), "\(finding.message)")
        let fits = try result("9007199254740994", 150, pad: 4096 - 20 - (150 * 22 - 1))
        #expect(fits.budget.deviceWorstCase == 4096)
        #expect(!fits.diagnostics.contains { $0.code.rawValue.hasSuffix("over-budget") })
        let zeros = try result("-0.0", 400, pad: 4097 - 20 - (400 * 3 - 1))
        #expect(zeros.budget.deviceWorstCase == 4097)
        #expect(zeros.diagnostics.contains { $0.code == "content-state-over-budget" })
    }

    @Test func exactFractionsDoNotInflateTheWorstCase() throws {
        // 220 halves: 3 bytes each as sent and as a device writes them.
        let halves = Array(repeating: "0.5", count: 220).joined(separator: ",")
        let schema = Schema(activity: "r", versions: [SchemaVersion(version: 1, contentState: [
            Field(name: "ratios", type: .array(items: Field(name: "", type: .double)), defaultValue: .array([])),
        ])])
        let text = body(#""timestamp":1795000000,"event":"update","content-state":{"ratios":[\#(halves)],"pad":"\#(String(repeating: "x", count: 3000))"}"#)
        let result = try PayloadValidator(schema: schema).validate(Array(text.utf8))
        #expect(result.budget.deviceWorstCase == #"{"ratios":[]}"#.utf8.count + 220 * 4 - 1)
        #expect(!result.diagnostics.contains { $0.code == "reencoded-over-budget" })
        let measured = try ByteBudget.measure(body: Array(text.utf8))
        #expect(measured.deviceWorstCase.map { $0 < 4096 } == true)
    }

    /// Over the limit at its bound, the worst case is measured exactly: `%.17g` drops the zeros
    /// a rounding ends in (`0.019` is 5 bytes, not the bound's 20), and synthesized `Encodable`
    /// leaves an optional's `nil` out. A state that still passes the limit so is reported.
    @Test func aWorstCaseOverTheLimitIsMeasuredExactly() throws {
        for number in [0.019, -122.41942, 1e22, 0.1, 1.91, 0.5, 1e-7, 123456.789, -0.0001, 5e-324] {
            #expect(ByteBudget.devicePrintedCase(.double(number)) == String(format: "%.17g", number).utf8.count, "\(number)")
            #expect(ByteBudget.devicePrintedCase(.double(number)) <= ByteBudget.worstCaseNumber(number), "\(number)")
        }
        #expect(ByteBudget.devicePrintedCase(.object([.init("a", .int(1)), .init("note", .null)])) == #"{"a":1}"#.utf8.count)
        let schema = Schema(activity: "r", versions: [SchemaVersion(version: 1, contentState: [
            Field(name: "nums", type: .array(items: Field(name: "", type: .double)), defaultValue: .array([])),
        ])])
        func verdict(_ number: String) throws -> (worst: Int?, codes: [DiagnosticCode]) {
            let numbers = Array(repeating: number, count: 300).joined(separator: ",")
            let text = body(#""timestamp":1795000000,"event":"update","content-state":{"nums":[\#(numbers)]}"#)
            let result = try PayloadValidator(schema: schema).validate(Array(text.utf8))
            let measured = try ByteBudget.measure(body: Array(text.utf8))
            #expect(measured.deviceWorstCase == result.budget.deviceWorstCase)
            return (result.budget.deviceWorstCase, result.diagnostics.map(\.code))
        }
        // 300 × 0.019: 1,810 bytes as sent and at %.17g; the bound said 6,310.
        let short = try verdict("0.019")
        #expect(short.worst == #"{"nums":[]}"#.utf8.count + 300 * 6 - 1)
        #expect(!short.codes.contains("reencoded-over-budget"), "\(short.codes)")
        // 300 × 0.1: 0.10000000000000001 at %.17g, 5,710 bytes: over.
        let long = try verdict("0.1")
        #expect(long.worst == #"{"nums":[]}"#.utf8.count + 300 * 20 - 1)
        #expect(long.codes.contains("reencoded-over-budget"), "\(long.codes)")
    }

    @Test func overBudgetBodyIsAnErrorNamingTheLimit() throws {
        let big = String(repeating: "x", count: 5000)
        let result = lint(body(#""timestamp":1795000000,"event":"update","content-state":{"note":"\#(big)"}"#))
        let finding = try #require(result.diagnostics.first { $0.code == "over-budget" })
        #expect(finding.message.contains("4096"))
        #expect(finding.message.contains("note"))
        // Its state re-encodes over the device's limit whatever numbers the device writes: the
        // certain finding alone, not also the worst case's.
        #expect(result.diagnostics.contains { $0.code == "content-state-over-budget" })
        #expect(!result.diagnostics.contains { $0.code == "reencoded-over-budget" })
        #expect(!result.appDecodes)
        #expect(result.budget.headroom < 0)
    }

    /// A body over the limit only by its white space (a pretty-printed file, an editor's final
    /// line feed) is still over as sent, and says what it weighs as JSON encoders send it.
    @Test func overBudgetSaysWhatTheBodyWeighsWithoutItsWhiteSpace() throws {
        let note = String(repeating: "x", count: 3990)
        let compact = body(#""timestamp":1795000000,"event":"update","content-state":{"note":"\#(note) \t"}"#)
        let padding = 4097 - compact.utf8.count
        try #require(padding > 1)
        let spaced = lint(compact.replacingOccurrences(of: #"{"aps":"#, with: #"{"aps":"# + String(repeating: " ", count: padding - 1)) + "\n")
        #expect(spaced.budget.body == 4097)
        let finding = try #require(spaced.diagnostics.first { $0.code == "over-budget" })
        // The space and the tab inside the string count: they are sent whatever the encoder.
        #expect(finding.message.hasPrefix("the body is 4097 bytes, 1 over the APNs limit of 4096; APNs answers 413 "
            + "(without its white space, as JSON encoders send a body, it is \(compact.utf8.count) bytes, which fits)"))
        let big = lint(body(#""timestamp":1795000000,"event":"update","content-state":{"note":"\#(note)\#(note)"}"#))
        #expect(!(big.diagnostics.first { $0.code == "over-budget" }?.message.contains("white space") ?? true))
        // Over either way: nothing to add.
        let bigSpaced = lint(body(#""timestamp": 1795000000, "event":"update","content-state":{"note":"\#(note)\#(note)"}"#))
        #expect(!(bigSpaced.diagnostics.first { $0.code == "over-budget" }?.message.contains("white space") ?? true))
    }

    /// `"content-state": null`, as Jackson, Go's pointers and Python's None write an absent
    /// state: an end needs no state, so a warning, and the end applies; an update or a start
    /// has none to decode, and the error says what the device does, worded for the event that
    /// may come after it.
    @Test func aNullContentStateEndsButDoesNotUpdate() throws {
        let end = lint(body(#""content-state":null,"timestamp":1795000000,"event":"end""#))
        #expect(end.appDecodes && !end.hasErrors)
        #expect(end.diagnostics.map(\.description) == [
            "p.json:1:25: warning: content-state null is no state: the end applies with the content the activity shows; leave the key out, "
                + "or send the final state (at /aps/content-state) [no-effect-aps-key]",
        ])
        let update = lint(body(#""content-state":null,"timestamp":1795000000,"event":"update""#))
        #expect(!update.appDecodes)
        #expect(update.diagnostics.map(\.description) == [
            "p.json:1:25: error: the content-state must be a JSON object, found null; the app drops this update [not-an-object]",
        ])
        let start = lint(body(#""timestamp":1795000000,"event":"start","content-state":[1]"#))
        #expect(start.diagnostics.first { $0.code == "not-an-object" }?.message
            == "the content-state must be a JSON object, found an array; the activity does not start")
    }

    /// `null` for a key a push may leave out (the JPush SDK writes `"alert": null` on every
    /// update without an alert; Jackson and Python's `None` write unset dates and scores so):
    /// read as left out, a warning, and the push applies. A start still needs its alert and
    /// attributes, and a null `timestamp` stays an error.
    @Test func aNullOptionalAPSKeyIsReadAsLeftOut() throws {
        let update = lint(body(#""timestamp":1795000000,"event":"update","content-state":{"note":"a"},"alert":null,"stale-date":null,"#
            + #""relevance-score":null"#))
        #expect(update.appDecodes && !update.hasErrors)
        #expect(update.diagnostics.filter { $0.severity != .info }.map(\.description) == [
            "p.json:1:86: warning: alert is null, read here as if it were left out (how the device reads null is not documented): "
                + "send a value or leave the key out (at /aps/alert) [no-effect-aps-key]",
            "p.json:1:104: warning: stale-date is null, read here as if it were left out (how the device reads null is not documented): "
                + "send a value or leave the key out (at /aps/stale-date) [no-effect-aps-key]",
            "p.json:1:127: warning: relevance-score is null, read here as if it were left out (how the device reads null is not "
                + "documented): send a value or leave the key out (at /aps/relevance-score) [no-effect-aps-key]",
        ])
        let end = lint(body(#""timestamp":1795000000,"event":"end","content-state":{"note":"a"},"dismissal-date":null"#))
        #expect(end.appDecodes && !end.hasErrors)
        let start = lint(body(#""timestamp":1795000000,"event":"start","content-state":{"note":"a"},"alert":null,"attributes":{}"#))
        #expect(start.diagnostics.filter { $0.code == "missing-aps-key" || $0.code == "no-effect-aps-key" }.map(\.description) == [
            "p.json:1:8: error: a start needs aps.attributes-type: ScoreAttributes; the activity does not start (at /aps/attributes-type) [missing-aps-key]",
            "p.json:1:85: error: a start needs aps.alert with title and body, and this one is null; the activity does not start "
                + "(at /aps/alert) [missing-aps-key]",
        ])
        let noTimestamp = lint(body(#""timestamp":null,"event":"update","content-state":{"note":"a"}"#))
        #expect(noTimestamp.diagnostics.contains { $0.code == "invalid-aps-value" && $0.pointer == "/aps/timestamp" })
    }

    /// The device measures its own encoding of the decoded state, not the bytes sent. A state
    /// sent small that re-encodes large (every `/` escaped) is dropped although APNs takes the
    /// body; a broadcast state sent large whose escapes re-encode small (`\u20ac` is 3 bytes to
    /// the device, 6 as Python's `json.dumps` sends it) is not.
    @Test func theDevicesOwnEncodingDecidesTheContentStateBudget() throws {
        let slashes = String(repeating: "/", count: 2100)
        let grown = lint(body(#""timestamp":1795000000,"event":"update","content-state":{"note":"\#(slashes)"}"#))
        #expect(!grown.diagnostics.contains { $0.code == "over-budget" })
        let finding = try #require(grown.diagnostics.first { $0.code == "content-state-over-budget" })
        #expect(finding.message.hasPrefix("the device re-encodes this state (2111 bytes as sent) to 4"))
        #expect(finding.message.contains(" bytes at the least ('/' as '\\/', missing keys with their defaults), over its limit of 4096; the app drops this update"))
        #expect(finding.scope == .contentState)
        #expect(!grown.appDecodes)
        // The same state on a start: worded for the start.
        let start = lint(body(#""timestamp":1795000000,"event":"start","attributes-type":"ScoreAttributes","attributes":{"teamA":"a","teamB":"b"},"#
            + #""alert":{"title":"a","body":"b"},"content-state":{"note":"\#(slashes)"}"#))
        #expect(start.diagnostics.first { $0.code == "content-state-over-budget" }?.message.contains("; the activity does not start") == true)

        let euros = String(repeating: #"\u20ac"#, count: 700)
        let escaped = body(#""timestamp":1795000000,"event":"update","content-state":{"note":"\#(euros)"}"#)
        let broadcast = lint(escaped, broadcast: true)
        #expect(broadcast.budget.contentState.map { $0 > 4096 } == true, "\(broadcast.budget)")
        #expect(broadcast.budget.deviceWorstCase.map { $0 < 4096 } == true)
        #expect(!broadcast.diagnostics.contains { $0.code.rawValue.hasSuffix("over-budget") }, "\(broadcast.diagnostics)")
        #expect(broadcast.appDecodes)
    }

    @Test func broadcastLimitIs5120() {
        let note = String(repeating: "x", count: 4200)
        let text = body(#""timestamp":1795000000,"event":"update","content-state":{"note":"\#(note)"}"#)
        #expect(lint(text).diagnostics.contains { $0.code == "over-budget" })
        #expect(!lint(text, broadcast: true).diagnostics.contains { $0.code == "over-budget" })
    }

    @Test func reencodingAloneCanPassTheLimit() throws {
        // 250 doubles of 3 bytes each as sent, 19 bytes each as the device may write them.
        let ratios = Array(repeating: "0.6", count: 250).joined(separator: ",")
        let schema = Schema(activity: "r", versions: [SchemaVersion(version: 1, contentState: [
            Field(name: "r", type: .array(items: Field(name: "", type: .double)), defaultValue: .array([])),
        ])])
        let validator = try PayloadValidator(schema: schema)
        let result = validator.validate(Array(body(#""timestamp":1795000000,"event":"update","content-state":{"r":[\#(ratios)]}"#).utf8))
        #expect(!result.diagnostics.contains { $0.code == "over-budget" })
        // Only where Foundation writes numbers at 17 digits: at their shortest they fit, so the
        // push applies elsewhere, and the message says where it does not.
        let finding = try #require(result.diagnostics.first { $0.code == "reencoded-over-budget" })
        #expect(!result.diagnostics.contains { $0.code == "content-state-over-budget" })
        #expect(finding.message == "the device re-encodes this state (1007 bytes as sent) to between 1007 and 5007 bytes, as its "
            + "Foundation writes numbers (at their shortest, or at 17 digits with %.17g); where it writes 5007, over its limit of "
            + "4096, the app drops this update")
        #expect(result.appDecodes)
    }

    /// Four readers find a body's content-state: the tape builder, the full decoder, the
    /// validator and `ByteBudget.measure` (the last three through `APNsBody.walk`, the tape
    /// builder in its own pass). They must agree on which one it is, whatever keys are repeated,
    /// escaped or of the wrong type.
    @Test func everyReaderOfABodyFindsTheSameContentState() throws {
        let schema = Schema(activity: "r", versions: [SchemaVersion(version: 1, contentState: [
            Field(name: "a", type: .int, defaultValue: .int(0)),
        ])])
        let decoder = try ContentStateDecoder(schema: schema)
        let validator = try PayloadValidator(schema: schema)
        let head = #""event":"update","timestamp":1795000000"#
        let bodies = [
            #"{"aps":{\#(head),"content-state":{"a":1}}}"#,
            #"{"aps":1,"aps":{\#(head),"content-state":{"a":1}}}"#,
            #"{"aps":{\#(head),"content-state":1,"content-state":{"a":1}}}"#,
            #"{"aps":{\#(head),"content-state":{"a":1}},"aps":{"content-state":{"a":22}}}"#,
            #"{"aps":{\#(head),"content-state":{"a":1},"content-state":{"a":22}}}"#,
            #"{"\u0061ps":{\#(head),"content-state":{"a":3}}}"#,
            #"{"aps":{\#(head),"content\u002dstate":{"a":4}}}"#,
            #"{"data":{"aps":{"content-state":{"a":5}}},"aps":{\#(head),"content-state":{"a":6}}}"#,
            #"{"aps":{\#(head),"alert":{"content-state":{"a":7}},"content-state":{"a":8}}}"#,
            #"{"aps":{\#(head)}}"#,
            #"{"aps":null}"#,
            #"{"APS":{\#(head),"content-state":{"a":9}}}"#,
            #"[{"aps":{"content-state":{"a":1}}}]"#,
            // White space before the content-state is not the content-state's.
            "{\"aps\":{\(head),\"content-state\": \n\t {\"a\":1} }}",
            "{\"aps\":{\(head),\"content-state\":  [1] }}",
        ]
        for text in bodies {
            let bytes = Array(text.utf8)
            let tape = decoder.decode(payload: bytes)
            let full = decoder.decodeInFull(payload: bytes)
            let validated = validator.validate(bytes)
            let measured = try ByteBudget.measure(body: bytes)
            #expect(tape.state == full.state, "\(text)")
            #expect(validated.state == full.state, "\(text)")
            #expect(measured.contentState == validated.budget.contentState, "\(text)")
            #expect(measured.fields.map(\.name) == (full.state == nil ? [] : ["a"]), "\(text)")
        }
        // The first of two: 7 bytes, not the 8 of the later one.
        let first = try ByteBudget.measure(body: Array(bodies[3].utf8))
        #expect(first.contentState == #"{"a":1}"#.utf8.count)
        let spaced = try ByteBudget.measure(body: Array(bodies[bodies.count - 2].utf8))
        #expect(spaced.contentState == #"{"a":1}"#.utf8.count)
        let notAnObject = try ByteBudget.measure(body: Array(bodies[bodies.count - 1].utf8))
        #expect(notAnObject.contentState == 3)
    }

    /// A body without `aps` is reported at its `{`, after any white space before it.
    @Test func aBodyWithoutAPSIsReportedAtItsOpeningBrace() throws {
        let schema = Schema(activity: "r", versions: [SchemaVersion(version: 1, contentState: [
            Field(name: "a", type: .int, defaultValue: .int(0)),
        ])])
        let bytes = Array("\n\n  {\"data\":1}".utf8)
        let validated = try PayloadValidator(schema: schema).validate(bytes)
        let missingAPS = validated.diagnostics.first { $0.code == "missing-aps" }
        #expect(missingAPS?.position?.line == 3)
        #expect(missingAPS?.position?.column == 3)
        let decoded = try ContentStateDecoder(schema: schema).decodeInFull(payload: bytes)
        let missingState = decoded.diagnostics.first { $0.code == "missing-content-state" }
        #expect(missingState?.position?.line == 3)
        #expect(missingState?.position?.column == 3)
    }

    @Test func measuresWithoutASchema() throws {
        let text = body(#""timestamp":1795000000,"event":"update","content-state":{"a":1.91,"b":"x/y","c":[1,2]}"#)
        let budget = try ByteBudget.measure(body: Array(text.utf8))
        #expect(budget.body == text.utf8.count)
        #expect(budget.fields.map(\.name) == ["a", "b", "c"])
        #expect(budget.deviceWorstCase == #"{"a":1.9099999999999999,"b":"x\/y","c":[1,2]}"#.utf8.count)
    }
}

@Suite struct UnixDateHeuristicTests {
    @Test func hugeDateValuesDoNotTrap() throws {
        for value in ["1e300", "1.7976931348623157e308", "9223372036854775807", "1e19"] {
            let result = lint(body(#""timestamp":1795000000,"event":"update","content-state":{"startsAt":\#(value)}"#))
            let finding = try #require(result.diagnostics.first { $0.code == "unix-date-in-date-field" })
            #expect(finding.message.contains("far in the future"))
        }
    }

    @Test func millisecondsAreConvertedToSecondsInTheHint() throws {
        let result = lint(body(#""timestamp":1795000000,"event":"update","content-state":{"startsAt":1795000000000}"#))
        let finding = try #require(result.diagnostics.first { $0.code == "unix-date-in-date-field" })
        #expect(finding.message.contains("send 816692800"))
    }
}

/// One reading of a body's parts: the first `aps` member, whatever its value, and the first
/// `content-state` in it. The decoder's tape, its reference decode and the validator agree on
/// every body here, repeated and misplaced keys among them.
@Suite struct BodyLocatorTests {
    static let bodies: [(body: String, decodes: Bool, score: String?)] = [
        (#"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"score":"1-0"}}}"#, true, "1-0"),
        // A second aps is ignored, even when the first is not an object.
        (#"{"aps":1,"aps":{"timestamp":1795000000,"event":"update","content-state":{"score":"1-0"}}}"#, false, nil),
        (#"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"score":"1-0"}},"aps":{"content-state":{"score":"2-0"}}}"#, true, "1-0"),
        // A second content-state is ignored, even when the first is not an object.
        (#"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"score":"1-0"},"content-state":{"score":"2-0"}}}"#, true, "1-0"),
        (#"{"aps":{"timestamp":1795000000,"event":"update","content-state":[],"content-state":{"score":"2-0"}}}"#, false, nil),
        // aps only below the top level is no aps.
        (#"{"data":{"aps":{"content-state":{"score":"1-0"}}}}"#, false, nil),
    ]

    @Test(arguments: bodies.indices)
    func decoderReferenceDecodeAndValidatorReadTheSameParts(_ index: Int) throws {
        let (text, decodes, score) = Self.bodies[index]
        let bytes = Array(text.utf8)
        let decoder = try ContentStateDecoder(schema: scoreSchema, version: 2)
        let decoded = decoder.decode(payload: bytes)
        let inFull = decoder.decodeInFull(payload: bytes)
        let validated = PayloadValidator(decoder: decoder).validate(bytes)
        #expect(decoded.appDecodes == decodes, "\(decoded.diagnostics)")
        #expect(inFull.appDecodes == decodes)
        #expect(validated.appDecodes == decodes, "\(validated.diagnostics)")
        let scores = [decoded.state, inFull.state, validated.state].map { state -> String? in
            guard case .object(let members)? = state, case .string(let score)? = members.first(where: { $0.name == "score" })?.value else { return nil }
            return score
        }
        #expect(scores == [score, score, score])
    }

    @Test func anAPSThatIsNotAnObjectIsSaidOnce() {
        let decoder = try! ContentStateDecoder(schema: scoreSchema, version: 1)
        let result = decoder.decode(payload: Array(#"{"aps":1,"aps":{"content-state":{"score":"1-0"}}}"#.utf8))
        #expect(result.diagnostics.map(\.message) == ["aps is a number, not an object, so the body has no content-state"])
    }
}
