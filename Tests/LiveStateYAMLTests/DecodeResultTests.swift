import Foundation
import LiveStateTestSupport
import Testing
@_spi(Testing) @testable import LiveState
@_spi(Testing) import LiveStateTooling
import LiveStateYAML

/// `ContentStateDecoder.decode(contentState:)` and `decode(contentState:)`, which read a payload
/// without problems through a tape, against the full decode: the same result for every input,
/// whichever path they took.
@Suite struct DecodeResultTests {
    static let benchmarkPayloads = ["cs200", "cs600", "cs4k"].map {
        Examples.root.appendingPathComponent("Benchmarks/Payloads/\($0).json")
    }

    /// Every bundled schema version, named "activity vN".
    static func everyVersion() throws -> [(name: String, schema: Schema, version: Int)] {
        var versions: [(String, Schema, Int)] = []
        for activity in ["delivery", "flash-sale", "grocery", "match-score", "pizza"] {
            let schema = try Examples.schema(activity)
            for version in schema.versions {
                versions.append(("\(activity) v\(version.version)", schema, version.version))
            }
        }
        return versions
    }

    /// Every bundled schema version's decoder.
    static func decoders(options: JSONScanOptions = .init()) throws -> [(name: String, decoder: ContentStateDecoder)] {
        try everyVersion().map { ($0.name, try ContentStateDecoder(schema: $0.schema, version: $0.version, options: options)) }
    }

    /// The content-state of every example body, clean and failing, written back compactly, and
    /// the benchmark payloads as they are.
    static func contentStates() throws -> [[UInt8]] {
        var states: [[UInt8]] = try benchmarkPayloads.map { Array(try Data(contentsOf: $0)) }
        for payload in Examples.payloads(failing: false) + Examples.payloads(failing: true) {
            let body = try Data(contentsOf: Examples.root.appendingPathComponent(payload.path))
            guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
                  let aps = object["aps"] as? [String: Any], let state = aps["content-state"],
                  JSONSerialization.isValidJSONObject(state) else { continue }
            states.append(Array(try JSONSerialization.data(withJSONObject: state)))
            // The whole body as a content-state: every key unknown, `aps` skipped.
            states.append(Array(body))
        }
        return states
    }

