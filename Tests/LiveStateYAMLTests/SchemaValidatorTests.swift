import LiveState
import LiveStateTooling
import Testing

/// `SchemaValidator` on schemas built in Swift, and `Field.violation(of:)`.
@Suite struct SchemaValidatorTests {
    private let here = SourcePosition(offset: 10, line: 3, column: 7)

    private func schema(_ contentState: [Field], attributes: [Field] = []) -> Schema {
        Schema(activity: "a", versions: [SchemaVersion(version: 1, contentState: contentState, attributes: attributes)])
    }

    private func codes(_ schema: Schema) -> [String] {
        SchemaValidator.validate(schema).map(\.code.rawValue)
    }

    // MARK: Whole schemas

    @Test func validSchemaBuiltInCodeHasNoDiagnostics() {
        let schema = Schema(
            activity: "delivery", strictClients: [1],
            versions: [
                SchemaVersion(version: 1, contentState: [
                    Field(name: "title", type: .string, defaultValue: .string(""), constraints: .init(maxLength: 64), truncate: true, dropPriority: 1),
                    Field(name: "status", type: .enumeration(.strings(["a", "b"])), defaultValue: .string("a"), fallback: .string("a")),
                    Field(name: "note", type: .string, isOptional: true),
                ]),
                SchemaVersion(version: 2, contentState: [
                    Field(name: "title", type: .string, defaultValue: .string("")),
                    Field(name: "status", type: .enumeration(.strings(["a", "b", "c"])), defaultValue: .string("a"), aliases: ["state"]),
                ], removed: ["note"]),
                SchemaVersion(version: 5, contentState: [
                    Field(name: "title", type: .string, defaultValue: .string("")),
                    Field(name: "note", type: .string, isOptional: true),
                ]),
            ])
        #expect(SchemaValidator.validate(schema).isEmpty)
    }

    /// `on-null: default` needs a default for the null to take, stands without `optional`, and
    /// has no place in an array's items (which have no default).
    @Test func nullTakesTheDefaultOnlyWhereThereIsOne() {
        let home = { (defaultValue: Value?, optional: Bool) in
            Field(name: "home", type: .int, defaultValue: defaultValue, isOptional: optional, nullTakesDefault: true)
        }
        #expect(codes(schema([home(.int(0), false)])).isEmpty)
        let withoutDefault = SchemaValidator.validate(schema([home(nil, false)]))
        #expect(withoutDefault.map(\.message) == ["field 'home' has on-null: default but no default for null to take"])
        #expect(withoutDefault.first?.pointer == "/versions/0/content-state/home/on-null")
        #expect(SchemaValidator.validate(schema([home(.int(0), true)])).map(\.pointer) == ["/versions/0/content-state/home/optional"])
        let items = Field(name: "", type: .int, nullTakesDefault: true)
        let list = SchemaValidator.validate(schema([Field(name: "list", type: .array(items: items), defaultValue: .array([]))]))
        #expect(list.map(\.message) == ["items may not have on-null: an array's elements have no default"])
    }

