import Foundation
import LiveStateTestSupport
import Testing
@testable import LiveState

/// The decoder's fast paths: the inline path with its spill past eight levels, positions from
/// the resumable locator, one-allocation concatenation, and the `Decodable` bridge's key cursor.
@Suite struct DecoderInternalsTests {
    /// A schema whose content-state nests `depth` objects named `n1`, `n2`, … around an int `leaf`.
    private func nestedSchema(depth: Int) -> Schema {
        var field = Field(name: "leaf", type: .int, defaultValue: .int(0), constraints: .init(minimum: 0, maximum: 9))
        for level in stride(from: depth, through: 1, by: -1) {
            field = Field(name: "n\(level)", type: .object(fields: [field]), defaultValue: .object([]))
        }
        return Schema(activity: "deep", strictClients: [], versions: [SchemaVersion(version: 1, contentState: [field])])
    }

    private func nestedPayload(depth: Int, leaf: String, extraKeyAtBottom: Bool = false) -> String {
        var json = #"{"leaf":\#(leaf)\#(extraKeyAtBottom ? #","odd/key~":1"# : "")}"#
        for level in stride(from: depth, through: 2, by: -1) { json = #"{"n\#(level)":\#(json)}"# }
        return #"{"n1":\#(json)}"#
    }

    @Test(arguments: [1, 7, 8, 9, 12, 20])
    func pointersAreRightAtEveryDepthIncludingPastTheInlineSteps(depth: Int) throws {
        let decoder = try ContentStateDecoder(schema: nestedSchema(depth: depth))
        let result = decoder.decode(contentState: Array(nestedPayload(depth: depth, leaf: "42", extraKeyAtBottom: true).utf8))
        let path = (1...depth).map { "/n\($0)" }.joined()
        let invalid = try #require(result.diagnostics.first { $0.code == "invalid-defaulted" })
        #expect(invalid.pointer == path + "/leaf")
        let unknown = try #require(result.diagnostics.first { $0.code == "unknown-key" })
        #expect(unknown.pointer == path + "/odd~1key~0")
        #expect(unknown.message == "unknown key 'odd/key~' is ignored by app version 1")
    }

    @Test func pathStaysBalancedAcrossSiblingsAfterADeepValue() throws {
        // After a value 12 levels down, a sibling at the root must point at the root again.
        let depth = 12
        let deep = nestedSchema(depth: depth)
        let fields = deep.versions[0].contentState + [Field(name: "tail", type: .int, defaultValue: .int(0), constraints: .init(maximum: 1))]
        let schema = Schema(activity: "deep", strictClients: [], versions: [SchemaVersion(version: 1, contentState: fields)])
        let body = nestedPayload(depth: depth, leaf: "1")
        let json = String(body.dropLast()) + #","tail":5}"#
        let result = try ContentStateDecoder(schema: schema).decode(contentState: Array(json.utf8))
        #expect(result.diagnostics.map(\.pointer) == ["/tail"])
    }

    @Test func positionsOnLaterLinesAndOutOfOrderStayExact() throws {
        // Findings come in input order except `defaulted`, which points back at the object's
        // '{'; the locator must count lines from the start again when asked for an earlier offset.
        let json = "{\n  \"orderId\": \"A\",\n  \"zzz\": 1,\n  \"courier\": {\n    \"car\": 2\n  }\n}"
        let result = decodeV2(json)
        let unknown = result.diagnostics.filter { $0.code == "unknown-key" }
        #expect(unknown.map { $0.position?.description } == ["3:3", "5:5"])
        let offsets = ["\"zzz\"", "\"car\""].map { json.range(of: $0).map { json.utf8.distance(from: json.startIndex, to: $0.lowerBound) } }
        #expect(unknown.map(\.position?.offset) == offsets)
        let defaulted = try #require(result.diagnostics.first { $0.code == "defaulted" && $0.pointer == "/title" })
        #expect(defaulted.position?.description == "1:1")
        let courierName = try #require(result.diagnostics.first { $0.code == "defaulted" && $0.pointer == "/courier/name" })
        #expect(courierName.position?.description == "4:14")
        for diagnostic in result.diagnostics {
            let position = try #require(diagnostic.position)
            #expect(position == SourcePosition.locate(offset: position.offset, in: Array(json.utf8)))
        }
    }

    @Test func locatorAgreesWithACountFromTheStartForEveryOffset() {
        let text = Array("ab\ncd\n\nefghijklmnop\nq".utf8)
        text.withUnsafeBytes { bytes in
            var locator = SourcePosition.Locator()
            for offset in [0, 1, 2, 3, 9, 4, 20, 6, 7, 21, 22, 30, 0] {
                let expected = SourcePosition.locate(offset: offset, in: bytes)
                #expect(locator.position(of: offset, in: bytes) == expected, "offset \(offset)")
            }
        }
        // Back and forth at random, on lines long, short and empty, from a line feed first.
        var random = SplitMix64(state: 0x10CA7E)
        let lines = Array(("\n" + (0..<40).map { String(repeating: "x", count: Int($0 * 7 % 23)) }.joined(separator: "\n")).utf8)
        lines.withUnsafeBytes { bytes in
            var locator = SourcePosition.Locator()
            var offset = 0
            for _ in 0..<2_000 {
                offset = max(0, min(bytes.count, offset + Int(random.next() % 61) - 30))
                #expect(locator.position(of: offset, in: bytes) == SourcePosition.locate(offset: offset, in: bytes), "offset \(offset)")
            }
        }
    }

    /// Thousands of objects with findings on lines of their own: each object's `defaulted`
    /// findings, at its start, come after its members' findings, so the count of lines goes
    /// back a little each time. It goes back from where it is, not from the start: the bytes
    /// looked at stay a few times the input (counting from the start made this quadratic).
    @Test func positionsOfThousandsOfFindingsAreFoundInLinearTime() throws {
        let lines = Array(repeating: "{\"a\":\"x\",\n\"b\":1}", count: 5_000).joined(separator: ",\n")
        let bytes = Array(("[" + lines + "]").utf8)
        var offsets: [Int] = []
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "{") {
            offsets += [index + 13, index]
        }
        bytes.withUnsafeBytes { raw in
            var locator = SourcePosition.Locator()
            for offset in offsets {
                #expect(locator.position(of: offset, in: raw) == SourcePosition.locate(offset: offset, in: raw))
            }
            #expect(locator.bytesLooked < 4 * bytes.count, "\(locator.bytesLooked) bytes looked at for \(bytes.count)")
        }
    }

