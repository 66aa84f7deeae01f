import Foundation
@testable import LiveState
import LiveStateYAML
import Testing

/// A strict version's `decode(T)` is the app's own: `JSONDecoder` on the content-state's
/// bytes, each number read from its text, on the tape and in the full decode alike.
struct StrictTypedDecodeTests {
    struct State: Codable, Equatable {
        var f: Float
        var count: Int
        var big: UInt64
        var dec: Decimal
    }

    @Test func numbersAreReadFromTheirTextAsJSONDecoderReadsThem() throws {
        let schema = try SchemaLoader().load(yaml: Array("""
            activity: strict
            clients: { strict: [1] }
            versions:
              - version: 1
                content-state:
                  f:     { type: double, format: float }
                  count: { type: int }
                  big:   { type: int, format: uint64 }
                  dec:   { type: double, format: decimal }
            """.utf8), file: "strict.yaml")
        let decoder = try ContentStateDecoder(schema: schema, version: 1)
        // Just below the midpoint between 1 and the next Float; a whole number past 2^53
        // written with a fraction; a UInt64 with a fraction; a Decimal of 21 digits.
        let bytes = Array(#"{"f":1.00000005960464477539062499,"count":9007199254740993.0,"big":1844674407370955161.5,"dec":123456789012345678901}"#.utf8)
        let app = try JSONDecoder().decode(State.self, from: Data(bytes))
        #expect(app.f == 1)
        #expect(app.count == 9_007_199_254_740_993)
        #expect(app.big == 1_844_674_407_370_955_161)
        #expect(app.dec == Decimal(string: "123456789012345678901"))
        #expect(try decoder.decode(contentState: bytes).decode(State.self) == app)
        #expect(try decoder.decodeInFull(contentState: bytes).decode(State.self) == app)
        // In a whole body too.
        let body = Array(#"{"aps":{"timestamp":1,"event":"update","content-state":"#.utf8) + bytes + Array("}}".utf8)
        #expect(try decoder.decode(payload: body).decode(State.self) == app)
    }
}