    @Test func diagnosticsCarryFileScopePointerAndTheFieldPosition() throws {
        var schema = schema([Field(name: "count", type: .int, defaultValue: .int(11), constraints: .init(maximum: 10), position: here)])
        schema.file = "a.yaml"
        let diagnostic = try #require(SchemaValidator.validate(schema).first)
        #expect(diagnostic.code == "schema-invalid-default")
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.scope == .schema)
        #expect(diagnostic.file == "a.yaml")
        #expect(diagnostic.position == here)
        #expect(diagnostic.pointer == "/versions/0/content-state/count/default")
        #expect(diagnostic.message == "default of field 'count' is invalid: 11 is greater than maximum 10")
    }

    // MARK: Names

    /// A default is not held to constraints that are themselves wrong: `max-length: -5` said
    /// also that the default "" is 0 bytes, longer than max-length -5.
    @Test func aWrongConstraintIsOneFindingNotTwo() {
        let found = SchemaValidator.validate(schema([Field(name: "s", type: .string, defaultValue: .string(""), constraints: .init(maxLength: -5))]))
        #expect(found.map(\.message) == ["max-length of field 's' is negative (-5)"])
    }

    /// `truncate` and `drop-priority` anywhere but a version's top-level content-state: `--fit`
    /// never reaches them.
    @Test func fittingKeysBelongToTopLevelContentStateFields() {
        let nested = Field(name: "name", type: .string, defaultValue: .string(""), constraints: .init(maxLength: 9), truncate: true)
        let attribute = Field(name: "id", type: .string, defaultValue: .string(""), dropPriority: 1)
        let found = SchemaValidator.validate(schema(
            [Field(name: "o", type: .object(fields: [nested]), defaultValue: .object([.init("name", .string(""))]))], attributes: [attribute]))
        #expect(found.map(\.pointer) == ["/versions/0/content-state/o/fields/name/truncate", "/versions/0/attributes/id/drop-priority"])
        #expect(found.last?.message == "drop-priority applies to a version's top-level content-state fields, which encode --fit drops; field 'id' is an attribute")
    }

    @Test func fieldNameTwiceIsADuplicate() {
        let diagnostics = SchemaValidator.validate(schema([Field(name: "a", type: .int, isOptional: true), Field(name: "a", type: .string, isOptional: true)]))
        #expect(diagnostics.map(\.code) == ["schema-duplicate-name"])
        #expect(diagnostics.first?.pointer == "/versions/0/content-state/a")
    }

    @Test func aliasEqualToAnotherFieldOrAliasIsADuplicate() {
        let fields = [
            Field(name: "title", type: .string, isOptional: true, aliases: ["heading"]),
            Field(name: "subtitle", type: .string, isOptional: true, aliases: ["title", "heading", "sub", "sub", "subtitle"]),
        ]
        let diagnostics = SchemaValidator.validate(schema(fields))
        #expect(diagnostics.map(\.code) == Array(repeating: "schema-duplicate-name", count: 4))
        #expect(diagnostics.map(\.pointer) == [
            "/versions/0/content-state/subtitle/aliases/0",
            "/versions/0/content-state/subtitle/aliases/1",
            "/versions/0/content-state/subtitle/aliases/3",
            "/versions/0/content-state/subtitle/aliases/4",
        ])
    }

    /// Long lists are checked by lookups, not by comparing each entry with all before it: 40,000
    /// enum values, aliases and removed names took minutes; the repeats are still found where
    /// they are.
    @Test func longListsFindTheirRepeats() {
        let count = 40_000
        let values = (0..<count).map { "v\($0)" } + ["v7"]
        let aliases = (0..<count).map { "a\($0)" } + ["a9"]
        let fields = [
            Field(name: "s", type: .enumeration(.strings(values)), defaultValue: .string("v0"), fallback: .string("v0")),
            Field(name: "t", type: .string, isOptional: true, aliases: aliases),
            Field(name: "u", type: .string, isOptional: true, aliases: ["a5"]),
        ]
        let removed = (0..<count).map { "r\($0)" } + ["r3"]
        let schema = Schema(activity: "a", versions: [
            SchemaVersion(version: 1, contentState: fields + removed.dropLast().map { Field(name: $0, type: .int, isOptional: true) }),
            SchemaVersion(version: 2, contentState: fields, removed: removed),
        ])
        let pointers = SchemaValidator.validate(schema).filter { $0.pointer?.hasPrefix("/versions/1") == true }.map { "\($0.code) \($0.pointer ?? "")" }
        #expect(pointers == [
            "schema-invalid-constraint /versions/1/content-state/s/values/\(count)",
            "schema-duplicate-name /versions/1/content-state/t/aliases/\(count)",
            "schema-duplicate-name /versions/1/content-state/u/aliases/0",
            "schema-duplicate-name /versions/1/removed/\(count)",
        ])
    }

    @Test func namesInDifferentObjectsDoNotClash() {
        let courier = Field(name: "courier", type: .object(fields: [Field(name: "name", type: .string, isOptional: true)]), isOptional: true)
        #expect(codes(schema([Field(name: "name", type: .string, isOptional: true), courier])).isEmpty)
    }

    // MARK: Constraints

    @Test(arguments: [
        (Field(name: "f", type: .double, constraints: .init(minimum: 2, maximum: 1)), "/minimum"),
        (Field(name: "f", type: .string, constraints: .init(maxLength: -1)), "/max-length"),
        (Field(name: "f", type: .int, constraints: .init(maxLength: 3)), "/max-length"),
        (Field(name: "f", type: .string, constraints: .init(maxItems: 3)), "/max-items"),
        (Field(name: "f", type: .array(items: Field(name: "", type: .int)), constraints: .init(maxItems: -2)), "/max-items"),
        (Field(name: "f", type: .string, constraints: .init(minimum: 0)), "/minimum"),
        (Field(name: "f", type: .bool, constraints: .init(maximum: 1)), "/maximum"),
        (Field(name: "f", type: .double, constraints: .init(maximum: .infinity)), "/maximum"),
        (Field(name: "f", type: .int, truncate: true), "/truncate"),
        (Field(name: "f", type: .url, truncate: true), "/truncate"),
        (Field(name: "f", type: .string, fallback: .string("x")), "/fallback"),
        (Field(name: "f", type: .enumeration(.strings([]))), "/values"),
        (Field(name: "f", type: .enumeration(.integers([1, 2, 1]))), "/values/2"),
        (Field(name: "f", type: .string, dropPriority: 1), "/drop-priority"),
        (Field(name: "f", type: .array(items: Field(name: "", type: .int, defaultValue: .int(0)))), "/items/default"),
        (Field(name: "f", type: .array(items: Field(name: "", type: .int, isOptional: true))), "/items/optional"),
    ])
    func senselessConstraintIsInvalid(_ field: Field, pointer: String) {
        let diagnostics = SchemaValidator.validate(schema([field]))
        #expect(diagnostics.map(\.code) == ["schema-invalid-constraint"])
        #expect(diagnostics.first?.pointer == "/versions/0/content-state/f" + pointer)
    }

    @Test func constraintsOfNestedFieldsAreChecked() {
        let field = Field(
            name: "courier",
            type: .object(fields: [Field(name: "phones", type: .array(items: Field(name: "", type: .string, constraints: .init(maxLength: -1))), isOptional: true)]),
            isOptional: true)
        let diagnostics = SchemaValidator.validate(schema([field]))
        #expect(diagnostics.map(\.pointer) == ["/versions/0/content-state/courier/fields/phones/items/max-length"])
    }

    @Test func attributesAreCheckedToo() {
        let diagnostics = SchemaValidator.validate(schema([], attributes: [Field(name: "id", type: .int, constraints: .init(maxLength: 2))]))
        #expect(diagnostics.map(\.pointer) == ["/versions/0/attributes/id/max-length"])
    }

    // MARK: Defaults and fallbacks

    @Test func defaultOutsideItsConstraintsIsInvalid() {
        let fields = [
            Field(name: "title", type: .string, defaultValue: .string("héllo"), constraints: .init(maxLength: 5)),
            Field(name: "status", type: .enumeration(.strings(["a"])), defaultValue: .string("b")),
            Field(name: "count", type: .int, defaultValue: .double(1)),
            Field(name: "note", type: .string, defaultValue: .null),
        ]
        let diagnostics = SchemaValidator.validate(schema(fields))
        #expect(diagnostics.map(\.code) == Array(repeating: "schema-invalid-default", count: 4))
        #expect(diagnostics.map(\.message) == [
            "default of field 'title' is invalid: 6 bytes is longer than max-length 5",
            "default of field 'status' is invalid: the string 'b' is not one of a",
            "default of field 'count' is invalid: expected an integer, found the number 1",
            "default of field 'note' is invalid: null, but the field is not optional",
        ])
    }

    @Test func nestedDefaultProblemPointsIntoTheDefault() {
        let courier = Field(
            name: "courier",
            type: .object(fields: [Field(name: "name", type: .string, constraints: .init(maxLength: 2))]),
            defaultValue: .object([Value.Member("name", .string("Ana"))]))
        let diagnostics = SchemaValidator.validate(schema([courier]))
        #expect(diagnostics.map(\.pointer) == ["/versions/0/content-state/courier/default/name"])
    }

    @Test func fallbackMustBeAnEnumValue() {
        let field = Field(name: "status", type: .enumeration(.integers([1, 2])), defaultValue: .int(1), fallback: .string("1"))
        let diagnostics = SchemaValidator.validate(schema([field]))
        #expect(diagnostics.map(\.code) == ["schema-invalid-default"])
        #expect(diagnostics.first?.pointer == "/versions/0/content-state/status/fallback")
    }

    // MARK: Versions

    @Test(arguments: [[0], [2, 1], [1, 1], [1, 3, 2], [-4]])
    func versionsMustBePositiveAndStrictlyIncreasing(_ numbers: [Int]) {
        let schema = Schema(activity: "a", versions: numbers.map { SchemaVersion(version: $0, contentState: []) })
        #expect(codes(schema) == ["schema-version-order"])
    }

    @Test func strictClientsMustNameVersions() {
        var schema = schema([])
        schema.strictClients = [1, 3]
        let diagnostics = SchemaValidator.validate(schema)
        #expect(diagnostics.map(\.code) == ["schema-invalid-constraint"])
        #expect(diagnostics.first?.pointer == "/clients/strict/1")
    }

    // MARK: Tombstones

    private func versions(_ entries: [(Int, [Field], [String])]) -> Schema {
        Schema(activity: "a", versions: entries.map { SchemaVersion(version: $0.0, contentState: $0.1, removed: $0.2) })
    }

    @Test func removedNameMayNotReturnWithAnotherType() {
        let note = Field(name: "note", type: .string, isOptional: true)
        let schema = versions([
            (1, [note], []),
            (2, [], ["note"]),
            (3, [note], []),
            (4, [], []),
            (5, [Field(name: "note", type: .int, isOptional: true, position: here)], []),
        ])
        let diagnostics = SchemaValidator.validate(schema)
        #expect(diagnostics.map(\.code) == ["schema-tombstone-reuse"])
        #expect(diagnostics.first?.pointer == "/versions/4/content-state/note")
        #expect(diagnostics.first?.position == here)
        #expect(diagnostics.first?.message == "'note' was removed in version 2 as string and may not return as int")
    }

    /// Two objects of other shapes are both "object": the message says it is the shape that
    /// differs (it read "removed as object and may not return as object"; the diff audit's L7).
    @Test func aRemovedObjectReturningInAnotherShapeIsSaidSo() {
        let old = Field(name: "box", type: .object(fields: [Field(name: "n", type: .int)]), isOptional: true)
        let new = Field(name: "box", type: .object(fields: [Field(name: "n", type: .string)]), isOptional: true)
        let diagnostics = SchemaValidator.validate(versions([(1, [old], []), (2, [], ["box"]), (3, [new], [])]))
        #expect(diagnostics.map(\.message)
            == ["'box' was removed in version 2 as object and may not return as object of another shape (its fields, items or values differ)"])
    }

    @Test func tombstoneComparesShapesNotConstraints() {
        let old = Field(name: "tags", type: .array(items: Field(name: "", type: .string, constraints: .init(maxLength: 3), position: here)), isOptional: true)
        let same = Field(name: "tags", type: .array(items: Field(name: "", type: .string)), defaultValue: .array([]))
        let other = Field(name: "tags", type: .array(items: Field(name: "", type: .int)), isOptional: true)
        #expect(codes(versions([(1, [old], []), (2, [], ["tags"]), (3, [same], [])])).isEmpty)
        #expect(codes(versions([(1, [old], []), (2, [], ["tags"]), (3, [other], [])])) == ["schema-tombstone-reuse"])
        let strings = Field(name: "s", type: .enumeration(.strings(["a"])), isOptional: true)
        let integers = Field(name: "s", type: .enumeration(.integers([1])), isOptional: true)
        #expect(codes(versions([(1, [strings], []), (2, [], ["s"]), (3, [integers], [])])) == ["schema-tombstone-reuse"])
    }

    @Test func removedMustNameAFieldOfThePreviousVersionThatIsGone() {
        let note = Field(name: "note", type: .string, isOptional: true)
        #expect(codes(versions([(1, [], ["note"])])) == ["schema-removed-unknown"])
        #expect(codes(versions([(1, [], []), (2, [], ["note"])])) == ["schema-removed-unknown"])
        #expect(codes(versions([(1, [note], []), (2, [note], ["note"])])) == ["schema-removed-unknown"])
        #expect(codes(versions([(1, [note], []), (2, [], ["note", "note"])])) == ["schema-duplicate-name"])
    }

    @Test func removedAttributeIsTombstonedInAttributes() {
        let schema = Schema(activity: "a", versions: [
            SchemaVersion(version: 1, contentState: [], attributes: [Field(name: "id", type: .string)]),
            SchemaVersion(version: 2, contentState: [], removed: ["id"]),
            SchemaVersion(version: 3, contentState: [Field(name: "id", type: .int, isOptional: true)], attributes: [Field(name: "id", type: .int)]),
        ])
        let diagnostics = SchemaValidator.validate(schema)
        #expect(diagnostics.map(\.pointer) == ["/versions/2/attributes/id"])
    }
}

