import Foundation
import Testing
@_spi(Scanner) @testable import LiveState

/// A `format: float` field's state shows what the app holds.
@Suite struct FloatStateTests {
    static func float(_ name: String) -> Field {
        var field = Field(name: name, type: .double)
        field.setNumberFormat(.float)
        return field
    }

    static let schema: Schema = {
        var list = Field(name: "list", type: .array(items: float("")))
        list.defaultValue = .array([])
        return Schema(activity: "gauge", versions: [
            SchemaVersion(version: 1, contentState: [float("ratio"), list, Field(name: "plain", type: .double)]),
        ])
    }()

    /// The number rounded to a `Float`, at that `Float`'s shortest text (`16777217` is
    /// 16777216), on the tape and in the full decoder, in an array too; a `Double` field keeps
    /// the number.
    @Test func aFloatsStateIsTheFloatTheAppHolds() throws {
        let decoder = try ContentStateDecoder(schema: Self.schema, version: 1)
        let payload = #"{"ratio":16777217,"list":[0.1,3.4028235677973366e38],"plain":16777217}"#
        let result = decoder.decode(contentState: Array(payload.utf8))
        #expect(result.state == .object([
            .init("ratio", .double(16_777_216)), .init("list", .array([.double(0.1), .double(3.4028235e38)])), .init("plain", .double(16_777_217)),
        ]), "\(String(describing: result.state))")
        try TapeAgreement.expect(Self.schema, versions: [1], payloads: [payload, #"{"ratio":0.30000001192092896,"plain":0}"#])
    }

    /// The `Float` is read from the text, as `JSONDecoder` reads it, not through a `Double`,
    /// which rounds twice near a `Float`'s midpoint; each case against `JSONDecoder` itself.
    @Test(arguments: ["16777217.000000001", "16777218.999999999", "1.000000059604644775390625", "1.0000000596046447753906249999",
                      "7.006492321624086e-46", "0.1", "3.4028235677973362e38"])
    func theFloatIsReadFromTheText(_ text: String) throws {
        struct Ratio: Decodable { var ratio: Float }
        let held = try JSONDecoder().decode(Ratio.self, from: Data(#"{"ratio":\#(text)}"#.utf8)).ratio
        let result = try ContentStateDecoder(schema: Self.schema, version: 1).decode(contentState: Array(#"{"ratio":\#(text),"plain":0}"#.utf8))
        #expect(result.state?["ratio"] == Double(String(held)).map(Value.double), "\(text): \(String(describing: result.state)) against \(held)")
        try TapeAgreement.expect(Self.schema, versions: [1], payloads: [#"{"ratio":\#(text),"plain":0}"#])
    }

    /// A bound is checked on the `Float`'s shortest text by the decoders and by generated code
    /// alike: `maximum: 0.1` takes the `Float` 0.1 (whose `Double` is 0.10000000149011612),
    /// and `minimum: 0.7` the `Float` 0.7.
    @Test func aBoundTakesTheFloatItNames() throws {
        var bounded = Self.float("ratio")
        bounded.constraints.minimum = 0.1
        bounded.constraints.maximum = 0.7
        bounded.rejectsInvalid = true
        let schema = Schema(activity: "gauge", versions: [SchemaVersion(version: 1, contentState: [bounded])])
        let decoder = try ContentStateDecoder(schema: schema, version: 1)
        for payload in [#"{"ratio":0.1}"#, #"{"ratio":0.7}"#] {
            let result = decoder.decode(contentState: Array(payload.utf8))
            #expect(result.appDecodes && result.allDiagnostics.isEmpty, "\(payload): \(result.allDiagnostics.map(\.message))")
        }
        struct Ratio: Decodable {
            var ratio: Float
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Key.self)
                ratio = try TolerantValue(container.superDecoder(forKey: .ratio)).float(minimum: 0.1, maximum: 0.7)
            }
            enum Key: String, CodingKey { case ratio }
        }
        #expect(try JSONDecoder().decode(Ratio.self, from: Data(#"{"ratio":0.1}"#.utf8)).ratio == 0.1)
        #expect(try JSONDecoder().decode(Ratio.self, from: Data(#"{"ratio":0.7}"#.utf8)).ratio == 0.7)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Ratio.self, from: Data(#"{"ratio":0.70001}"#.utf8)) }
    }

    /// Bounds are checked on the `Float` the app holds, as generated code checks them:
    /// `16777216.5` is the `Float` 16777216, within `maximum: 16777216`.
    @Test func boundsAreCheckedOnTheFloatTheAppHolds() throws {
        var bounded = Self.float("ratio")
        bounded.constraints.maximum = 16_777_216
        bounded.defaultValue = .double(0)
        let schema = Schema(activity: "gauge", versions: [SchemaVersion(version: 1, contentState: [bounded])])
        let decoder = try ContentStateDecoder(schema: schema, version: 1)
        let within = decoder.decode(contentState: Array(#"{"ratio":16777216.5}"#.utf8))
        #expect(within.state?["ratio"] == .double(16_777_216) && within.allDiagnostics.isEmpty, "\(within.allDiagnostics.map(\.message))")
        let past = decoder.decode(contentState: Array(#"{"ratio":16777219}"#.utf8))
        #expect(past.state?["ratio"] == .double(0))
        try TapeAgreement.expect(schema, versions: [1], payloads: [#"{"ratio":16777216.5}"#, #"{"ratio":16777219}"#])
    }
}
