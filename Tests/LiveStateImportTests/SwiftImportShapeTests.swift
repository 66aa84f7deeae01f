import LiveState
import LiveStateImport
import LiveStateYAML
import Testing

/// Shapes of `ContentState` met in real apps' sources that the import read wrong: each as the
/// app's synthesized `Codable` decodes it (checked with `JSONDecoder`, Swift 6.3.1).
@Suite struct SwiftImportShapeTests {
    private static func imported(_ source: String) throws -> SwiftImporter.Activity {
        let result = SwiftImporter.importActivities([("S.swift", source)])
        #expect(!result.diagnostics.contains { $0.severity == .error }, "\(result.diagnostics)")
        return try #require(result.activities.first)
    }

    /// `enum CodingKeys: Int, CodingKey`: the raw value is the key's `intValue`; `JSONDecoder`
    /// reads its `stringValue`, the case's name. `{"first":1,"second":"s"}` decodes,
    /// `{"1":1,"2":"s"}` and `{"second":"s"}` do not.
    @Test func anIntRawCodingKeyIsItsCasesName() throws {
        let activity = try Self.imported("""
            struct IntKeysAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var first: Int
                    var second: String
                    enum CodingKeys: Int, CodingKey { case first = 1, second }
                }
            }
            """)
        #expect(activity.contentState.map(\.name) == ["first", "second"])
        #expect(activity.contentState.allSatisfy { $0.isRequired })
        #expect(activity.reviews.isEmpty, "\(activity.reviews)")
    }

    /// `Self.Phase` in a member of the type is the type's own `Phase`, here declared in an
    /// extension.
    @Test func selfNamesTheEnclosingType() throws {
        let activity = try Self.imported("""
            struct PhaseAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable { var phase: Self.Phase }
            }
            extension PhaseAttributes.ContentState {
                enum Phase: String, Codable, Hashable { case on, off }
            }
            """)
        #expect(activity.contentState.first?.type == .enumeration(.strings(["on", "off"])))
        #expect(activity.reviews.isEmpty, "\(activity.reviews)")
    }

    /// `var x: Int? = 5`: synthesized `Codable` decodes it with `decodeIfPresent`, so a missing
    /// key reads as `nil`, not 5, and the key is not required.
    @Test func anOptionalsInitialValueIsNotItsDefault() throws {
        let activity = try Self.imported("""
            struct InitialAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable { var count: Int? = 5; var total = 3 }
            }
            """)
        let count = try #require(activity.contentState.first)
        #expect(count.isOptional && count.defaultValue == nil)
        #expect(count.documentation == "Swift default 5; synthesized Codable ignores it: a missing key or null reads as nil.")
        #expect(activity.contentState.last?.documentation == "Swift default 3; synthesized Codable ignores it, so the key is required.")
    }

    /// A type the file does not spell, inferred from `= UUID()` or named by `T.self` in an
    /// `init(from:)`, is read as that type (a `UUID` is a `string` with `format: uuid`), and
    /// reviewed where the property is declared or read, not at 1:1, when a schema cannot state it.
    @Test func aTypeTheFileDoesNotSpellIsReviewedWhereItIsRead() throws {
        let activity = try Self.imported("""
            struct MarkAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var id = UUID()
                    var model: Model
                    init(from decoder: any Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        id = try container.decode(UUID.self, forKey: .id)
                        model = try container.decode(Model.self, forKey: .model)
                    }
                }
            }
            """)
        let places = activity.reviews.map { "\($0.position?.line ?? 0):\($0.position?.column ?? 0) \($0.message.prefix(24))" }
        #expect(places == ["8:13 'model' has the type Mod"], "\(places)")
        #expect(activity.contentState.first?.stringFormat == .uuid)
        let inferred = try Self.imported("""
            struct MarkAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable { var id = UUID() }
            }
            """)
        #expect(inferred.reviews.isEmpty, "\(inferred.reviews)")
        #expect(inferred.contentState.map(\.type) == [.string])
        #expect(inferred.contentState.map(\.stringFormat) == [.uuid])
    }