/// `Field.violation(of:)`: the check the decoder and encoder share.
@Suite struct FieldConstraintTests {
    @Test func valueOfTheFieldsTypeWithinConstraintsPasses() {
        #expect(Field(name: "s", type: .string, constraints: .init(maxLength: 2)).violation(of: .string("ab")) == nil)
        #expect(Field(name: "i", type: .int, constraints: .init(minimum: 0, maximum: 3)).violation(of: .int(3)) == nil)
        #expect(Field(name: "d", type: .double, constraints: .init(minimum: -1)).violation(of: .double(-1)) == nil)
        #expect(Field(name: "b", type: .bool).violation(of: .bool(false)) == nil)
        #expect(Field(name: "t", type: .date, constraints: .init(maximum: 10)).violation(of: .date(10)) == nil)
        #expect(Field(name: "r", type: .dateRange).violation(of: .dateRange(lower: 1, upper: 1)) == nil)
        #expect(Field(name: "u", type: .url).violation(of: .string("https://example.com/a?b=c")) == nil)
        #expect(Field(name: "u", type: .url).violation(of: .string("mailto:a@example.com")) == nil)
        #expect(Field(name: "e", type: .enumeration(.integers([1, 2]))).violation(of: .int(2)) == nil)
        #expect(Field(name: "n", type: .string, isOptional: true).violation(of: .null) == nil)
    }

