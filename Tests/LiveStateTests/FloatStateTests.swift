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
}