    /// `?? UUID(uuidString: "…")!`, `?? Data()` and `?? Data(base64Encoded: "…")!` are defaults a
    /// schema states: the string of the field's format.
    @Test func aUUIDOrDataFallbackIsTheFieldsDefault() throws {
        let activity = try Self.imported("""
            struct TolAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var id: UUID
                    var blob: Data
                    var other: Data
                    init(from decoder: any Decoder) throws {
                        let c = try decoder.container(keyedBy: CodingKeys.self)
                        id = try c.decodeIfPresent(UUID.self, forKey: .id) ?? UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
                        blob = try c.decodeIfPresent(Data.self, forKey: .blob) ?? Data()
                        other = try c.decodeIfPresent(Data.self, forKey: .other) ?? Data(base64Encoded: "aGk=")!
                    }
                }
            }
            """)
        #expect(activity.reviews.isEmpty, "\(activity.reviews)")
        #expect(activity.contentState.map(\.defaultValue) == [.string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), .string(""), .string("aGk=")])
        #expect(activity.contentState.map(\.stringFormat) == [.uuid, .base64, .base64])
        #expect(activity.contentState.allSatisfy { !$0.isOptional && $0.nullTakesDefault })
    }

    /// A fallback that is nil force-unwrapped crashes the app wherever it is taken: the key is
    /// written as required, every value must decode, and the import says why.
    @Test func aFallbackThatCrashesMakesTheKeyRequired() throws {
        let result = SwiftImporter.importActivities([("Crash.swift", """
            struct CrashAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var id: UUID
                    init(from decoder: any Decoder) throws {
                        let c = try decoder.container(keyedBy: CodingKeys.self)
                        id = try c.decodeIfPresent(UUID.self, forKey: .id) ?? UUID(uuidString: "not-a-uuid")!
                    }
                }
            }
            """)])
        let activity = try #require(result.activities.first)
        let field = try #require(activity.contentState.first)
        #expect(field.isRequired && field.rejectsInvalid && !field.nullTakesDefault && field.stringFormat == .uuid, "\(field)")
        #expect(activity.reviews.map(\.message) == [
            "'id' falls back to UUID(uuidString: \"not-a-uuid\")! in init(from:), which is nil: the force unwrap crashes the app wherever "
                + "the fallback is taken; it is written as required",
        ])
    }

    /// A dictionary literal that gives a key twice stops the app wherever it is built ("Fatal
    /// error: Dictionary literal contains duplicate keys"), keys equal as Swift compares them:
    /// as the nil force unwrap, the key is required, and the review says why (it said "which a
    /// schema cannot state").
    @Test func aDictionaryFallbackWithAKeyTwiceCrashes() throws {
        let result = SwiftImporter.importActivities([("Twice.swift", """
            struct TwiceAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var scores: [String: Int]
                    init(from decoder: any Decoder) throws {
                        let c = try decoder.container(keyedBy: CodingKeys.self)
                        scores = try c.decodeIfPresent([String: Int].self, forKey: .scores) ?? ["\u{e9}": 1, "e\u{301}": 2]
                    }
                }
            }
            """)])
        let activity = try #require(result.activities.first)
        let field = try #require(activity.contentState.first)
        #expect(field.isRequired && field.rejectsInvalid && !field.nullTakesDefault, "\(field)")
        #expect(activity.reviews.map(\.message).first?.hasSuffix(
            "a dictionary literal that gives the key 'é' twice: Swift stops the app on it wherever the fallback is taken; it is written as required") == true,
                "\(activity.reviews)")
        // One inside an array literal traps as well: it was "a default a schema cannot state".
        let nested = SwiftImporter.importActivities([("Nested.swift", """
            struct NestedAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var rounds: [[Int: String]]
                    init(from decoder: any Decoder) throws {
                        let c = try decoder.container(keyedBy: CodingKeys.self)
                        rounds = try c.decodeIfPresent([[Int: String]].self, forKey: .rounds) ?? [[1: "a"], [2: "b", 02: "c"]]
                    }
                }
            }
            """)])
        let rounds = try #require(nested.activities.first?.contentState.first)
        #expect(rounds.isRequired && rounds.rejectsInvalid, "\(rounds)")
        #expect(nested.activities.first?.reviews.contains { $0.message.contains("a dictionary literal that gives the key '2' twice") } == true,
                "\(String(describing: nested.activities.first?.reviews))")
    }

    /// A type of the app's own that takes a standard name is the app's, as the compiler
    /// resolves it: `typealias UUID = String` is a plain string, `struct Date` an object;
    /// `Foundation.Date` is still Foundation's.
    @Test func anAppsOwnTypeWithAStandardNameIsTheApps() throws {
        let activity = try Self.imported("""
            typealias UUID = String
            struct Date: Codable, Hashable { var seconds: Int }
            struct ShadowAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var id: UUID
                    var when: Date
                    var at: Foundation.Date
                }
            }
            """)
        #expect(activity.contentState.map(\.type) == [
            .string, .object(fields: [Field(name: "seconds", type: .int)]), .date,
        ], "\(activity.contentState)")
        #expect(activity.contentState.first?.stringFormat == nil)
    }

    /// A property name of more than 1,024 characters, which YAML reads only as an explicit key,
    /// is written as one (`? name`, then `: value`), in a block and in a flow mapping: the import
    /// wrote YAML its own loader refused, and placed the error in that YAML.
    @Test func aKeyTooLongForAnImplicitYAMLKeyIsWrittenAsAnExplicitOne() throws {
        let long = String(repeating: "a", count: 1_100)
        let activity = try Self.imported("""
            struct LongAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var \(long): Int
                    var stops: [Stop]
                    var courier: Stop
                }
            }
            struct Stop: Codable, Hashable { var \(long): String; var b: Int }
            """)
        let yaml = SchemaYAMLWriter.schema(activity: "long", activity, source: "test")
        #expect(yaml.contains("\n      ? \(long)\n      : { type: int }\n"), "\(yaml.prefix(600))")
        #expect(yaml.contains("fields: {? \(long) : { type: string }, b: { type: int }}"))
        let loaded = try SchemaLoader().load(yaml: Array(yaml.utf8), file: "long.yaml")
        #expect(loaded.versions[0].contentState.map(\.name) == [long, "stops", "courier"])
        guard case .object(let courier) = loaded.versions[0].contentState[2].type else { Issue.record("courier"); return }
        #expect(courier.map(\.name) == [long, "b"])
    }

    /// The YAML writer writes every bound a field carries, each by its schema key, and what it
    /// writes loads with the same constraints; a number format's own range goes unwritten.
    @Test func theWriterWritesEveryConstraint() throws {
        var activity = try Self.imported("""
            struct BoundAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable { var code: String; var legs: [Int]; var small: Int8 }
            }
            """)
        activity.contentState[0].constraints = .init(minLength: 2, maxLength: 8)
        activity.contentState[1].constraints = .init(minItems: 1, maxItems: 4)
        activity.contentState[2].constraints.maximum = 100
        let yaml = SchemaYAMLWriter.schema(activity: "bound", activity, source: "test")
        #expect(yaml.contains("code: { type: string, min-length: 2, max-length: 8 }"), "\(yaml)")
        #expect(yaml.contains("min-items: 1, max-items: 4"), "\(yaml)")
        #expect(yaml.contains("small: { type: int, format: int8, maximum: 100 }"), "\(yaml)")
        let loaded = try SchemaLoader().load(yaml: Array(yaml.utf8), file: "bound.yaml")
        #expect(loaded.versions[0].contentState.map(\.constraints) == activity.contentState.map(\.constraints))
    }

    /// A chain of 300 nested types, which the compiler takes: no stack overflow. Objects nested
    /// deeper than a schema file holds are reviewed at the property, written without fields,
    /// and what is written loads.
    @Test func objectsNestedPastWhatASchemaHoldsAreReviewedNotFollowed() throws {
        var lines = [
            "struct ChainAttributes: ActivityAttributes {",
            "    struct ContentState: Codable, Hashable { var next: N0 }",
            "}",
        ]
        for index in 0..<300 { lines.append("struct N\(index): Codable, Hashable { var next: N\(index + 1)? }") }
        lines.append("struct N300: Codable, Hashable { var end: Int }")
        let activity = try Self.imported(lines.joined(separator: "\n"))
        let deep = activity.reviews.filter { $0.message.contains("nests objects deeper than a schema file holds") }
        #expect(deep.count == 1, "\(activity.reviews)")
        #expect(deep.first?.position?.line == 16)
        let yaml = SchemaYAMLWriter.schema(activity: "chain", activity, source: "test")
        _ = try SchemaLoader().load(yaml: Array(yaml.utf8), file: "chain.yaml")

        // Twelve levels below the content-state's field load whole.
        var short = Array(lines.prefix(3))
        for index in 0..<12 { short.append("struct N\(index): Codable, Hashable { var next: N\(index + 1) }") }
        short.append("struct N12: Codable, Hashable { var end: Int }")
        let whole = try Self.imported(short.joined(separator: "\n"))
        #expect(whole.reviews.isEmpty, "\(whole.reviews)")
        _ = try SchemaLoader().load(yaml: Array(SchemaYAMLWriter.schema(activity: "chain", whole, source: "test").utf8), file: "chain.yaml")
    }

    /// `typealias ContentState = Box<Int>`: synthesized `Codable` decodes `Box<Int>` with `T`
    /// read as `Int`; `{"value":1,"label":"a"}` decodes, `{"value":"1","label":"a"}` does not.
    @Test func aGenericContentStateIsSpecializedByItsArguments() throws {
        let activity = try Self.imported("""
            struct Box<T: Codable & Hashable>: Codable, Hashable { var value: T; var label: String }
            struct GenericAttributes: ActivityAttributes {
                typealias ContentState = Box<Int>
            }
            """)
        #expect(activity.contentState.map(\.name) == ["value", "label"])
        #expect(activity.contentState.map(\.type) == [.int, .string])
        #expect(activity.contentState.allSatisfy { $0.isRequired })
        #expect(activity.reviews.isEmpty, "\(activity.reviews)")
    }

    /// A generic property's arguments reach its type's fields through every wrapping: an
    /// optional, an array, a nested generic (`Pair<Box<T>>` inside `Box<T>`), and the same
    /// generic type with other arguments is not taken for a recursive one.
    @Test func genericArgumentsReachNestedFields() throws {
        let activity = try Self.imported("""
            struct Box<T: Codable & Hashable>: Codable, Hashable { var value: T }
            struct Pair<A: Codable & Hashable, B: Codable & Hashable>: Codable, Hashable { var first: A; var second: [B]? }
            struct NestedAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var score: Pair<Int, Box<String>>
                    var boxed: Box<Box<Bool>>
                }
            }
            """)
        #expect(activity.reviews.isEmpty, "\(activity.reviews)")
        let score = try #require(activity.contentState.first)
        guard case .object(let pair) = score.type else { Issue.record("\(score.type)"); return }
        #expect(pair.map(\.name) == ["first", "second"])
        #expect(pair[0].type == .int)
        #expect(pair[1].isOptional)
        #expect(pair[1].type == .array(items: Field(name: "", type: .object(fields: [Field(name: "value", type: .string)]))))
        let boxed = try #require(activity.contentState.last)
        #expect(boxed.type == .object(fields: [Field(name: "value", type: .object(fields: [Field(name: "value", type: .bool)]))]))
    }

    /// A type nested in a generic type sees its parameters (`Tagged<Double>.Reading`'s `value`
    /// is a `Double`); a type outside it does not, though a parameter shares its name.
    @Test func aTypeNestedInAGenericTypeSeesItsParameters() throws {
        let activity = try Self.imported("""
            struct Tagged<T: Codable & Hashable>: Codable, Hashable {
                struct Reading: Codable, Hashable { var value: T; var unit: String }
                var reading: Reading
                var other: Plain
            }
            struct Plain: Codable, Hashable { var value: T }
            struct T: Codable, Hashable { var id: Int }
            struct SensorAttributes: ActivityAttributes {
                typealias ContentState = Tagged<Double>
            }
            """)
        #expect(activity.reviews.isEmpty, "\(activity.reviews)")
        #expect(activity.contentState.map(\.name) == ["reading", "other"])
        #expect(activity.contentState.first?.type == .object(fields: [Field(name: "value", type: .double), Field(name: "unit", type: .string)]))
        #expect(activity.contentState.last?.type == .object(fields: [Field(name: "value", type: .object(fields: [Field(name: "id", type: .int)]))]))
    }

    /// A generic argument is read with the generic parameters of the place that wrote it, the
    /// type that binds them included: `Box<Reading>` written in `Outer<Int>` reads `Reading`'s
    /// `X` as `Int`, though `Box` is the type being read.
    @Test func anArgumentKeepsTheParametersOfWhereItWasWritten() throws {
        let activity = try Self.imported("""
            struct Box<T: Codable & Hashable>: Codable, Hashable { var value: T }
            struct Outer<X: Codable & Hashable>: Codable, Hashable {
                struct Reading: Codable, Hashable { var v: X }
                var box: Box<Reading>
            }
            struct OuterAttributes: ActivityAttributes {
                typealias ContentState = Outer<Int>
            }
            """)
        #expect(activity.reviews.isEmpty, "\(activity.reviews)")
        #expect(activity.contentState.first?.type == .object(fields: [Field(name: "value", type: .object(fields: [Field(name: "v", type: .int)]))]))
    }

    /// A typealias to a type the files do not declare: the version written states no field, and
    /// the review says so where the typealias is.
    @Test func aContentStateNotInTheFilesIsSaidToBeUnread() throws {
        let activity = try Self.imported("""
            struct ElsewhereAttributes: ActivityAttributes {
                typealias ContentState = SharedState
            }
            """)
        #expect(activity.contentState.isEmpty)
        let review = try #require(activity.reviews.first)
        #expect(review.message == "ElsewhereAttributes has no ContentState this import can find: its typealias names SharedState, which is not "
            + "in the given files; the version written states no field, so it accepts every payload: write its fields by hand")
        #expect(review.position?.line == 2 && review.position?.column == 30)
    }
}