    /// A relative reference is a URL to the app's `URL` (`URL(string:)` reads it), so a `url`
    /// field holds it, as a default too.
    @Test func aRelativeReferenceIsAURL() {
        let field = Field(name: "u", type: .url)
        for string in ["/track/1", "orders?id=2", "#top", "x/y?z"] {
            #expect(field.violation(of: .string(string)) == nil, "\(string)")
        }
    }

    @Test func maxLengthCountsUTF8Bytes() {
        let field = Field(name: "title", type: .string, constraints: .init(maxLength: 64))
        #expect(field.violation(of: .string(String(repeating: "a", count: 64))) == nil)
        #expect(field.violation(of: .string(String(repeating: "a", count: 63) + "é")) == "65 bytes is longer than max-length 64")
    }

    @Test(arguments: [
        (Field(name: "i", type: .int, constraints: .init(minimum: 1)), Value.int(0), "0 is less than minimum 1"),
        (Field(name: "d", type: .double, constraints: .init(maximum: 1)), Value.double(1.5), "1.5 is greater than maximum 1"),
        (Field(name: "d", type: .double), Value.double(.nan), "nan is not a finite number"),
        (Field(name: "t", type: .date, constraints: .init(minimum: 0)), Value.date(-1), "-1 is less than minimum 0"),
        (Field(name: "r", type: .dateRange), Value.dateRange(lower: 2, upper: 1), "the date-range's lower bound 2 is after its upper bound 1"),
        (Field(name: "u", type: .url), Value.string("https://a b"), "'https://a b' is not a URL on any iOS: iOS 16 refuses a space at byte 9, and from iOS 17 URL(string:) parses by RFC 3986, which refuses it"),
        (Field(name: "u", type: .url), Value.string("https://x.com/a b"),
         "'https://x.com/a b' is no URL on iOS 16 (min-ios 16.1): URL(string:) there refuses a space at byte 15, which iOS 17 and later percent-encode; send 'https://x.com/a%20b'"),
        (Field(name: "e", type: .enumeration(.strings(["a", "b"]))), Value.string("c"), "the string 'c' is not one of a, b"),
        (Field(name: "e", type: .enumeration(.strings(["1"]))), Value.int(1), "the integer 1 is not one of 1"),
        (Field(name: "s", type: .string), Value.int(1), "expected a string, found the integer 1"),
        (Field(name: "d", type: .double), Value.int(1), "expected a number, found the integer 1"),
        (Field(name: "s", type: .string), Value.null, "null, but the field is not optional"),
    ])
    func valueOutsideTheFieldIsAViolation(_ field: Field, _ value: Value, _ message: String) {
        #expect(field.violation(of: value) == message)
    }