    /// The one rule for a field met again, which the full decoder and the tape builder ask:
    /// the own name wins over an alias, an earlier-listed alias over a later one, else the
    /// first value stays and only a repeated own name is reported.
    @Test func aFieldMetAgainFollowsOneRule() {
        #expect(ReadAgain(earlier: nil, now: nil) == .keepsFirst(reportsDuplicate: true))
        #expect(ReadAgain(earlier: nil, now: 0) == .keepsFirst(reportsDuplicate: false))
        #expect(ReadAgain(earlier: 0, now: nil) == .replaces)
        #expect(ReadAgain(earlier: 2, now: nil) == .replaces)
        #expect(ReadAgain(earlier: 2, now: 1) == .replaces)
        #expect(ReadAgain(earlier: 1, now: 1) == .keepsFirst(reportsDuplicate: false))
        #expect(ReadAgain(earlier: 1, now: 2) == .keepsFirst(reportsDuplicate: false))
    }

    @Test func concatenationJoinsInOrder() {
        #expect(String.concatenating("", "") == "")
        #expect(String.concatenating("a", "") == "a")
        #expect(String.concatenating("unknown key '", "é/~", "' is ignored by app version ", "12") == "unknown key 'é/~' is ignored by app version 12")
        let long = String(repeating: "x", count: 100)
        #expect(String.concatenating(long, "/", long) == long + "/" + long)
    }

    private struct OutOfOrder: Decodable, Equatable {
        // Declared in an order unlike the schema's, with a key the schema lacks asked twice.
        var level: Int
        var title: String
        var orderId: String
        var express: Bool
        var courier: Courier
        var missing: String?
        var title2: String?

        struct Courier: Decodable, Equatable {
            var rating: Double
            var name: String
        }

        enum CodingKeys: String, CodingKey {
            case level, title, orderId, express, courier, missing
            case title2 = "missing2"
        }
    }

    @Test func bridgeFindsKeysInAnyOrder() throws {
        let decoder = try ContentStateDecoder(schema: deliverySchema, version: 2)
        let json = #"{"orderId":"A1","title":"Hi","courier":{"name":"Li","rating":4.5},"express":true,"level":3}"#
        let value = try decoder.decode(contentState: Array(json.utf8)).decode(OutOfOrder.self)
        #expect(value == OutOfOrder(level: 3, title: "Hi", orderId: "A1", express: true,
                                    courier: .init(rating: 4.5, name: "Li"), missing: nil, title2: nil))
    }
}

