import Foundation
import LiveState
import LiveStateTooling
import LiveStateYAML
import Testing

/// The device re-encodes the state its app type holds, so a value of a `Float`, a `Decimal` or
/// a `URL` weighs what that type writes, not the number or string sent: the validator's
/// budget (on the tape and on the full decoder's state) and the encoder's agree on it.
@Suite struct BudgetByTypeTests {
    static func schema(_ fields: String, minIOS: String = "16.1") throws -> Schema {
        let yaml = """
            activity: gauge
            min-ios: "\(minIOS)"
            versions:
              - version: 1
                content-state:
            \(fields)
            """
        return try SchemaLoader().load(yaml: Array(yaml.utf8), file: "gauge.yaml")
    }

    /// The validator's and the encoder's measure of `state`.
    static func measures(_ schema: Schema, _ state: String) throws -> (lint: Int?, encode: Int?) {
        let body = #"{"aps":{"timestamp":1795000000,"event":"update","content-state":\#(state)}}"#
        let lint = try PayloadValidator(schema: schema).validate(Array(body.utf8)).budget.deviceWorstCase
        let encoded = try ContentStateEncoder(schema: schema).encode(stateJSON: Array(state.utf8))
        return (lint, encoded.budget?.deviceWorstCase)
    }

    @Test func aFloatWeighsWhatAFloatWrites() throws {
        let schema = try Self.schema("      price: { type: double, format: float }")
        // 123456789 is the float 123456792, written 1.2345679e+08 (13 bytes, where the Double
        // sent is 9 digits).
        let big = try Self.measures(schema, #"{"price":123456789}"#)
        #expect(big.lint == #"{"price":1.2345679e+08}"#.utf8.count)
        #expect(big.encode == big.lint)
        // 0.1 is 0.1 at the float's shortest, and 0.10000000149011612 where `%.17g` prints the
        // float's Double: the most is counted.
        let tenth = try Self.measures(schema, #"{"price":0.1}"#)
        #expect(tenth.lint == #"{"price":0.10000000149011612}"#.utf8.count)
        #expect(tenth.encode == tenth.lint)
    }

    @Test func aDecimalWeighsEveryDigitItHolds() throws {
        let schema = try Self.schema("      amount: { type: double, format: decimal }")
        let huge = try Self.measures(schema, #"{"amount":1e127}"#)
        #expect(huge.lint == #"{"amount":}"#.utf8.count + 128)
        #expect(huge.encode == huge.lint)
        // A decimal does not take 17 digits for 0.1.
        let tenth = try Self.measures(schema, #"{"amount":0.1}"#)
        #expect(tenth.lint == #"{"amount":0.1}"#.utf8.count)
    }

    @Test func aURLWeighsItsAbsoluteString() throws {
        // From iOS 17, é is %C3%A9 and a space %20; '/' is escaped in each.
        let modern = try Self.schema("      link: { type: url }", minIOS: "17")
        let url = try Self.measures(modern, #"{"link":"https://x.com/a b/é"}"#)
        #expect(url.lint == #"{"link":"https:\/\/x.com\/a%20b\/%C3%A9"}"#.utf8.count)
        #expect(url.encode == url.lint)
        // An ASCII URL both parsers read alike weighs what it was sent as.
        let plain = try Self.measures(try Self.schema("      link: { type: url }"), #"{"link":"https://x.com/a"}"#)
        #expect(plain.lint == #"{"link":"https:\/\/x.com\/a"}"#.utf8.count)
    }

    /// A state over the limit only by its floats is reported, and measured on the full
    /// decoder's state too (a problem elsewhere sends the read there).
    @Test func floatsCanPassTheLimitAlone() throws {
        let schema = try Self.schema("""
                  prices: { type: array, items: { type: double, format: float }, default: [] }
                  mood: { type: enum, values: [calm, busy], fallback: calm, default: calm }
            """)
        let prices = Array(repeating: "123456789", count: 300).joined(separator: ",")
        for mood in ["calm", "angry"] {
            let body = #"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"prices":[\#(prices)],"mood":"\#(mood)"}}}"#
            let result = try PayloadValidator(schema: schema, options: .init(broadcast: true)).validate(Array(body.utf8))
            // 300 × 1.2345679e+08: 13 bytes each.
            #expect(result.budget.deviceWorstCase == #"{"prices":[],"mood":"calm"}"#.utf8.count + 300 * 14 - 1, "\(mood)")
            // Where `%.17g` prints the float's Double, 123456792 is 9 bytes, and the state fits.
            let finding = result.diagnostics.first { $0.code == "reencoded-over-budget" }
            #expect(finding?.message.contains("to between \(#"{"prices":[],"mood":"calm"}"#.utf8.count + 300 * 10 - 1) and ") == true,
                    "\(mood): \(result.diagnostics)")
        }
    }
}

/// The static worst case bounds what the device writes for every value a schema allows.
@Suite struct WorstCaseByTypeTests {
    @Test func eachTypeCountsAtTheMostItsDeviceWrites() throws {
        let schema = try BudgetByTypeTests.schema("""
                  count: { type: int, format: uint64 }
                  amount: { type: double, format: decimal }
                  path: { type: enum, values: ["a/b", "c"] }
            """)
        let size = WorstCaseSize(fields: try #require(schema.versions.first?.contentState))
        // 18446744073709551615 is 20 digits; a decimal 131 bytes; "a\/b" 6 with its quotes.
        #expect(size.fields.map(\.bytes) == [#""count":"#.utf8.count + 20, #""amount":"#.utf8.count + 131, #""path":"#.utf8.count + 6])
        // The widest decimal the decoder reads, written by JSONEncoder, is that long.
        struct Amount: Codable { var amount: Decimal }
        let widest = try JSONDecoder().decode(Amount.self, from: Data(#"{"amount":-9.9999999999999999999999999999999999999e-91}"#.utf8))
        #expect(try JSONEncoder().encode(widest).count == #"{"amount":}"#.utf8.count + WorstCaseSize.decimalBytes)
    }
}
