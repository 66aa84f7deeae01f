import Foundation
import Testing
@_spi(Testing) @testable import LiveState

/// A delivery card schema built in code: version 1 is a strict client, version 2 is tolerant.
let deliverySchema: Schema = {
    let v1 = SchemaVersion(version: 1, contentState: [
        Field(name: "title", type: .string),
        Field(name: "subTitle", type: .string),
        Field(name: "progress", type: .double),
    ])
    let v2 = SchemaVersion(version: 2, contentState: [
        Field(name: "title", type: .string, defaultValue: .string(""), constraints: .init(maxLength: 64)),
        Field(name: "subtitle", type: .string, defaultValue: .string(""), aliases: ["subTitle"]),
        Field(name: "progress", type: .double, defaultValue: .double(0), constraints: .init(minimum: 0, maximum: 1)),
        Field(name: "eta", type: .date, defaultValue: .date(0)),
        Field(name: "status", type: .enumeration(.strings(["pending", "delivering", "delivered"])),
              defaultValue: .string("pending"), fallback: .string("pending")),
        Field(name: "courier", type: .object(fields: [
            Field(name: "name", type: .string, defaultValue: .string("")),
            Field(name: "rating", type: .double, defaultValue: .double(0), constraints: .init(minimum: 0, maximum: 5)),
        ]), defaultValue: .object([.init("name", .string("")), .init("rating", .double(0))])),
        Field(name: "items", type: .array(items: Field(name: "", type: .string)), defaultValue: .array([]), constraints: .init(maxItems: 3)),
        Field(name: "count", type: .int, defaultValue: .int(0)),
        Field(name: "express", type: .bool, defaultValue: .bool(false)),
        Field(name: "window", type: .dateRange, isOptional: true),
        Field(name: "orderId", type: .string, rejectsInvalid: true),
        Field(name: "note", type: .string, isOptional: true),
        Field(name: "link", type: .url, isOptional: true),
        Field(name: "level", type: .enumeration(.integers([1, 2, 3])), defaultValue: .int(1)),
    ])
    return Schema(activity: "delivery", attributesType: "DeliveryAttributes", strictClients: [1], versions: [v1, v2])
}()

func decodeV2(_ json: String) -> DecodeResult {
    let decoder = try! ContentStateDecoder(schema: deliverySchema, version: 2)
    return decoder.decode(contentState: Array(json.utf8), file: "p.json")
}

func codes(_ result: DecodeResult) -> [String] { result.allDiagnostics.map(\.code.rawValue) }