    static func expectSame(_ decoder: ContentStateDecoder, _ bytes: [UInt8], _ label: @autoclosure () -> String) -> Bool {
        // The product reads every object on a tape, whatever the bytes: the object walk is the
        // reference decode's alone.
        let (decoded, walks) = ObjectWalks.counting {
            let wrapped = Array(#"{"aps":{"content-state":"#.utf8) + bytes + Array("}}".utf8)
            _ = decoder.decode(payload: wrapped, file: "b.json")
            return decoder.decode(contentState: bytes, file: "p.json")
        }
        #expect(walks == 0, "object walks: \(label())")
        let full = decoder.decodeInFull(contentState: bytes, file: "p.json")
        #expect(decoded == full, "\(label()): \(String(decoding: bytes.prefix(300), as: UTF8.self))")
        #expect(decoded.appDecodes == full.appDecodes)
        #expect(decoded.state == full.state)
        #expect(decoded.diagnostics == full.diagnostics)
        // The same tree, visited node by node through the public accessors (each checked on the
        // way), and made whole.
        #expect(decoded.root.map(NodeWalk.walk) == full.state, "nodes \(label())")
        #expect(decoded.root?.value == full.state)
        // The device's worst case measured on the tape is the one measured on the tree.
        if let tape = bytes.withUnsafeBytes({ decoder.tape(of: $0, keepingInput: true, file: nil, body: false) }), !tape.header.isRejected {
            #expect(tape.deviceWorstCase() == ByteBudget.deviceWorstCase(tape.state()), "worst case \(label())")
        }
        // The same bytes as a whole APNs body, and wrapped in one.
        let wrapped = Array(#"{"aps":{"timestamp":1,"event":"update","content-state":"#.utf8) + bytes + Array("},\"x\":[1]}".utf8)
        for body in [bytes, wrapped] {
            let fullBody = decoder.decodeInFull(payload: body, file: "b.json")
            #expect(decoder.decode(payload: body, file: "b.json") == fullBody, "body \(label()): \(String(decoding: body.prefix(300), as: UTF8.self))")
        }
        return Self.appliedOnTape(decoded)
    }

    /// Whether `result` was read in one pass and the app version applies it: the tape kept its
    /// every value.
    static func appliedOnTape(_ result: DecodeResult) -> Bool {
        result.isReadOnTape && result.appDecodes
    }

    @Test func benchmarkPayloadsAreReadInOnePassWithTheFullResult() throws {
        let schema = try Examples.schema("delivery")
        let decoder = try ContentStateDecoder(schema: schema, version: 3)
        for url in Self.benchmarkPayloads {
            let bytes = Array(try Data(contentsOf: url))
            #expect(Self.expectSame(decoder, bytes, url.lastPathComponent), "\(url.lastPathComponent) took the full decode")
            let decoded = decoder.decode(contentState: bytes)
            let full = try #require(decoder.decodeInFull(contentState: bytes).state)
            for field in schema.latest?.contentState ?? [] {
                #expect(decoded[field.name] == full[field.name], "\(field.name)")
            }
            #expect(decoded["no-such-field"] == nil)
        }
    }

    @Test func cs600FindingsAreWordedAsTheFullDecodeWordsThem() throws {
        let decoder = try ContentStateDecoder(schema: try Examples.schema("delivery"), version: 3)
        let decoded = decoder.decode(contentState: Array(try Data(contentsOf: Self.benchmarkPayloads[1])), file: "cs600.json")
        #expect(decoded.isReadOnTape)
        #expect(decoded.diagnostics.map(\.code) == ["unknown-key", "defaulted", "defaulted"])
        #expect(decoded.diagnostics.first?.message == "unknown key 'extra' is ignored by app version 3")
        #expect(decoded.diagnostics.first?.pointer == "/extra")
        #expect(decoded.diagnostics.map(\.pointer) == ["/extra", "/etaText", "/delayMinutes"])
    }

    @Test func everyExampleUnderEveryVersionGivesTheFullResult() throws {
        let states = try Self.contentStates()
        var deferred = 0
        for (name, decoder) in try Self.decoders() {
            for state in states where Self.expectSame(decoder, state, name) { deferred += 1 }
        }
        // Most examples are clean for some version; strict versions always decode in full.
        #expect(deferred > 20)
    }

    @Test func bodiesAreReadInOnePassWithTheFullResult() throws {
        let decoder = try ContentStateDecoder(schema: try Examples.schema("delivery"), version: 3)
        let body = Array(try Data(contentsOf: Examples.root.appendingPathComponent("Benchmarks/Payloads/body600.json")))
        let decoded = decoder.decode(payload: body, file: "body600.json")
        #expect(decoded.isReadOnTape)
        #expect(decoded == decoder.decodeInFull(payload: body, file: "body600.json"))
        // Positions count from the start of the body; pointers from the content-state.
        let unknown = try #require(decoded.diagnostics.first)
        #expect(unknown.pointer == "/extra")
        #expect(unknown.position?.offset ?? 0 > 60)
        for text in [
            #"{"aps":{"content-state":{"title":"t"}},"aps":{"content-state":{"title":"u"}}}"#,
            #"{"aps":{"content-state":{"title":"t"},"content-state":{"title":"u"}}}"#,
            #"{"aps":1,"aps":{"content-state":{"title":"u"}}}"#, #"{"aps":{"content-state":[]}}"#,
            #"{"aps":{"content-state":{"title":"t"}}}"#, #"{"aps":{}}"#, #"{}"#, #"[]"#, #"{"aps":{"content-state":{"title":"t"}}} "#,
            #"{"aps":{"content-state":{"title":"t"}}}}"#, #"{"aps":{"alert":{"title":"x"},"content-state":{"title":"t"}},"extra":[{},[]]}"#,
        ] {
            let bytes = Array(text.utf8)
            #expect(decoder.decode(payload: bytes) == decoder.decodeInFull(payload: bytes), "\(text)")
        }
    }

    /// A decode result is read from many threads at once: the tape is never written after it is built,
    /// and each `decode(T.self)` has its own context.
    @Test func oneResultReadFromManyThreads() throws {
        let decoder = try ContentStateDecoder(schema: try Examples.schema("delivery"), version: 3)
        let bytes = Array(try Data(contentsOf: Self.benchmarkPayloads[1]))
        let decoded = decoder.decode(contentState: bytes)
        let expected = decoder.decodeInFull(contentState: bytes)
        let typed = try decoded.decode(DeliveryTypes.Full.self)
        let agreed = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            if decoded == expected, (try? decoded.decode(DeliveryTypes.Full.self)) == typed, decoded["note"] == expected.state?["note"] {
                agreed.increment()
            }
        }
        #expect(agreed.value == 64)
    }

    /// A decode result keeps its own copy of the input, after its nodes: it reads the same state after
    /// the buffer it was made from is overwritten and freed, also when the tape grew while it
    /// was built (forty items need more nodes than the tape starts with).
    @Test func aResultOutlivesTheBufferItWasReadFrom() throws {
        let decoder = try ContentStateDecoder(schema: try Examples.schema("delivery"), version: 3)
        let items = (0..<40).map { "\"item number \($0) of the order\"" }.joined(separator: ",")
        let grown = #"{"title":"t","items":["# + items + #"],"note":"a \"quoted\" note","badge":"gold"}"#
        for text in [String(decoding: try Data(contentsOf: Self.benchmarkPayloads[1]), as: UTF8.self), grown] {
            let bytes = Array(text.utf8)
            let expected = decoder.decodeInFull(contentState: bytes, file: "p.json")
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            buffer.copyBytes(from: bytes)
            let decoded = decoder.decode(contentState: UnsafeRawBufferPointer(buffer), file: "p.json")
            buffer.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "x"))
            buffer.deallocate()
            #expect(decoded.isReadOnTape)
            #expect(decoded == expected)
            #expect(decoded.root.map(NodeWalk.walk) == expected.state)
            #expect(decoded["items"] == expected.state?["items"])
            #expect(try decoded.decode(DeliveryTypes.Full.self) == decoder.decode(contentState: bytes).decode(DeliveryTypes.Full.self))
        }
    }

    /// A validation result made in one pass holds its state as a tape with a copy of the body:
    /// the state is made when asked for, after the body's buffer is overwritten and freed, and
    /// is the one the full decoder makes.
    @Test func aValidationResultMakesItsStateAfterTheBodyIsGone() throws {
        let validator = try PayloadValidator(schema: try Examples.schema("delivery"), version: 3)
        var full = validator
        full.readsInOnePass = false
        let body = Array(try Data(contentsOf: Examples.root.appendingPathComponent("Benchmarks/Payloads/body600.json")))
        let expected = full.validate(body, file: "b.json")
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: body.count, alignment: 1)
        buffer.copyBytes(from: body)
        var result = validator.validate(UnsafeRawBufferPointer(buffer), file: "b.json")
        buffer.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "x"))
        buffer.deallocate()
        let state = try #require(result.state)
        #expect(state == expected.state)
        #expect(result == expected)
        #expect(result.budget.deviceWorstCase == expected.budget.deviceWorstCase)
        // It prints as the full result prints: the state, not the tape behind it.
        #expect(String(describing: result) == String(describing: expected))
        #expect(String(describing: result).contains("state: Optional(LiveState.Value.object("))
        // Setting the state replaces what the result holds.
        result.state = nil
        #expect(result.state == nil)
        #expect(result != expected)
    }

    /// A result read into a `Decodable` type after the caller's buffer is gone reads the
    /// copy it keeps: the value is the one made from the full decoder's state, and the result
    /// is the full decoder's.
    @Test func aTypedDecodeReadsTheResultAfterTheBufferIsGone() throws {
        let decoder = try ContentStateDecoder(schema: try Examples.schema("delivery"), version: 3)
        var readOnTape = 0
        for bytes in try Self.contentStates() {
            let expected = decoder.decodeInFull(contentState: bytes)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            buffer.copyBytes(from: bytes)
            let result = decoder.decode(contentState: UnsafeRawBufferPointer(buffer))
            buffer.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "x"))
            buffer.deallocate()
            // Every state that is a JSON object is read on a tape (a failing example's body may
            // not be JSON).
            if result.isReadOnTape { readOnTape += 1 }
            #expect(result.appDecodes == expected.appDecodes)
            #expect(result.state == expected.state)
            #expect(result == expected)
            guard let state = expected.state else {
                #expect(throws: DecodingError.self) { try result.decode(DeliveryTypes.Full.self) }
                continue
            }
            let fromTree = Result { try ValueDecoder.decode(DeliveryTypes.Full.self, from: state, codingPath: []) }
            let fromTape = Result { try result.decode(DeliveryTypes.Full.self) }
            #expect(String(describing: fromTape) == String(describing: fromTree))
        }
        #expect(readOnTape > 20)
    }

    /// A decode result words its findings when they are read, from the tape and its copy of the
    /// input: after the caller's buffer is overwritten and freed, from many threads at once,
    /// they are the full decoder's, and the result prints and compares as it reads.
    @Test func aDecodeResultWordsItsFindingsWhenRead() async throws {
        let decoder = try ContentStateDecoder(schema: try Examples.schema("delivery"), version: 3)
        // An unknown key, a repeated key, a default taken, an enum's fallback.
        let bytes = Array(#"{"title":"T","colour":"red","title":"U","status":"teleported","progress":0.5}"#.utf8)
        let expected = decoder.decodeInFull(contentState: bytes, file: "c.json")
        #expect(Set(expected.diagnostics.map(\.code)).isSuperset(of: ["defaulted", "duplicate-key", "unknown-enum-value", "unknown-key"]))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        buffer.copyBytes(from: bytes)
        let result = decoder.decode(contentState: UnsafeRawBufferPointer(buffer), file: "c.json")
        buffer.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "x"))
        buffer.deallocate()
        #expect(result.isReadOnTape)
        let shared = result
        let readings = await withTaskGroup(of: [Diagnostic].self) { group in
            for _ in 0..<16 { group.addTask { shared.diagnostics } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(readings.count == 16)
        #expect(readings.allSatisfy { $0 == expected.diagnostics })
        #expect(result == expected)
        #expect(result.hashValue == expected.hashValue)
        // It prints as the full result prints: the diagnostics, not the tape behind them.
        #expect(String(describing: result) == String(describing: expected))
        #expect(String(describing: result).contains("diagnostics: [c.json:1:14: warning: unknown key 'colour'"))
        // A clean payload has nothing to word.
        // (`note` is optional: its absence is no finding.)
        let clean = decoder.decode(contentState: Array(#"""
            {"logo":"","title":"T","subtitle":"","progress":0.5,"eta":1,"etaText":"","status":"preparing","delayMinutes":0,
             "courier":{"name":"","rating":0},"items":[],"badge":""}
            """#.utf8))
        #expect(clean.state != nil && clean.diagnostics.isEmpty, "\(clean.diagnostics)")
    }

    /// A strict version's payload is read on the tape, which finds the first field synthesized
    /// `Codable` fails on (a missing key that is not optional, a wrong type, a field given only
    /// under an alias, an enum value it does not know) as the full decoder does; `expectSame`
    /// says whether the app applies it.
    @Test func strictVersionsAreReadOnTheTapeWithTheirVerdict() throws {
        let schema = try Examples.schema("delivery")
        let decoder = try ContentStateDecoder(schema: schema, version: 1)
        let cases: [(json: String, applied: Bool, strictFailure: Bool)] = [
            (#"{"logo":"l","title":"t","subTitle":"s","progress":0.5}"#, true, false),
            (#"{"logo":"l","title":"t","subTitle":"s","progress":0.5,"x":[1]}"#, true, false),
            (#"{"title":"t","subTitle":"s","progress":0.5}"#, false, true),
            (#"{"logo":"l","title":"t","subTitle":5,"progress":0.5}"#, false, true),
            (#"{"logo":"l","title":"t","subTitle":5,"progress":"x"}"#, false, true),
            // Codable does not check constraints: the tolerant decoder's error alone, and the
            // app applies the state.
            (#"{"logo":"l","title":"t","subTitle":"s","progress":7}"#, true, false),
        ]
        for (json, applied, strictFailure) in cases {
            let bytes = Array(json.utf8)
            let (tape, walks) = ObjectWalks.counting {
                bytes.withUnsafeBytes { decoder.tape(of: $0, keepingInput: false, file: nil, body: false) }
            }
            #expect(tape != nil, "\(json)")
            #expect(walks == 0)
            #expect(Self.expectSame(decoder, bytes, json) == applied, "\(json)")
            let decoded = decoder.decode(contentState: bytes)
            #expect(decoded.isStrictClient)
            #expect((decoded.strictFailure != nil) == strictFailure, "\(json)")
        }
        // The first field in schema order, whatever the input order (nested objects and arrays:
        // `objectsAndArraysOfObjectsAreReadOnTheTape`).
        let grocery = try ContentStateDecoder(schema: try Examples.schema("grocery"), version: 1)
        let late = Array(#"{"riderName":5,"minutesLeft":"x","progress":0.5}"#.utf8)
        #expect(Self.expectSame(grocery, late, "grocery") == false)
        #expect(grocery.decode(contentState: late).strictFailure?.pointer == "/statusText")
        for (name, decoder) in try Self.decoders() where decoder.schema.isStrict(decoder.version.version) {
            for state in try Self.contentStates() { _ = Self.expectSame(decoder, state, name) }
        }
    }

    @Test func hostileAndEdgeInputsGiveTheFullResult() throws {
        let decoders = try Self.decoders()
        var inputs: [[UInt8]] = [
            [], Array(" ".utf8), Array("{".utf8), Array("{}".utf8), Array(" {} ".utf8), Array("{} x".utf8), Array("[]".utf8),
            Array("\u{FEFF}{}".utf8), Array(#"{"title":"a\ud800"}"#.utf8), Array(#"{"title":"\ud83d\ude00 ok"}"#.utf8),
            Array(#"{"title":"caf\u00e9 \u20ac \/ \n"}"#.utf8), Array("{\"title\":\"caf\u{E9} \u{1F600}\"}".utf8),
            [0x7B, 0x22, 0x74, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D], // invalid UTF-8 in a value
            [0x7B, 0x22, 0x74, 0x22, 0x3A, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x7D], // an encoded surrogate
            [0x7B, 0x22, 0x74, 0x22, 0x3A, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x7D], // past U+10FFFF
            [0x7B, 0x22, 0x74, 0x22, 0x3A, 0x22, 0x01, 0x22, 0x7D], // a raw control character
            Array(#"{"progress":1e400}"#.utf8), Array(#"{"progress":0e1}"#.utf8), Array(#"{"progress":1e-400}"#.utf8),
            Array(#"{"progress":-0}"#.utf8), Array(#"{"progress":01}"#.utf8), Array(#"{"progress":1.}"#.utf8),
            Array(#"{"delayMinutes":2.0}"#.utf8), Array(#"{"delayMinutes":9223372036854775808}"#.utf8),
            Array(#"{"delayMinutes":-9223372036854775808}"#.utf8), Array(#"{"delayMinutes":123456789012345678}"#.utf8),
            Array(#"{"title":"a","title":"b"}"#.utf8), Array(#"{"zz":1,"zz":2}"#.utf8), Array(#"{"zz":1,"z\u007a":2}"#.utf8),
            Array(#"{"t\u0069tle":"x"}"#.utf8), Array(#"{"subTitle":"old"}"#.utf8), Array(#"{"extra":{"a":[1,{"b":null}],"c":"d"}}"#.utf8),
            Array(#"{"extra":{"a":[1,{"b":null]}}"#.utf8), Array(#"{"extra":[}"#.utf8), Array(#"{"extra":tru}"#.utf8),
            Array(#"{"extra":nulll}"#.utf8), Array(#"{"title":"x",}"#.utf8), Array(#"{"title" "x"}"#.utf8),
            Array(#"{"items":["a","b",]}"#.utf8), Array(#"{"items":[null]}"#.utf8), Array(#"{"courier":{"name":"x","zz":[]}}"#.utf8),
            Array(#"{"courier":null}"#.utf8), Array(#"{"note":null}"#.utf8), Array(#"{"status":"unknown"}"#.utf8),
            Array(#"{"status":"deli\u0076ering"}"#.utf8), Array(#"{"eta":1795000000}"#.utf8),
        ]
        inputs.append(Array(("{\"extra\":" + String(repeating: "[", count: 100_000)).utf8))
        inputs.append(Array(("{\"extra\":" + String(repeating: "[", count: 61) + String(repeating: "]", count: 61) + "}").utf8))
        inputs.append(Array(("{\"extra\":" + String(repeating: "[", count: 62) + String(repeating: "]", count: 62) + "}").utf8))
        inputs.append(Array(("{\"extra\":" + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}").utf8))
        inputs.append(Array(("{\"title\":\"" + String(repeating: "x", count: 2_000_000) + "\"}").utf8))
        for (name, decoder) in decoders {
            for input in inputs { _ = Self.expectSame(decoder, input, name) }
        }
    }

    /// The one-pass read checks the usual escapes itself and counts the value's length for
    /// `max-length`: every escape, each byte around the hex digits' ranges, and lengths on
    /// either side of the limit (delivery's `title` is at most 64 bytes).
    @Test func escapesAndEscapedLengthsGiveTheFullResult() throws {
        let decoders = try Self.decoders()
        var texts = [#"\""#, #"\\"#, #"\/"#, #"\b"#, #"\f"#, #"\n"#, #"\r"#, #"\t"#, #"\a"#, #"\x"#, #"\'"#, #"\0"#]
        for unit in ["0041", "007F", "0080", "07FF", "0800", "FFFF", "00e9", "00E9", "abcd", "ABCD", "d800", "DBFF", "dc00", "DFFF", "D7FF", "E000"] {
            texts.append("\\u" + unit)
        }
        // A hex digit's neighbours: `/` `:` `@` `G` backquote `g`, a space and a byte past ASCII.
        for bad in ["/", ":", "@", "G", "`", "g", " ", "\u{E9}"] {
            texts.append("\\u00" + bad + "0")
            texts.append("\\u" + bad + "000")
        }
        texts += [#"\ud83d\ude00"#, #"\ud83d\u0041"#, #"\ud83d"#, #"\ude00\ud83d"#, #"\ud83d\ude0"#]
        var inputs: [[UInt8]] = []
        for text in texts {
            inputs.append(Array("{\"title\":\"a\(text)b\"}".utf8))
            // At the very end of the input: the read cannot look six bytes ahead.
            inputs.append(Array("{\"title\":\"\(text)".utf8))
            inputs.append(Array("{\"title\":\"\(text)\"}".utf8))
            inputs.append(Array("{\"extra\":\"\(text)\",\"items\":[\"\(text)\"]}".utf8))
        }
        // 63 to 65 bytes of value, written with escapes of each width: up to 64 the one-pass
        // read takes them (a length counted too long would hand them to the full decoder,
        // which gives the same result, so this is checked on its own).
        let delivery = try ContentStateDecoder(schema: try Examples.schema("delivery"), version: 3)
        for (escape, width) in [(#"\n"#, 1), (#"\u00e9"#, 2), (#"\u20ac"#, 3), (#"\ud83d\ude00"#, 4)] {
            for total in [63, 64, 65] {
                let count = total / width
                let padding = String(repeating: "x", count: total - count * width)
                let input = Array("{\"title\":\"\(String(repeating: escape, count: count))\(padding)\"}".utf8)
                inputs.append(input)
                #expect(Self.expectSame(delivery, input, "delivery v3") == (total <= 64), "\(escape) x \(count), \(total) bytes")
            }
        }
        var deferred = 0
        for (name, decoder) in decoders {
            for input in inputs where Self.expectSame(decoder, input, name) { deferred += 1 }
        }
        #expect(deferred > 100)
    }

    @Test func nestingLimitsAgreeAtEveryDepth() throws {
        for maxDepth in 1...5 {
            for (name, decoder) in try Self.decoders(options: .init(maxDepth: maxDepth)) {
                for depth in 0...6 {
                    let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
                    _ = Self.expectSame(decoder, Array("{\"extra\":\(depth == 0 ? "1" : nested)}".utf8), "\(name) max \(maxDepth)")
                    _ = Self.expectSame(decoder, Array(#"{"courier":{"name":"x"},"window":[1,2],"items":["a"]}"#.utf8), "\(name) max \(maxDepth)")
                }
            }
        }
    }

    /// A value the tape cannot read itself is decided by the full decoder at that value, and
    /// the tape goes on: the decision (a fallback, a default taken, a value of a shape the tape
    /// does not lay out, the root object rejected) and its findings are the full decode's, in
    /// the same order. Only what is not JSON and keys the tape does not compare (repeated,
    /// aliased, escaped) still give the whole input to the full decode.
    @Test func valuesTheTapeCannotReadAreDecidedByTheFullDecoder() throws {
        let decoder = try ContentStateDecoder(schema: try Examples.schema("delivery"), version: 3)
        let cases: [(json: String, codes: [String], onTape: Bool)] = [
            (#"{"title":"t","status":"lost"}"#, ["unknown-enum-value"], true),
            (#"{"title":"t","logo":123,"x":1}"#, ["invalid-defaulted", "unknown-key"], true),
            (#"{"logo":"a very long logo name that is longer than 32 bytes","title":"t"}"#, ["invalid-defaulted"], true),
            (#"{"title":"t","courier":{"name":5,"rating":9}}"#, ["invalid-defaulted", "invalid-defaulted"], true),
            (#"{"title":"t","courier":{"name":"a","y":1,"name":"b"}}"#, ["unknown-key", "duplicate-key"], true),
            (#"{"title":"t","items":["a",1],"status":"gone"}"#, ["invalid-defaulted", "unknown-enum-value"], true),
            (#"{"title":"t","status":"deliv\u0065ring"}"#, [], true),
            (#"{"title":"t","delayMinutes":1e400}"#, ["invalid-defaulted"], true),
            (#"{"title":"t","delayMinutes":12345678901234567890}"#, ["invalid-defaulted"], true),
            (#"{"title":"t","note":5}"#, ["invalid-defaulted"], true),
            // The root object rejected: no state, and the findings after the problem too.
            (#"{"title":"t","progress":2}"#, ["out-of-range"], true),
            (#"{"title":5}"#, ["wrong-type"], true),
            (#"{"logo":"x"}"#, ["missing-required-key"], true),
            (#"{"progress":"2","title":"t","zz":1,"status":"lost"}"#, ["wrong-type", "unknown-key", "unknown-enum-value"], true),
            // A key read under an alias, or after the field's own name (skipped); keys again.
            (#"{"title":"t","subTitle":"s","x":1}"#, ["unknown-key"], true),
            (#"{"title":"t","subtitle":"u","subTitle":"s"}"#, [], true),
            (#"{"title":"t","logo":1,"logo":"x"}"#, ["invalid-defaulted", "duplicate-key"], true),
            (#"{"x":1,"title":"t","x":[2],"title":"u"}"#, ["unknown-key", "duplicate-key", "duplicate-key"], true),
            (#"{"title":"t","courier":{"name":"a","name":"b","q":1,"q":2}}"#, ["duplicate-key", "unknown-key", "duplicate-key"], true),
            // A field read under an alias and then under its name, or with an invalid value.
            (#"{"title":"t","subTitle":"s","subtitle":"u"}"#, [], true),
            (#"{"title":"t","subTitle":5}"#, ["invalid-defaulted"], true),
            (#"{"title":"t","subTitle":5,"subtitle":"u"}"#, [], true),
            (#"{"title":"t","subTitle":5,"subTitle":"u","x":1}"#, ["unknown-key", "invalid-defaulted"], true),
            (#"{"title":"t","subtitle":5,"subTitle":"u"}"#, ["invalid-defaulted"], true),
            // An escaped key.
            (#"{"title":"t","\u006cogo":"x"}"#, [], true),
            // Not JSON: the full decode reads it all.
            (#"{"title":"t","courier":{"name":5},"items":[}"#, ["json-syntax"], false),
        ]
        for (json, codes, onTape) in cases {
            let bytes = Array(json.utf8)
            let tape = bytes.withUnsafeBytes { decoder.tape(of: $0, keepingInput: false, file: nil, body: false) }
            #expect((tape != nil) == onTape, "\(json)")
            let decoded = decoder.decode(contentState: bytes)
            #expect(Self.expectSame(decoder, bytes, json) == (onTape && decoded.appDecodes), "\(json)")
            #expect(decoded.diagnostics.map(\.code.rawValue).filter { $0 != "defaulted" } == codes, "\(json)")
            TapeDecoderTests.all(decoder, bytes)
        }
        // Positions and pointers are the full decode's, nested ones included.
        let nested = decoder.decode(contentState: Array(#"{"title":"t","courier":{"name":5,"rating":9}}"#.utf8))
        let problems = nested.diagnostics.filter { $0.code == "invalid-defaulted" }
        #expect(problems.map(\.pointer) == ["/courier/name", "/courier/rating"])
        #expect(problems.map { $0.position?.column } == [32, 43])
        #expect(nested["courier"] == .object([.init("name", .string("")), .init("rating", .double(0))]))
        #expect(decoder.decode(contentState: Array(#"{"title":"t","status":"lost"}"#.utf8))["status"] == .string("pending"))
    }

    /// A schema of nested objects and arrays of objects: required keys inside, a default and
    /// a rejecting policy at the fields that hold them, `max-items`, an array of arrays of
    /// objects and of scalars, date ranges in an array, aliases at every level.
    static let nesting = """
        activity: nest
        versions:
          - version: 1
            content-state:
              title: { type: string }
              label: { type: string, default: "", max-length: 4, aliases: [tag, name2] }
              card:
                type: object
                default: { name: "none", count: 0 }
                fields:
                  name: { type: string }
                  count: { type: int, default: 0, maximum: 9, aliases: [n] }
                  inner: { type: object, optional: true, fields: { id: { type: int } } }
              pinned:
                type: object
                optional: true
                on-invalid: reject
                fields:
                  name: { type: string }
              lines:
                type: array
                default: []
                max-items: 3
                items:
                  type: object
                  fields:
                    sku: { type: string, max-length: 8, aliases: [code] }
                    qty: { type: int, default: 1, minimum: 1 }
                    tags: { type: array, default: [], items: { type: string } }
                    box: { type: object, optional: true, fields: { w: { type: int } } }
              maybe:
                type: array
                optional: true
                items: { type: object, fields: { a: { type: int, default: 0 } } }
              grid: { type: array, optional: true, items: { type: array, items: { type: object, fields: { v: { type: int } } } } }
              pairs: { type: array, default: [], items: { type: array, max-items: 3, items: { type: int } } }
              spans: { type: array, default: [], items: { type: date-range } }
        """

    static let fallbacks = """
        activity: fallbacks
        clients:
          strict: [2]
        versions:
          - version: 1
            content-state:
              title: { type: string }
              status: { type: enum, values: [waiting, moving, done], default: waiting, fallback: waiting, aliases: [state] }
              card:
                type: object
                default: { kind: plain }
                fields:
                  kind: { type: enum, values: [plain, gold], default: plain, fallback: plain }
              marks: { type: array, default: [], items: { type: enum, values: [x, y], fallback: x } }
              drink: { type: enum, values: [café, thé], default: café, fallback: café }
              strictless: { type: enum, values: [a, b], default: a }
              stops:
                type: array
                default: []
                items:
                  type: object
                  fields:
                    state: { type: enum, values: [open, shut], default: open, fallback: open }
                    n: { type: int, default: 0 }
          - version: 2
            content-state:
              title: { type: string }
              status: { type: enum, values: [waiting, moving, done], default: waiting, fallback: waiting }
              marks: { type: array, default: [], items: { type: enum, values: [x, y], fallback: x } }
        """

    /// What an older app version most often meets is decided on the tape, its finding worded
    /// when read, where the full decoder would decide just that: a string enum's value that is
    /// none of its raw values takes the fallback, and a value of another JSON type takes the
    /// default of a field whose invalid values take it. The results are the reference decode's
    /// in every place such a value can be; the tape decides it itself (a `fallbackTaken` or
    /// `defaultTaken` node, no `reported` one) in an object's field, under its own name or an
    /// alias, nested or not, in an array, for raw values that are not ASCII and for an escaped
    /// string (`enumValuesAreDecidedOnTheTape`), and for a strict version (the full decoder
    /// asked only why `Codable` fails, which has no fallback), and leaves it to the full decoder
    /// for a field without a default in a nested object.
    @Test func unknownEnumValuesTakeTheirFallbackOnTheTape() throws {
        let schema = try SchemaLoader().load(yaml: Array(Self.fallbacks.utf8), file: "fallbacks.yaml")
        let decoders = [try ContentStateDecoder(schema: schema, version: 1), try ContentStateDecoder(schema: schema, version: 2)]
        let cases: [(json: String, version: Int, onTape: Int, decided: Int)] = [
            (#"{"title":"t","status":"lost"}"#, 1, 1, 0),
            (#"{"title":"t","card":{"kind":"platinum"},"state":"lost"}"#, 1, 2, 0),
            (#"{"title":"t","status":"lost","status":"gone"}"#, 1, 1, 0),
            (#"{"title":"t","state":"lost","status":"moving"}"#, 1, 1, 0),
            (#"{"title":"t","status":"","card":{"kind":"platinum"}}"#, 1, 2, 0),
            (#"{"card":{"kind":"platinum"},"title":"t","x":1,"status":"lost"}"#, 1, 2, 0),
            (#"{"title":"t","marks":["x","z"]}"#, 1, 1, 0),
            (#"{"title":"t","drink":"tea"}"#, 1, 1, 0),
            (#"{"title":"t","status":"lo\u0073t"}"#, 1, 1, 0),
            (#"{"title":"t","status":"lost"}"#, 2, 1, 0),
            (#"{"title":"t","strictless":"c","status":7}"#, 1, 2, 0),
            // Values of another JSON type.
            (#"{"title":"t","status":7}"#, 1, 1, 0),
            (#"{"title":"t","status":{"a":[1,{"b":null}]},"strictless":false}"#, 1, 2, 0),
            (#"{"title":"t","card":{"kind":true}}"#, 1, 1, 0),
            (#"{"title":"t","card":{"kind":true},"status":[1]}"#, 1, 2, 0),
            (#"{"title":"t","card":[1],"marks":"x","drink":-1.5e3}"#, 1, 3, 0),
            // In the objects of an array: the findings name the element.
            (#"{"title":"t","stops":[{"state":"ajar"},{"n":"7","state":"shut"},{"state":[],"n":true}]}"#, 1, 4, 0),
            (#"{"title":"t","state":7}"#, 1, 1, 0),
            (#"{"title":"t","status":null}"#, 1, 1, 0),
            (#"{"title":5}"#, 1, 1, 0),
            (#"{"title":"t","status":7}"#, 2, 1, 0),
            // An array's elements too: the verdict names the first one `Codable` fails on.
            (#"{"title":"t","marks":["x","z","w"]}"#, 2, 2, 0),
            (#"{"title":"t","marks":["x","z"],"status":"lost"}"#, 2, 2, 0),
            // An array with an invalid element: every element's fallback, before and after it,
            // then the field's default.
            (#"{"title":"t","marks":["z",7,"w"]}"#, 1, 3, 0),
            (#"{"title":"t","marks":[null,"z",["y"],"x"]}"#, 1, 2, 0),
            (#"{"title":"t","marks":["z",7,"w"]}"#, 2, 3, 0),
        ]
        for (json, version, onTape, decided) in cases {
            let kinds = try Self.kindsOnTape(decoders[version - 1], json)
            #expect(kinds.count { [.fallbackTaken, .elementFallbackTaken, .defaultTaken, .rejected].contains($0) } == onTape, "\(json)")
            #expect(kinds.count { $0 == .reported } == decided, "\(json)")
        }
        // A strict version takes the fallback too, and its app drops the update: the verdict says why.
        let strict = decoders[1].decode(contentState: Array(#"{"title":"t","status":"lost"}"#.utf8))
        #expect(strict.state?["status"] == .string("waiting"))
        #expect(strict.strictFailure?.pointer == "/status")
        #expect(strict.strictFailure?.message.contains("\"lost\" is not a raw value of the enum") == true, "\(String(describing: strict.strictFailure))")
        let strictMarks = decoders[1].decode(contentState: Array(#"{"title":"t","status":"moving","marks":["x","z","w"]}"#.utf8))
        #expect(strictMarks.state?["marks"] == .array([.string("x"), .string("x"), .string("x")]))
        #expect(strictMarks.strictFailure?.pointer == "/marks/1")
        #expect(strictMarks.strictFailure?.message.contains("\"z\" is not a raw value of the enum") == true, "\(String(describing: strictMarks.strictFailure))")
        // A value of another type nested past the limit, or not JSON: what the full decoder says.
        for json in [
            #"{"title":"t","status":"# + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}",
            #"{"title":"t","status":[1,],"x":1}"#, #"{"title":"t","status":{"a":tru}}"#,
        ] {
            _ = Self.expectSame(decoders[0], Array(json.utf8), json)
            #expect(decoders[0].decode(contentState: Array(json.utf8)).diagnostics.map(\.severity) == [.error], "\(json)")
        }
        // The words, where they point, and the state, in full.
        let result = decoders[0].decode(contentState: Array(#"{"title":"t","card":{"kind":"platinum"},"state":"lost"}"#.utf8), file: "p.json")
        #expect(result.diagnostics.map(\.description) == [
            #"p.json:1:29: warning: "platinum" is not one of ["plain", "gold"]; it takes the fallback "plain" (at /card/kind) [unknown-enum-value]"#,
            #"p.json:1:49: warning: "lost" is not one of ["waiting", "moving", "done"]; it takes the fallback "waiting" (at /status) [unknown-enum-value]"#,
            "p.json:1:1: info: key 'marks' is missing; it takes its default [] (at /marks) [defaulted]",
            #"p.json:1:1: info: key 'drink' is missing; it takes its default "café" (at /drink) [defaulted]"#,
            #"p.json:1:1: info: key 'strictless' is missing; it takes its default "a" (at /strictless) [defaulted]"#,
            "p.json:1:1: info: key 'stops' is missing; it takes its default [] (at /stops) [defaulted]",
        ])
        let inArray = decoders[0].decode(contentState: Array(#"{"title":"t","stops":[{"n":1},{"state":"ajar","n":"7"}]}"#.utf8))
        #expect(inArray.diagnostics.filter { $0.severity == .warning }.map(\.pointer) == ["/stops/1/state", "/stops/1/n"])
        #expect(result.state?["status"] == .string("waiting"))
        #expect(result.state?["card"]?["kind"] == .string("plain"))
        let mismatched = decoders[0].decode(contentState: Array(#"{"title":"t","card":{"kind":true},"status":[1]}"#.utf8), file: "p.json")
        #expect(mismatched.diagnostics.prefix(2).map(\.description) == [
            #"p.json:1:29: warning: expected one of the enum's string values, found a boolean; 'kind' takes its default "plain" (at /card/kind) [invalid-defaulted]"#,
            #"p.json:1:44: warning: expected one of the enum's string values, found an array; 'status' takes its default "waiting" (at /status) [invalid-defaulted]"#,
        ])
    }

    /// The kinds of the nodes of the tape `decoder` reads `json` into, once its results are
    /// held to the reference decode's (`expectSame`): what the tests of what the tape decides
    /// count.
    static func kindsOnTape(_ decoder: ContentStateDecoder, _ json: String) throws -> [TapeNode.Kind] {
        let bytes = Array(json.utf8)
        _ = expectSame(decoder, bytes, json)
        let tape = try #require(bytes.withUnsafeBytes { decoder.tape(of: $0, keepingInput: false, file: nil, body: false) })
        return (0..<tape.nodeCount).map { tape.node(at: $0).kind }
    }

    static let tightened = """
        activity: tightened
        clients:
          strict: [2]
        versions:
          - version: 1
            content-state:
              title: { type: string }
              eta: { type: int, default: 0, minimum: 0, maximum: 120, aliases: [minutes] }
              small: { type: int, format: int8, default: 1 }
              ratio: { type: double, default: 0.5, minimum: 0, maximum: 1 }
              when: { type: date, default: 0, maximum: 2000000000 }
              name: { type: string, default: "-", min-length: 1, max-length: 4 }
              link: { type: url, default: "https://example.com" }
              mode: { type: enum, values: [a, b], default: a }
              note: { type: string, optional: true, max-length: 4 }
              courier:
                type: object
                default: { name: "x" }
                fields:
                  name: { type: string, default: "x", max-length: 4 }
              tags: { type: array, default: [], items: { type: string, max-length: 2 } }
              kept: { type: string, default: "", max-length: 4, on-invalid: reject }
              code: { type: string, optional: true, max-length: 2, on-invalid: reject }
              rating: { type: enum, values: [1, 2, 3], default: 3, fallback: 1 }
              level: { type: enum, values: [1, 2], default: 2 }
              window: { type: date-range, default: [0, 1] }
              scores: { type: array, default: [0], max-items: 2, items: { type: int, maximum: 9 } }
              stamps: { type: array, default: [], items: { type: date } }
          - version: 2
            content-state:
              title: { type: string }
              eta: { type: int, default: 0, maximum: 120 }
        """

    /// What an older app version meets when a constraint was tightened (a number out of range
    /// or beyond the app's number type, a string too long or too short, a URL its devices do
    /// not all read, an enum value it does not know, a date range out of order, `null` for a
    /// field that is not optional, an array of scalars with such an element or too many) is
    /// decided on the tape, the field taking its fallback or default, with the finding worded
    /// when read by the full decoder's own words (`DecodeContext.invalidDefaulted`). The results
    /// are the reference decode's in every place; the tape decides it itself in an object's
    /// field, under its own name or an alias, and leaves to the full decoder what takes no
    /// default in a nested object and a date out of range that the validator also reports as
    /// UNIX time; for a strict version, it asks the full decoder only why `Codable` fails.
    @Test func tightenedConstraintsTakeTheDefaultOnTheTape() throws {
        let schema = try SchemaLoader().load(yaml: Array(Self.tightened.utf8), file: "tightened.yaml")
        let decoders = [try ContentStateDecoder(schema: schema, version: 1), try ContentStateDecoder(schema: schema, version: 2)]
        let cases: [(json: String, version: Int, onTape: Int, decided: Int)] = [
            (#"{"title":"t","eta":121}"#, 1, 1, 0),
            (#"{"title":"t","eta":-1,"small":128,"ratio":1.5}"#, 1, 3, 0),
            (#"{"title":"t","when":2000000001,"ratio":-0.25e1}"#, 1, 2, 0),
            (#"{"title":"t","name":"toolong","note":"also too long"}"#, 1, 2, 0),
            (#"{"title":"t","name":"","link":"https://x.com/a b"}"#, 1, 2, 0),
            (#"{"title":"t","name":"\u00e9\u00e9\u00e9"}"#, 1, 1, 0),
            (#"{"title":"t","mode":"c","courier":{"name":"longer"}}"#, 1, 2, 0),
            (#"{"title":"t","eta":null,"name":null,"mode":null,"note":null}"#, 1, 3, 0),
            (#"{"title":"t","eta":1000,"eta":5}"#, 1, 1, 0),
            (#"{"title":"t","eta":5,"eta":1000}"#, 1, 0, 0),
            // Under an alias: settled when the object ends, unless the field's own key replaces it.
            (#"{"title":"t","minutes":121}"#, 1, 1, 0),
            (#"{"title":"t","minutes":121,"eta":5}"#, 1, 0, 0),
            (#"{"title":"t","minutes":"x","x":1}"#, 1, 1, 0),
            // An integer enum's value it does not know: the fallback, or else the default.
            (#"{"title":"t","rating":7,"level":-3}"#, 1, 1, 0),
            // A date range out of order.
            (#"{"title":"t","window":[5,2]}"#, 1, 1, 0),
            (#"{"title":"t","window":[ 9 , 1.5 ]}"#, 1, 1, 0),
            // An array of scalars with an element a rule refuses, of another type, or too many.
            (#"{"title":"t","tags":["abc"],"scores":[1,10]}"#, 1, 2, 0),
            (#"{"title":"t","tags":["a",1,"b"],"scores":[1,null]}"#, 1, 2, 0),
            (#"{"title":"t","tags":["a","b"],"scores":[1,2,3]}"#, 1, 1, 0),
            (#"{"title":"t","minutes":1,"tags":[ "a" , "abc" , {"x":[1]} ]}"#, 1, 1, 0),
            // A number that is not plain digits: converted as the full decoder converts it.
            (#"{"title":"t","rating":1.5,"level":1e0,"eta":2.0e1,"small":12345678901234567890}"#, 1, 2, 0),
            (#"{"title":"t","rating":7.0,"level":3e0}"#, 1, 1, 0),
            (#"{"title":"t","rating":2.0,"scores":[1e0,-0.0]}"#, 1, 0, 0),
            (#"{"title":"t","scores":[1.25]}"#, 1, 1, 0),
            // No default to take: the payload is rejected
            // (`invalidValuesOfRootFieldsWithoutADefaultRejectOnTheTape`).
            (#"{"title":"t","kept":"toolong"}"#, 1, 0, 0),
            (#"{"title":"t","code":"toolong"}"#, 1, 0, 0),
            // A strict version: the same on the tape, the full decoder asked only why `Codable`
            // fails (here it does not: a range is the schema's own rule).
            (#"{"title":"t","eta":121}"#, 2, 1, 0),
            (#"{"title":"toolong","eta":121}"#, 2, 1, 0),
        ]
        for (json, version, onTape, decided) in cases {
            let kinds = try Self.kindsOnTape(decoders[version - 1], json)
            TapeDecoderTests.expectSame(Tightened.self, decoders[version - 1], Array(json.utf8))
            #expect(kinds.count { $0 == .defaultTaken } == onTape, "\(json)")
            #expect(kinds.count { $0 == .reported } == decided, "\(json)")
        }
        // A date that also looks like UNIX time, as the validator reads it: both findings.
        let validator = try PayloadValidator(schema: schema, version: 1)
        let body = Array(#"{"aps":{"timestamp":1,"event":"update","content-state":{"title":"t","when":2000000001}}}"#.utf8)
        #expect(ValidatorOnePassTests.expectSame(validator, body, "when"))
        #expect(validator.validate(body).diagnostics.map(\.code).contains("unix-date-in-date-field"))
        // The words, where they point, and the state.
        let result = decoders[0].decode(
            contentState: Array(#"{"title":"t","eta":121,"small":-129,"name":"toolong","link":"https://x.com/a b","mode":"c","note":"12345","courier":{"name":null}}"#.utf8),
            file: "p.json")
        #expect(result.diagnostics.filter { $0.code != "defaulted" }.map(\.description) == [
            "p.json:1:20: warning: 121 is greater than maximum 120; 'eta' takes its default 0 (at /eta) [invalid-defaulted]",
            "p.json:1:32: warning: -129 does not fit the app's Int8; 'small' takes its default 1 (at /small) [invalid-defaulted]",
            #"p.json:1:44: warning: 7 bytes is longer than max-length 4; 'name' takes its default "-" (at /name) [invalid-defaulted]"#,
            #"p.json:1:61: warning: 'https://x.com/a b' is no URL on iOS 16 (min-ios 16.1): URL(string:) there refuses a space at byte 15, which iOS 17 and later percent-encode; send 'https://x.com/a%20b'; 'link' takes its default "https://example.com" (at /link) [invalid-defaulted]"#,
            #"p.json:1:88: warning: "c" is not one of ["a", "b"]; 'mode' takes its default "a" (at /mode) [invalid-defaulted]"#,
            "p.json:1:99: warning: 5 bytes is longer than max-length 4; 'note' takes its default null (at /note) [invalid-defaulted]",
            #"p.json:1:125: warning: null is not a string; 'name' takes its default "x" (at /courier/name) [invalid-defaulted]"#,
        ])
        let later = decoders[0].decode(
            contentState: Array(#"{"title":"t","rating":7,"level":9,"window":[5,2],"tags":["a","abc"],"scores":[1,2,3]}"#.utf8),
            file: "p.json")
        // An integer enum's value written otherwise is shown as the integer it is.
        #expect(decoders[0].decode(contentState: Array(#"{"title":"t","rating":7.0}"#.utf8)).diagnostics.map(\.message).contains(
            "7 is not one of [1, 2, 3]; it takes the fallback 1"))
        #expect(later.diagnostics.filter { $0.code != "defaulted" }.map(\.description) == [
            "p.json:1:23: warning: 7 is not one of [1, 2, 3]; it takes the fallback 1 (at /rating) [unknown-enum-value]",
            "p.json:1:33: warning: 9 is not one of [1, 2]; 'level' takes its default 2 (at /level) [invalid-defaulted]",
            "p.json:1:44: warning: the date-range's lower bound 5 is after its upper bound 2; 'window' takes its default [0,1] (at /window) [invalid-defaulted]",
            "p.json:1:62: warning: at /tags/1: 3 bytes is longer than max-length 2; 'tags' takes its default [] (at /tags) [invalid-defaulted]",
            "p.json:1:78: warning: 3 items is more than max-items 2; 'scores' takes its default [0] (at /scores) [invalid-defaulted]",
        ])
        #expect(later.state?["rating"] == .int(1))
        #expect(later.state?["tags"] == .array([]))
        #expect(result.state?["eta"] == .int(0))
        #expect(result.state?["courier"]?["name"] == .string("x"))
    }

    /// A date whose seconds look like UNIX time, read as the validator reads (which reports
    /// it), is kept on the tape with a `unixDate` finding worded when read, in an object's field
    /// at any depth, under an alias, in a date range (a finding per bound) and as an element of
    /// an array (the finding names its index, after the elements), and out of its field's range
    /// (the finding kept, then the field's rule: default, rejection, an invalid object), and in an
    /// array with an invalid element (every element's finding, then the field's rule). Each
    /// result is the reference decode's.
    @Test func unixDatesAreReportedOnTheTape() throws {
        let schema = try SchemaLoader().load(yaml: Array("""
            activity: dates
            clients:
              strict: [2]
            versions:
              - version: 1
                content-state:
                  when: { type: date, default: 0, aliases: [at], maximum: 2000000000 }
                  window: { type: date-range, optional: true }
                  stops: { type: array, default: [], items: { type: object, fields: { eta: { type: date, maximum: 2000000000 } } } }
                  stamps: { type: array, default: [], items: { type: date } }
                  limited: { type: date, default: 0, maximum: 2000000000 }
                  hard: { type: date, optional: true, maximum: 2000000000, on-invalid: reject }
                  box: { type: object, optional: true, fields: { due: { type: date, maximum: 2000000000 } } }
                  few: { type: array, default: [], max-items: 1, items: { type: date } }
              - version: 2
                content-state:
                  when: { type: date, default: 0 }
                  window: { type: date-range, optional: true }
                  limited: { type: date, default: 0, maximum: 2000000000 }
                  few: { type: array, default: [], max-items: 1, items: { type: date } }
            """.utf8), file: "dates.yaml")
        let cases: [(state: String, version: Int, onTape: Int, decided: Int)] = [
            (#"{"when":1732800000}"#, 1, 1, 0),
            (#"{"when":754000000}"#, 1, 0, 0),
            (#"{"at":1732800000}"#, 1, 1, 0),
            (#"{"at":1732800000,"when":5}"#, 1, 1, 0),
            (#"{"when":1732800000,"when":5}"#, 1, 1, 0),
            (#"{"window":[1732800000,1732803600]}"#, 1, 2, 0),
            (#"{"window":[ 754000000 , 1.7328036e9 ]}"#, 1, 1, 0),
            (#"{"window":[1732803600,1732800000]}"#, 1, 0, 0),
            // (The second stop is out of its range too: the stop is invalid, and the array
            // settled by the full decoder's rule, a `reported` node, as any invalid element is.)
            (#"{"stops":[{"eta":754000000},{"eta":1732800000000}]}"#, 1, 1, 1),
            (#"{"when":1732800000,"window":[1,1732800000]}"#, 2, 2, 0),
            (#"{"stamps":[5,1732800000,1.7328e9]}"#, 1, 2, 0),
            // Out of the field's range too: reported, then the field's default, the payload
            // rejected, or the object that holds it invalid (settled at the field that holds
            // it by the full decoder's rule, a `reported` node); under an alias; for a strict
            // version.
            (#"{"limited":2000000001}"#, 1, 1, 0),
            (#"{"limited":2000000001,"when":1732800000}"#, 1, 2, 0),
            (#"{"hard":2000000001}"#, 1, 1, 0),
            (#"{"box":{"due":2000000001}}"#, 1, 1, 1),
            (#"{"at":2000000001}"#, 1, 1, 0),
            (#"{"at":2000000001,"when":5}"#, 1, 1, 0),
            (#"{"stops":[{"eta":2000000001}]}"#, 1, 1, 1),
            (#"{"limited":2000000001}"#, 2, 1, 0),
            // An array with an invalid element: every element's finding, before it and after it,
            // then the field's default (the elements after an invalid one are read on, as the
            // full decoder reads them).
            (#"{"stamps":[1732800000,"x"]}"#, 1, 1, 0),
            (#"{"stamps":["x",1732800000]}"#, 1, 1, 0),
            (#"{"stamps":[1732800000,{"a":[1]},1.7328e9,true,5]}"#, 1, 2, 0),
            (#"{"stamps":[1732800000,"x"],"when":1732800000}"#, 1, 2, 0),
            // Too many elements: the same.
            (#"{"few":[1732800000,1.7328e9]}"#, 1, 2, 0),
            (#"{"few":[1732800000,1]}"#, 2, 1, 0),
        ]
        for (state, version, onTape, decided) in cases {
            let validator = try PayloadValidator(schema: schema, version: version)
            let body = Array(#"{"aps":{"timestamp":1,"event":"update","content-state":\#(state)}}"#.utf8)
            _ = ValidatorOnePassTests.expectSame(validator, body, state)
            let bytes = Array(state.utf8)
            let decoder = try ContentStateDecoder(schema: schema, version: version)
            let tape = try #require(bytes.withUnsafeBytes {
                TapeBuilder.build(
                    object: 0, in: $0, depth: 0, plan: decoder.plan, version: version, file: nil, isStrict: version == 2,
                    consequence: .update, options: .init())
            }?.tape)
            let kinds = (0..<tape.nodeCount).map { tape.node(at: $0).kind }
            #expect(kinds.count { $0 == .unixDate || $0 == .elementUnixDate } == onTape, "\(state)")
            #expect(kinds.count { $0 == .reported } == decided, "\(state)")
        }
        // The words, where they point (a value read under an alias, at its field), and the
        // values kept.
        let validator = try PayloadValidator(schema: schema, version: 1)
        let result = validator.validate(
            Array(#"{"aps":{"timestamp":1,"event":"update","content-state":{"at":1732800000,"window":[754000000,1732803600],"stops":[{"eta":1732800000000}],"stamps":[5,1732800000]}}}"#.utf8),
            file: "b.json")
        #expect(result.diagnostics.filter { $0.code == "unix-date-in-date-field" }.map(\.description) == [
            "b.json:1:62: warning: 1732800000 looks like UNIX time: the device reads seconds since 2001-01-01, so this is the year 2055; send 754492800 (at /when) [unix-date-in-date-field]",
            "b.json:1:93: warning: 1732803600 looks like UNIX time: the device reads seconds since 2001-01-01, so this is the year 2055; send 754496400 (at /window/1) [unix-date-in-date-field]",
            "b.json:1:121: warning: 1732800000000 looks like UNIX time in milliseconds: the device reads seconds since 2001-01-01, so this is the year 56911; send 754492800 (at /stops/0/eta) [unix-date-in-date-field]",
            "b.json:1:149: warning: 1732800000 looks like UNIX time: the device reads seconds since 2001-01-01, so this is the year 2055; send 754492800 (at /stamps/1) [unix-date-in-date-field]",
        ])
        #expect(result.state?["when"] == .date(1_732_800_000))
        #expect(result.state?["window"] == .dateRange(lower: 754_000_000, upper: 1_732_803_600))
    }

    /// A string enum value with escapes, or for raw values that are not plain ASCII, is
    /// compared as the full decoder compares it (unescaped, and as `String`s, so a canonically
    /// equivalent spelling matches) and decided on the tape: the value, the fallback (worded with
    /// the value unescaped), or, without a fallback, the field's default; an element of an array
    /// without a fallback makes the array take its default, and one with a fallback takes it,
    /// worded with its index, for a strict version too. The full decoder still decides an array
    /// in an array, and an array with a fallback taken that is invalid as well. Each result is
    /// the reference decode's.
    @Test func enumValuesAreDecidedOnTheTape() throws {
        let schema = try SchemaLoader().load(yaml: Array("""
            activity: drinks
            clients:
              strict: [2]
            versions:
              - version: 1
                content-state:
                  drink: { type: enum, values: [café, thé], default: thé, fallback: thé }
                  size: { type: enum, values: [small, large], default: small }
                  mode: { type: enum, values: [a, b], default: a, fallback: b }
                  sizes: { type: array, default: [], items: { type: enum, values: [small, large] } }
                  modes: { type: array, default: [], items: { type: enum, values: [a, b], fallback: b } }
                  ranks: { type: array, default: [], max-items: 2, items: { type: enum, values: [1, 2], fallback: 1 } }
                  grid: { type: array, default: [], items: { type: array, items: { type: enum, values: [a], fallback: a } } }
                  legs:
                    type: array
                    default: []
                    items:
                      type: object
                      fields:
                        modes: { type: array, default: [], items: { type: enum, values: [a, b], fallback: b } }
              - version: 2
                content-state:
                  drink: { type: enum, values: [café, thé], default: thé }
                  modes: { type: array, default: [], items: { type: enum, values: [a, b], fallback: b } }
            """.utf8), file: "drinks.yaml")
        let decoders = [try ContentStateDecoder(schema: schema, version: 1), try ContentStateDecoder(schema: schema, version: 2)]
        let cases: [(json: String, version: Int, fallbacks: Int, defaults: Int, decided: Int)] = [
            (#"{"drink":"café","size":"large"}"#, 1, 0, 0, 0),
            (#"{"drink":"caf\u00e9","size":"l\u0061rge","mode":"\u0062"}"#, 1, 0, 0, 0),
            // Decomposed: the same `String` as the precomposed raw value.
            (#"{"drink":"cafe\u0301"}"#, 1, 0, 0, 0),
            ("{\"drink\":\"cafe\u{301}\"}", 1, 0, 0, 0),
            (#"{"drink":"d\u00e9j\u00e0","mode":"\u0063"}"#, 1, 2, 0, 0),
            (#"{"drink":"cafe","mode":"c\n"}"#, 1, 2, 0, 0),
            (#"{"size":"l\u0061rg"}"#, 1, 0, 1, 0),
            (#"{"sizes":["small","l\u0061rge"],"modes":["\u0061"]}"#, 1, 0, 0, 0),
            (#"{"sizes":["small","medium","large"]}"#, 1, 0, 1, 0),
            (#"{"sizes":["sm\u0061ll","medi\u0075m"]}"#, 1, 0, 1, 0),
            // An array's elements that take the items' fallback, worded after the elements.
            (#"{"modes":["a","c"]}"#, 1, 1, 0, 0),
            (#"{"modes":["c","a","\u0064"],"sizes":["x"]}"#, 1, 2, 1, 0),
            (#"{"ranks":[7, 2]}"#, 1, 1, 0, 0),
            (#"{"legs":[{},{"modes":["a","z"]}]}"#, 1, 1, 0, 0),
            // A strict version's field or element takes its fallback (a field without one, its
            // default) on the tape, the full decoder asked only why `Codable` fails.
            (#"{"modes":["c"]}"#, 2, 1, 0, 0),
            (#"{"modes":["a","c","\u0064"]}"#, 2, 2, 0, 0),
            // An array with a fallback taken and an element of another type, or too many
            // elements: the fallback's finding, then the field's default.
            (#"{"ranks":[7,"x"]}"#, 1, 1, 1, 0),
            (#"{"ranks":[7,1,2]}"#, 1, 1, 1, 0),
            // What the full decoder decides: in an array of arrays.
            (#"{"grid":[["a"],["b"]]}"#, 1, 0, 0, 1),
            (#"{"drink":"caf\u00e9"}"#, 2, 0, 0, 0),
            (#"{"drink":"cafe"}"#, 2, 0, 1, 0),
        ]
        for (json, version, fallbacks, defaults, decided) in cases {
            let kinds = try Self.kindsOnTape(decoders[version - 1], json)
            #expect(kinds.count { $0 == .fallbackTaken || $0 == .elementFallbackTaken } == fallbacks, "\(json)")
            #expect(kinds.count { $0 == .defaultTaken } == defaults, "\(json)")
            #expect(kinds.count { $0 == .reported } == decided, "\(json)")
        }
        // The words, with the value unescaped, and the state.
        let result = decoders[0].decode(
            contentState: Array(#"{"drink":"d\u00e9j\u00e0","size":"l\u0061rg","mode":"cafe\u0301","sizes":["x"]}"#.utf8),
            file: "p.json")
        #expect(result.diagnostics.filter { $0.code != "defaulted" }.map(\.description) == [
            #"p.json:1:10: warning: "déjà" is not one of ["café", "thé"]; it takes the fallback "thé" (at /drink) [unknown-enum-value]"#,
            #"p.json:1:34: warning: "larg" is not one of ["small", "large"]; 'size' takes its default "small" (at /size) [invalid-defaulted]"#,
            #"p.json:1:53: warning: "café" is not one of ["a", "b"]; it takes the fallback "b" (at /mode) [unknown-enum-value]"#,
            #"p.json:1:75: warning: at /sizes/0: "x" is not one of ["small", "large"]; 'sizes' takes its default [] (at /sizes) [invalid-defaulted]"#,
        ])
        #expect(result.state?["drink"] == .string("thé"))
        let elements = decoders[0].decode(
            contentState: Array(#"{"modes":["c","a"],"legs":[{"modes":["\u0064"]}],"ranks":[ 7 ]}"#.utf8), file: "p.json")
        #expect(elements.diagnostics.filter { $0.code != "defaulted" }.map(\.description) == [
            #"p.json:1:11: warning: "c" is not one of ["a", "b"]; it takes the fallback "b" (at /modes/0) [unknown-enum-value]"#,
            #"p.json:1:38: warning: "d" is not one of ["a", "b"]; it takes the fallback "b" (at /legs/0/modes/0) [unknown-enum-value]"#,
            "p.json:1:60: warning: 7 is not one of [1, 2]; it takes the fallback 1 (at /ranks/0) [unknown-enum-value]",
        ])
        #expect(elements.state?["modes"] == .array([.string("b"), .string("a")]))
        #expect(elements.state?["ranks"] == .array([.int(1)]))
        #expect(decoders[0].decode(contentState: Array(#"{"drink":"cafe\u0301"}"#.utf8)).state?["drink"] == .string("café"))
    }

    /// A root field's value that is invalid (of another type, or one a rule refuses) where the
    /// field takes no default (`on-invalid: reject`, or a required field) rejects the payload on
    /// the tape, worded when read as the full decoder's `settle` words it, with the findings
    /// after it still made, for a strict version too. In a nested object, such a value makes the
    /// object invalid on the tape, and the field that holds it settles it as the full decoder does.
    /// Each result is the reference decode's.
    @Test func invalidValuesOfRootFieldsWithoutADefaultRejectOnTheTape() throws {
        let schema = try SchemaLoader().load(yaml: Array("""
            activity: orders
            clients:
              strict: [2]
            versions:
              - version: 1
                content-state:
                  title: { type: string, max-length: 4 }
                  code: { type: string, default: "", max-length: 2, on-invalid: reject }
                  tags: { type: array, items: { type: int, maximum: 9 } }
                  card: { type: object, fields: { n: { type: int } } }
                  box: { type: object, default: { n: 0 }, fields: { n: { type: int, maximum: 5 }, s: { type: string, default: "", on-invalid: reject } } }
                  rows: { type: array, default: [], items: { type: object, fields: { k: { type: int } } } }
              - version: 2
                content-state:
                  title: { type: string }
                  box: { type: object, default: { n: 0 }, fields: { n: { type: int, maximum: 5 } } }
            """.utf8), file: "orders.yaml")
        let decoders = [try ContentStateDecoder(schema: schema, version: 1), try ContentStateDecoder(schema: schema, version: 2)]
        let cases: [(json: String, version: Int, rejected: Int, decided: Int)] = [
            (#"{"title":5,"tags":[],"card":{"n":1}}"#, 1, 1, 0),
            (#"{"title":"toolong","tags":[1,10],"card":{"n":1},"x":1}"#, 1, 2, 0),
            (#"{"title":"t","code":"abc","tags":[1],"card":{"n":1}}"#, 1, 1, 0),
            (#"{"title":null,"code":[],"tags":[1,"2"],"card":{"n":1}}"#, 1, 3, 0),
            (#"{"title":"t","tags":[1],"card":{"n":1},"title":5}"#, 1, 0, 0),
            // A strict version too, with why `Codable` fails.
            (#"{"title":5}"#, 2, 1, 0),
            // A nested object's field makes the object invalid on the tape, and the field that
            // holds the object settles it by the full decoder's rule (`settle`, whose finding is
            // the one `reported` node): the root rejected, or the field's default.
            (#"{"title":"t","tags":[1],"card":{"n":"x"}}"#, 1, 0, 1),
            (#"{"title":"t","tags":[1],"card":{"n":1},"box":{"n":9}}"#, 1, 0, 1),
            (#"{"title":"t","tags":[1],"card":{"n":1},"box":{"n":1,"s":7,"s":"x"}}"#, 1, 0, 1),
            (#"{"title":"t","tags":[1],"card":{"n":1},"box":{"n":null,"n":1,"s":[]}}"#, 1, 0, 1),
            (#"{"title":"t","tags":[1],"card":{"n":1},"rows":[{"k":1},{"k":"x"},{"k":2.5}]}"#, 1, 0, 1),
            (#"{"title":"t","tags":[1],"card":{"n":true},"box":{"n":6}}"#, 1, 0, 2),
            // A strict version: `Codable` takes a value only the schema's maximum refuses, and
            // fails on one of another type.
            (#"{"title":"t","box":{"n":9}}"#, 2, 0, 1),
            (#"{"title":"t","box":{"n":"x"}}"#, 2, 0, 1),
        ]
        for (json, version, rejected, decided) in cases {
            let kinds = try Self.kindsOnTape(decoders[version - 1], json)
            #expect(kinds.count { $0 == .rejected } == rejected, "\(json)")
            #expect(kinds.count { $0 == .reported } == decided, "\(json)")
        }
        // The words, where they point, and the verdict; a start's words name its consequence.
        let result = decoders[0].decode(
            contentState: Array(#"{"title":"toolong","code":7,"tags":[1,10],"card":{"n":1}}"#.utf8), file: "p.json")
        #expect(result.state == nil)
        #expect(result.diagnostics.map(\.description) == [
            "p.json:1:10: error: 7 bytes is longer than max-length 4; 'title' has no default, so the app drops this update (at /title) [out-of-range]",
            "p.json:1:27: error: expected a string, found a number; 'code' rejects invalid values, so the app drops this update (at /code) [wrong-type]",
            "p.json:1:39: error: at /tags/1: 10 is greater than maximum 9; 'tags' has no default, so the app drops this update (at /tags) [out-of-range]",
            #"p.json:1:1: info: key 'box' is missing; it takes its default {"n":0,"s":""} (at /box) [defaulted]"#,
            "p.json:1:1: info: key 'rows' is missing; it takes its default [] (at /rows) [defaulted]",
        ])
        let nested = decoders[0].decode(
            contentState: Array(#"{"title":"t","tags":[1],"card":{"n":1},"box":{"n":1,"s":7}}"#.utf8), file: "p.json")
        #expect(nested.state?["box"] == .object([.init("n", .int(0)), .init("s", .string(""))]))
        #expect(nested.diagnostics.map(\.description).contains(
            #"p.json:1:57: warning: at /box/s: expected a string, found a number; 'box' takes its default {"n":0,"s":""} (at /box) [invalid-defaulted]"#),
            "\(nested.diagnostics)")
        let strictNested = decoders[1].decode(contentState: Array(#"{"title":"t","box":{"n":"x"}}"#.utf8))
        #expect(!strictNested.appDecodes)
        #expect(strictNested.strictFailure?.pointer == "/box/n")
        #expect(decoders[1].decode(contentState: Array(#"{"title":"t","box":{"n":9}}"#.utf8)).appDecodes)
        let strict = decoders[1].decode(contentState: Array(#"{"title":5}"#.utf8))
        #expect(strict.strictFailure?.pointer == "/title")
        #expect(strict.strictFailure?.message.contains("expected a string, found a number") == true, "\(String(describing: strict.strictFailure))")
        let validator = try PayloadValidator(schema: schema, version: 1)
        let start = Array(#"{"aps":{"timestamp":1,"event":"start","attributes-type":"A","attributes":{},"alert":{"title":"a","body":"b"},"content-state":{"title":5,"tags":[],"card":{"n":1}}}}"#.utf8)
        _ = ValidatorOnePassTests.expectSame(validator, start, "start")
        #expect(validator.validate(start).diagnostics.map(\.message).contains(
            "expected a string, found a number; 'title' has no default, so the activity does not start"))
    }

    /// `on-null: default` (an app's `decodeIfPresent … ?? default`): a `null` takes the field's
    /// default, as a missing key does, with a `defaulted` finding at the `null` (not the
    /// `invalid-defaulted` warning of a field without it), under an alias and in a nested
    /// object too, decided on the tape; any other invalid value keeps its `on-invalid`. A strict
    /// version still drops the update: synthesized `Codable` has no such rule (the full decoder
    /// says why). Each result is the reference decode's (`expectSame`), and a `Decodable` type
    /// reads the default.
    @Test func nullTakesTheDefaultWithOnNull() throws {
        let schema = try SchemaLoader().load(yaml: Array("""
            activity: score
            clients:
              strict: [2]
            versions:
              - version: 1
                content-state:
                  home: { type: int, default: 0, on-invalid: reject, on-null: default }
                  period: { type: string, default: "1st", on-null: default }
                  minutes: { type: int, default: 30, on-null: default, aliases: [mins] }
                  note: { type: string, default: "-" }
                  score: { type: object, default: { points: 0 }, fields: { points: { type: int, default: 0, on-null: default } } }
              - version: 2
                content-state:
                  home: { type: int, default: 0, on-null: default }
            """.utf8), file: "score.yaml")
        let decoders = [try ContentStateDecoder(schema: schema, version: 1), try ContentStateDecoder(schema: schema, version: 2)]
        let cases: [(json: String, version: Int, onTape: Int, findings: [String])] = [
            (#"{"home":null,"period":null,"score":{"points":null}}"#, 1, 3, [
                "p.json:1:9: info: 'home' is null; it takes its default 0 (at /home) [defaulted]",
                "p.json:1:23: info: 'period' is null; it takes its default \"1st\" (at /period) [defaulted]",
                "p.json:1:46: info: 'points' is null; it takes its default 0 (at /score/points) [defaulted]",
                "p.json:1:1: info: key 'minutes' is missing; it takes its default 30 (at /minutes) [defaulted]",
                "p.json:1:1: info: key 'note' is missing; it takes its default \"-\" (at /note) [defaulted]",
            ]),
            (#"{"mins":null,"note":null,"home":1,"period":"2nd","score":{"points":3}}"#, 1, 1, [
                "p.json:1:9: info: 'minutes' is null; it takes its default 30 (at /minutes) [defaulted]",
                "p.json:1:21: warning: null is not a string; 'note' takes its default \"-\" (at /note) [invalid-defaulted]",
            ]),
            (#"{"home":null,"home":4,"period":"2nd","minutes":1,"note":"n","score":{"points":3}}"#, 1, 1, [
                "p.json:1:9: info: 'home' is null; it takes its default 0 (at /home) [defaulted]",
                "p.json:1:14: warning: key 'home' appears again; the first value is read, as JSONDecoder keeps it (JSONSerialization keeps the last; which one the device keeps is not documented) (at /home) [duplicate-key]",
            ]),
            // A later value this version would not read as sent is named in the warning.
            (#"{"home":4,"home":"x","period":"2nd","minutes":1,"note":"n","score":{"points":3}}"#, 1, 0, [
                "p.json:1:11: warning: key 'home' appears again, with a value this app version does not read as sent (expected an integer, found a string); the first value is read, as JSONDecoder keeps it (JSONSerialization keeps the last; which one the device keeps is not documented) (at /home) [duplicate-key]",
            ]),
            (#"{"home":"x","period":"2nd","minutes":1,"note":"n","score":{"points":3}}"#, 1, 0, [
                "p.json:1:9: error: expected an integer, found a string; 'home' rejects invalid values, so the app drops this update (at /home) [wrong-type]",
            ]),
            // An alias's null, replaced by the field's own key, is still reported, as the full
            // decoder reports what it read; the own key's null wins over an alias's value.
            (#"{"mins":null,"minutes":5,"home":1,"period":"2nd","note":"n","score":{"points":3}}"#, 1, 1, [
                "p.json:1:9: info: 'minutes' is null; it takes its default 30 (at /minutes) [defaulted]",
            ]),
            (#"{"minutes":null,"mins":5,"home":1,"period":"2nd","note":"n","score":{"points":3}}"#, 1, 1, [
                "p.json:1:12: info: 'minutes' is null; it takes its default 30 (at /minutes) [defaulted]",
            ]),
            (#"{"home":null}"#, 2, 1, ["p.json:1:9: info: 'home' is null; it takes its default 0 (at /home) [defaulted]"]),
        ]
        for (json, version, onTape, findings) in cases {
            let decoder = decoders[version - 1]
            let kinds = try Self.kindsOnTape(decoder, json)
            #expect(kinds.count { $0 == .nullDefaulted } == onTape, "\(json)")
            // The strict version's null too: the full decoder is asked only why `Codable` fails.
            #expect(!kinds.contains(.reported), "\(json)")
            let result = decoder.decode(contentState: Array(json.utf8), file: "p.json")
            #expect(result.diagnostics.map(\.description) == findings, "\(json)")
        }
        let first = decoders[0].decode(contentState: Array(#"{"home":null,"period":null,"score":{"points":null}}"#.utf8))
        #expect(first.appDecodes)
        #expect(first.state?["home"] == .int(0))
        #expect(first.state?["period"] == .string("1st"))
        #expect(first.state?["score"] == .object([.init("points", .int(0))]))
        #expect(decoders[0].decode(contentState: Array(#"{"mins":null}"#.utf8)).state?["minutes"] == .int(30))
        // A type that holds no optional reads the defaults.
        struct Score: Decodable, Equatable { var home: Int; var period: String }
        #expect(try decoders[0].decode(contentState: Array(#"{"home":null,"period":null}"#.utf8)).decode(Score.self) == Score(home: 0, period: "1st"))
        // Synthesized `Codable` fails on the null: the strict version drops the update.
        let strict = decoders[1].decode(contentState: Array(#"{"home":null}"#.utf8))
        #expect(!strict.appDecodes)
        #expect(strict.strictFailure?.pointer == "/home")
        #expect(strict.strictFailure?.message.hasPrefix("null is not an integer; the app decodes with synthesized Codable") == true, "\(String(describing: strict.strictFailure))")
    }

    /// The `tightened` schema's version 1 as an app declares it.
    struct Tightened: Decodable, Equatable {
        struct Courier: Decodable, Equatable { var name: String }
        var title: String
        var eta: Int
        var small: Int8
        var ratio: Double
        var name: String
        var link: URL
        var mode: String
        var note: String?
        var courier: Courier
        var tags: [String]
        var rating: Int
        var level: Int
        var window: ClosedRange<Date>
        var scores: [Int]
        var stamps: [Date]
    }

    /// Objects, arrays of objects and arrays of arrays, valid or not, are read on the tape,
    /// aliases and a strict version's verdict included: the full decoder's object walk never
    /// runs for them, and the result is the full decode's, findings, positions and pointers
    /// included.
    @Test func objectsAndArraysOfObjectsAreReadOnTheTape() throws {
        let schema = try SchemaLoader().load(yaml: Array(Self.nesting.utf8), file: "nest.yaml")
        let decoder = try ContentStateDecoder(schema: schema, version: 1)
        let cases: [(json: String, codes: [String], accepted: Bool)] = [
            (#"{"title":"t","card":{"name":"n","inner":{"id":1}},"lines":[{"sku":"a"},{"sku":"b","qty":2,"tags":["x"],"box":{"w":1}}]}"#,
             [], true),
            (#"{"title":"t","lines":[],"maybe":[{"a":1},{}]}"#, [], true),
            (#" { "title" : "t" , "lines" : [ { "sku" : "a" } , { "sku" : "b" } ] } "#, [], true),
            // Findings inside elements, worded with the element's pointer.
            (#"{"title":"t","lines":[{"sku":"a","x":1},{"sku":"b","y":2,"y":3}]}"#, ["unknown-key", "unknown-key", "duplicate-key"], true),
            (#"{"title":"t","lines":[{"sku":"a","qty":0}]}"#, ["invalid-defaulted"], true),
            // A required key missing inside: the field that holds the object settles it.
            (#"{"title":"t","card":{"count":1}}"#, ["invalid-defaulted"], true),
            (#"{"title":"t","card":{"name":"n","inner":{}}}"#, ["invalid-defaulted"], true),
            (#"{"title":"t","card":{"name":"n","count":10,"z":1}}"#, ["invalid-defaulted", "unknown-key"], true),
            (#"{"title":"t","pinned":{}}"#, ["missing-required-key"], false),
            (#"{"title":"t","pinned":{"name":5},"q":1}"#, ["wrong-type", "unknown-key"], false),
            // An invalid element, an element that is not an object, too many: the array is
            // invalid, and takes its default; elements after an invalid one are still read.
            (#"{"title":"t","lines":[{"sku":"toolongsku"},{"sku":"b","w":1}]}"#, ["unknown-key", "invalid-defaulted"], true),
            (#"{"title":"t","lines":[{"sku":"a"},"b",null]}"#, ["invalid-defaulted"], true),
            (#"{"title":"t","lines":[{"sku":"a"},{"sku":"b"},{"sku":"c"},{"sku":"d"}]}"#, ["invalid-defaulted"], true),
            (#"{"title":"t","lines":[{"box":{}}]}"#, ["invalid-defaulted", "invalid-defaulted"], true),
            (#"{"title":"t","maybe":[{"a":"x"},{"b":1}]}"#, ["invalid-defaulted", "unknown-key"], true),
            (#"{"card":{"name":1},"lines":[{}]}"#, ["invalid-defaulted", "invalid-defaulted", "missing-required-key"], false),
            // Aliases: the better alias and the field's own name replace a value, valid or not;
            // an invalid value under an alias is settled when its object ends.
            (#"{"title":"t","name2":"b","tag":"a"}"#, [], true),
            (#"{"title":"t","tag":"a","name2":"b","tag":"c"}"#, [], true),
            (#"{"title":"t","tag":"toolong","name2":"b","x":1}"#, ["unknown-key", "invalid-defaulted"], true),
            (#"{"title":"t","name2":"toolong","tag":"a"}"#, [], true),
            (#"{"title":"t","tag":"toolong","label":"ok","tag":"x"}"#, [], true),
            (#"{"title":"t","label":"toolong","tag":"ok"}"#, ["invalid-defaulted"], true),
            (#"{"title":"t","card":{"name":"x","n":99,"y":1}}"#, ["unknown-key", "invalid-defaulted"], true),
            (#"{"title":"t","card":{"n":{"a":1},"name":"x"}}"#, ["invalid-defaulted"], true),
            (#"{"title":"t","lines":[{"code":"a"},{"code":5},{"code":"c","sku":"d"}]}"#, ["invalid-defaulted"], true),
            (#"{"title":"t","lines":[{"code":5,"sku":"b"}],"tag":[1]}"#, ["invalid-defaulted"], true),
            // Arrays of arrays of objects, and of scalars.
            (#"{"title":"t","grid":[[{"v":1}],[],[{"v":2},{"v":3,"w":4}]]}"#, ["unknown-key"], true),
            (#"{"title":"t","grid":[[{"v":1}],[{"v":"x"}],[{"w":4}]]}"#, ["unknown-key", "invalid-defaulted"], true),
            (#"{"title":"t","grid":[[{"v":1}],{"v":2},null,[[]]]}"#, ["invalid-defaulted"], true),
            (#"{"title":"t","grid":[[{"v":1}]],"pairs":[[1,2],[3],[4,"x"],[]]}"#, ["invalid-defaulted"], true),
            (#"{"title":"t","pairs":[[1,2],[3,4,5,6]]}"#, ["invalid-defaulted"], true),
            (#"{"title":"t","pairs":[[1,2],[3]],"spans":[[1,2],[5,3]]}"#, ["invalid-defaulted"], true),
            (#"{"title":"t","spans":[[1,2],[3,4]]}"#, [], true),
        ]
        for (json, codes, accepted) in cases {
            let bytes = Array(json.utf8)
            let ((tape, decoded), walks) = ObjectWalks.counting {
                (bytes.withUnsafeBytes { decoder.tape(of: $0, keepingInput: false, file: nil, body: false) },
                 decoder.decode(contentState: bytes, file: "p.json"))
            }
            #expect(tape != nil, "\(json)")
            #expect(walks == 0, "\(json)")
            _ = Self.expectSame(decoder, bytes, json)
            #expect(decoded.appDecodes == accepted, "\(json)")
            #expect(decoded.diagnostics.map(\.code.rawValue).filter { $0 != "defaulted" } == codes, "\(json)")
            TapeDecoderTests.all(decoder, bytes)
        }
        // The cases cut, spliced and flipped: the same result either way.
        var random = SplitMix64(state: 0x0B1EC7)
        let tokens: [[UInt8]] = [
            "{", "}", "[", "]", ",", "null", "1", "\"", "{}", "[{}]", "\"sku\":", "\"name\":", "\"x\":", "\"tag\":", "\"name2\":",
            "\"code\":", "\"n\":", "\"label\":", "\"toolong\"",
        ].map { Array($0.utf8) }
        _ = random.rounds(2_000, mutating: cases.map { Array($0.json.utf8) }, tokens: tokens, subjects: [decoder]) { bytes, decoder in
            Self.expectSame(decoder, bytes, "nest")
        }
        // The same under a strict app version: the verdict is found on the tape too, nested
        // objects, elements and aliases included.
        let strictSchema = try SchemaLoader().load(
            yaml: Array(Self.nesting.replacingOccurrences(of: "activity: nest\n", with: "activity: nest\nclients:\n  strict: [1]\n").utf8),
            file: "nest.yaml")
        let strict = try ContentStateDecoder(schema: strictSchema, version: 1)
        #expect(strict.isStrict)
        var failures = 0
        for (json, _, _) in cases {
            let bytes = Array(json.utf8)
            let (tape, walks) = ObjectWalks.counting {
                bytes.withUnsafeBytes { strict.tape(of: $0, keepingInput: false, file: nil, body: false) }
            }
            #expect(tape != nil && walks == 0, "strict \(json)")
            _ = Self.expectSame(strict, bytes, "strict")
            if strict.decode(contentState: bytes).strictFailure != nil { failures += 1 }
        }
        #expect(failures > 10)
        _ = random.rounds(1_000, mutating: cases.map { Array($0.json.utf8) }, tokens: tokens, subjects: [strict]) { bytes, decoder in
            Self.expectSame(decoder, bytes, "strict nest")
        }
        // Thousands of elements with findings, on lines of their own: the tape and the full
        // decode agree, and neither counts lines from the start for each finding.
        let many = Array(("{\"title\":\"t\",\"lines\":[" + Array(repeating: "{\"sku\":\"a\",\n\"qty\":0}", count: 5_000)
            .joined(separator: ",\n") + "]}").utf8)
        _ = Self.expectSame(decoder, many, "many")
        #expect(decoder.decode(contentState: many).diagnostics.count == 10_005)
        // Bytes that are not JSON are left to the full decode, whose object walk the counter
        // counts, as it counts the full decode's walks anywhere.
        let broken = Array(#"{"title":"t","card":{"name":"n"},"lines":[}"#.utf8)
        #expect(broken.withUnsafeBytes { decoder.tape(of: $0, keepingInput: false, file: nil, body: false) } == nil)
        _ = Self.expectSame(decoder, broken, "broken")
        let (_, walks) = ObjectWalks.counting { decoder.decodeInFull(contentState: Array(#"{"title":"t","card":{"name":"n"}}"#.utf8)) }
        #expect(walks == 2)
        // Pointers and positions inside elements.
        let decoded = decoder.decode(contentState: Array(#"{"title":"t","lines":[{"sku":"a","tags":[]},{"x":1,"sku":5,"tags":[]}]}"#.utf8))
        let findings = decoded.diagnostics.filter { $0.code != "defaulted" }
        #expect(findings.map(\.pointer) == ["/lines/1/x", "/lines"])
        #expect(findings.last?.message == "at /lines/1/sku: expected a string, found a number; 'lines' takes its default []")
        #expect(findings.map { $0.position?.column } == [46, 58])
    }

    /// An object of more than 64 fields is read on the tape, its fields seen in a `FieldSet`
    /// rather than one word: defaults, required keys, aliases, repeats and the strict verdict
    /// past the 64th field, nested and at the root.
    @Test func objectsOfMoreThan64FieldsAreReadOnTheTape() throws {
        func fields(_ indent: String) -> String {
            (0..<70).map { index in
                switch index {
                case 66: "\(indent)f66: { type: int }"
                case 67: "\(indent)f67: { type: string, default: \"\", max-length: 3, aliases: [old67] }"
                case 68: "\(indent)f68: { type: int, optional: true }"
                default: "\(indent)f\(index): { type: int, default: \(index) }"
                }
            }.joined(separator: "\n")
        }
        let yaml = """
            activity: wide
            versions:
              - version: 1
                content-state:
            \(fields("      "))
                  inner:
                    type: object
                    default: { f66: 0 }
                    fields:
            \(fields("          "))
            """
        let schema = try SchemaLoader().load(yaml: Array(yaml.utf8), file: "wide.yaml")
        let strictSchema = try SchemaLoader().load(
            yaml: Array(yaml.replacingOccurrences(of: "activity: wide\n", with: "activity: wide\nclients:\n  strict: [1]\n").utf8),
            file: "wide.yaml")
        let inputs = [
            #"{"f66":1}"#, #"{"f66":1,"f0":2,"f69":3,"f65":4,"x":5}"#, #"{"f0":1}"#, #"{"f66":1,"f66":2,"f67":"ab"}"#,
            #"{"f66":1,"old67":"ab"}"#, #"{"f66":1,"old67":"toolong","f65":"x"}"#, #"{"old67":"a","f66":1,"f67":"b"}"#,
            #"{"f66":1,"inner":{"f66":2,"f68":null,"f64":64}}"#, #"{"f66":1,"inner":{"f65":1}}"#, #"{"f66":1,"inner":{"f66":"x"}}"#,
            #"{"f66":1,"inner":{"f66":1,"old67":"ab"}}"#, #"{"f66":1,"f68":null,"f1":1}"#,
        ]
        for decoder in [try ContentStateDecoder(schema: schema, version: 1), try ContentStateDecoder(schema: strictSchema, version: 1)] {
            for json in inputs {
                let bytes = Array(json.utf8)
                let (tape, walks) = ObjectWalks.counting {
                    bytes.withUnsafeBytes { decoder.tape(of: $0, keepingInput: false, file: nil, body: false) }
                }
                #expect(tape != nil && walks == 0, "\(json)")
                _ = Self.expectSame(decoder, bytes, json)
            }
        }
        let decoder = try ContentStateDecoder(schema: schema, version: 1)
        #expect(decoder.decode(contentState: Array(#"{"f66":1,"f69":3,"old67":"ab"}"#.utf8))["f69"] == .int(3))
        let missing = decoder.decode(contentState: Array(#"{"f0":1}"#.utf8)).diagnostics.filter { $0.code == "missing-required-key" }
        #expect(missing.map(\.pointer) == ["/f66"])
    }

    /// Escaped keys, and keys in another Unicode normalization than a non-ASCII schema's
    /// names, are matched on the tape as the full decoder matches them: known, aliases,
    /// unknown, repeated in another spelling, and in a body's envelope.
    @Test func escapedAndNonASCIIKeysAreMatchedOnTheTape() throws {
        let delivery = try ContentStateDecoder(schema: try Examples.schema("delivery"), version: 3)
        let accents = try SchemaLoader().load(yaml: Array("""
            activity: accents
            versions:
              - version: 1
                content-state:
                  caf\u{E9}: { type: string, default: "" }
                  na\u{EF}ve: { type: int, default: 0, aliases: [cr\u{E8}me] }
            """.utf8), file: "accents.yaml")
        let accented = try ContentStateDecoder(schema: accents, version: 1)
        let cases: [(decoder: ContentStateDecoder, json: String, codes: [String])] = [
            (delivery, #"{"\u0074itle":"t","\u006cogo":"x","cour\u0069er":{"n\u0061me":"n"}}"#, []),
            (delivery, #"{"title":"t","\u0074itle":"u"}"#, ["duplicate-key"]),
            (delivery, #"{"title":"t","x":1,"\u0078":2,"y\n":3,"y\u000a":4}"#, ["unknown-key", "duplicate-key", "unknown-key", "duplicate-key"]),
            (delivery, #"{"title":"t","sub\u0054itle":"s"}"#, []),
            (delivery, #"{"title":"t","courier":{"\u00e9":1}}"#, ["unknown-key"]),
            // NFC names, given NFC, NFD and escaped; an alias in NFD.
            (accented, #"{"caf\#u{E9}":"a","nai\#u{308}ve":1}"#, []),
            (accented, #"{"cafe\#u{301}":"a","cre\#u{300}me":2}"#, []),
            (accented, #"{"caf\u00e9":"a","caf\#u{E9}":"b","cafe\#u{301}":"c"}"#, ["duplicate-key", "duplicate-key"]),
            (accented, #"{"cafe":"a","caf\u00e9s":1}"#, ["unknown-key", "unknown-key"]),
        ]
        for (decoder, json, codes) in cases {
            let bytes = Array(json.utf8)
            #expect(bytes.withUnsafeBytes { decoder.tape(of: $0, keepingInput: false, file: nil, body: false) } != nil, "\(json)")
            #expect(Self.expectSame(decoder, bytes, json), "\(json)")
            #expect(decoder.decode(contentState: bytes).diagnostics.map(\.code.rawValue).filter { $0 != "defaulted" } == codes, "\(json)")
        }
        let names = decoder(delivery, #"{"title":"t","x\u00e9":1,"y\"z":2}"#).diagnostics.filter { $0.code == "unknown-key" }.compactMap(\.pointer)
        #expect(names == ["/x\u{E9}", "/y\"z"])
        // In a body: escaped `aps` and `content-state` keys, and escaped keys in the budget's spans.
        let validator = try PayloadValidator(schema: try Examples.schema("delivery"), version: 3)
        for body in [
            #"{"\u0061ps":{"content-st\u0061te":{"title":"t","\u006eote":"n"},"event":"update","timestamp":1}}"#,
            #"{"aps":{"content-state":{"title":"t","\u0078":"n"},"event":"update","timestamp":1},"\u0061ps":1}"#,
        ] {
            let bytes = Array(body.utf8)
            #expect(Self.appliedOnTape(delivery.decode(payload: bytes)), "\(body)")
            #expect(delivery.decode(payload: bytes) == delivery.decodeInFull(payload: bytes), "\(body)")
            #expect(ValidatorOnePassTests.expectSame(validator, bytes, body), "\(body)")
        }

        func decoder(_ decoder: ContentStateDecoder, _ json: String) -> DecodeResult {
            decoder.decode(contentState: Array(json.utf8))
        }
    }

    /// Each seed state cut, spliced and flipped a few thousand ways with a fixed seed.
    @Test func mutatedPayloadsGiveTheFullResult() throws {
        let seeds = try Self.contentStates()
        let decoders = try Self.decoders()
        var random = SplitMix64(state: 0x5EED)
        let tokens: [[UInt8]] = [
            "\"", "\\", "{", "}", "[", "]", ",", ":", "null", "true", "1", "-", "0.5", "1e3", "\\u00e9", "\\ud800", " ",
            "\"x\":", "\"title\":", "\"items\":[", "\u{00E9}", "\u{1F600}",
        ].map { Array($0.utf8) }
        let deferred = random.rounds(3_000, mutating: seeds, tokens: tokens, subjects: decoders) { bytes, subject in
            Self.expectSame(subject.decoder, bytes, subject.name)
        }
        #expect(deferred > 100)
    }

    /// The fuzzers' schema with every rule a field can carry (`Fuzz/Schemas/rules.yaml`): its
    /// seeds and mutations of them give the full decode's result through the tape, under both
    /// versions (the second strict), whichever rule each value keeps or breaks.
    @Test func everyRuleGivesTheFullResultUnderMutation() throws {
        let fuzz = Examples.root.appendingPathComponent("Fuzz")
        let schema = try SchemaLoader().load(contentsOf: fuzz.appendingPathComponent("Schemas/rules.yaml").path)
        let decoders = try [1, 2].map { (version: Int) in (name: "rules v\(version)", decoder: try ContentStateDecoder(schema: schema, version: version)) }
        let corpus = fuzz.appendingPathComponent("Corpus/FuzzDecode")
        // A seed is a selector byte, then the content-state.
        let seeds = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasPrefix("rules-v1-") }.sorted()
            .map { Array(try Data(contentsOf: corpus.appendingPathComponent($0)).dropFirst()) }
        #expect(seeds.count == 8)
        for seed in seeds {
            for subject in decoders { _ = Self.expectSame(subject.decoder, seed, subject.name) }
        }
        var random = SplitMix64(state: 0x2B1E5)
        let tokens: [[UInt8]] = [
            "\"", "{", "}", "[", "]", ",", ":", "null", "true", "-1", "128", "70000", "1e39", "0.5", "2000000001", "\"https://x.com/a b\"",
            "\"toolong\"", "\"\"", "\"c\"", "7", "\"minutes\":", "\"label\":", "\"status\":", "\"nick\":", "\u{00E9}",
            // The number formats' own rules: past Int.max, a Float's and a Decimal's edges.
            "\"big\":", "\"price\":", "\"scale\":", "18446744073709551615", "9223372036854775807.0", "1e-50", "0e1", "1e128", "3.4028235e+38",
            // The string formats': a UUID, one digit short, base64 and base64 without its padding.
            "\"ticket\":", "\"proof\":", "\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\"", "\"e621e1f8-c36c-495a-93fc-0c247a3e6e5\"", "\"aGk=\"", "\"aGk\"",
        ].map { Array($0.utf8) }
        let deferred = random.rounds(2_000, mutating: seeds, tokens: tokens, subjects: decoders) { bytes, subject in
            Self.expectSame(subject.decoder, bytes, subject.name)
        }
        #expect(deferred > 50)
    }
}

extension SplitMix64 {
    /// How many of `count` rounds `check` passes: each round mutates a seed picked at random
    /// and checks it against a subject picked at random.
    mutating func rounds<Subject>(
        _ count: Int, mutating seeds: [[UInt8]], tokens: [[UInt8]], subjects: [Subject], _ check: ([UInt8], Subject) -> Bool
    ) -> Int {
        var passed = 0
        for _ in 0..<count {
            let bytes = mutate(seeds[Int(next() % UInt64(seeds.count))], tokens: tokens)
            if check(bytes, subjects[Int(next() % UInt64(subjects.count))]) { passed += 1 }
        }
        return passed
    }
}

/// Types that read the delivery schema's newest version in every way `Decodable` can: strict
/// and loose, nested, raw-value enums, dates, optional, wrong on purpose.
private enum DeliveryTypes {
    struct Full: Decodable, Equatable {
        enum Status: String, Decodable { case pending, preparing, delivering, delivered, delayed }
        struct Courier: Decodable, Equatable { var name: String; var rating: Double }
        var logo: String
        var title: String
        var subtitle: String
        var progress: Double
        var eta: Date
        var etaText: String?
        var status: Status
        var delayMinutes: Int?
        var courier: Courier
        var items: [String]
        var note: String?
        var badge: String?
    }

    /// Numbers and strings read as other types; a field the schema does not have.
    struct Loose: Decodable, Equatable {
        var eta: Double
        var delayMinutes: Int8
        var progress: Float
        var items: Set<String>
        var courier: [String: String]?
        var note: URL?
    }

    /// Integers read as doubles and dates, doubles as integers, a string as a URL.
    struct AsNumbers: Decodable, Equatable {
        var delay: Double
        var delayAsDate: Date?
        var rating: Int?
        var title: URL?
        enum CodingKeys: String, CodingKey { case delay = "delayMinutes", delayAsDate = "status", rating = "progress", title }
    }

    struct DelayAsDate: Decodable, Equatable {
        var delayMinutes: Date
        var progress: Date
    }

    struct Wrong: Decodable, Equatable {
        var title: Int
    }

    struct Missing: Decodable, Equatable {
        var title: String
        var notInTheSchema: String
    }

    /// Wrong types below the root: the errors' coding paths run through a nested object and
    /// an array.
    struct WrongInside: Decodable, Equatable {
        struct Courier: Decodable, Equatable { var name: Int }
        var courier: Courier
        var items: [Int]
        var status: Int
    }

    /// A root that is not a single value, and a key asked for twice.
    struct Odd: Decodable, Equatable {
        var title: String
        enum Keys: String, CodingKey { case title, note }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            title = try container.decode(String.self, forKey: .title) + (try container.decode(String.self, forKey: .title))
            if try container.decodeNil(forKey: .note) { _ = try decoder.singleValueContainer().decode(String.self) }
        }
    }

    struct ByHand: Decodable, Equatable {
        var title: String
        var rating: Double
        var path: String
        var nested: [String]
        enum Keys: String, CodingKey { case title, courier, items }
        enum CourierKeys: String, CodingKey { case name, rating }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            title = try container.decode(String.self, forKey: .title)
            let courier = try container.nestedContainer(keyedBy: CourierKeys.self, forKey: .courier)
            rating = try courier.decode(Double.self, forKey: .rating)
            path = courier.codingPath.map(\.stringValue).joined(separator: "/")
            var items = try container.nestedUnkeyedContainer(forKey: .items)
            var nested: [String] = []
            while !items.isAtEnd { nested.append(try items.decode(String.self)) }
            self.nested = nested
        }
    }
}

/// Types that read the grocery schema's newest version, whose `substitutions` is an array of
/// objects.
private enum GroceryTypes {
    struct Full: Decodable, Equatable {
        enum Stage: String, Decodable { case picking, packing, onTheWay = "on-the-way", arrived }
        struct Substitution: Decodable, Equatable { var original: String; var replacement: String }
        var statusText: String
        var minutesLeft: Int
        var progress: Double
        var riderName: String
        var stage: Stage
        var deliverBy: Date
        var itemCount: Int
        var substitutions: [Substitution]
    }

    /// An element's field of the wrong type: the error's path runs through the element.
    struct WrongElement: Decodable, Equatable {
        struct Substitution: Decodable, Equatable { var original: Int }
        var substitutions: [Substitution]
    }

    /// Objects read as strings.
    struct ElementsAsStrings: Decodable, Equatable {
        var substitutions: [String]
    }

    /// Objects read as dictionaries, and the array as optional elements.
    struct ElementsAsDictionaries: Decodable, Equatable {
        var substitutions: [[String: String]]
        var optional: [[String: String]?]
        enum Keys: String, CodingKey { case substitutions }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            substitutions = try container.decode([[String: String]].self, forKey: .substitutions)
            optional = try container.decode([[String: String]?].self, forKey: .substitutions)
        }
    }

    /// The unkeyed container's every call, by hand: its count, each element's nested
    /// container and coding path, `decodeNil`, a super decoder, and a read past the end.
    struct ByHand: Decodable, Equatable {
        var count: Int?
        var originals: [String]
        var paths: [String]
        var nils: Int
        var pastTheEnd: String
        /// What `decodeNil()` past the end threw, as JSONDecoder's does.
        var nilPastTheEnd: String
        enum Keys: String, CodingKey { case substitutions }
        enum SubstitutionKeys: String, CodingKey { case original }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            var elements = try container.nestedUnkeyedContainer(forKey: .substitutions)
            count = elements.count
            (originals, paths, nils) = ([], [], 0)
            while !elements.isAtEnd {
                if try elements.decodeNil() {
                    nils += 1
                    continue
                }
                let element = try elements.nestedContainer(keyedBy: SubstitutionKeys.self)
                originals.append(try element.decode(String.self, forKey: .original))
                paths.append(element.codingPath.map(\.stringValue).joined(separator: "/"))
            }
            var again = try container.nestedUnkeyedContainer(forKey: .substitutions)
            if !again.isAtEnd {
                let superDecoder = try again.superDecoder()
                paths.append("super " + superDecoder.codingPath.map(\.stringValue).joined(separator: "/"))
            }
            do {
                _ = try elements.decode(String.self)
                pastTheEnd = ""
            } catch {
                pastTheEnd = String(describing: error)
            }
            do {
                _ = try elements.decodeNil()
                nilPastTheEnd = ""
            } catch {
                nilPastTheEnd = String(describing: error)
            }
        }
    }
}

@Suite struct TapeDecoderTests {
    /// `T` through the tape, and through `ValueDecoder` on the full decode's tree: the same
    /// value, or errors that read the same.
    static func expectSame<T: Decodable & Equatable>(_ type: T.Type, _ decoder: ContentStateDecoder, _ bytes: [UInt8]) {
        // The full decode's result is made already: its `decode(_:)` reads its tree.
        let expected = Result { try decoder.decodeInFull(contentState: bytes).decode(T.self) }
        let actual = Result { try decoder.decode(contentState: bytes).decode(T.self) }
        switch (expected, actual) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(T.self): \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        case (.failure(let a), .failure(let b)):
            #expect(String(describing: a) == String(describing: b), "\(T.self)")
        default:
            Issue.record("\(T.self): \(expected) against \(actual) for \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
    }

    static func all(_ decoder: ContentStateDecoder, _ bytes: [UInt8]) {
        expectSame(DeliveryTypes.Full.self, decoder, bytes)
        expectSame(DeliveryTypes.Loose.self, decoder, bytes)
        expectSame(DeliveryTypes.AsNumbers.self, decoder, bytes)
        expectSame(DeliveryTypes.DelayAsDate.self, decoder, bytes)
        expectSame(DeliveryTypes.Wrong.self, decoder, bytes)
        expectSame(DeliveryTypes.Missing.self, decoder, bytes)
        expectSame(DeliveryTypes.WrongInside.self, decoder, bytes)
        expectSame(DeliveryTypes.Odd.self, decoder, bytes)
        expectSame(DeliveryTypes.ByHand.self, decoder, bytes)
    }

    @Test func everyWayOfReadingAgreesWithTheValueTree() throws {
        let decoder = try ContentStateDecoder(schema: try Examples.schema("delivery"), version: 3)
        var inputs = try DecodeResultTests.contentStates()
        inputs += [
            #"{"title":"t"}"#, #"{"title":"t","courier":{"name":"n"},"items":[],"note":null}"#,
            #"{"title":"t","note":"https://example.com/a","status":"delayed","delayMinutes":12}"#,
            #"{"title":"t","note":"not a url with spaces","eta":12.5,"progress":1}"#,
            #"{"title":"t","status":"lost"}"#, #"{"title":"t","delayMinutes":300}"#, #"{"title":"caf\u00e9 \/"}"#,
            #"{"title":"https://example.com","delayMinutes":7,"progress":1,"status":"delayed"}"#,
            #"{"title":"t","delayMinutes":7,"progress":0.5}"#,
        ].map { Array($0.utf8) }
        for input in inputs { Self.all(decoder, input) }
        var random = SplitMix64(state: 0xDEC0DE)
        let seeds = inputs
        for _ in 0..<1_500 {
            var bytes = seeds[Int(random.next() % UInt64(seeds.count))]
            guard !bytes.isEmpty else { continue }
            let position = Int(random.next() % UInt64(bytes.count))
            if random.next() % 2 == 0 {
                bytes.remove(at: position)
            } else if let digit = bytes[position...].firstIndex(where: { (0x30...0x39).contains($0) }) {
                bytes[digit] = 0x30 + UInt8(random.next() % 10)
            }
            Self.all(decoder, bytes)
        }
    }

    @Test func datesRangesAndURLsAgree() throws {
        for (activity, versions) in [("pizza", [1, 2]), ("flash-sale", [1, 2])] {
            let schema = try Examples.schema(activity)
            for version in versions {
                let decoder = try ContentStateDecoder(schema: schema, version: version)
                for state in try DecodeResultTests.contentStates() {
                    Self.expectSame(Pizza.self, decoder, state)
                    Self.expectSame(Sale.self, decoder, state)
                }
            }
        }
    }

    /// Arrays of objects (grocery version 3's `substitutions`) read element by element on the
    /// tape: the same values as `ValueDecoder`, and the same errors, coding paths included, for
    /// elements of the wrong type, past the end, read by hand and read as other types; on the
    /// bundled states, the benchmark's grocery payload, and mutations of them.
    @Test func arraysOfObjectsAgree() throws {
        let decoder = try ContentStateDecoder(schema: try Examples.schema("grocery"), version: 3)
        let grocery = Examples.root.appendingPathComponent("Benchmarks/Payloads/grocery500.json")
        var inputs = try DecodeResultTests.contentStates() + [Array(try Data(contentsOf: grocery))]
        inputs += [
            #"{"substitutions":[]}"#, #"{"substitutions":[{}]}"#, #"{"substitutions":[{"original":"a"},{"replacement":"b"}]}"#,
            #"{"substitutions":[{"original":"a","replacement":"b","extra":1},{"original":"é"","original":"c"}]}"#,
            #"{"substitutions":[{"original":7}]}"#, #"{"substitutions":[null]}"#, #"{"substitutions":["a"]}"#,
            #"{"substitutions":[{"original":"a"},{"original":"b"},{"original":"c"},{"original":"d"},{"original":"e"},{"original":"f"}]}"#,
        ].map { Array($0.utf8) }
        func all(_ bytes: [UInt8]) {
            Self.expectSame(GroceryTypes.Full.self, decoder, bytes)
            Self.expectSame(GroceryTypes.WrongElement.self, decoder, bytes)
            Self.expectSame(GroceryTypes.ElementsAsStrings.self, decoder, bytes)
            Self.expectSame(GroceryTypes.ElementsAsDictionaries.self, decoder, bytes)
            Self.expectSame(GroceryTypes.ByHand.self, decoder, bytes)
        }
        for input in inputs { all(input) }
        var random = SplitMix64(state: 0x6120CE)
        for _ in 0..<1_000 {
            var bytes = inputs[Int(random.next() % UInt64(inputs.count))]
            guard !bytes.isEmpty else { continue }
            bytes.remove(at: Int(random.next() % UInt64(bytes.count)))
            all(bytes)
        }
        // The benchmark payload itself reads whole, through the tape's own containers.
        let full = try decoder.decode(contentState: Array(try Data(contentsOf: grocery))).decode(GroceryTypes.ByHand.self)
        #expect(full.paths == ["substitutions/0", "substitutions/1", "substitutions/2", "substitutions/3", "super substitutions/0"])
        #expect(full.originals.count == 4 && full.pastTheEnd.contains("no element 4"))
        #expect(full.nilPastTheEnd.contains("valueNotFound") && full.nilPastTheEnd.contains("no element 4"), "\(full.nilPastTheEnd)")
        // JSONDecoder throws there too.
        struct NilPastTheEnd: Decodable {
            init(from decoder: any Decoder) throws {
                var elements = try decoder.unkeyedContainer()
                _ = try elements.decodeNil()
            }
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NilPastTheEnd.self, from: Data("[]".utf8)) }
    }

    private struct Pizza: Decodable, Equatable {
        var timer: ClosedRange<Date>?
        var numberOfPizzas: Int?
        var status: Int?
    }

    private struct Sale: Decodable, Equatable {
        var deepLink: URL?
        var isSeckill: Bool?
        var remaining: Int?
    }
}

/// A counter that threads can bump.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

/// The validator reads a clean content-state in one pass too: every result must equal the full
/// decoder's, findings, state, spans and budget included.
@Suite struct ValidatorOnePassTests {
    static func validators(measuresFields: Bool) throws -> [(name: String, validator: PayloadValidator)] {
        try DecodeResultTests.everyVersion().map {
            ($0.name, try PayloadValidator(schema: $0.schema, version: $0.version, options: .init(measuresFields: measuresFields)))
        }
    }

    static func bodies() throws -> [[UInt8]] {
        var bodies = try (Examples.payloads(failing: false) + Examples.payloads(failing: true)).map {
            Array(try Data(contentsOf: Examples.root.appendingPathComponent($0.path)))
        }
        bodies.append(Array(try Data(contentsOf: Examples.root.appendingPathComponent("Benchmarks/Payloads/body600.json"))))
        for state in try DecodeResultTests.contentStates() {
            bodies.append(Array(#"{"aps":{"timestamp":1700000000,"event":"update","content-state":"#.utf8) + state + Array("}}".utf8))
        }
        return bodies
    }

    /// Whether the one-pass read took `body`, and the results agree.
    @discardableResult
    static func expectSame(_ validator: PayloadValidator, _ body: [UInt8], _ label: @autoclosure () -> String) -> Bool {
        var full = validator
        full.readsInOnePass = false
        let (one, walks) = ObjectWalks.counting { validator.validate(body, file: "b.json") }
        #expect(walks == 0, "object walks: \(label())")
        let other = full.validate(body, file: "b.json")
        #expect(one == other, "\(label()): \(String(decoding: body.prefix(300), as: UTF8.self))")
        // The one-pass result holds its state as a tape, the full one as a tree: they hash alike.
        #expect(one.hashValue == other.hashValue)
        return DecodeResultTests.appliedOnTape(validator.decoder.decode(payload: body))
    }

    /// A date range's bound is reported at its own place (`/window/1`), in a field and in an
    /// array, on the tape and in the reference decode alike; a bound Foundation does not decode
    /// says why, as a date does; a date in milliseconds since 2001 is told as such, not turned
    /// into a negative date.
    @Test func aDateRangesBoundIsReportedAtItsPlace() throws {
        let schema = Schema(activity: "d", versions: [SchemaVersion(version: 1, contentState: [
            Field(name: "window", type: .dateRange, isOptional: true),
            Field(name: "windows", type: .array(items: Field(name: "", type: .dateRange)), isOptional: true),
            Field(name: "eta", type: .date, isOptional: true),
        ])])
        let validator = try PayloadValidator(schema: schema, version: 1)
        func findings(_ state: String) -> [String] {
            let body = Array(#"{"aps":{"timestamp":1795000000,"event":"update","content-state":"#.utf8) + Array(state.utf8) + Array("}}".utf8)
            Self.expectSame(validator, body, state)
            return validator.validate(body, file: "b.json").diagnostics.map { "\($0.position.map { "\($0.column)" } ?? "-") \($0.pointer ?? "") \($0.message)" }
        }
        #expect(findings(#"{"window":[ 1732800000 , 1732803600 ]}"#) == [
            "77 /window/0 1732800000 looks like UNIX time: the device reads seconds since 2001-01-01, so this is the year 2055; send 754492800",
            "90 /window/1 1732803600 looks like UNIX time: the device reads seconds since 2001-01-01, so this is the year 2055; send 754496400",
        ])
        #expect(findings(#"{"windows":[[754000000,1732803600]]}"#) == [
            "88 /windows/0/1 1732803600 looks like UNIX time: the device reads seconds since 2001-01-01, so this is the year 2055; send 754496400",
        ])
        _ = findings(#"{"window":[754000000,0e1]}"#)
        let refused = validator.validate(Array(#"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"window":[754000000,0e1]}}}"#.utf8))
        #expect(refused.diagnostics.first?.message.hasPrefix("at /window/1: 0e1 is a number Foundation's JSONDecoder does not decode as a Double") == true,
                "\(refused.diagnostics)")
        #expect(findings(#"{"eta":816692800000}"#) == [
            "72 /eta 816692800000 looks like milliseconds since 2001-01-01: the device reads seconds, so this is the year 27880; send 816692800",
        ])
    }

    @Test func everyBodyGivesTheFullResult() throws {
        let bodies = try Self.bodies()
        var deferred = 0
        for measuresFields in [true, false] {
            for (name, validator) in try Self.validators(measuresFields: measuresFields) {
                for body in bodies where Self.expectSame(validator, body, name) { deferred += 1 }
            }
        }
        #expect(deferred > 100)
    }

    /// A start's `attributes` are read on a tape, as the content-state is: findings worded in
    /// the attributes' scope and for a start, no object walk, and the reference decode's result.
    @Test func startAttributesAreReadOnTheTape() throws {
        let validator = try PayloadValidator(schema: try Examples.schema("delivery"), version: 3)
        func body(_ attributes: String) -> [UInt8] {
            Array(#"{"aps":{"timestamp":1,"event":"start","content-state":{"title":"t"},"attributes-type":"DeliveryAttributes","attributes":\#(attributes),"alert":{"title":"a","body":"b"}}}"#.utf8)
        }
        let cases: [(attributes: String, codes: [String], starts: Bool)] = [
            (#"{"totalAmount":"$12","orderId":"A1"}"#, [], true),
            (#"{"totalAmount":"$12","orderId":"A1","tip":2}"#, ["unknown-key"], true),
            (#"{"totalAmount":"$12"}"#, ["missing-required-key"], false),
            (#"{"totalAmount":"$12","orderId":5}"#, ["wrong-type"], false),
            (#"{"totalAmount":"$12","order\u0049d":"A1","orderId":"B"}"#, ["duplicate-key"], true),
            (#"{"totalAmount":"\#(String(repeating: "9", count: 30))","orderId":"A1"}"#, ["out-of-range"], false),
        ]
        for (attributes, codes, starts) in cases {
            let bytes = body(attributes)
            let (result, walks) = ObjectWalks.counting { validator.validate(bytes, file: "b.json") }
            #expect(walks == 0, "\(attributes)")
            Self.expectSame(validator, bytes, attributes)
            let found = result.diagnostics.filter { $0.scope == .attributes && $0.severity > .info }
            #expect(found.map(\.code.rawValue) == codes, "\(attributes): \(result.diagnostics)")
            #expect(found.allSatisfy { $0.pointer?.hasPrefix("/") == true })
            #expect(result.appDecodes == starts, "\(attributes): \(result.diagnostics)")
        }
    }

    @Test func datesThatLookLikeUNIXSecondsAndOverBudgetBodiesGiveTheFullResult() throws {
        let schema = try Examples.schema("delivery")
        let validator = try PayloadValidator(schema: schema, version: 3)
        let note = String(repeating: "n", count: 150)
        let badge = String(repeating: "b", count: 60)
        var inputs: [String] = [
            #"{"aps":{"timestamp":1,"event":"update","content-state":{"title":"t","eta":1700000000}}}"#,
            #"{"aps":{"timestamp":1,"event":"update","content-state":{"title":"t","eta":999999999.9}}}"#,
            #"{"aps":{"timestamp":1,"event":"update","content-state":{"title":"t","eta":1e9}}}"#,
            #"{"aps":{"timestamp":1,"event":"update","content-state":{"title":"t","zz":1,"note":"\#(note)"}},"x":1}"#,
            #"{"aps":{"content-state":{"title":"t"},"content-state":{"title":"u"},"timestamp":1,"event":"update"}}"#,
            #"{"aps":{"timestamp":1,"event":"update","content-state":{"title":"t"} ,"alert":{"title":"a","body":"b"}}}"#,
            #"{"aps":{"timestamp":1,"event":"update","content-state":{"title":"t"}"#,
            #"{"aps":{"timestamp":1,"event":"update","content-state":{"title":"t",}}}"#,
        ]
        // Over the 4 KB budget: the members' spans are listed.
        let items = (0..<40).map { #""item number \#($0) with a long name""# }.joined(separator: ",")
        inputs.append(#"{"aps":{"timestamp":1,"event":"update","content-state":{"title":"t","items":[\#(items)],"badge":"\#(badge)","extra":[\#(items)],"more":[\#(items)]}}}"#)
        for input in inputs { Self.expectSame(validator, Array(input.utf8), input) }
        let over = validator.validate(Array(inputs.last!.utf8))
        #expect(over.budget.headroom < 0)
        #expect(over.budget.fields.map(\.name) == ["title", "items", "badge", "extra", "more"])
        let unix = validator.validate(Array(inputs[0].utf8))
        #expect(unix.diagnostics.contains { $0.code == "unix-date-in-date-field" })
    }

    /// Each seed body cut, spliced and flipped with a fixed seed.
    @Test func mutatedBodiesGiveTheFullResult() throws {
        let seeds = try Self.bodies()
        let validators = try Self.validators(measuresFields: true)
        var random = SplitMix64(state: 0xB0D1)
        let tokens: [[UInt8]] = ["\"", "{", "}", "[", "]", ",", ":", "null", "1", "1e9", "\\u00e9", " ", "\"x\":", "\"title\":"].map { Array($0.utf8) }
        let deferred = random.rounds(1_500, mutating: seeds, tokens: tokens, subjects: validators) { bytes, subject in
            Self.expectSame(subject.validator, bytes, subject.name)
        }
        #expect(deferred > 100)
    }
}
