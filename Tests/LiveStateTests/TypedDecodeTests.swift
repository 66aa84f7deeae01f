import Foundation
import Testing
@testable import LiveState

/// `DecodeResult.decode(_:)` against Foundation's `JSONDecoder` on the same bytes: the values it
/// gives and the errors it throws, through both of LiveState's decoders (the tape's, and
/// `ValueDecoder` for what the tape hands over).
@Suite struct TypedDecodeTests {
    static let fields = [
        Field(name: "title", type: .string, defaultValue: .string("dflt")),
        Field(name: "ratio", type: .double, isOptional: true),
        Field(name: "amount", type: .double, isOptional: true),
        Field(name: "small", type: .int, isOptional: true),
        Field(name: "list", type: .array(items: Field(name: "", type: .int)), isOptional: true),
        Field(name: "inner", type: .object(fields: [Field(name: "a", type: .int, isOptional: true)]), isOptional: true),
        Field(name: "super", type: .object(fields: [Field(name: "title", type: .string, isOptional: true)]), isOptional: true),
    ]

    /// Version 1 strict, version 2 tolerant, with the same fields.
    static let schema = Schema(activity: "typed", strictClients: [1], versions: [
        SchemaVersion(version: 1, contentState: fields),
        SchemaVersion(version: 2, contentState: fields),
    ])

    static func result(_ json: String, version: Int = 2) throws -> DecodeResult {
        try ContentStateDecoder(schema: schema, version: version).decode(contentState: Array(json.utf8))
    }

    /// The error's case and path, or the value, as text to compare.
    static func outcome<T: Decodable>(_ body: () throws -> T) -> String {
        do {
            return "value \(try body())"
        } catch let error as DecodingError {
            switch error {
            case .dataCorrupted(let context): return "dataCorrupted \(context.codingPath.map(\.stringValue))"
            case .keyNotFound(let key, let context): return "keyNotFound \(key.stringValue) \(context.codingPath.map(\.stringValue))"
            case .valueNotFound(_, let context): return "valueNotFound \(context.codingPath.map(\.stringValue))"
            case .typeMismatch(_, let context): return "typeMismatch \(context.codingPath.map(\.stringValue))"
            @unknown default: return "\(error)"
            }
        } catch {
            return "\(error)"
        }
    }

    struct Ratio: Decodable { var ratio: Float }
    struct OptionalRatio: Decodable { var ratio: Float? }
    struct Amount: Decodable { var amount: Decimal }
    struct Small: Decodable { var small: Int8 }
    struct Floats: Decodable { var list: [Float] }

    /// A `Float` is read from the number's text, as JSONDecoder reads it: not through a `Double`.
    @Test(arguments: ["1e39", "1e-50", "3.4028235677973366e38", "1.00000005960464478", "0.1", "-0"])
    func aFloatIsReadAsJSONDecoderReadsIt(_ number: String) throws {
        let json = #"{"ratio":\#(number)}"#
        let foundation = Self.outcome { try JSONDecoder().decode(Ratio.self, from: Data(json.utf8)).ratio }
        let tape = Self.outcome { try Self.result(json).decode(Ratio.self).ratio }
        let optional = Self.outcome { try Self.result(json).decode(OptionalRatio.self).ratio! }
        // JSONDecoder's error has no path; LiveState's names the field.
        let expected = foundation == "dataCorrupted []" ? "dataCorrupted [\"ratio\"]" : foundation
        #expect(tape == expected, "\(number)")
        #expect(optional == expected, "\(number)")
    }

    @Test func floatsInAnArrayAndNumbersOutOfAnIntegersRange() throws {
        #expect(Self.outcome { try Self.result(#"{"list":[1,2]}"#).decode(Floats.self).list } == "value [1.0, 2.0]")
        #expect(Self.outcome { try Self.result(#"{"small":300}"#).decode(Small.self).small } == #"dataCorrupted ["small"]"#)
        #expect(Self.outcome { try JSONDecoder().decode(Small.self, from: Data(#"{"small":300}"#.utf8)) }.hasPrefix("dataCorrupted"))
    }

    /// A `Decimal` is read from the number, as JSONDecoder reads it; its own `Decodable` asks
    /// for an object of its parts, which made every `Decimal` property fail.
    @Test func aDecimalIsReadFromTheNumber() throws {
        #expect(try Self.result(#"{"amount":12.5}"#).decode(Amount.self).amount == Decimal(string: "12.5"))
        #expect(try Self.result(#"{"amount":-3}"#).decode(Amount.self).amount == -3)
    }

