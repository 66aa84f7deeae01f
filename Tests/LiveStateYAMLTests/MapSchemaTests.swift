import Foundation
import LiveState
import LiveStateTooling
import LiveStateYAML
import Testing

/// `type: map` in schema files: loaded, checked, compared between versions and sized.
@Suite struct MapSchemaTests {
    static func load(_ versions: String, strict: [Int] = []) throws -> Schema {
        try StringFormatSchemaTests.load(versions, strict: strict)
    }

    @Test func theLoaderReadsAMapAndItsDefault() throws {
        let schema = try Self.load("""
              - version: 1
                content-state:
                  labels: { type: map, items: { type: string, max-length: 8 }, default: { a: "x", "b/c": "y" }, max-items: 4 }
                  scores: { type: map, items: { type: int }, default: {} }
                  byName: { type: map, items: { type: object, fields: { n: { type: int, default: 1 } } }, default: { k: {} } }
            """)
        let fields = try #require(schema.versions.first?.contentState)
        #expect(fields[0].type == .map(items: Field(name: "", type: .string, constraints: .init(maxLength: 8), position: fields[0].type.mapItems?.position)))
        #expect(fields[0].defaultValue == .object([.init("a", .string("x")), .init("b/c", .string("y"))]))
        #expect(fields[0].constraints.maxItems == 4)
        #expect(fields[1].defaultValue == .object([]))
        // An object value in a map's default is resolved as every object default is.
        #expect(fields[2].defaultValue == .object([.init("k", .object([.init("n", .int(1))]))]))
    }

    @Test func aMapsMistakesAreErrorsWithTheirPlace() {
        StringFormatSchemaTests.expectLoadErrors([
            ("m: { type: map }", "map field 'm' has no 'items' (items: { type: ... }), the type of its values", "/items"),
            ("m: { type: map, items: { type: int }, default: [1] }",
             "default of field 'm' is invalid: expected a mapping of keys to values, found a sequence", "/default"),
            ("m: { type: map, items: { type: int }, default: { a: x } }", "default of field 'm' is invalid: expected an integer, found the string 'x'", "/default/a"),
            ("m: { type: map, items: { type: int }, max-length: 3 }", "max-length applies to string and url fields, not map", "/max-length"),
            ("m: { type: map, items: { type: int }, fields: {} }", "'fields' applies to object fields, not map", "/fields"),
            ("m: { type: map, items: { type: int }, default: { a: 1, b: 2 }, max-items: 1 }",
             "default of field 'm' is invalid: 2 items is more than max-items 1", "/default"),
        ])
    }

    /// A map's values are compared as an array's elements: a narrower type, a tighter bound.
    @Test func aMapsValuesAreComparedAsElements() throws {
        let schema = try Self.load("""
              - version: 1
                content-state:
                  labels: { type: map, items: { type: string }, default: {} }
                  scores: { type: map, items: { type: int }, default: {} }
                  same: { type: map, items: { type: int, minimum: 0 } }
              - version: 2
                content-state:
                  labels: { type: map, items: { type: string, max-length: 8 }, default: {} }
                  scores: { type: map, items: { type: string }, default: {} }
                  same: { type: map, items: { type: int, minimum: 0 } }
            """)
        let findings = CompatibilityChecker().findings(schema, reader: 2, writer: 1).filter { $0.rule != "unbounded-size" }
        #expect(findings.map(\.rule).sorted() == ["constraint-tightened", "type-changed"], "\(findings.map(\.message))")
        #expect(findings.compactMap(\.diagnostic.pointer).sorted() == ["/labels/*", "/scores/*"], "\(findings.map(\.message))")
        #expect(findings.allSatisfy { $0.severity == .warning }, "\(findings.map(\.message))")
        #expect(findings.first { $0.rule == "type-changed" }?.message.contains("'labels' takes its default") == false)
    }

    /// A map read where an older version stated an object of no fields (what `import swift`
    /// wrote for a dictionary before) takes every value; the other way, a map reads each member
    /// as one of its values.
    @Test func aMapAndAnObjectOfNoFields() throws {
        let schema = try Self.load("""
              - version: 1
                content-state: { values: { type: object, fields: {} } }
              - version: 2
                content-state: { values: { type: map, items: { type: string } } }
            """)
        let older = CompatibilityChecker().findings(schema, reader: 1, writer: 2).filter { $0.rule != "unbounded-size" }
        #expect(older.map(\.rule) == ["type-changed-compatible"], "\(older.map(\.message))")
        let newer = CompatibilityChecker().findings(schema, reader: 2, writer: 1).filter { $0.rule != "unbounded-size" }
        #expect(newer.map(\.rule) == ["type-narrowed"] && newer.map(\.severity) == [.error], "\(newer.map(\.message))")
    }

