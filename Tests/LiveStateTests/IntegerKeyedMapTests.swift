import Foundation
import Testing
@_spi(Scanner) @testable import LiveState

/// `type: map` with `keys: int`, a Swift `[Int: T]`: `JSONDecoder` reads it from a JSON object
/// whose every key `Int(_:)` reads. The verdicts against `JSONDecoder`, the tape against the
/// full decoder, the encoder, generated code's reader and the rule against `Int(_:)`.
@Suite struct IntegerKeyedMapTests {
    struct Board: Codable, Equatable {
        var periods: [Int: Int]
        var names: [Int: String]?
    }

    static let periods: Field = {
        var field = Field(name: "periods", type: .map(items: Field(name: "", type: .int)))
        field.hasIntegerKeys = true
        return field
    }()

    static let schema: Schema = {
        var names = Field(name: "names", type: .map(items: Field(name: "", type: .string)), isOptional: true)
        names.hasIntegerKeys = true
        var defaulted = periods
        defaulted.defaultValue = .object([.init("1", .int(0))])
        return Schema(activity: "board", strictClients: [1], versions: [
            SchemaVersion(version: 1, contentState: [periods, names]),
            SchemaVersion(version: 2, contentState: [defaulted, names]),
        ])
    }()

    /// Keys of every form: what `Int(_:)` reads and what it does not. (Two keys of one integer
    /// are left to `keysOfOneIntegerAreOneEntry`: which value `JSONDecoder` keeps varies.)
    static let keys = [
        "5", "+5", "-5", "05", "-0", "0", "9223372036854775807", "-9223372036854775808", #"\u0035"#,
        "x", "", "5.0", "1e2", " 5", "5 ", "+", "-", "--5", "0x1", "1_0", "9223372036854775808", "-9223372036854775809", "٣",
    ]

