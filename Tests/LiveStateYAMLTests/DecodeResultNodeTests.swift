import Foundation
import Testing
@_spi(Testing) import LiveState
@_spi(Testing) import LiveStateTooling
import LiveStateYAML

/// `DecodeResult.root`: the state as a tree of typed nodes, read from the input as it is
/// visited. `DecodeResultTests.expectSame` walks it (`NodeWalk.walk`, which checks
/// every accessor on the way) against the full decode for every input those tests make; these
/// tests read particular values.
@Suite struct DecodeResultNodeTests {
    static func cs600() throws -> [UInt8] {
        Array(try Data(contentsOf: DecodeResultTests.benchmarkPayloads[1]))
    }

    @Test func cs600ReadsNodeByNode() throws {
        let schema = try Examples.schema("delivery")
        let decoder = try ContentStateDecoder(schema: schema, version: 3)
        let decoded = decoder.decode(contentState: try Self.cs600())
        #expect(decoded.isReadOnTape)
        let root = try #require(decoded.root)
        #expect(root.kind == .object)
        #expect(root.names == schema.version(3)?.contentState.map(\.name))
        #expect(root["title"]?.string == "Order on the way")
        #expect(root["progress"]?.double == 0.6)
        #expect(root["eta"]?.date == Date(timeIntervalSinceReferenceDate: 752_000_000))
        #expect(root["courier"]?["name"]?.string == "Li")
        #expect(root["courier"]?["rating"]?.double == 4.9)
        #expect(root["items"]?.count == 6)
        #expect(root["items"]?[2]?.string == "sourdough bread")
        #expect(root["items"]?[6] == nil)
        #expect(root["note"]?.string?.hasSuffix(#"éè "quoted" text and a slash / here"#) == true)
        // Missing keys read as their defaults; the unknown key is not in the tree.
        #expect(root["etaText"]?.string == "")
        #expect(root["delayMinutes"]?.int == 0)
        #expect(root["extra"] == nil)
        // A field of another type answers only for its own.
        #expect(root["title"]?.int == nil)
        #expect(root["progress"]?.string == nil)
        #expect(root["courier"]?.string == nil)
        #expect(root.value == decoded.state)
        #expect(root["courier"]?.value == decoded.state?["courier"])
    }

    @Test func aResultDecodedInFullHasTheSameTree() throws {
        let schema = try SchemaLoader().load(yaml: Array(DecodeResultTests.nesting.utf8), file: "nest.yaml")
        var decoder = try ContentStateDecoder(schema: schema, version: 1)
        // The tape reads every payload that is JSON: the full decode, asked for, makes the result
        // hold its result, and the state is applied.
        decoder.readsInOnePass = false
        let bytes = Array(#"{"title":"t","grid":[[{"v":1}]],"lines":[{"sku":"a","qty":"x"}],"card":{"n\u0061me":"n"}}"#.utf8)
        let decoded = decoder.decode(contentState: bytes)
        #expect(!decoded.isReadOnTape)
        let root = try #require(decoded.root)
        #expect(root["title"]?.string == "t")
        #expect(root["lines"]?[0]?["sku"]?.string == "a")
        #expect(root["lines"]?[0]?["qty"]?.int == 1)
        #expect(root["lines"]?[1] == nil)
        #expect(root["grid"]?[0]?[0]?["v"]?.int == 1)
        #expect(NodeWalk.walk(root) == decoded.state)
    }

    @Test func aRejectedPayloadHasNoTree() throws {
        let decoder = try ContentStateDecoder(schema: try Examples.schema("delivery"), version: 3)
        for text in [#"{"subtitle":"no title"}"#, #"{"title":"#, "[]"] {
            let decoded = decoder.decode(contentState: Array(text.utf8))
            #expect(!decoded.appDecodes)
            #expect(decoded.root == nil, "\(text)")
        }
    }

    @Test func datesAndRangesReadAsDates() throws {
        let schema = try Examples.schema("pizza")
        let version = try #require(schema.versions.last).version
        let decoder = try ContentStateDecoder(schema: schema, version: version)
        var checked = 0
        for state in try DecodeResultTests.contentStates() {
            let decoded = decoder.decode(contentState: state)
            guard let root = decoded.root, case .dateRange(let lower, let upper)? = decoded.state?["timer"] else { continue }
            let range = try #require(root["timer"]?.dateRange)
            #expect(range.lowerBound.timeIntervalSinceReferenceDate == lower)
            #expect(range.upperBound.timeIntervalSinceReferenceDate == upper)
            checked += 1
        }
        #expect(checked > 0)
    }

    @Test func nodesAreReadFromManyThreads() throws {
        let decoder = try ContentStateDecoder(schema: try Examples.schema("delivery"), version: 3)
        let decoded = decoder.decode(contentState: try Self.cs600())
        let expected = decoded.state
        let agreed = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            if decoded.root.map(\.value) == expected, decoded.root?["items"]?[5]?.string == "coffee beans" { agreed.increment() }
        }
        #expect(agreed.value == 200)
    }
}
