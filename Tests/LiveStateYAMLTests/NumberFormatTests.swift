import Foundation
@testable import LiveState
import LiveStateTooling
import LiveStateTestSupport
import LiveStateYAML
import Testing

/// `format:` on `int` and `double` fields: the app's number type, whose range synthesized
/// `Codable` enforces (a strict client drops a value that does not fit) and every client checks.
@Suite struct NumberFormatTests {
    static func schema(_ fields: String, strict: Bool) throws -> Schema {
        let yaml = """
            activity: gauge
            \(strict ? "clients: { strict: [1] }\n" : "")versions:
              - version: 1
                content-state:
            \(fields)
            """
        return try SchemaLoader().load(yaml: Array(yaml.utf8), file: "gauge.yaml")
    }

    @Test func theFormatNarrowsTheRangeTheLoaderReads() throws {
        let schema = try Self.schema("""
                  battery: { type: int, format: uint8, maximum: 100 }
                  delta: { type: int, format: int16, minimum: -50000 }
                  ratio: { type: double, format: float }
            """, strict: false)
        let fields = try #require(schema.versions.first?.contentState)
        #expect(fields.map(\.numberFormat) == [.uint8, .int16, .float])
        #expect(fields[0].constraints.minimum == 0 && fields[0].constraints.maximum == 100)
        #expect(fields[1].constraints.minimum == -32_768 && fields[1].constraints.maximum == 32_767)
        #expect(fields[2].constraints.maximum == Field.NumberFormat.float.range.upperBound)
        #expect(Field.NumberFormat.float.range.upperBound > Double(Float.greatestFiniteMagnitude))
    }