    /// An object read as a map, and a map as an object: every value decodes when each side
    /// takes what the other sends (a missing key and `null` included), else `type-narrowed`.
    @Test func anObjectAndAMapReadEachOther() throws {
        let schema = try Self.load("""
              - version: 1
                content-state:
                  optional: { type: object, fields: { a: { type: int, optional: true } } }
                  defaulted: { type: object, fields: { a: { type: int, default: 0 } }, default: {} }
                  required: { type: object, fields: { a: { type: int } } }
                  typed: { type: object, fields: { a: { type: string, default: "" } } }
              - version: 2
                content-state:
                  optional: { type: map, items: { type: int } }
                  defaulted: { type: map, items: { type: int }, default: {} }
                  required: { type: map, items: { type: int } }
                  typed: { type: map, items: { type: int } }
            """)
        func rules(reader: Int, writer: Int) -> [String: String] {
            Dictionary(uniqueKeysWithValues: CompatibilityChecker().findings(schema, reader: reader, writer: writer)
                .filter { $0.rule.hasPrefix("type-") }.compactMap { finding in finding.diagnostic.pointer.map { ($0, finding.rule) } })
        }
        // App v1 (objects) reading maps: a map may leave out a required key, or carry another type.
        #expect(rules(reader: 1, writer: 2) == [
            "/optional": "type-changed-compatible", "/defaulted": "type-changed-compatible", "/required": "type-narrowed", "/typed": "type-narrowed",
        ])
        // App v2 (maps) reading objects: an optional member may be null, which a map of int refuses.
        #expect(rules(reader: 2, writer: 1) == [
            "/optional": "type-narrowed", "/defaulted": "type-changed-compatible", "/required": "type-changed-compatible", "/typed": "type-narrowed",
        ])
        let null = CompatibilityChecker().findings(schema, reader: 2, writer: 1).first { $0.diagnostic.pointer == "/optional" }
        #expect(null?.message.contains("the object's 'a' may be null, which the map reads as one of its values, none of which is null") == true,
                "\(null?.message ?? "")")
    }

    /// A map to another type decodes none of its values.
    @Test func aMapReadAsAnotherTypeIsTypeChanged() throws {
        let schema = try Self.load("""
              - version: 1
                content-state: { values: { type: map, items: { type: string } } }
              - version: 2
                content-state: { values: { type: array, items: { type: string } } }
            """)
        let findings = CompatibilityChecker().findings(schema, reader: 2, writer: 1).filter { $0.rule != "unbounded-size" }
        #expect(findings.map(\.rule) == ["type-changed"], "\(findings.map(\.message))")
        #expect(findings.first?.message.contains("'values' is map of string in v1 (a JSON object) and array of string in v2") == true,
                "\(findings.map(\.message))")
    }

    /// JSON Schema: a map is an object of `additionalProperties`, its counts `minProperties`
    /// and `maxProperties`; an integer's bounds are exact, and `Int`'s range
    /// bounds a plain `int`, as the decoders do.
    @Test func jsonSchemaStatesMapsAndExactIntegerBounds() throws {
        let schema = try Self.load("""
              - version: 1
                content-state:
                  values: { type: map, items: { type: int, minimum: 1, maximum: 9 }, min-items: 1, max-items: 3 }
                  big: { type: int, format: uint64, minimum: 1e19 }
                  plain: { type: int }
            """)
        let json = try JSONSchemaGenerator().generate(schema, version: 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let properties = try #require(document["properties"] as? [String: [String: Any]])
        let values = try #require(properties["values"])
        #expect(values["type"] as? String == "object")
        #expect(values["minProperties"] as? Int == 1 && values["maxProperties"] as? Int == 3)
        let items = try #require(values["additionalProperties"] as? [String: Any])
        #expect(items["minimum"] as? Int == 1 && items["maximum"] as? Int == 9, "\(items)")
        #expect(json.contains(#""minimum": 10000000000000000000"#) && json.contains(#""maximum": 18446744073709551615"#), "\(json)")
        #expect(json.contains(#""minimum": -9223372036854775808"#) && json.contains(#""maximum": 9223372036854775807"#), "\(json)")
    }

    /// `keys: int` (`[Int: T]`): loaded, its mistakes placed, a default's keys checked by the
    /// rule, compared between versions, sized at 20-byte keys and stated in JSON Schema.
    @Test func anIntegerKeyedMap() throws {
        let schema = try Self.load("""
              - version: 1
                content-state:
                  byRound: { type: map, items: { type: string, max-length: 4 }, max-items: 2, default: {} }
              - version: 2
                content-state:
                  byRound: { type: map, keys: int, items: { type: string, max-length: 4 }, max-items: 2, default: { 1: "a", "-02": "b" } }
            """, strict: [])
        let field = try #require(schema.versions.last?.contentState.first)
        #expect(field.hasIntegerKeys && schema.versions[0].contentState[0].hasIntegerKeys == false)
        #expect(field.defaultValue == .object([.init("1", .string("a")), .init("-2", .string("b"))]))
        StringFormatSchemaTests.expectLoadErrors([
            ("m: { type: map, keys: float, items: { type: int } }", "'keys' must be one of string, int, found 'float'", "/keys"),
            ("m: { type: string, keys: int }", "'keys' applies to map fields, not string", "/keys"),
            ("m: { type: map, keys: int, items: { type: int }, default: { a: 1 } }",
             "default of field 'm' is invalid: /a: the key 'a' is not an integer, and the app's [Int: …] reads only keys that Int(_:) "
                + "reads: an optional sign and decimal digits, within Int's range", "/default/a"),
        ])
        // A default's keys are held as `Int` writes them: two spellings of one default are one.
        let spelled = try Self.load("""
              - version: 1
                content-state:
                  m: { type: map, keys: int, items: { type: int }, default: { "+5": 1, "-07": 2 }, max-items: 3 }
              - version: 2
                content-state:
                  m: { type: map, keys: int, items: { type: int }, default: { 5: 1, "-7": 2 }, max-items: 3 }
            """)
        #expect(spelled.versions[0].contentState[0].defaultValue == .object([.init("5", .int(1)), .init("-7", .int(2))]))
        #expect(!CompatibilityChecker().findings(spelled, reader: 1, writer: 2).contains { $0.rule == "default-changed" })
        // String keys read as Int keys: an older payload's key may not be an integer.
        let narrowed = CompatibilityChecker().findings(schema, reader: 2, writer: 1).map(\.diagnostic).filter { $0.code == "type-narrowed" }
        #expect(narrowed.first?.message.contains("'byRound' is a [String: …] in v1, whose keys may be any text; app v2 holds it in an [Int: …], "
                                                 + "and JSONDecoder refuses a key that is not an integer") == true, "\(narrowed.map(\.message))")
        #expect(!CompatibilityChecker().findings(schema, reader: 1, writer: 2).contains { $0.diagnostic.code == "type-narrowed" })
        // Bounded without max-key-length: the device writes an Int's text, at most 20 bytes.
        let size = WorstCaseSize(fields: schema.versions[1].contentState)
        #expect(size.unbounded.isEmpty)
        #expect(size.bytes == #"{"byRound":{"-9223372036854775808":"abcd","-9223372036854775807":"abcd"}}"#.utf8.count, "\(size.bytes)")
        let json = try JSONSchemaGenerator().generate(schema, version: 2)
        #expect(json.contains(#""propertyNames": {"#) && json.contains(#""x-livestate-integer-keys": true"#), "\(json)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let properties = try #require(document["properties"] as? [String: [String: Any]])
        let names = try #require(properties["byRound"]?["propertyNames"] as? [String: Any])
        #expect(names["pattern"] as? String == Field.integerKeyPattern)
    }

    /// A map's size is bounded by `max-items` entries of `max-key-length` keys and bounded
    /// values; without either bound, it is unbounded.
    @Test func aMapsSizeIsBoundedByItsEntriesAndKeys() throws {
        let schema = try Self.load("""
              - version: 1
                content-state:
                  values: { type: map, items: { type: string, max-length: 4 }, max-items: 2, max-key-length: 3 }
              - version: 2
                content-state:
                  values: { type: map, items: { type: string, max-length: 4 }, max-items: 2 }
              - version: 3
                content-state:
                  values: { type: map, items: { type: string, max-length: 4 }, max-key-length: 3 }
            """)
        let bounded = WorstCaseSize(fields: schema.versions[0].contentState)
        #expect(bounded.unbounded.isEmpty)
        // {"values":{"abc":"abcd","abd":"abcd"}}
        #expect(bounded.bytes == #"{"values":{"abc":"abcd","abd":"abcd"}}"#.utf8.count, "\(bounded.bytes)")
        #expect(WorstCaseSize(fields: schema.versions[1].contentState).unbounded.map(\.missing) == ["max-key-length"])
        #expect(WorstCaseSize(fields: schema.versions[2].contentState).unbounded.map(\.missing) == ["max-items"])
        // A key bound dropped later: an older app refuses what newer payloads may carry.
        let tightened = CompatibilityChecker().findings(schema, reader: 1, writer: 2).filter { $0.rule == "constraint-loosened" }
        #expect(tightened.first?.message.contains("'values' max-key-length: v1 has max-key-length 3, v2 has no max-key-length") == true,
                "\(tightened.map(\.message))")
        #expect(StringFormatSchemaTests.loadErrors("""
              - version: 1
                content-state: { s: { type: string, max-key-length: 3 } }
            """).map(\.message) == ["max-key-length applies to map fields, not string"])
    }
}

extension FieldType {
    /// A map's `items`, for the tests.
    var mapItems: Field? {
        if case .map(let items) = self { return items }
        return nil
    }
}