    class Base: Decodable {
        var title: String?
        private enum CodingKeys: String, CodingKey { case title }
        required init(from decoder: any Decoder) throws {
            title = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .title)
        }
    }

    final class Derived: Base {
        var small: Int?
        private enum CodingKeys: String, CodingKey { case small }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            small = try container.decodeIfPresent(Int.self, forKey: .small)
            try super.init(from: container.superDecoder())
        }
    }

    /// `superDecoder()` is the value of the key `super`, as JSONDecoder gives it: it was the
    /// object itself, so the base class read the outer `title`.
    @Test func theSuperDecoderReadsTheKeySuper() throws {
        let json = #"{"title":"top","small":1,"super":{"title":"inner"}}"#
        let foundation = try JSONDecoder().decode(Derived.self, from: Data(json.utf8))
        let decoded = try Self.result(json).decode(Derived.self)
        #expect(foundation.title == "inner")
        #expect(decoded.title == foundation.title && decoded.small == 1)
    }

    struct AsksNil: Decodable {
        var extraIsNil: Bool
        private enum CodingKeys: String, CodingKey { case extra }
        init(from decoder: any Decoder) throws {
            extraIsNil = try decoder.container(keyedBy: CodingKeys.self).decodeNil(forKey: .extra)
        }
    }

    struct Inner: Decodable { var inner: [String: Int] }
    struct Fourth: Decodable {
        var list: [Int]
        private enum CodingKeys: String, CodingKey { case list }
        init(from decoder: any Decoder) throws {
            var elements = try decoder.container(keyedBy: CodingKeys.self).nestedUnkeyedContainer(forKey: .list)
            list = [try elements.decode(Int.self), try elements.decode(Int.self), try elements.decode(Int.self)]
        }
    }

    /// The errors JSONDecoder throws: a key the object lacks for `decodeNil(forKey:)`,
    /// `valueNotFound` for `null`, and a path that names the element past an array's end.
    @Test func errorsAreJSONDecodersCases() throws {
        #expect(Self.outcome { try Self.result("{}").decode(AsksNil.self).extraIsNil } == #"keyNotFound extra []"#)
        #expect(Self.outcome { try JSONDecoder().decode(AsksNil.self, from: Data("{}".utf8)).extraIsNil } == #"keyNotFound extra []"#)
        #expect(Self.outcome { try Self.result(#"{"inner":null}"#).decode(Inner.self).inner } == #"valueNotFound ["inner"]"#)
        #expect(Self.outcome { try Self.result(#"{"list":[1,2]}"#).decode(Fourth.self).list } == #"valueNotFound ["list", "2"]"#)
    }

    struct Title: Decodable { var title: String }

    /// A strict version whose synthesized `Codable` fails drops the update: `decode` throws,
    /// though the schema's reading would fill the default (it returned "dflt").
    @Test func aStrictVersionThatDropsTheUpdateThrows() throws {
        let strict = try Self.result("{}", version: 1)
        #expect(!strict.appDecodes)
        #expect(Self.outcome { try strict.decode(Title.self).title } == #"dataCorrupted ["title"]"#)
        #expect(try Self.result("{}", version: 2).decode(Title.self).title == "dflt")
    }

    /// Constraints and a sender's extras, which a strict version's `Codable` knows nothing of.
    static let constrained = Schema(activity: "sent", strictClients: [1], versions: [
        SchemaVersion(version: 1, contentState: [
            Field(name: "count", type: .int, defaultValue: .int(0), constraints: .init(maximum: 10)),
            Field(name: "kept", type: .int, defaultValue: .int(0), rejectsInvalid: true, constraints: .init(maximum: 10)),
            Field(name: "span", type: .dateRange, isOptional: true),
            Field(name: "note", type: .string, isOptional: true),
        ]),
    ])

    struct Sent: Decodable, Equatable {
        var count: Int
        var kept: Int
        var span: ClosedRange<Date>?
        var note: String?
        var noteSent: Bool
        var keys: [String]

        enum CodingKeys: String, CodingKey { case count, kept, span, note, extra }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            count = try container.decode(Int.self, forKey: .count)
            kept = try container.decode(Int.self, forKey: .kept)
            span = try container.decodeIfPresent(ClosedRange<Date>.self, forKey: .span)
            note = try container.decodeIfPresent(String.self, forKey: .note)
            noteSent = container.contains(.note)
            keys = container.allKeys.map(\.stringValue).sorted()
        }
    }

    /// A strict version's `Codable` reads the content-state as sent: a value that breaks only a
    /// constraint (the schema's reading takes the default, or rejects it) as it is, the keys
    /// sent and only those, the first of a duplicate key, a date-range's first two elements. It
    /// gave the default 0 for 20, threw for `kept`, and listed every field of the schema as sent.
    @Test(arguments: [
        #"{"count":20,"kept":30,"span":[1,2,3],"extra":true}"#,
        #"{"count":1,"count":2,"kept":3,"note":"n"}"#,
        #"{"kept":3,"count":4,"note":null}"#,
    ])
    func aStrictVersionReadsTheStateAsSent(_ json: String) throws {
        let expected = try JSONDecoder().decode(Sent.self, from: Data(json.utf8))
        let decoder = try ContentStateDecoder(schema: Self.constrained, version: 1)
        let body = #"{"aps":{"timestamp":1795000000,"event":"update","content-state":"# + json + "}}"
        for result in [
            decoder.decode(contentState: Array(json.utf8)), decoder.decodeInFull(contentState: Array(json.utf8)),
            decoder.decode(payload: Array(body.utf8)), decoder.decodeInFull(payload: Array(body.utf8)),
        ] {
            #expect(result.appDecodes)
            #expect(try result.decode(Sent.self) == expected)
        }
    }
}