@Suite struct ContentStateDecoderTests {
    @Test func missingKeyTakesFieldDefaultAndIsReported() throws {
        let result = decodeV2(#"{"orderId":"A1"}"#)
        let state = try #require(result.state)
        #expect(state["title"] == .string(""))
        #expect(state["courier"] == .object([.init("name", .string("")), .init("rating", .double(0))]))
        #expect(state["note"] == .null)
        let defaulted = result.diagnostics.filter { $0.code == "defaulted" }
        #expect(defaulted.map(\.pointer) == ["/title", "/subtitle", "/progress", "/eta", "/status", "/courier", "/items", "/count", "/express", "/level"])
        #expect(defaulted.allSatisfy { $0.severity == .info && $0.position?.column == 1 })
    }

    @Test func stateListsEveryFieldInSchemaOrder() throws {
        let result = decodeV2(#"{"level":2,"orderId":"A1","title":"Hi"}"#)
        guard case .object(let members) = try #require(result.state) else { Issue.record("not an object"); return }
        #expect(members.map(\.name) == deliverySchema.versions[1].contentState.map(\.name))
        #expect(members.first?.value == .string("Hi"))
    }

    @Test func unknownKeyIsIgnoredAndReportedWithPosition() throws {
        let result = decodeV2("{\"orderId\":\"A1\",\n  \"extra\": {\"a\": [1, 2]}}")
        #expect(result.state != nil)
        let unknown = try #require(result.diagnostics.first { $0.code == "unknown-key" })
        #expect(unknown.pointer == "/extra")
        #expect(unknown.position == SourcePosition(offset: 19, line: 2, column: 3))
        #expect(unknown.severity == .warning)
    }

    @Test func requiredKeyMissingRejectsThePayload() {
        let result = decodeV2(#"{"title":"x"}"#)
        #expect(result.state == nil)
        #expect(!result.appDecodes)
        #expect(codes(result).contains("missing-required-key"))
        #expect(result.diagnostics.first { $0.code == "missing-required-key" }?.pointer == "/orderId")
    }

    @Test func wrongTypeTakesDefaultAndIsReported() throws {
        let result = decodeV2(#"{"orderId":"A1","title":42,"express":1,"count":"3"}"#)
        let state = try #require(result.state)
        #expect(state["title"] == .string(""))
        #expect(state["express"] == .bool(false))
        #expect(state["count"] == .int(0))
        let invalid = result.diagnostics.filter { $0.code == "invalid-defaulted" }
        #expect(invalid.map(\.pointer) == ["/title", "/express", "/count"])
        #expect(invalid.first?.message.contains("expected a string, found a number") == true)
    }

    @Test func rejectFieldWithInvalidValueRejectsThePayload() {
        let result = decodeV2(#"{"orderId":7}"#)
        #expect(result.state == nil)
        let error = result.diagnostics.first { $0.code == "wrong-type" }
        #expect(error?.severity == .error)
        #expect(error?.pointer == "/orderId")
        #expect(error?.position?.column == 12)
    }

    @Test func intAcceptsIntegralDoublesAndRejectsFractions() throws {
        #expect(decodeV2(#"{"orderId":"A","count":2.0}"#).state?["count"] == .int(2))
        #expect(decodeV2(#"{"orderId":"A","count":1e2}"#).state?["count"] == .int(100))
        let fraction = decodeV2(#"{"orderId":"A","count":1.5}"#)
        #expect(fraction.state?["count"] == .int(0))
        #expect(codes(fraction).contains("invalid-defaulted"))
        #expect(codes(decodeV2(#"{"orderId":"A","count":9223372036854775808}"#)).contains("invalid-defaulted"))
        #expect(decodeV2(#"{"orderId":"A","count":-9223372036854775808}"#).state?["count"] == .int(.min))
    }

    @Test func doubleOutOfRangeOrTooLargeTakesDefault() {
        #expect(decodeV2(#"{"orderId":"A","progress":1.5}"#).diagnostics.contains { $0.code == "invalid-defaulted" && $0.message.contains("maximum 1") })
        let huge = decodeV2(#"{"orderId":"A","progress":1e400}"#)
        #expect(huge.state?["progress"] == .double(0))
        #expect(huge.diagnostics.contains { $0.code == "invalid-defaulted" && $0.message.contains("too large") })
    }

    @Test func unknownEnumValueTakesFallback() throws {
        let result = decodeV2(#"{"orderId":"A","status":"Delivering"}"#)
        #expect(result.state?["status"] == .string("pending"))
        let diagnostic = try #require(result.diagnostics.first { $0.code == "unknown-enum-value" })
        #expect(diagnostic.pointer == "/status")
        #expect(diagnostic.severity == .warning)
    }

    @Test func integerEnumWithoutFallbackTakesDefaultOnUnknownValue() {
        let result = decodeV2(#"{"orderId":"A","level":9}"#)
        #expect(result.state?["level"] == .int(1))
        #expect(codes(result).contains("invalid-defaulted"))
        #expect(decodeV2(#"{"orderId":"A","level":3}"#).state?["level"] == .int(3))
    }

    @Test func nullIsNilForOptionalAndInvalidOtherwise() {
        let result = decodeV2(#"{"orderId":"A","note":null,"title":null}"#)
        #expect(result.state?["note"] == .null)
        #expect(result.state?["title"] == .string(""))
        #expect(result.diagnostics.filter { $0.code == "invalid-defaulted" }.map(\.pointer) == ["/title"])
    }

    @Test func nestedObjectReportsNestedPointers() throws {
        let result = decodeV2(#"{"orderId":"A","courier":{"name":"Li","rating":"high","car":1}}"#)
        let courier = try #require(result.state?["courier"])
        #expect(courier == .object([.init("name", .string("Li")), .init("rating", .double(0))]))
        #expect(result.diagnostics.first { $0.code == "invalid-defaulted" }?.pointer == "/courier/rating")
        #expect(result.diagnostics.first { $0.code == "unknown-key" }?.pointer == "/courier/car")
    }

    @Test func invalidArrayElementDefaultsTheWholeArray() {
        let result = decodeV2(#"{"orderId":"A","items":["a",2,"c"]}"#)
        #expect(result.state?["items"] == .array([]))
        let diagnostic = result.diagnostics.first { $0.code == "invalid-defaulted" }
        #expect(diagnostic?.pointer == "/items")
        #expect(diagnostic?.message.contains("/items/1") == true)
    }

    @Test func constraintsOnLengthAndCount() {
        let long = String(repeating: "é", count: 33)  // 66 UTF-8 bytes
        #expect(decodeV2(#"{"orderId":"A","title":"\#(long)"}"#).diagnostics.contains { $0.message.contains("66 bytes is longer than max-length 64") })
        #expect(decodeV2(#"{"orderId":"A","items":["a","b","c","d"]}"#).diagnostics.contains { $0.message.contains("4 items is more than max-items 3") })
        #expect(decodeV2(#"{"orderId":"A","items":["a","b","c"]}"#).state?["items"] == .array([.string("a"), .string("b"), .string("c")]))
    }

    @Test func dateRangeMustBeOrderedPair() {
        #expect(decodeV2(#"{"orderId":"A","window":[1,2]}"#).state?["window"] == .dateRange(lower: 1, upper: 2))
        #expect(codes(decodeV2(#"{"orderId":"A","window":[2,1]}"#)).contains("invalid-defaulted"))
        #expect(codes(decodeV2(#"{"orderId":"A","window":[1,2,3]}"#)).contains("invalid-defaulted"))
        #expect(codes(decodeV2(#"{"orderId":"A","window":["a","b"]}"#)).contains("invalid-defaulted"))
    }

    /// A `url` is what the app's `URL` reads: a relative reference too, but not a string
    /// `URL(string:)` makes nothing of.
    @Test func aURLIsWhatURLStringReads() {
        #expect(decodeV2(#"{"orderId":"A","link":"app://order?id=1"}"#).state?["link"] == .string("app://order?id=1"))
        let relative = decodeV2(#"{"orderId":"A","link":"order"}"#)
        #expect(relative.state?["link"] == .string("order"))
        #expect(!codes(relative).contains("invalid-defaulted"))
        #expect(codes(decodeV2(#"{"orderId":"A","link":"https://a b"}"#)).contains("invalid-defaulted"))
    }

    @Test func aliasFillsRenamedFieldAndNameWins() {
        #expect(decodeV2(#"{"orderId":"A","subTitle":"old"}"#).state?["subtitle"] == .string("old"))
        #expect(decodeV2(#"{"orderId":"A","subTitle":"old","subtitle":"new"}"#).state?["subtitle"] == .string("new"))
        #expect(decodeV2(#"{"orderId":"A","subtitle":"new","subTitle":"old"}"#).state?["subtitle"] == .string("new"))
    }

    @Test func duplicateKeyKeepsFirstValueLikeTheDevice() throws {
        let result = decodeV2(#"{"orderId":"A","title":"first","title":"second"}"#)
        #expect(result.state?["title"] == .string("first"))
        let duplicate = try #require(result.diagnostics.first { $0.code == "duplicate-key" })
        #expect(duplicate.pointer == "/title")
        #expect(duplicate.position?.column == 32)
    }

    @Test func repeatedUnknownKeyIsADuplicateNotASecondUnknownKey() throws {
        let result = decodeV2(#"{"orderId":"A","zz":1,"title":"t","zz":2}"#)
        #expect(result.state?["title"] == .string("t"))
        #expect(result.diagnostics.filter { $0.code == "unknown-key" }.map(\.pointer) == ["/zz"])
        let duplicate = try #require(result.diagnostics.first { $0.code == "duplicate-key" })
        #expect(duplicate.pointer == "/zz")
        #expect(duplicate.position?.column == 35)
        #expect(duplicate.severity == .warning)
        #expect(duplicate.message == "key 'zz' appears again; app version 2 ignores it either way")
    }

    @Test func repeatedUnknownKeysAreComparedUnescapedAndPerObject() {
        // The same key spelled with an escape, a third unknown key, and the same key in a
        // nested object: only the repetitions within one object are duplicates.
        let result = decodeV2(
            #"{"orderId":"A","a":1,"b":2,"\u0061":3,"c":4,"b":5,"courier":{"a":1,"name":"x"},"a":6}"#)
        #expect(result.diagnostics.filter { $0.code == "unknown-key" }.compactMap(\.pointer) == ["/a", "/b", "/c", "/courier/a"])
        #expect(result.diagnostics.filter { $0.code == "duplicate-key" }.compactMap(\.pointer) == ["/a", "/b", "/a"])
        #expect(result.state != nil)
    }

    /// Past `KeyList.scanned` unknown keys, the tape builder and the full decoder look keys up
    /// by value instead of comparing each with every one before it (60,000 keys took half a
    /// minute): a repeated key, plain or escaped, before or after the switch, is still found,
    /// and both readers find the same ones.
    @Test func manyUnknownKeysStillFindTheirRepeats() throws {
        let keys = (0..<100).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let json = #"{"orderId":"A",\#(keys),"k3":0,"k70":0,"k99":0,"courier":{"k3":1,"name":"x"},"title":"t"}"#
        var decoder = try ContentStateDecoder(schema: deliverySchema, version: 2)
        for onePass in [true, false] {
            decoder.readsInOnePass = onePass
            let result = decoder.decode(contentState: Array(json.utf8), file: "p.json")
            #expect(result.isReadOnTape == onePass)
            #expect(result.diagnostics.filter { $0.code == "unknown-key" }.count == 101, "one pass: \(onePass)")
            #expect(result.diagnostics.filter { $0.code == "duplicate-key" }.compactMap(\.pointer) == ["/k3", "/k70", "/k99"], "one pass: \(onePass)")
            #expect(result.state?["title"] == .string("t"))
        }
    }

    @Test func escapedKeysMatchFields() {
        #expect(decodeV2(#"{"orderId":"A","t\u0069tle":"x"}"#).state?["title"] == .string("x"))
    }

    @Test func syntaxErrorCarriesLineAndColumn() throws {
        let result = decodeV2("{\"orderId\":\"A\",\n\"title\": tru}")
        #expect(result.state == nil)
        let error = try #require(result.diagnostics.last)
        #expect(error.code == "json-syntax")
        #expect(error.position?.line == 2)
        #expect(error.severity == .error)
    }

    @Test func truncatedInputIsASyntaxError() {
        let text = #"{"orderId":"A","courier":{"name":"Li"},"items":["a"]}"#
        let bytes = Array(text.utf8)
        let decoder = try! ContentStateDecoder(schema: deliverySchema, version: 2)
        for end in 0..<bytes.count {
            let result = decoder.decode(contentState: Array(bytes[0..<end]))
            #expect(result.state == nil)
            #expect(result.diagnostics.last?.code == "json-syntax")
        }
    }

    @Test func deepNestingIsALimitError() {
        let deep = #"{"orderId":"A","extra":"# + String(repeating: "[", count: 100_000)
        let result = decodeV2(deep)
        #expect(result.diagnostics.last?.code == "json-limit")
        // Where the scanner stopped: the 64th container, in the 63rd array of `extra`.
        #expect(result.diagnostics.last?.pointer == "/extra" + String(repeating: "/0", count: 63))
    }

    @Test func nonObjectContentStateIsReported() {
        #expect(codes(decodeV2("[1,2]")) == ["not-an-object"])
        #expect(codes(decodeV2("\"x\"")) == ["not-an-object"])
    }

    @Test func trailingGarbageIsASyntaxError() {
        #expect(decodeV2(#"{"orderId":"A"} x"#).diagnostics.last?.code == "json-syntax")
    }

    @Test func findsContentStateInsideAPNsBody() throws {
        let decoder = try ContentStateDecoder(schema: deliverySchema, version: 2)
        let body = #"{"x":[{"aps":1}],"aps":{"timestamp":1795000000,"event":"update","content-state":{"orderId":"A","progress":0.5}},"y":null}"#
        let result = decoder.decode(payload: Array(body.utf8))
        #expect(result.state?["progress"] == .double(0.5))
        #expect(result.diagnostics.allSatisfy { $0.code == "defaulted" })
    }

    @Test func bodyWithoutContentStateIsReported() throws {
        let decoder = try ContentStateDecoder(schema: deliverySchema, version: 2)
        #expect(codes(decoder.decode(payload: Array(#"{"aps":{"event":"end"}}"#.utf8))) == ["missing-content-state"])
        #expect(codes(decoder.decode(payload: Array(#"{"data":1}"#.utf8))) == ["missing-content-state"])
    }

    @Test func unknownVersionIsAnError() {
        let expected = Diagnostic(code: .unknownVersion, severity: .error, message: "the schema has no version 7; it has 1, 2")
        #expect(throws: expected) {
            _ = try ContentStateDecoder(schema: deliverySchema, version: 7)
        }
        #expect(throws: expected) {
            _ = try ContentStateEncoder(schema: deliverySchema, version: 7)
        }
    }

    @Test func defaultVersionIsTheNewest() throws {
        #expect(try ContentStateDecoder(schema: deliverySchema).version.version == 2)
    }
}

@Suite struct StrictVerdictTests {
    func decodeV1(_ json: String) -> DecodeResult {
        let decoder = try! ContentStateDecoder(schema: deliverySchema, version: 1)
        return decoder.decode(contentState: Array(json.utf8))
    }

    @Test func namesFirstMissingKeyInDeclarationOrder() throws {
        let result = decodeV1(#"{"progress":"x","title":"a"}"#)
        let failure = try #require(result.strictFailure)
        #expect(failure.code == "strict-decode-failure")
        #expect(failure.pointer == "/subTitle")
        #expect(!result.appDecodes)
    }

    @Test func cleanPayloadDecodesOnStrictClient() {
        let result = decodeV1(#"{"title":"a","subTitle":"b","progress":0.5,"extra":1}"#)
        #expect(result.strictFailure == nil)
        #expect(result.appDecodes)
    }

    @Test func tolerantVersionHasNoStrictVerdict() {
        let result = decodeV2(#"{"orderId":"A"}"#)
        #expect(result.strictFailure == nil)
        #expect(!result.isStrictClient)
    }
}

/// The app's own type for version 2, decoded through the schema.
private struct DeliveryState: Decodable, Equatable {
    enum Status: String, Decodable { case pending, delivering, delivered }
    struct Courier: Decodable, Equatable {
        var name: String
        var rating: Double
    }
    var title: String
    var subtitle: String
    var progress: Double
    var eta: Date
    var status: Status
    var courier: Courier
    var items: [String]
    var count: Int
    var express: Bool
    var window: ClosedRange<Date>?
    var orderId: String
    var note: String?
    var link: URL?
    var level: Int
}

@Suite struct DecodableBridgeTests {
    @Test func decodesAnyDecodableTypeWithDefaultsFilled() throws {
        let decoder = try ContentStateDecoder(schema: deliverySchema, version: 2)
        let json = #"{"orderId":"A1","subTitle":"old name","eta":10,"status":"weird","window":[1,61],"link":"app://x","courier":{"name":"Li"}}"#
        let result = decoder.decode(contentState: Array(json.utf8))
        let state = try result.decode(DeliveryState.self)
        #expect(state == DeliveryState(
            title: "", subtitle: "old name", progress: 0, eta: Date(timeIntervalSinceReferenceDate: 10),
            status: .pending, courier: .init(name: "Li", rating: 0), items: [], count: 0, express: false,
            window: Date(timeIntervalSinceReferenceDate: 1)...Date(timeIntervalSinceReferenceDate: 61),
            orderId: "A1", note: nil, link: URL(string: "app://x"), level: 1))
        #expect(result.diagnostics.contains { $0.code == "unknown-enum-value" })
    }

    /// A payload the app version rejects throws `DecodingError.dataCorrupted` at the first
    /// error's place, in its words; the result says the rest.
    @Test func aRejectedPayloadThrowsTheFirstErrorAsADecodingError() throws {
        let decoder = try ContentStateDecoder(schema: deliverySchema, version: 2)
        let result = decoder.decode(contentState: Array(#"{"title":"x"}"#.utf8), file: "p.json")
        let error = try #require(result.diagnostics.first { $0.severity == .error })
        do {
            _ = try result.decode(DeliveryState.self)
            Issue.record("a rejected payload decoded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == error.description)
            #expect(context.debugDescription.hasPrefix("p.json:1:1: error: "), "\(context.debugDescription)")
            #expect(context.codingPath.map(\.stringValue) == ["orderId"], "\(context.codingPath)")
        }
        // An invalid element rejects the payload at the field that holds it: the coding path
        // is that field's, as the diagnostic's pointer is.
        let lines = Field(name: "lines", type: .array(items: Field(name: "", type: .object(fields: [Field(name: "sku", type: .string)]))))
        let items = try ContentStateDecoder(schema: Schema(activity: "nest", versions: [SchemaVersion(version: 1, contentState: [lines])]))
        do {
            _ = try items.decode(contentState: Array(#"{"lines":[{"sku":"a"},{"sku":1}]}"#.utf8)).decode(DeliveryState.self)
            Issue.record("a rejected payload decoded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map(\.stringValue) == ["lines"], "\(context.debugDescription)")
            #expect(context.debugDescription.contains("(at /lines)"), "\(context.debugDescription)")
        }
    }

    @Test func typeAskingForAFieldTheSchemaLacksGetsKeyNotFound() throws {
        struct Extra: Decodable { var missing: String }
        let decoder = try ContentStateDecoder(schema: deliverySchema, version: 2)
        #expect(throws: DecodingError.self) {
            _ = try decoder.decode(contentState: Array(#"{"orderId":"A"}"#.utf8)).decode(Extra.self)
        }
    }

    @Test func primitiveMismatchNamesTheKeyInTheCodingPath() throws {
        struct Wrong: Decodable { var title: Int }
        let decoder = try ContentStateDecoder(schema: deliverySchema, version: 2)
        do {
            _ = try decoder.decode(contentState: Array(#"{"orderId":"A","title":"x"}"#.utf8)).decode(Wrong.self)
            Issue.record("decoding a string field as Int must throw")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["title"])
        }
    }

    @Test func arraysOfPrimitivesDecodeAndMismatchesNameTheElement() throws {
        struct Items: Decodable { var items: [String] }
        struct WrongItems: Decodable { var items: [Int] }
        let decoder = try ContentStateDecoder(schema: deliverySchema, version: 2)
        let json = Array(#"{"orderId":"A","items":["milk","a name longer than fifteen bytes"]}"#.utf8)
        #expect(try decoder.decode(contentState: json).decode(Items.self).items == ["milk", "a name longer than fifteen bytes"])
        do {
            _ = try decoder.decode(contentState: json).decode(WrongItems.self)
            Issue.record("decoding strings as Int must throw")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["items", "0"])
        }
    }

}

@Suite struct FoundationAgreementTests {
    @Test func doublesFoundationRefusesAreInvalid() {
        for text in ["0e1", "0E5", "1e-400"] {
            let result = decodeV2(#"{"orderId":"A","progress":\#(text)}"#)
            #expect(result.diagnostics.contains { $0.code == "invalid-defaulted" && $0.pointer == "/progress" }, "\(text)")
        }
        for text in ["0e10", "-0e1", "0e+1", "0.0"] {
            #expect(decodeV2(#"{"orderId":"A","progress":\#(text)}"#).state?["progress"] == .double(0), "\(text)")
        }
    }

    @Test func invalidAliasValueIsReplacedByTheFieldsOwnKey() {
        let result = decodeV2(#"{"orderId":"A","subTitle":12,"subtitle":"own"}"#)
        #expect(result.state?["subtitle"] == .string("own"))
        #expect(!result.diagnostics.contains { $0.code == "invalid-defaulted" })
    }

    @Test func earlierAliasInTheSchemaWinsWhateverTheInputOrder() throws {
        let schema = Schema(activity: "a", versions: [SchemaVersion(version: 1, contentState: [
            Field(name: "text", type: .string, defaultValue: .string(""), aliases: ["first", "second"]),
        ])])
        let decoder = try ContentStateDecoder(schema: schema)
        #expect(decoder.decode(contentState: Array(#"{"second":"2","first":"1"}"#.utf8)).state?["text"] == .string("1"))
        #expect(decoder.decode(contentState: Array(#"{"first":"1","second":"2"}"#.utf8)).state?["text"] == .string("1"))
    }
}

/// A nested object whose schema lists no fields is what `import swift` writes for a dictionary
/// (`[String: String]`): its keys are not said to be ignored by the app, which reads them if its
/// type is a dictionary. The root's unknown keys are.
@Suite struct FieldlessObjectTests {
    static let schema = Schema(activity: "plugin", versions: [SchemaVersion(version: 1, contentState: [
        Field(name: "values", type: .object(fields: []), defaultValue: .object([])),
        Field(name: "items", type: .array(items: Field(name: "", type: .object(fields: []))), defaultValue: .array([])),
    ])])

    @Test func itsKeysAreNotSaidToBeIgnored() throws {
        let decoder = try ContentStateDecoder(schema: Self.schema, version: 1)
        let bytes = Array(#"{"values":{"title":"Hi"},"items":[{"n":1}],"extra":1}"#.utf8)
        for result in [decoder.decode(contentState: bytes), decoder.decodeInFull(contentState: bytes)] {
            #expect(result.appDecodes)
            #expect(result.diagnostics.map(\.message) == [
                "key 'title' is not checked: the schema lists no fields for this object, so app version 1 ignores it if its type is an "
                    + "empty struct, and reads it unchecked if it is a dictionary, which the schema states as a map",
                "key 'n' is not checked: the schema lists no fields for this object, so app version 1 ignores it if its type is an "
                    + "empty struct, and reads it unchecked if it is a dictionary, which the schema states as a map",
                "unknown key 'extra' is ignored by app version 1",
            ])
            #expect(result.diagnostics.map(\.pointer) == ["/values/title", "/items/0/n", "/extra"])
        }
    }
}
