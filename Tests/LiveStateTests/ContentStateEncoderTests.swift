import Foundation
import Testing
@testable import LiveState

/// A schema with every field type, defaults, and fields the encoder may drop or shorten.
let encodingSchema = Schema(
    activity: "card", attributesType: "CardAttributes",
    versions: [
        SchemaVersion(version: 1, contentState: [
            Field(name: "title", type: .string, defaultValue: .string(""), maxLength: 64),
            Field(name: "progress", type: .double, defaultValue: .double(0), minimum: 0, maximum: 1),
        ]),
        SchemaVersion(version: 2, contentState: [
            Field(name: "title", type: .string, defaultValue: .string(""), maxLength: 64),
            Field(name: "progress", type: .double, defaultValue: .double(0), minimum: 0, maximum: 1),
            Field(name: "count", type: .int, defaultValue: .int(0), minimum: -1000, maximum: 1000),
            Field(name: "express", type: .bool, defaultValue: .bool(false)),
            Field(name: "eta", type: .date, defaultValue: .date(0)),
            Field(name: "window", type: .dateRange, isOptional: true),
            Field(name: "link", type: .url, isOptional: true),
            Field(name: "status", type: .enumeration(.strings(["pending", "on/way", "done"])), defaultValue: .string("pending"), fallback: .string("pending")),
            Field(name: "level", type: .enumeration(.integers([1, 2, 3])), defaultValue: .int(1)),
            Field(name: "courier", type: .object(fields: [
                Field(name: "name", type: .string, defaultValue: .string(""), maxLength: 32),
                Field(name: "rating", type: .double, defaultValue: .double(0), minimum: 0, maximum: 5),
            ]), defaultValue: .object([.init("name", .string("")), .init("rating", .double(0))])),
            Field(name: "items", type: .array(items: Field(name: "", type: .string, maxLength: 48)), defaultValue: .array([]), maxItems: 60),
            Field(name: "note", type: .string, isOptional: true, maxLength: 3000, truncate: true),
            Field(name: "badge", type: .string, defaultValue: .string(""), maxLength: 1000, dropPriority: 1),
            Field(name: "banner", type: .string, defaultValue: .string(""), maxLength: 1000, dropPriority: 2),
        ]),
    ])