    static let payloads: [String] = keys.flatMap { key in
        [#"{"periods":{"\#(key)":1}}"#, #"{"periods":{"1":2},"names":{"\#(key)":"a"}}"#, #"{"periods":{"\#(key)":"x"}}"#]
    } + [#"{"periods":{}}"#, #"{"periods":[]}"#, #"{"periods":{"1":1},"names":null}"#]

    /// A strict version's verdict is synthesized `Codable`'s with `JSONDecoder`.
    @Test func theStrictVerdictIsJSONDecoders() throws {
        #expect(try StrictAgreement.expect(Board.self, schema: Self.schema, version: 1, payloads: Self.payloads) > 30)
    }

    /// The tape and the full decoder say the same, for a strict and a tolerant version.
    @Test func theTapeAndTheFullDecoderAgree() throws {
        try TapeAgreement.expect(Self.schema, versions: [1, 2], payloads: Self.payloads)
    }

    /// A key that is not an integer's text makes the map invalid: its default in a tolerant
    /// version, with the key's pointer; a key past `Int`'s range is worded so.
    @Test func aKeyThatIsNotAnIntegerMakesTheMapInvalid() throws {
        let decoder = try ContentStateDecoder(schema: Self.schema, version: 2)
        let result = decoder.decode(contentState: Array(#"{"periods":{"1":1,"x":2}}"#.utf8), file: "p.json")
        #expect(result.appDecodes)
        #expect(result.state?["periods"] == .object([.init("1", .int(0))]))
        #expect(result.allDiagnostics.map(\.description) == [
            "p.json:1:19: warning: at /periods/x: the key 'x' is not an integer, and the app's [Int: …] reads only keys that Int(_:) "
                + "reads: an optional sign and decimal digits, within Int's range; 'periods' takes its default {\"1\":0} (at /periods) [invalid-defaulted]",
        ])
        let past = decoder.decode(contentState: Array(#"{"periods":{"9223372036854775808":2}}"#.utf8))
        #expect(past.allDiagnostics.first?.message.hasPrefix("at /periods/9223372036854775808: the key '9223372036854775808' is past Int's range") == true,
                "\(past.allDiagnostics.map(\.message))")
        let valid = decoder.decode(contentState: Array(#"{"periods":{"+1":1,"-02":2}}"#.utf8))
        // Held as `Int` writes them.
        #expect(valid.state?["periods"] == .object([.init("1", .int(1)), .init("-2", .int(2))]))
        #expect(valid.allDiagnostics.isEmpty)
    }

    /// Keys of one integer (`05` and `5`) are one entry of the app's dictionary: both values
    /// are read (an invalid one makes the map invalid), the later key is noted, the state keeps
    /// the first under the key as `Int` writes it, and `max-items` counts one entry. The
    /// encoder and a default refuse them.
    @Test func keysOfOneIntegerAreOneEntry() throws {
        var limited = Self.periods
        limited.constraints.maxItems = 1
        limited.defaultValue = .object([])
        let schema = Schema(activity: "board", versions: [SchemaVersion(version: 1, contentState: [limited])])
        let decoder = try ContentStateDecoder(schema: schema, version: 1)
        let result = decoder.decode(contentState: Array(#"{"periods":{"05":1,"+5":2}}"#.utf8), file: "p.json")
        #expect(result.state?["periods"] == .object([.init("5", .int(1))]))
        #expect(result.allDiagnostics.map(\.description) == [
            "p.json:1:20: warning: key '+5' is the Int 5, as a key before it is: the app's [Int: …] holds one of their values, "
                + "and which one is not set; send each integer once (at /periods/+5) [duplicate-key]",
        ])
        let invalid = decoder.decode(contentState: Array(#"{"periods":{"5":1,"05":"x"}}"#.utf8))
        #expect(invalid.state?["periods"] == .object([]))
        try TapeAgreement.expect(schema, versions: [1], payloads: [#"{"periods":{"05":1,"+5":2}}"#, #"{"periods":{"5":1,"05":"x"}}"#])
        let twice = Self.periods.violation(of: .object([.init("5", .int(1)), .init("05", .int(2))]))
        #expect(twice?.contains("key '05' is the Int 5, as another key is") == true, "\(String(describing: twice))")
    }

    /// The encoder checks each key by the same rule, and what it writes `JSONDecoder` reads.
    @Test func theEncoderChecksEachKey() throws {
        let encoder = try ContentStateEncoder(schema: Self.schema, version: 1)
        let board = Board(periods: [1: 10, -2: 20], names: [3: "c"])
        let encoded = try encoder.encode(board)
        #expect(encoded.succeeded, "\(encoded.diagnostics.map(\.message))")
        #expect(try JSONDecoder().decode(Board.self, from: Data(encoded.bytes)) == board)
        let refused = encoder.encode(.object([.init("periods", .object([.init("one", .int(1))]))]))
        #expect(!refused.succeeded)
        #expect(refused.diagnostics.first?.message.contains("the key 'one' is not an integer") == true, "\(refused.diagnostics.map(\.message))")
        #expect(Self.periods.violation(of: .object([.init("07", .int(1))])) == nil)
        #expect(Self.periods.violation(of: .object([.init("7.0", .int(1))])) != nil)
    }

    /// Generated code's reader (`TolerantValue.integerKeyedMap`) holds the keys as `Int`s and
    /// refuses what `Int(_:)` does not read.
    @Test func generatedCodesReaderHoldsIntegerKeys() throws {
        struct Periods: Decodable {
            var periods: [Int: Int]
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Key.self)
                periods = try TolerantValue(container.superDecoder(forKey: .periods)).integerKeyedMap(maxItems: 2) { try $0.int() }
            }
            enum Key: String, CodingKey { case periods }
        }
        let read = try JSONDecoder().decode(Periods.self, from: Data(#"{"periods":{"+1":1,"-02":2}}"#.utf8))
        #expect(read.periods == [1: 1, -2: 2])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Periods.self, from: Data(#"{"periods":{"x":1}}"#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Periods.self, from: Data(#"{"periods":{"1":1,"2":2,"3":3}}"#.utf8)) }
    }

    /// The rule is `Int(_:)`'s, and the JSON Schema pattern takes exactly the keys of its form
    /// (a sign and digits), on random strings of the characters that matter.
    @Test func theRuleIsIntsAndThePatternItsForm() throws {
        let pattern = try NSRegularExpression(pattern: Field.integerKeyPattern)
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789+-. eE_x\n٣")
        for _ in 0 ..< 5_000 {
            let key = String((0 ..< Int.random(in: 0 ... 21, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            let problem = Field.mapKeyProblem(key, integerKeys: true, constraints: .init())
            #expect((problem == nil) == (Int(key) != nil), "\(key.debugDescription)")
            let matches = pattern.firstMatch(in: key, range: NSRange(key.startIndex..., in: key)) != nil
            #expect(matches == (Int(key) != nil || problem?.message.contains("past Int's range") == true), "\(key.debugDescription)")
            #expect(problem?.codableFails ?? true)
        }
        #expect(Field.mapKeyProblem("any text", integerKeys: false, constraints: .init()) == nil)
    }
}