    @Test func arraysCheckCountAndEveryElement() {
        let field = Field(name: "tags", type: .array(items: Field(name: "", type: .string, constraints: .init(maxLength: 2))), constraints: .init(maxItems: 2))
        #expect(field.violation(of: .array([.string("a"), .string("bb")])) == nil)
        #expect(field.violation(of: .array([.string("a"), .string("b"), .string("c")])) == "3 items is more than max-items 2")
        #expect(field.violation(of: .array([.string("a"), .string("bbb")])) == "/1: 3 bytes is longer than max-length 2")
        #expect(field.violation(of: .array([.null])) == "/0: null, but the field is not optional")
    }

    @Test func objectsCheckMembersAndRequiredFields() {
        let field = Field(name: "courier", type: .object(fields: [
            Field(name: "name", type: .string),
            Field(name: "phone", type: .string, isOptional: true),
            Field(name: "stops", type: .array(items: Field(name: "", type: .object(fields: [Field(name: "city", type: .string, constraints: .init(maxLength: 3))]))), defaultValue: .array([])),
        ]))
        #expect(field.violation(of: .object([Value.Member("name", .string("A")), Value.Member("phone", .null)])) == nil)
        #expect(field.violation(of: .object([Value.Member("phone", .null)])) == "missing required member 'name'")
        #expect(field.violation(of: .object([Value.Member("name", .string("A")), Value.Member("x", .null)])) == "unknown member 'x'")
        #expect(field.violation(of: .object([Value.Member("name", .string("A")), Value.Member("name", .string("B"))])) == "member 'name' appears twice")
        let deep = Value.object([
            Value.Member("name", .string("A")),
            Value.Member("stops", .array([.object([Value.Member("city", .string("Oslo"))])])),
        ])
        #expect(field.violation(of: deep) == "/stops/0/city: 4 bytes is longer than max-length 3")
    }
}