/// The key table: the expected field, the one after it, one slot per hash, and the search of
/// every field when keys share a slot.
@Suite struct KeyTableTests {
    /// Finds `name` as the decoders do, with the key in a buffer padded for word reads or not.
    private func index(of name: String, in plan: ObjectPlan, hint: Int, padded: Bool) -> Int? {
        let bytes = Array(name.utf8) + (padded ? Array(repeating: 0x22, count: 8) : [])
        return bytes.withUnsafeBufferPointer { buffer in
            // An empty key still needs an address to point at.
            let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
            return plan.index(ofKey: base, length: name.utf8.count, hint: hint, wordReadable: padded && name.utf8.count <= 8)
        }
    }

    @Test func everyKeyIsFoundFromEveryHintAndNoOtherIs() {
        // 300 keys in 128 slots: most slots hold several, and keys longer than 8 bytes are
        // compared with memcmp.
        var names = (0..<300).map { "k\($0)" }
        names += ["logo", "note", "a", "delayMinutesLongerThanAWord", "é", "title"]
        let plan = ObjectPlan(fields: names.map { Field(name: $0, type: .int, defaultValue: .int(0)) }, urls: URLRule())
        for (expected, name) in names.enumerated() {
            for hint in [0, expected, expected + 1, names.count - 1, names.count + 5] {
                for padded in [false, true] {
                    #expect(index(of: name, in: plan, hint: hint, padded: padded) == expected, "\(name) from \(hint)")
                }
            }
        }
        for stranger in ["k300", "k", "k0 ", "K1", "", "logos", "not", "b", "delayMinutesLongerThanAWorD", "e", "titlé"] {
            for padded in [false, true] {
                #expect(index(of: stranger, in: plan, hint: 0, padded: padded) == nil, "\(stranger)")
            }
        }
        // By name, as `DecodeResult.Node` looks fields up: the same answers, and a name in
        // another normalization found as `==` finds it.
        for (expected, name) in names.enumerated() {
            #expect(plan.index(ofName: name) == expected, "\(name)")
        }
        for stranger in ["k300", "k", "k0 ", "K1", "", "logos", "not", "b", "delayMinutesLongerThanAWorD", "e", "titlé"] {
            #expect(plan.index(ofName: stranger) == nil, "\(stranger)")
        }
        #expect(plan.index(ofName: "e\u{301}") == names.firstIndex(of: "é"))
        let withEmpty = ObjectPlan(fields: ["a", ""].map { Field(name: $0, type: .int, defaultValue: .int(0)) }, urls: URLRule())
        #expect(withEmpty.index(ofName: "") == 1)
    }

    @Test func aFewKeysEachInTheirOwnSlot() {
        let names = ["logo", "title", "subtitle", "progress", "eta", "etaText", "status", "delayMinutes", "courier", "items", "note", "badge"]
        let plan = ObjectPlan(fields: names.map { Field(name: $0, type: .int, defaultValue: .int(0)) }, urls: URLRule())
        // In payload order, which is not schema order: each found whatever the hint.
        var hint = 0
        for name in ["title", "subtitle", "progress", "eta", "status", "courier", "items", "logo", "note", "badge"] {
            let found = index(of: name, in: plan, hint: hint, padded: true)
            #expect(found == names.firstIndex(of: name))
            hint = (found ?? 0) + 1
        }
        #expect(index(of: "extra", in: plan, hint: 3, padded: true) == nil)
        let empty = ObjectPlan(fields: [], urls: URLRule())
        #expect(index(of: "title", in: empty, hint: 0, padded: true) == nil)
    }
}

/// The 2001-based date a UNIX date is told to become keeps the decimals it was sent with.
@Suite struct UnixDateAdviceTests {
    @Test func theSuggestedDateHasNoBinaryNoise() {
        #expect(DecodeContext.unixDateMessage(1_796_590_290.123).hasSuffix("send 818283090.123"))
        #expect(DecodeContext.unixDateMessage(1_796_590_290.5).hasSuffix("send 818283090.5"))
        #expect(DecodeContext.unixDateMessage(1_796_590_290).hasSuffix("send 818283090"))
    }
}
