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

    /// `uuid()` and `data()`, what generated code calls for `format: uuid` and `format: base64`,
    /// take what the format's rule takes, with its words, and make the value `JSONDecoder` makes.
    @Test func aStringsFormatIsReadByItsRule() throws {
        let value = TolerantValueProbe.self
        for text in ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "trip-42", "", "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}"] {
            let json = #"""# + text + #"""#
            #expect(try value.error(json) { try $0.uuid() } == Field.StringFormat.uuid.problem(text), "\(text)")
            #expect(try value.value(json) { try $0.uuid() } == (try? JSONDecoder().decode(UUID.self, from: Data(json.utf8))), "\(text)")
        }
        for text in ["aGk=", "", "aGk", "aG k=", "AP8H"] {
            let json = #"""# + text + #"""#
            #expect(try value.error(json) { try $0.data() } == Field.StringFormat.base64.problem(text), "\(text)")
            #expect(try value.value(json) { try $0.data() } == (try? JSONDecoder().decode(Data.self, from: Data(json.utf8))), "\(text)")
        }
        #expect(try value.error(#""aGVsbG8gd29ybGQh""#) { try $0.data(maxLength: 8) } == "16 bytes is longer than max-length 8")
    }
}

/// Runs one `TolerantValue` read over a JSON value and returns its `DecodingError` message.
private struct TolerantValueProbe: Decodable {
    /// The read to run, handed to `init(from:)` through the decoder's `userInfo`.
    final class Read: @unchecked Sendable {
        let body: (TolerantValue) throws -> Void
        init(_ body: @escaping (TolerantValue) throws -> Void) { self.body = body }
    }

    /// What a read made, handed back out of `init(from:)`.
    final class Made: @unchecked Sendable { var value: Any? }

    static let key = CodingUserInfoKey(rawValue: "read")!

    init(from decoder: any Decoder) throws {
        try (decoder.userInfo[Self.key] as? Read)?.body(TolerantValue(decoder))
    }

    /// The value one read makes of a JSON value, or `nil` when it throws.
    static func value<T>(_ json: String, _ body: @escaping (TolerantValue) throws -> T) throws -> T? {
        let box = Made()
        let decoder = JSONDecoder()
        decoder.userInfo[key] = Read { box.value = try body($0) }
        _ = try? decoder.decode(Self.self, from: Data(json.utf8))
        return box.value as? T
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