    @Test func aStrictClientDropsWhatDoesNotFitItsType() throws {
        let decoder = try ContentStateDecoder(schema: try Self.schema("""
                  battery: { type: int, format: uint8, maximum: 100 }
                  ratio: { type: double, format: float }
            """, strict: true), version: 1)
        // Past the schema's maximum but inside UInt8: a constraint synthesized Codable ignores.
        let overMaximum = decoder.decode(contentState: Array(#"{"battery":200,"ratio":1}"#.utf8))
        #expect(overMaximum.appDecodes)
        #expect(overMaximum.diagnostics.map(\.code) == ["out-of-range"])
        for json in [#"{"battery":256,"ratio":1}"#, #"{"battery":-1,"ratio":1}"#, #"{"battery":1,"ratio":3.5e38}"#] {
            let result = decoder.decode(contentState: Array(json.utf8))
            #expect(!result.appDecodes, "\(json)")
            #expect(result.allDiagnostics.contains { $0.message.contains("does not fit the app's") }, "\(result.allDiagnostics)")
        }
        let message = decoder.decode(contentState: Array(#"{"battery":256,"ratio":1}"#.utf8)).allDiagnostics.first?.message
        #expect(message?.hasPrefix("256 does not fit the app's UInt8") == true, "\(message ?? "")")
    }

    @Test func aTolerantClientTreatsItAsOutOfRange() throws {
        let decoder = try ContentStateDecoder(schema: try Self.schema("""
                  battery: { type: int, format: uint8, default: 0 }
            """, strict: false), version: 1)
        let result = decoder.decode(contentState: Array(#"{"battery":300}"#.utf8))
        #expect(result.appDecodes)
        #expect(result.state == .object([Value.Member("battery", .int(0))]))
        #expect(result.diagnostics.map(\.message) == ["300 does not fit the app's UInt8; 'battery' takes its default 0"])
        #expect(result.diagnostics.map(\.code) == ["invalid-defaulted"])
    }

    @Test func aNewerVersionThatSendsPastTheOldTypeBreaksAStrictClient() throws {
        let yaml = """
            activity: gauge
            clients: { strict: [1] }
            versions:
              - version: 1
                content-state:
                  battery: { type: int, format: uint8, maximum: 100 }
              - version: 2
                content-state:
                  battery: { type: int, minimum: 0, maximum: 200 }
              - version: 3
                content-state:
                  battery: { type: int, minimum: 0, maximum: 1000 }
            """
        let schema = try SchemaLoader().load(yaml: Array(yaml.utf8), file: "gauge.yaml")
        // v2 stays inside UInt8: past v1's maximum, which synthesized Codable does not check.
        let inside = CompatibilityChecker().findings(schema, reader: 1, writer: 2).map(\.diagnostic)
        #expect(inside.map(\.severity) == [.info], "\(inside)")
        // v3 may send 1000: app v1's UInt8 cannot hold it, and the update is dropped.
        let past = CompatibilityChecker().findings(schema, reader: 1, writer: 3).map(\.diagnostic)
        #expect(past.map(\.severity) == [.error], "\(past)")
        #expect(past.first?.message.contains("app v1 holds it in a UInt8, and synthesized Codable drops the update") == true, "\(past)")
    }

    /// An `int` without a `format` is an `Int`: a `uint64` version may send past it, and an
    /// `Int` version sends nothing past a `UInt64` but negatives.
    @Test func anIntAndAUInt64AreComparedByTheirTypesRanges() throws {
        let yaml = """
            activity: gauge
            clients: { strict: [1, 2] }
            versions:
              - version: 1
                content-state:
                  id: { type: int }
              - version: 2
                content-state:
                  id: { type: int, format: uint64 }
              - version: 3
                content-state:
                  id: { type: int, maximum: 100000000000000000000 }
            """
        let schema = try SchemaLoader().load(yaml: Array(yaml.utf8), file: "gauge.yaml")
        let oldReadsNew = CompatibilityChecker().findings(schema, reader: 1, writer: 2).map(\.diagnostic)
        #expect(oldReadsNew.map(\.message) == [
            "app v1 reading v2 payloads: 'id' maximum: v1 has no maximum, v2 allows up to 18446744073709551615; "
                + "app v1 holds it in an Int, and synthesized Codable drops the update for a value that does not fit",
        ], "\(oldReadsNew)")
        #expect(oldReadsNew.map(\.severity) == [.error])
        // v1 sends every Int: the negatives are what v2's UInt64 cannot hold.
        let newReadsOld = CompatibilityChecker().findings(schema, reader: 2, writer: 1).map(\.diagnostic)
        #expect(newReadsOld.map { $0.message.contains("'id' minimum") } == [true], "\(newReadsOld)")
        // A maximum past Int's own is not one a plain Int writer reaches.
        #expect(CompatibilityChecker().findings(schema, reader: 3, writer: 1).isEmpty)
    }

    @Test func aFormatThatIsNotOneOrDoesNotApplyIsAnError() {
        for (fields, message) in [
            ("      n: { type: int, format: int128 }", "'format' must be one of int8, int16, int32, int64, uint8, uint16, uint32, uint64, float, decimal, uuid, base64, found 'int128'"),
            ("      n: { type: string, format: uint8 }", "format uint8 applies to int fields, not string"),
            ("      n: { type: int, format: float }", "format float applies to double fields, not int"),
        ] {
            #expect(throws: SchemaLoadError.self) { try Self.schema(fields, strict: false) }
            do {
                _ = try Self.schema(fields, strict: false)
            } catch let error as SchemaLoadError {
                #expect(error.diagnostics.contains { $0.message == message && $0.pointer?.hasSuffix("/format") == true }, "\(error.diagnostics)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// A `UInt64` holds integers past `Int.max`, as Foundation's JSONDecoder reads them
    /// (`18446744073709551615`, `1e19`): such a value is `Value.uint`, decoded, read and written
    /// exactly, and only a `format: uint64` field takes it.
    @Test func aUInt64FieldHoldsWhatIntCannot() throws {
        struct State: Decodable { var id: UInt64; var ids: [UInt64]; var small: Int64 }
        for strict in [false, true] {
            let decoder = try ContentStateDecoder(schema: try Self.schema("""
                      id: { type: int, format: uint64 }
                      ids: { type: array, items: { type: int, format: uint64 }, default: [] }
                      small: { type: int, format: int64, default: 0 }
                """, strict: strict), version: 1)
            for (text, expected) in [("9223372036854775808", UInt64(1) << 63), ("18446744073709551615", UInt64.max), ("1e19", 10_000_000_000_000_000_000)] {
                let bytes = Array(#"{"id":\#(text),"ids":[1,\#(text)],"small":0}"#.utf8)
                let result = decoder.decode(contentState: bytes)
                #expect(result.appDecodes, "\(text): \(result.allDiagnostics)")
                #expect(result.state?["id"] == .uint(expected), "\(text)")
                #expect(result.state?["ids"] == .array([.int(1), .uint(expected)]), "\(text)")
                #expect(decoder.decodeInFull(contentState: bytes) == result, "\(text)")
                let node = try #require(result.root?["id"])
                #expect(node.kind == .int && node.int == nil && node.uint64 == expected, "\(text)")
                #expect(result.root?["ids"]?[0]?.uint64 == 1)
                let typed = try result.decode(State.self)
                #expect(typed.id == expected && typed.ids == [1, expected], "\(text)")
            }
            // Past UInt64, below 0, and past Int64 in an int64 field: as JSONDecoder refuses them.
            for (json, message) in [
                (#"{"id":18446744073709551616}"#, "18446744073709551616 is not an integer that fits UInt64"),
                (#"{"id":-1}"#, "-1 does not fit the app's UInt64"),
                (#"{"id":1,"small":9223372036854775808}"#, "9223372036854775808 is not an integer that fits Int64"),
            ] {
                let result = decoder.decode(contentState: Array(json.utf8))
                #expect(result.allDiagnostics.contains { $0.message.hasPrefix(message) }, "\(json): \(result.allDiagnostics)")
                #expect(decoder.decodeInFull(contentState: Array(json.utf8)) == result, "\(json)")
            }
        }
        let schema = try Self.schema("""
                  id: { type: int, format: uint64 }
                  count: { type: int }
            """, strict: false)
        let encoder = try ContentStateEncoder(schema: schema, version: 1)
        let written = encoder.encode(.object([Value.Member("id", .uint(.max)), Value.Member("count", .int(1))]))
        #expect(String(decoding: written.bytes, as: UTF8.self) == #"{"id":18446744073709551615,"count":1}"#, "\(written.diagnostics)")
        let refused = encoder.encode(.object([Value.Member("id", .int(1)), Value.Member("count", .uint(.max))]))
        #expect(refused.bytes.isEmpty)
        #expect(refused.diagnostics.contains { $0.message.contains("18446744073709551615 does not fit the app's Int") }, "\(refused.diagnostics)")
        // A `.uint` that Int holds is that integer, for every field.
        let small = encoder.encode(.object([Value.Member("id", .uint(7)), Value.Member("count", .uint(8))]))
        #expect(String(decoding: small.bytes, as: UTF8.self) == #"{"id":7,"count":8}"#, "\(small.diagnostics)")
        struct Sent: Encodable { var id: UInt64; var count: Int }
        let typed = try encoder.encode(Sent(id: .max, count: 2))
        #expect(String(decoding: typed.bytes, as: UTF8.self) == #"{"id":18446744073709551615,"count":2}"#, "\(typed.diagnostics)")
        func parse(_ text: String) throws -> Value { try Value.parse(json: Array(text.utf8)) }
        #expect(try parse("18446744073709551615") == .uint(.max))
        #expect(try parse("9223372036854775807") == .int(.max))
        #expect(try parse("18446744073709551616") == .double(18446744073709551616))
    }

    /// A default past `Int.max` is a `UInt64`'s: a `format: uint64` field takes it, any other
    /// field refuses it with the type it does not fit.
    @Test func aDefaultPastIntMaxIsAUInt64s() throws {
        let schema = try Self.schema("""
                  id: { type: int, format: uint64, default: 18446744073709551615 }
            """, strict: false)
        #expect(schema.versions.first?.contentState.first?.defaultValue == .uint(.max))
        let decoder = try ContentStateDecoder(schema: schema, version: 1)
        #expect(decoder.decode(contentState: Array("{}".utf8)).state == .object([Value.Member("id", .uint(.max))]))
        for (field, message) in [
            ("      id: { type: int, format: int64, default: 18446744073709551615 }", "default of field 'id' is invalid: 18446744073709551615 does not fit the app's Int64"),
            ("      id: { type: int, default: 9223372036854775808 }", "default of field 'id' is invalid: 9223372036854775808 does not fit the app's Int"),
            ("      id: { type: int, format: uint64, default: 18446744073709551616 }", "default of field 'id' is invalid: expected an integer that fits 64 bits, found the integer 18446744073709551616"),
        ] {
            do {
                _ = try Self.schema(field, strict: false)
                Issue.record("loaded: \(field)")
            } catch let error as SchemaLoadError {
                #expect(error.diagnostics.map(\.message) == [message], "\(field)")
            }
        }
    }

    /// From 2^53 up, JSONDecoder reads an integer written with a fraction or an exponent as a
    /// `Decimal` and drops the fraction; below, through its `Double`.
    @Test func integersPast2To53WithAFractionAreReadAsJSONDecoderReadsThem() throws {
        let decoder = try ContentStateDecoder(schema: try Self.schema("""
                  n: { type: int, default: 0, on-invalid: reject }
                  id: { type: int, format: uint64, default: 0, on-invalid: reject }
            """, strict: false), version: 1)
        for (json, n, id) in [
            (#"{"n":9007199254740993.0}"#, 9_007_199_254_740_993, 0),
            (#"{"n":9007199254740993.5}"#, 9_007_199_254_740_993, 0),
            (#"{"n":-9007199254740993e0}"#, -9_007_199_254_740_993, 0),
            (#"{"n":1.5e1}"#, 15, 0),
            (#"{"id":9223372036854775807.0}"#, 0, 9_223_372_036_854_775_807),
        ] as [(String, Int, Int)] {
            let result = decoder.decode(contentState: Array(json.utf8))
            #expect(result.state == .object([Value.Member("n", .int(n)), Value.Member("id", .int(id))]), "\(json): \(result.allDiagnostics)")
        }
        let uint = decoder.decode(contentState: Array(#"{"id":1.2345678901234567890e19}"#.utf8))
        #expect(uint.state?["id"] == .uint(12_345_678_901_234_567_890))
        // Its Double is 2^63, which Int does not hold; and -2^63's magnitude, which it does not either.
        for json in [#"{"n":9223372036854775807.0}"#, #"{"n":-9223372036854775808.0}"#, #"{"n":1.5}"#] {
            #expect(!decoder.decode(contentState: Array(json.utf8)).appDecodes, "\(json)")
        }
        // The Decimal's whole mantissa, fraction digits included, must fit a UInt64 before the
        // fraction is divided away (`FixedWidthInteger.init?(_: Decimal)`): at UInt64.max it
        // reads, one past it JSONDecoder throws.
        #expect(decoder.decode(contentState: Array(#"{"n":1844674407370955161.5}"#.utf8)).state?["n"] == .int(1_844_674_407_370_955_161))
        for json in [#"{"n":1844674407370955161.6}"#, #"{"n":2305843009213693951.5}"#, #"{"n":-4611686018427387903.5}"#,
                     #"{"id":18446744073709549568.00001}"#, #"{"id":1844674407370954956.75e1}"#] {
            let result = decoder.decode(contentState: Array(json.utf8))
            #expect(!result.appDecodes, "\(json): \(String(describing: result.state))")
            #expect(decoder.decodeInFull(contentState: Array(json.utf8)) == result, "\(json)")
        }
        // Trailing zeros are not in the mantissa.
        #expect(decoder.decode(contentState: Array(#"{"id":18446744073709549568.000}"#.utf8)).state?["id"] == .uint(18_446_744_073_709_549_568))
    }

    /// An element of an array, or a bound of a date range, that both the tolerant decoder and
    /// synthesized `Codable` fail on is one error, at the field, whose message names the element
    /// and says so: it was that error and a `strict-decode-failure` besides.
    @Test func anElementBothDecodersFailOnIsOneError() throws {
        let decoder = try ContentStateDecoder(schema: try Self.schema("""
                  nums: { type: array, items: { type: int } }
                  span: { type: date-range }
            """, strict: true), version: 1)
        for (json, message) in [
            (#"{"nums":[1.5],"span":[1,2]}"#, "at /nums/0: 1.5 is not an integer that fits Int; 'nums' has no default"),
            (#"{"nums":[1],"span":[1e400,2]}"#, "at /span/0: 1e400 is too large for a Double; 'span' has no default"),
        ] {
            for result in [decoder.decode(contentState: Array(json.utf8)), decoder.decodeInFull(contentState: Array(json.utf8))] {
                let errors = result.allDiagnostics.filter { $0.severity == .error }
                #expect(errors.count == 1, "\(json): \(errors)")
                #expect(errors.first.map {
                    $0.message.hasPrefix(message) && $0.message.hasSuffix("(the app decodes with synthesized Codable, which fails on it too)")
                } == true, "\(json): \(errors)")
            }
        }
    }

    /// A `Float` reads `3.4028235e+38` (how Swift writes its greatest value) and refuses what
    /// rounds to infinity or, not being zero, to zero; the encoder refuses to write the latter.
    @Test func aFloatFieldReadsWhatJSONDecoderReadsAsAFloat() throws {
        let schema = try Self.schema("""
                  ratio: { type: double, format: float }
            """, strict: true)
        let decoder = try ContentStateDecoder(schema: schema, version: 1)
        // JSONDecoder parses the text to a Float: `3.4028235677973366e38`, how Swift, JavaScript and
        // Python write the Double at the midpoint below 2^128, is under the exact midpoint and
        // reads as the greatest Float; through the Double it would round to infinity.
        for text in ["3.4028235e+38", "-3.4028235e+38", "1e-45", "0e10", "0", "3.4028235677973366e38", "-3.4028235677973366e38",
                     "340282356779733660000000000000000000000"] {
            let result = decoder.decode(contentState: Array(#"{"ratio":\#(text)}"#.utf8))
            #expect(result.appDecodes && result.allDiagnostics.isEmpty, "\(text): \(result.allDiagnostics)")
        }
        // Just over the exact midpoint, in more digits than a Double keeps: infinity as a Float.
        for text in ["3.40282356779733661637539395458142568449e38", "1e-400"] {
            #expect(!decoder.decode(contentState: Array(#"{"ratio":\#(text)}"#.utf8)).appDecodes, "\(text)")
        }
        for text in ["3.4028236e38", "1e-50", "3.402823567797337e38"] {
            let result = decoder.decode(contentState: Array(#"{"ratio":\#(text)}"#.utf8))
            #expect(!result.appDecodes, "\(text)")
            #expect(result.allDiagnostics.first?.message.hasPrefix("\(text) does not fit the app's Float") == true, "\(result.allDiagnostics)")
            #expect(decoder.decodeInFull(contentState: Array(#"{"ratio":\#(text)}"#.utf8)) == result, "\(text)")
        }
        let written = try ContentStateEncoder(schema: schema, version: 1).encode(.object([Value.Member("ratio", .double(1e-50))]))
        #expect(written.bytes.isEmpty)
        // The encoder writes the Double's shortest text, which reads as the greatest Float.
        let largest = try ContentStateEncoder(schema: schema, version: 1).encode(.object([Value.Member("ratio", .double(3.4028235677973366e38))]))
        #expect(!largest.bytes.isEmpty, "\(largest.diagnostics)")
        #expect(written.diagnostics.contains { $0.message.contains("does not fit the app's Float") }, "\(written.diagnostics)")
    }

    /// A `Decimal` reads by its own parser: `0e1` (which a `Double` refuses) fits, and so does
    /// any number whose exponent, less its fraction's digits, is within -128...127.
    @Test func aDecimalFieldReadsAsJSONDecoderReadsADecimal() throws {
        let schema = try Self.schema("""
                  price: { type: double, format: decimal }
            """, strict: true)
        let decoder = try ContentStateDecoder(schema: schema, version: 1)
        for text in ["0e1", "12.99", "1e127", "0.1e-127", "340282366920938463463374607431768211455e127"] {
            let bytes = Array(#"{"price":\#(text)}"#.utf8)
            let result = decoder.decode(contentState: bytes)
            #expect(result.appDecodes && result.allDiagnostics.isEmpty, "\(text): \(result.allDiagnostics)")
            #expect(decoder.decodeInFull(contentState: bytes) == result, "\(text)")
        }
        for text in ["1e128", "0.1e-128", "4.9e-324", "340282366920938463463374607431768211456e127"] {
            let bytes = Array(#"{"price":\#(text)}"#.utf8)
            let result = decoder.decode(contentState: bytes)
            #expect(!result.appDecodes, "\(text)")
            #expect(result.allDiagnostics.first?.message.contains("does not fit the app's Decimal") == true, "\(result.allDiagnostics)")
            #expect(decoder.decodeInFull(contentState: bytes) == result, "\(text)")
        }
        let encoder = try ContentStateEncoder(schema: schema, version: 1)
        #expect(String(decoding: encoder.encode(.object([Value.Member("price", .double(12.99))])).bytes, as: UTF8.self) == #"{"price":12.99}"#)
        let refused = encoder.encode(.object([Value.Member("price", .double(.leastNonzeroMagnitude))]))
        #expect(refused.bytes.isEmpty)
        #expect(refused.diagnostics.contains { $0.message.contains("does not fit the app's Decimal") }, "\(refused.diagnostics)")
    }

    /// A state type with a `Decimal` (the generated `ContentState` of a `format: decimal`
    /// field) encodes the number as `JSONEncoder` writes it, not `Decimal`'s own `Encodable`
    /// (an object of its parts), which every such type was refused for; one a `Double` does
    /// not hold is refused by the rule the encoder asks of the same number given as text.
    @Test func aDecimalPropertyIsWrittenAsJSONEncoderWritesIt() throws {
        struct Priced: Codable { var price: Decimal }
        let schema = try Self.schema("""
                  price: { type: double, format: decimal }
            """, strict: true)
        let encoder = try ContentStateEncoder(schema: schema, version: 1)
        let written = try encoder.encode(Priced(price: Decimal(string: "12.99")!))
        #expect(String(decoding: written.bytes, as: UTF8.self) == #"{"price":12.99}"#, "\(written.diagnostics)")
        #expect(String(decoding: try JSONEncoder().encode(Priced(price: Decimal(string: "12.99")!)), as: UTF8.self) == #"{"price":12.99}"#)
        let error = try #require(throws: EncodingError.self) {
            try encoder.encode(Priced(price: Decimal(string: "123456789012345678901")!))
        }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["price"])
        #expect(context.debugDescription.hasPrefix("123456789012345678901 is more precise than a Double"))
        // The same number given as text is refused in the same words.
        let text = encoder.encode(stateJSON: Array(#"{"price":123456789012345678901}"#.utf8))
        #expect(text.diagnostics.first?.message == context.debugDescription)
        // Decimal.nan is refused for what it is, not for its digits.
        let nan = try #require(throws: EncodingError.self) { try encoder.encode(Priced(price: .nan)) }
        if case .invalidValue(_, let context) = nan {
            #expect(context.debugDescription == "Decimal.nan is no number JSON can hold (JSONEncoder writes NaN, which no JSON reader reads)")
        }
        #expect(String(decoding: try JSONEncoder().encode(Priced(price: .nan)), as: UTF8.self) == #"{"price":NaN}"#)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(Priced.self, from: Data(#"{"price":NaN}"#.utf8)) }
    }

    /// `DecimalText`, the `Decimal` rule, against JSONDecoder itself on numbers of every shape:
    /// up to 45 integer and 45 fraction digits, exponents up to 200 either way.
    @Test func theDecimalRuleIsJSONDecoders() {
        struct Held: Decodable { var x: Decimal }
        var random = SplitMix64(state: 0xDEC1)
        func digits(_ count: Int, leadingZero: Bool) -> String {
            String((0..<count).map { index in
                let digit = Int(random.next() % 10)
                return Character(String(index == 0 && !leadingZero && digit == 0 ? 1 : digit))
            })
        }
        var disagreements: [String] = []
        for _ in 0..<3_000 {
            var text = random.next() % 2 == 0 ? "-" : ""
            text += random.next() % 5 == 0 ? "0" : digits(1 + Int(random.next() % 45), leadingZero: false)
            if random.next() % 2 == 0 { text += "." + digits(1 + Int(random.next() % 45), leadingZero: true) }
            if random.next() % 2 == 0 { text += ["e", "E-", "e+"][Int(random.next() % 3)] + String(random.next() % 201) }
            let foundation = (try? JSONDecoder().decode(Held.self, from: Data(#"{"x":\#(text)}"#.utf8))) != nil
            if DecimalText.reads(text.utf8) != foundation { disagreements.append(text) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }
}