func encoder(_ options: ContentStateEncoder.Options = .init(), version: Int = 2) -> ContentStateEncoder {
    try! ContentStateEncoder(schema: encodingSchema, version: version, options: options)
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
        let envelope = ContentStateEncoder.Envelope(event: "start", timestamp: 1795000000, staleDate: 1795003600, relevanceScore: 50,
                                                    alert: .object([.init("title", .string("Hi")), .init("body", .string("There"))]),
                                                    attributes: .object([.init("orderId", .string("A1"))]))
        let result = encoder(.init(elideDefaults: true)).encodePayload(.object([.init("title", .string("x"))]), envelope: envelope)
        #expect(text(result.bytes) == #"{"aps":{"timestamp":1795000000,"event":"start","attributes-type":"CardAttributes","attributes":{"orderId":"A1"},"alert":{"title":"Hi","body":"There"},"relevance-score":50,"stale-date":1795003600,"content-state":{"title":"x"}}}"#)
        #expect(result.budget?.body == result.bytes.count)
    }

    @Test func invalidStateIsRefused() {
        let result = encoder().encode(.object([.init("progress", .double(2)), .init("bogus", .int(1))]))
        #expect(result.bytes.isEmpty)
        #expect(!result.succeeded)
        #expect(result.diagnostics.map(\.code) == ["invalid-state", "invalid-state"])
        #expect(result.diagnostics.map(\.pointer) == ["/progress", "/bogus"])
    }

    @Test func readStateFillsDefaultsAndRefusesWhatDoesNotFit() throws {
        let (state, problems) = encoder().readState(Array(#"{"title":"x","progress":0.5}"#.utf8))
        #expect(problems.isEmpty)
        #expect(state?["count"] == .int(0))
        let (bad, badProblems) = encoder().readState(Array(#"{"title":5,"status":"lost","other":1}"#.utf8))
        #expect(bad == nil)
        #expect(badProblems.map(\.severity) == [.error, .error, .error])
        #expect(badProblems.last?.message == "version 2 has no field 'other'")
    }

    @Test func elidesOnlyDefaultsEveryVersionShares() {
        // title and progress exist in version 1 with the same defaults; the rest only in version 2.
        let result = encoder(.init(elideDefaults: true)).encode(.object([.init("title", .string("")), .init("count", .int(3))]))
        #expect(text(result.bytes) == #"{"count":3}"#)
        #expect(result.diagnostics.allSatisfy { $0.code == "elided-default" && $0.severity == .info })
    }

    @Test func elisionNeverLeavesOutForAStrictClientOrAnotherDefault() {
        var schema = encodingSchema
        schema.versions[0].contentState[1].defaultValue = .double(0.5)
        let differentDefault = try! ContentStateEncoder(schema: schema, options: .init(elideDefaults: true))
        #expect(text(differentDefault.encode(.object([])).bytes).contains(#""progress":0"#))
        schema.strictClients = [1]
        let strict = try! ContentStateEncoder(schema: schema, options: .init(elideDefaults: true))
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
        #expect(result.diagnostics.contains { $0.message == "version 2 has no field 'extra'" })
    }
}

@Suite struct FitTests {
    func big(_ count: Int) -> String { String(repeating: "x", count: count) }

    @Test func overBudgetWithoutFitIsAnError() {
        let result = encoder().encode(.object([.init("note", .string(big(2900))), .init("badge", .string(big(900))), .init("banner", .string(big(900)))]))
        #expect(!result.succeeded)
        #expect(result.diagnostics.last?.code == "over-budget")
        #expect(result.diagnostics.last?.message.contains("--fit") == true)
    }

    @Test func fitDropsLowestPriorityFirstThenTruncates() throws {
        let state = Value.object([.init("note", .string(big(2900))), .init("badge", .string(big(900))), .init("banner", .string(big(900)))])
        let result = encoder(.init(fit: true)).encodePayload(state, envelope: .init(timestamp: 1))
        #expect(result.succeeded, "\(result.diagnostics)")
        // badge (drop-priority 1) goes first, then banner (2), then note is shortened, as far as needed.
        let steps = result.diagnostics.map { "\($0.code) \($0.pointer ?? "")" }
        #expect(!steps.isEmpty)
        #expect(steps == Array(["dropped-to-fit /badge", "dropped-to-fit /banner", "truncated-to-fit /note"].prefix(steps.count)))
        #expect(result.bytes.count <= 4096)
    }

    @Test func truncatesOnACharacterBoundaryWithAnEllipsis() throws {
        // 3000 bytes as sent, 4000 as the device may write them ('/' escaped): only the
        // re-encoding is over budget.
        let note = String(repeating: "é/", count: 1000)
        let result = encoder(.init(fit: true)).encodePayload(.object([.init("note", .string(note))]), envelope: .init(timestamp: 1))
        #expect(result.succeeded, "\(result.diagnostics)")
        let validator = try PayloadValidator(schema: encodingSchema)
        let lint = validator.validate(result.bytes)
        #expect(!lint.hasErrors, "\(lint.diagnostics)")
        guard case .string(let shortened)? = lint.state?["note"] else { Issue.record("no note"); return }
        #expect(shortened.hasSuffix("…"))
        #expect(shortened.hasPrefix("é/é/"))
        #expect(String(shortened.dropLast()).allSatisfy { $0 == "é" || $0 == "/" })
    }

    @Test func cannotFitIsAnError() {
        // 60 items of 48 slashes: 3060 bytes as sent, about 6000 as the device may write them,
        // and items may be neither dropped nor shortened.
        let items = Value.array((0..<60).map { _ in .string(String(repeating: "/", count: 48)) })
        let many = encoder(.init(fit: true)).encode(.object([.init("items", items)]))
        let succeeded = many.succeeded
        #expect(!succeeded)
        #expect(many.diagnostics.last?.code == "over-budget")
        #expect(many.diagnostics.last?.message.contains("does not fit even") == true)
    }

    @Test func broadcastFitsAgainst5120() {
        let state = Value.object([.init("note", .string(big(2900))), .init("badge", .string(big(900))), .init("banner", .string(big(900)))])
        let result = encoder(.init(fit: true, broadcast: true)).encodePayload(state, envelope: .init(timestamp: 1))
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
        let low = field.minimum ?? -1e6
        let high = field.maximum ?? 1e9
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return low
        case 1: return high
        default: return Double.random(in: low...high, using: &rng)
        }
    }

    mutating func value(_ field: Field) -> Value {
        if field.isOptional && Bool.random(using: &rng) { return .null }
        switch field.type {
        case .string: return .string(string(maxLength: field.maxLength))
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
            let count = Int.random(in: 0...min(field.maxItems ?? 5, 5), using: &rng)
            return .array((0..<count).map { _ in value(items) })
        case .object(let fields): return .object(fields.map { .init($0.name, value($0)) })
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
        let encoder = encoder(.init(elideDefaults: true, fit: true))
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
            if result.diagnostics.contains(where: { $0.code.hasSuffix("-to-fit") }) { fitted += 1 }
            let lint = validator.validate(result.bytes)
            #expect(!lint.hasErrors, "\(text(result.bytes)): \(lint.diagnostics)")
            #expect(lint.budget.deviceWorstCase ?? .max <= 4096)
        }
        #expect(fitted > 50)
    }
}
