import Foundation
import LiveState
import Testing

/// Generated code calls `LiveState`'s `TolerantContainer` and `TolerantValue`, which word a
/// refused value as `ContentStateDecoder` does: one rule, one message.
@Suite struct CodegenRuntimeTests {
    typealias State = PizzaV1.PizzaDeliveryAttributes.ContentState

    /// The `DecodingError` message of the generated type, and the decoder's message for the same
    /// payload.
    private func messages(_ json: String) throws -> (generated: String, library: [String]) {
        let data = Data(json.utf8)
        var generated = ""
        do {
            _ = try JSONDecoder().decode(State.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            generated = context.debugDescription
        }
        let decoder = try ContentStateDecoder(schema: try CodegenPaths.schema("pizza"), version: 1)
        return (generated, decoder.decode(contentState: data).diagnostics.map(\.message))
    }

    @Test func maxLengthIsWordedAsTheDecoderWordsIt() throws {
        let name = String(repeating: "a", count: 63) + "é"
        let (generated, library) = try messages(#"{"name":"\#(name)","status":1,"timer":[0,1]}"#)
        #expect(generated == "65 bytes is longer than max-length 64")
        #expect(library.contains { $0.hasPrefix(generated) }, "\(library)")
    }

    @Test func dateRangeOrderIsWordedAsTheDecoderWordsIt() throws {
        let (generated, library) = try messages(#"{"name":"a","status":1,"timer":[10,1]}"#)
        #expect(generated == "the date-range's lower bound 10 is after its upper bound 1")
        #expect(library.contains { $0.hasPrefix(generated) }, "\(library)")
    }

    @Test func rangeAndItemsAreWordedAsTheDecoderWordsThem() throws {
        let value = TolerantValueProbe.self
        #expect(try value.error(#"100"#) { try $0.int(minimum: 1, maximum: 99) } == "100 is greater than maximum 99")
        #expect(try value.error(#"-1.5"#) { try $0.double(minimum: 0) } == "-1.5 is less than minimum 0")
        #expect(try value.error(#"["a","b","c"]"#) { try $0.array(maxItems: 2) { try $0.string() } } == "3 items is more than max-items 2")
    }
}

/// Runs one `TolerantValue` read over a JSON value and returns its `DecodingError` message.
private struct TolerantValueProbe: Decodable {
    /// The read to run, handed to `init(from:)` through the decoder's `userInfo`.
    final class Read: @unchecked Sendable {
        let body: (TolerantValue) throws -> Void
        init(_ body: @escaping (TolerantValue) throws -> Void) { self.body = body }
    }

    static let key = CodingUserInfoKey(rawValue: "read")!

    init(from decoder: any Decoder) throws {
        try (decoder.userInfo[Self.key] as? Read)?.body(TolerantValue(decoder))
    }

    static func error(_ json: String, _ body: @escaping (TolerantValue) throws -> Any) throws -> String? {
        let decoder = JSONDecoder()
        decoder.userInfo[key] = Read { _ = try body($0) }
        do {
            _ = try decoder.decode(Self.self, from: Data(json.utf8))
            return nil
        } catch let DecodingError.dataCorrupted(context) {
            return context.debugDescription
        }
    }
}
