import LiveState
import Testing

/// A schema built in code sets a number format through the public API and gets the range the
/// loader gives a `format:` in a file: `300` does not fit the app's `Int8`.
struct CodeBuiltFormatTests {
    @Test func setNumberFormatNarrowsTheRangeEveryReaderChecks() throws {
        var small = Field(name: "small", type: .int)
        small.setNumberFormat(.int8)
        #expect(small.constraints.minimum == -128 && small.constraints.maximum == 127)
        // Set again, the field has the new type's range, not the first one's; its own bound stays.
        var wider = small
        wider.setNumberFormat(.int32)
        #expect(wider.constraints.minimum == -2_147_483_648 && wider.constraints.maximum == 2_147_483_647)
        var bounded = Field(name: "level", type: .int, constraints: .init(maximum: 100))
        bounded.setNumberFormat(.int8)
        bounded.setNumberFormat(.uint8)
        #expect(bounded.constraints.minimum == 0 && bounded.constraints.maximum == 100)
        let schema = Schema(activity: "a", strictClients: [1], versions: [SchemaVersion(version: 1, contentState: [small])])
        let decoder = try ContentStateDecoder(schema: schema, version: 1)
        let refused = decoder.decode(contentState: Array(#"{"small":300}"#.utf8))
        #expect(!refused.appDecodes)
        #expect(refused.diagnostics.first?.pointer == "/small")
        #expect(decoder.decode(contentState: Array(#"{"small":-128}"#.utf8)).appDecodes)
    }

    /// A format set alone, with no bounds, is still the app's type to the decoders and the
    /// encoder: `300` is past an `Int8`.
    @Test func aFormatSetAloneIsCheckedByItsRange() throws {
        var small = Field(name: "small", type: .int)
        small.numberFormat = .int8
        let schema = Schema(activity: "a", strictClients: [1], versions: [SchemaVersion(version: 1, contentState: [small])])
        let decoder = try ContentStateDecoder(schema: schema, version: 1)
        for bytes in [Array(#"{"small":300}"#.utf8), Array(#"{"aps":{"timestamp":1,"event":"update","content-state":{"small":300}}}"#.utf8)] {
            let result = bytes.first == UInt8(ascii: "{") && bytes.count < 20
                ? decoder.decode(contentState: bytes) : decoder.decode(payload: bytes)
            #expect(!result.appDecodes)
        }
        let encoded = try ContentStateEncoder(schema: schema, version: 1).encode(.object([Value.Member("small", .int(300))]))
        #expect(encoded.bytes.isEmpty)
    }
}
