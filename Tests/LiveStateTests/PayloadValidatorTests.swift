import Foundation
import Testing
@testable import LiveState

/// A small schema with attributes for push-to-start, built in code.
let scoreSchema = Schema(
    activity: "score", attributesType: "ScoreAttributes", strictClients: [1],
    versions: [
        SchemaVersion(version: 1, contentState: [
            Field(name: "score", type: .string),
        ], attributes: [Field(name: "teamA", type: .string), Field(name: "teamB", type: .string)]),
        SchemaVersion(version: 2, contentState: [
            Field(name: "score", type: .string, defaultValue: .string("")),
            Field(name: "scoreA", type: .int, defaultValue: .int(0)),
            Field(name: "startsAt", type: .date, defaultValue: .date(0)),
            Field(name: "ratio", type: .double, defaultValue: .double(0)),
            Field(name: "note", type: .string, defaultValue: .string("")),
            Field(name: "phase", type: .enumeration(.strings(["live", "final"])), defaultValue: .string("live"), fallback: .string("live")),
            Field(name: "period", type: .int, defaultValue: .int(1), onInvalid: .reject, minimum: 1, maximum: 4),
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
        #expect(result.event == "update")
        #expect(result.state?["scoreA"] == .int(2))
    }

    @Test func appDataBesideAPSIsFine() {
        let result = lint(body(#""timestamp":1,"event":"end""#, extra: #","deepLink":"app://x","aps2":{}"#))
        #expect(!result.hasErrors, "\(result.diagnostics)")
    }

    @Test func missingTimestampAndEventAreErrors() {
        let result = lint(body(#""content-state":{}"#))
        let missing = result.diagnostics.filter { $0.code == "missing-aps-key" }
        #expect(missing.map(\.pointer) == ["/aps/timestamp", "/aps/event"])
        #expect(missing.allSatisfy { $0.scope == .envelope && $0.position?.column == 8 })
        #expect(!result.appDecodes)
    }

    @Test func timestampInMillisecondsIsCaught() throws {
        let result = lint(body(#""timestamp":1795000000000,"event":"update","content-state":{}"#))
        let finding = try #require(result.diagnostics.first { $0.code == "date-in-milliseconds" })
        #expect(finding.pointer == "/aps/timestamp")
        #expect(finding.position?.column == 21)
        #expect(finding.message.contains("1795000000"))
        #expect(!result.diagnostics.contains { $0.code == "missing-aps-key" })
    }

    @Test func fractionalOrStringTimestampIsInvalid() {
        #expect(lint(body(#""timestamp":1795000000.5,"event":"end""#)).diagnostics.contains { $0.code == "invalid-aps-value" })
        #expect(lint(body(#""timestamp":"1795000000","event":"end""#)).diagnostics.contains { $0.code == "invalid-aps-value" })
        #expect(lint(body(#""timestamp":-5,"event":"end""#)).diagnostics.contains { $0.code == "invalid-aps-value" })
    }

    @Test func unknownEventIsAnErrorWithAHint() throws {
        let result = lint(body(#""timestamp":1,"event":"updated","content-state":{}"#))
        let finding = try #require(result.diagnostics.first { $0.code == "invalid-event" })
        #expect(finding.message.contains("did you mean 'update'"))
        #expect(lint(body(#""timestamp":1,"event":1"#)).diagnostics.contains { $0.code == "invalid-event" })
    }

    @Test func updateNeedsContentStateAndEndDoesNot() {
        #expect(lint(body(#""timestamp":1,"event":"update""#)).diagnostics.contains { $0.code == "missing-aps-key" && $0.pointer == "/aps/content-state" })
        let end = lint(body(#""timestamp":1,"event":"end","dismissal-date":1795003600"#))
        #expect(!end.hasErrors)
        #expect(end.appDecodes)
    }

    @Test func startNeedsAttributesTypeAttributesAndAlert() {
        let result = lint(body(#""timestamp":1,"event":"start","content-state":{}"#))
        let pointers = result.diagnostics.filter { $0.code == "missing-aps-key" }.map(\.pointer)
        #expect(pointers == ["/aps/attributes-type", "/aps/attributes", "/aps/alert"])
    }

    @Test func startIsCheckedAgainstTheSchemasAttributes() throws {
        let result = lint(body(#""timestamp":1,"event":"start","content-state":{},"attributes-type":"ScoreAttrs","attributes":{"teamA":"A"},"alert":{"title":"Go","body":1}"#))
        #expect(result.diagnostics.contains { $0.code == "attributes-type-mismatch" && $0.message.contains("ScoreAttributes") })
        let missing = try #require(result.diagnostics.first { $0.code == "missing-required-key" })
        #expect(missing.scope == .attributes)
        #expect(missing.pointer == "/teamB")
        #expect(result.diagnostics.contains { $0.code == "invalid-aps-value" && $0.pointer == "/aps/alert/body" })
    }

    @Test func cleanStartPasses() {
        let result = lint(body(#""timestamp":1,"event":"start","content-state":{"score":"0-0"},"attributes-type":"ScoreAttributes","attributes":{"teamA":"A","teamB":"B"},"alert":{"title":"Kick-off","body":{"loc-key":"K","loc-args":[]}},"input-push-token":1"#))
        #expect(!result.hasErrors, "\(result.diagnostics)")
    }

    @Test func broadcastCannotStart() {
        let start = #""timestamp":1,"event":"start","content-state":{},"attributes-type":"ScoreAttributes","attributes":{"teamA":"A","teamB":"B"},"alert":{"title":"t","body":"b"}"#
        #expect(lint(body(start), broadcast: true).diagnostics.contains { $0.code == "broadcast-start" })
        #expect(!lint(body(start)).diagnostics.contains { $0.code == "broadcast-start" })
    }

    @Test func heuristicsAreWarnings() throws {
        let result = lint(body(#""timestamp":1795000000,"event":"update","content-state":{"startsAt":1795000000},"dismissal-date":1795003600,"stale-date":1794000000,"sound":"x""#))
        let codes = Dictionary(grouping: result.diagnostics, by: \.code)
        for code in ["unix-date-in-date-field", "dismissal-date-outside-end", "stale-date-before-timestamp", "unknown-aps-key"] {
            let finding = try #require(codes[code]?.first, "\(code)")
            #expect(finding.severity == .warning)
        }
        #expect(codes["unix-date-in-date-field"]?.first?.pointer == "/startsAt")
        #expect(codes["unix-date-in-date-field"]?.first?.message.contains("816692800") == true)
        #expect(!result.hasErrors)
    }

    @Test func inputPushKeysAreChecked() {
        #expect(lint(body(#""timestamp":1,"event":"end","input-push-token":2"#)).diagnostics.contains { $0.code == "invalid-aps-value" })
        #expect(lint(body(#""timestamp":1,"event":"end","input-push-channel":"not base64!""#)).diagnostics.contains { $0.code == "invalid-aps-value" })
        let both = lint(body(#""timestamp":1,"event":"end","input-push-token":1,"input-push-channel":"dGVzdA==""#))
        #expect(both.diagnostics.map(\.code) == ["input-push-conflict"])
    }

    @Test func relevanceScoreMustBeANumber() {
        #expect(!lint(body(#""timestamp":1,"event":"end","relevance-score":250.5"#)).hasErrors)
        #expect(lint(body(#""timestamp":1,"event":"end","relevance-score":"high""#)).diagnostics.contains { $0.code == "invalid-aps-value" })
    }

    @Test func bodyWithoutAPSIsReported() {
        #expect(lint(#"{"data":{}}"#).diagnostics.map(\.code) == ["missing-aps"])
        #expect(lint(#"[1]"#).diagnostics.map(\.code) == ["missing-aps"])
        #expect(lint(#"{"aps":[]}"#).diagnostics.map(\.code) == ["invalid-aps-value"])
    }

    @Test func duplicateAPSKeysAreWarnings() {
        let result = lint(body(#""timestamp":1,"event":"end","event":"start""#))
        #expect(result.diagnostics.map(\.code) == ["duplicate-key"])
        #expect(result.event == "end")
    }

    @Test func syntaxErrorsCarryPositions() throws {
        let result = lint("{\"aps\":{\n\"timestamp\":1,}}")
        let error = try #require(result.diagnostics.first)
        #expect(error.code == "json-syntax")
        #expect(error.position?.line == 2)
        #expect(!result.appDecodes)
    }

    @Test func strictClientVerdictIsPartOfLint() {
        let result = lint(body(#""timestamp":1,"event":"update","content-state":{"scoreA":1}"#), version: 1)
        #expect(result.diagnostics.contains { $0.code == "missing-required-key" })
        #expect(result.diagnostics.contains { $0.code == "strict-decode-failure" })
        #expect(!result.appDecodes)
    }

    @Test func allVersionsSaysWhichAppVersionsDrop() {
        let bytes = Array(body(#""timestamp":1,"event":"update","content-state":{"scoreA":1}"#).utf8)
        let (results, diagnostics) = PayloadValidator.validateAllVersions(scoreSchema, bytes, file: "p.json")
        #expect(results.map(\.version) == [1, 2])
        #expect(results.map(\.result.appDecodes) == [false, true])
        let dropped = diagnostics.filter { $0.code == "dropped-by-version" }
        #expect(dropped.count == 1)
        #expect(dropped.first?.message.hasPrefix("app version 1 drops this update") == true)
    }
}

@Suite struct ByteBudgetTests {
    @Test func fieldNamesAreTheKeysAsSentForUnknownEscapedAndAliasedKeys() throws {
        let schema = Schema(activity: "names", strictClients: [], versions: [SchemaVersion(version: 1, contentState: [
            Field(name: "title", type: .string, defaultValue: .string("")),
            Field(name: "subtitle", type: .string, defaultValue: .string(""), aliases: ["subTitle"]),
        ])])
        let validator = try PayloadValidator(schema: schema)
        let text = body(#""timestamp":1,"event":"update","content-state":{"t\u0069tle":"a","subTitle":"b","x/y":1,"title":"c"}"#)
        let result = validator.validate(Array(text.utf8))
        #expect(result.budget.fields.map(\.name) == ["title", "subTitle", "x/y", "title"])
    }

    @Test func measuresBodyContentStateAndFields() throws {
        let text = body(#""timestamp":1,"event":"update","content-state":{"score":"2-1","ratio":1.91,"note":"a/b"}"#)
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

    @Test func worstCaseNumbersMatchSeventeenDigitRendering() {
        for value in [0.6, 1.91, 4.9, 0.001, 123.456, -37.77493, 752000000.5, 1e-7, 1.5e300, .leastNonzeroMagnitude] {
            let rendered = String(format: "%.17g", value)
            // The bound counts 17 digits even where %.17g drops trailing zeros.
            #expect(ByteBudget.worstCaseNumber(value) >= rendered.utf8.count, "\(value): \(rendered)")
        }
        #expect(ByteBudget.worstCaseNumber(0.6) == "0.59999999999999998".utf8.count)
        #expect(ByteBudget.worstCaseNumber(2) == 1)
        #expect(ByteBudget.worstCaseNumber(-752000000) == 10)
    }

    @Test func overBudgetBodyIsAnErrorNamingTheLimit() throws {
        let big = String(repeating: "x", count: 5000)
        let result = lint(body(#""timestamp":1,"event":"update","content-state":{"note":"\#(big)"}"#))
        let finding = try #require(result.diagnostics.first { $0.code == "over-budget" })
        #expect(finding.message.contains("4096"))
        #expect(finding.message.contains("note"))
        #expect(result.diagnostics.contains { $0.code == "content-state-over-budget" })
        #expect(result.diagnostics.contains { $0.code == "reencoded-over-budget" })
        #expect(!result.appDecodes)
        #expect(result.budget.headroom < 0)
    }

    @Test func broadcastLimitIs5120() {
        let note = String(repeating: "x", count: 4200)
        let text = body(#""timestamp":1,"event":"update","content-state":{"note":"\#(note)"}"#)
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
        let result = validator.validate(Array(body(#""timestamp":1,"event":"update","content-state":{"r":[\#(ratios)]}"#).utf8))
        #expect(!result.diagnostics.contains { $0.code == "over-budget" })
        #expect(result.diagnostics.contains { $0.code == "reencoded-over-budget" })
    }

    @Test func measuresWithoutASchema() throws {
        let text = body(#""timestamp":1,"event":"update","content-state":{"a":1.91,"b":"x/y","c":[1,2]}"#)
        let budget = try Array(text.utf8).withUnsafeBytes { bytes throws(JSONError) in try ByteBudget.measure(body: bytes) }
        #expect(budget.body == text.utf8.count)
        #expect(budget.fields.map(\.name) == ["a", "b", "c"])
        #expect(budget.deviceWorstCase == #"{"a":1.9099999999999999,"b":"x\/y","c":[1,2]}"#.utf8.count)
    }
}

@Suite struct UnixDateHeuristicTests {
    @Test func hugeDateValuesDoNotTrap() throws {
        for value in ["1e300", "1.7976931348623157e308", "9223372036854775807", "1e19"] {
            let result = lint(body(#""timestamp":1,"event":"update","content-state":{"startsAt":\#(value)}"#))
            let finding = try #require(result.diagnostics.first { $0.code == "unix-date-in-date-field" })
            #expect(finding.message.contains("far in the future"))
        }
    }

    @Test func millisecondsAreConvertedToSecondsInTheHint() throws {
        let result = lint(body(#""timestamp":1,"event":"update","content-state":{"startsAt":1795000000000}"#))
        let finding = try #require(result.diagnostics.first { $0.code == "unix-date-in-date-field" })
        #expect(finding.message.contains("send 816692800"))
    }
}
