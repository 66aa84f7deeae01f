import LiveState
import Testing

/// A schema built in code sets a number format through the public API and gets the range the
/// loader gives a `format:` in a file: `300` does not fit the app's `Int8`.
struct CodeBuiltFormatTests {
    @Test func setNumberFormatNarrowsTheRangeEveryReaderChecks() throws {
        var small = Field(name: "small", type: .int)
        small.setNumberFormat(.int8)
        #expect(small.constraints.minimum == -128 && small.constraints.maximum == 127)
        let schema = Schema(activity: "a", strictClients: [1], versions: [SchemaVersion(version: 1, contentState: [small])])
        let decoder = try ContentStateDecoder(schema: schema, version: 1)
        let refused = decoder.decode(contentState: Array(#"{"small":300}"#.utf8))
        #expect(!refused.appDecodes)
        #expect(refused.diagnostics.first?.pointer == "/small")
        #expect(decoder.decode(contentState: Array(#"{"small":-128}"#.utf8)).appDecodes)
    }
}
