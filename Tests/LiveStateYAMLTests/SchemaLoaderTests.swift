import Foundation
import Glibc
import LiveState
import LiveStateTooling
import LiveStateYAML
import LiveStateTestSupport
import Testing

/// Paths of the fixtures the test target copies.
enum Fixtures {
    static func root() throws -> URL {
        try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    }

    static func path(_ relative: String) throws -> String {
        try root().appendingPathComponent(relative).path
    }
}

/// One invalid fixture and the first diagnostic it must produce.
struct InvalidFixture: Sendable, CustomTestStringConvertible {
    var name: String
    var code: DiagnosticCode
    var line: Int?
    var column: Int?
    var limits = SchemaLoader.Limits()

    init(_ name: String, _ code: DiagnosticCode, _ line: Int?, _ column: Int?, limits: SchemaLoader.Limits = .init()) {
        self.name = name
        self.code = code
        self.line = line
        self.column = column
        self.limits = limits
    }

    var testDescription: String { name }
}

@Suite struct SchemaLoaderTests {
    // MARK: Invalid fixtures

    static let invalidFixtures: [InvalidFixture] = [
        InvalidFixture("schema-io-over-limit", .schemaIO, nil, nil, limits: .init(maxFileBytes: 64)),

        InvalidFixture("yaml-syntax-unclosed-flow", .yamlSyntax, 4, 1),
        InvalidFixture("yaml-syntax-bad-indentation", .yamlSyntax, 6, 6),
        InvalidFixture("yaml-syntax-undefined-alias", .yamlSyntax, 5, 14),
        InvalidFixture("yaml-syntax-two-documents", .yamlSyntax, 5, 1),
        InvalidFixture("yaml-syntax-recursive-alias", .yamlSyntax, 5, 5),
        InvalidFixture("yaml-syntax-invalid-utf8", .yamlSyntax, 5, 43),
        InvalidFixture("yaml-syntax-utf16", .yamlSyntax, 1, 1),
        InvalidFixture("yaml-syntax-binary", .yamlSyntax, 1, 1),
        InvalidFixture("yaml-syntax-merge-not-a-mapping", .yamlSyntax, 5, 41),
        InvalidFixture("yaml-syntax-merge-twice", .yamlSyntax, 8, 7),
        InvalidFixture("yaml-syntax-yaml-1-1-directive", .yamlSyntax, 1, 1),

        InvalidFixture("yaml-limit-deep-nesting", .yamlLimit, 5, 70),
        InvalidFixture("yaml-limit-alias-bomb", .yamlLimit, 7, 39),
        InvalidFixture("yaml-limit-too-many-versions", .yamlLimit, 8, 5, limits: .init(maxVersions: 2)),

        InvalidFixture("schema-unknown-key-top-level", .schemaUnknownKey, 2, 1),
        InvalidFixture("schema-unknown-key-field", .schemaUnknownKey, 5, 30),
        InvalidFixture("schema-unknown-key-version", .schemaUnknownKey, 4, 5),
        InvalidFixture("schema-unknown-key-items-default", .schemaUnknownKey, 5, 51),

        InvalidFixture("schema-missing-key-activity", .schemaMissingKey, 1, 1),
        InvalidFixture("schema-missing-key-versions", .schemaMissingKey, 1, 1),
        InvalidFixture("schema-missing-key-type", .schemaMissingKey, 5, 7),
        InvalidFixture("schema-missing-key-version-number", .schemaMissingKey, 3, 5),
        InvalidFixture("schema-missing-key-content-state", .schemaMissingKey, 3, 5),

        InvalidFixture("schema-wrong-type-max-length", .schemaWrongType, 5, 42),
        InvalidFixture("schema-wrong-type-versions-mapping", .schemaWrongType, 2, 11),
        InvalidFixture("schema-wrong-type-field-scalar", .schemaWrongType, 5, 14),
        InvalidFixture("schema-wrong-type-optional-yes", .schemaWrongType, 5, 39),
        InvalidFixture("schema-wrong-type-on-null-value", .schemaWrongType, 5, 47),
        InvalidFixture("schema-wrong-type-compatibility", .schemaWrongType, 2, 16),
        InvalidFixture("schema-wrong-type-version-string", .schemaWrongType, 3, 14),
        InvalidFixture("schema-wrong-type-tag", .schemaWrongType, 5, 14),

        InvalidFixture("schema-unknown-type-float", .schemaUnknownType, 5, 22),
        InvalidFixture("schema-unknown-type-items", .schemaUnknownType, 5, 45),

        InvalidFixture("schema-invalid-default-quoted-int", .schemaInvalidDefault, 5, 36),
        InvalidFixture("schema-invalid-default-float-for-int", .schemaInvalidDefault, 5, 36),
        InvalidFixture("schema-invalid-default-max-length", .schemaInvalidDefault, 5, 54),
        InvalidFixture("schema-invalid-default-below-minimum", .schemaInvalidDefault, 5, 66),
        InvalidFixture("schema-invalid-default-object-missing-required", .schemaInvalidDefault, 7, 18),
        InvalidFixture("schema-invalid-default-unknown-sub-field", .schemaInvalidDefault, 7, 20),
        InvalidFixture("schema-invalid-default-enum-not-member", .schemaInvalidDefault, 5, 63),
        InvalidFixture("schema-invalid-default-enum-kind", .schemaInvalidDefault, 5, 57),
        InvalidFixture("schema-invalid-default-fallback", .schemaInvalidDefault, 5, 82),
        InvalidFixture("schema-invalid-default-null-required", .schemaInvalidDefault, 5, 39),
        InvalidFixture("schema-invalid-default-date-range-order", .schemaInvalidDefault, 5, 35),
        InvalidFixture("schema-invalid-default-infinity", .schemaInvalidDefault, 5, 42),
        InvalidFixture("schema-invalid-default-array-element", .schemaInvalidDefault, 5, 83),

        InvalidFixture("schema-duplicate-name-field", .schemaDuplicateName, 7, 7),
        InvalidFixture("schema-duplicate-name-alias", .schemaDuplicateName, 6, 42),
        InvalidFixture("schema-duplicate-name-strict", .schemaDuplicateName, 3, 18),
        InvalidFixture("schema-duplicate-name-key", .schemaDuplicateName, 5, 43),

        InvalidFixture("schema-tombstone-reuse-next-version", .schemaTombstoneReuse, 11, 7),
        InvalidFixture("schema-tombstone-reuse-accumulated", .schemaTombstoneReuse, 16, 7),

        InvalidFixture("schema-removed-unknown-in-a-later-version", .schemaRemovedUnknown, 11, 15),
        InvalidFixture("schema-removed-unknown-not-in-previous", .schemaRemovedUnknown, 7, 15),
        InvalidFixture("schema-removed-unknown-still-present", .schemaRemovedUnknown, 7, 15),
        InvalidFixture("schema-removed-unknown-first-version", .schemaRemovedUnknown, 4, 15),

        InvalidFixture("schema-version-order-decreasing", .schemaVersionOrder, 5, 14),
        InvalidFixture("schema-version-order-duplicate", .schemaVersionOrder, 5, 14),
        InvalidFixture("schema-version-order-zero", .schemaVersionOrder, 3, 14),

        InvalidFixture("schema-activity-mismatch-name", .schemaActivityMismatch, 1, 11),

        InvalidFixture("schema-invalid-constraint-min-over-max", .schemaInvalidConstraint, 5, 42),
        InvalidFixture("schema-invalid-constraint-negative-max-length", .schemaInvalidConstraint, 5, 42),
        InvalidFixture("schema-invalid-constraint-max-length-on-int", .schemaInvalidConstraint, 5, 39),
        InvalidFixture("schema-invalid-constraint-values-empty", .schemaInvalidConstraint, 5, 29),
        InvalidFixture("schema-invalid-constraint-values-mixed", .schemaInvalidConstraint, 5, 37),
        InvalidFixture("schema-invalid-constraint-enum-without-values", .schemaInvalidConstraint, 5, 17),
        InvalidFixture("schema-invalid-constraint-values-on-string", .schemaInvalidConstraint, 5, 30),
        InvalidFixture("schema-invalid-constraint-array-without-items", .schemaInvalidConstraint, 5, 15),
        InvalidFixture("schema-invalid-constraint-object-without-fields", .schemaInvalidConstraint, 5, 18),
        InvalidFixture("schema-invalid-constraint-truncate-on-int", .schemaInvalidConstraint, 5, 37),
        InvalidFixture("schema-invalid-constraint-truncate-nested", .schemaInvalidConstraint, 5, 118),
        InvalidFixture("schema-invalid-constraint-fractional-int-bound", .schemaInvalidConstraint, 5, 32),
        InvalidFixture("schema-invalid-name-attributes-type", .schemaInvalidName, 2, 18),
        InvalidFixture("schema-invalid-constraint-strict-unknown-version", .schemaInvalidConstraint, 3, 15),
        InvalidFixture("schema-invalid-constraint-drop-priority-required", .schemaInvalidConstraint, 5, 45),
        InvalidFixture("schema-invalid-constraint-on-null-without-default", .schemaInvalidConstraint, 5, 35),
        InvalidFixture("schema-invalid-constraint-on-null-optional", .schemaInvalidConstraint, 5, 48),

        InvalidFixture("schema-empty-empty-file", .schemaEmpty, 1, 1),
        InvalidFixture("schema-empty-comments-only", .schemaEmpty, 1, 1),
        InvalidFixture("schema-empty-tab-and-comments", .schemaEmpty, 1, 1),
        InvalidFixture("schema-empty-no-versions", .schemaEmpty, 2, 11),
    ]

    @Test(arguments: invalidFixtures)
    func invalidFixtureReportsCodeLineAndColumn(_ fixture: InvalidFixture) throws {
        let path = try Fixtures.path("invalid/\(fixture.name).yaml")
        let error = try #require(throws: SchemaLoadError.self) {
            try SchemaLoader(limits: fixture.limits).load(contentsOf: path)
        }
        let first = try #require(error.diagnostics.first)
        #expect(first.code == fixture.code, "\(error)")
        #expect(first.position?.line == fixture.line, "\(error)")
        #expect(first.position?.column == fixture.column, "\(error)")
        for diagnostic in error.diagnostics {
            #expect(diagnostic.severity == .error)
            #expect(diagnostic.scope == .schema)
            #expect(diagnostic.file == path)
            #expect(diagnostic.pointer != nil)
            #expect(DiagnosticCode.schemaCodes.contains(diagnostic.code))
            #expect(!diagnostic.message.isEmpty)
        }
    }

    /// Every invalid fixture's findings as `check` prints them (line:column, message, pointer,
    /// code), pinned in `Fixtures/invalid.rendered.txt`.
    @Test func everyInvalidFixturesFindingsAreWordedAndPlacedAsCommitted() throws {
        var text = ""
        for fixture in Self.invalidFixtures {
            let name = "invalid/\(fixture.name).yaml"
            let path = try Fixtures.path(name)
            text += "== \(name)\n"
            do {
                _ = try SchemaLoader(limits: fixture.limits).load(contentsOf: path)
                text += "(loads)\n"
            } catch {
                for var diagnostic in error.diagnostics {
                    diagnostic.file = name
                    text += diagnostic.description + "\n"
                }
            }
        }
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/invalid.rendered.txt")
        try Golden.check(text, at: golden, update: "LIVESTATE_UPDATE_GOLDEN", rerun: "swift test --filter SchemaLoaderTests")
    }

    @Test func everyInvalidFixtureIsInTheTableAndEveryCodeHasOne() throws {
        let directory = try Fixtures.path("invalid")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".yaml") }
            .map { String($0.dropLast(".yaml".count)) }
        #expect(Set(files) == Set(Self.invalidFixtures.map(\.name)))
        for code in DiagnosticCode.schemaCodes {
            #expect(Self.invalidFixtures.contains { $0.code == code && $0.name.hasPrefix(code.rawValue + "-") }, "no fixture for \(code.rawValue)")
        }
    }

    @Test func positionsAgreeWithByteOffsets() throws {
        for fixture in Self.invalidFixtures {
            let path = try Fixtures.path("invalid/\(fixture.name).yaml")
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            do {
                _ = try SchemaLoader(limits: fixture.limits).load(contentsOf: path)
            } catch {
                for position in error.diagnostics.compactMap(\.position) {
                    #expect(SourcePosition.locate(offset: position.offset, in: bytes) == position, "\(fixture.name)")
                }
            }
        }
    }

    // MARK: Good fixtures

    @Test func deliveryFixtureLoadsIntoTheExpectedModel() throws {
        let path = try Fixtures.path("valid/delivery.yaml")
        let schema = try SchemaLoader().load(contentsOf: path)
        #expect(schema.file == path)
        #expect(Self.withoutPositions(schema) == Self.expectedDelivery)
        #expect(schema.versions.map { $0.contentState.map(\.name) } == [
            ["title", "progress", "status", "eta", "courier", "items", "note"],
            ["title", "progress", "status", "eta", "window", "rating", "link", "courier", "items", "live"],
        ])
        let courier = try #require(schema.versions[1].field("courier"))
        #expect(courier.defaultValue == .object([
            Value.Member("name", .string("")),
            Value.Member("phone", .string("+1 555")),
            Value.Member("vehicle", .null),
        ]))
    }

    @Test func deliveryFixtureRecordsPositionsOfKeysAndVersionEntries() throws {
        let schema = try SchemaLoader().load(contentsOf: Fixtures.path("valid/delivery.yaml"))
        func lineColumn(_ position: SourcePosition?) -> [Int]? {
            position.map { [$0.line, $0.column] }
        }
        #expect(lineColumn(schema.versions[0].position) == [7, 5])
        #expect(lineColumn(schema.versions[1].position) == [22, 5])
        #expect(lineColumn(schema.versions[0].field("title")?.position) == [9, 7])
        #expect(lineColumn(schema.versions[0].attributes.first?.position) == [21, 7])
        guard case .object(let fields) = schema.versions[0].field("courier")?.type else {
            Issue.record("courier is not an object")
            return
        }
        #expect(lineColumn(fields.first?.position) == [17, 11])
        guard case .array(let items) = schema.versions[0].field("items")?.type else {
            Issue.record("items is not an array")
            return
        }
        #expect(lineColumn(items.position) == [18, 32])
    }

    @Test func minimalFixtureTakesDefaultsForOmittedKeys() throws {
        let schema = try SchemaLoader().load(contentsOf: Fixtures.path("valid/minimal.yml"))
        #expect(schema.activity == "minimal")
        #expect(schema.compatibility == .forwardTransitive)
        #expect(schema.attributesType == nil)
        #expect(schema.strictClients.isEmpty)
        #expect(schema.versions.map(\.version) == [3])
        #expect(schema.versions[0].contentState.isEmpty)
        #expect(schema.versions[0].attributes.isEmpty)
    }

    static let expectedDelivery = Schema(
        activity: "delivery",
        attributesType: "DeliveryAttributes",
        compatibility: .forwardTransitive,
        strictClients: [1],
        versions: [
            SchemaVersion(
                version: 1,
                contentState: [
                    Field(name: "title", type: .string, defaultValue: .string(""), constraints: .init(maxLength: 64)),
                    Field(name: "progress", type: .double, defaultValue: .double(0), constraints: .init(minimum: 0, maximum: 1)),
                    Field(
                        name: "status", type: .enumeration(.strings(["pending", "delivering", "delivered"])),
                        defaultValue: .string("pending"), fallback: .string("pending")),
                    Field(name: "eta", type: .date, defaultValue: .date(0)),
                    Field(
                        name: "courier",
                        type: .object(fields: [Field(name: "name", type: .string, defaultValue: .string(""))]),
                        defaultValue: .object([Value.Member("name", .string(""))])),
                    Field(
                        name: "items", type: .array(items: Field(name: "", type: .string)),
                        defaultValue: .array([]), constraints: .init(maxItems: 8)),
                    Field(name: "note", type: .string, isOptional: true),
                ],
                attributes: [Field(name: "orderId", type: .string)]),
            SchemaVersion(
                version: 2,
                contentState: [
                    Field(name: "title", type: .string, defaultValue: .string(""), constraints: .init(maxLength: 64), truncate: true, dropPriority: 3),
                    Field(
                        name: "progress", type: .double, defaultValue: .double(0.25), rejectsInvalid: true,
                        constraints: .init(minimum: 0, maximum: 1)),
                    Field(
                        name: "status",
                        type: .enumeration(.strings(["pending", "delivering", "delivered", "cancelled"])),
                        defaultValue: .string("pending"), fallback: .string("pending"), aliases: ["state"],
                        documentation: "Where the order is."),
                    Field(name: "eta", type: .date, defaultValue: .date(7.5)),
                    Field(name: "window", type: .dateRange, defaultValue: .dateRange(lower: 0, upper: 3600), isOptional: true),
                    Field(name: "rating", type: .enumeration(.integers([1, 2, 3, 4, 5])), defaultValue: .int(3)),
                    Field(name: "link", type: .url, defaultValue: .string("https://example.com/track")),
                    Field(
                        name: "courier",
                        type: .object(fields: [
                            Field(name: "name", type: .string, defaultValue: .string("")),
                            Field(name: "phone", type: .string),
                            Field(name: "vehicle", type: .string, isOptional: true, isDeprecated: true),
                        ]),
                        defaultValue: .object([
                            Value.Member("name", .string("")),
                            Value.Member("phone", .string("+1 555")),
                            Value.Member("vehicle", .null),
                        ])),
                    Field(
                        name: "items", type: .array(items: Field(name: "", type: .int, constraints: .init(minimum: 0))),
                        defaultValue: .array([.int(1), .int(2)]), constraints: .init(maxItems: 8)),
                    Field(name: "live", type: .bool, defaultValue: .bool(true)),
                ],
                attributes: [Field(name: "orderId", type: .string)],
                removed: ["note"]),
        ])

    static func withoutPositions(_ schema: Schema) -> Schema {
        var schema = schema
        schema.file = nil
        for index in schema.versions.indices {
            schema.versions[index].position = nil
            schema.versions[index].contentState = schema.versions[index].contentState.map(withoutPositions)
            schema.versions[index].attributes = schema.versions[index].attributes.map(withoutPositions)
        }
        return schema
    }

    static func withoutPositions(_ field: Field) -> Field {
        var field = field
        field.position = nil
        switch field.type {
        case .array(let items): field.type = .array(items: withoutPositions(items))
        case .object(let fields): field.type = .object(fields: fields.map(withoutPositions))
        default: break
        }
        return field
    }
}

/// How the loader reads YAML and reports: scalars, positions, several errors, directories.
@Suite struct SchemaLoaderBehaviourTests {
    private func load(_ text: String, file: String = "-") throws -> Schema {
        try SchemaLoader().load(yaml: Array(text.utf8), file: file)
    }

    private func errors(_ text: String, file: String = "-") throws -> [Diagnostic] {
        try #require(throws: SchemaLoadError.self) {
            try SchemaLoader().load(yaml: Array(text.utf8), file: file)
        }.diagnostics
    }

    private func fields(_ contentState: String) -> String {
        "activity: a\nversions:\n  - version: 1\n    content-state:\n" + contentState
    }

    @Test func reportsEveryErrorInTheFileInFileOrder() throws {
        let diagnostics = try errors(fields("""
                  title: { type: string, maxlength: 3 }
                  count: { type: int, default: "1" }
                  price: { type: float }
                  eta:   { type: date, default: 0, minimum: 10 }
            """))
        #expect(diagnostics.map(\.code) == [
            "schema-unknown-key", "schema-invalid-default", "schema-unknown-type", "schema-invalid-default",
        ])
        #expect(diagnostics.map { $0.position?.line } == [5, 6, 7, 8])
        #expect(diagnostics.map(\.pointer) == [
            "/versions/0/content-state/title/maxlength",
            "/versions/0/content-state/count/default",
            "/versions/0/content-state/price/type",
            "/versions/0/content-state/eta/default",
        ])
    }

    @Test func pointersOfLaterVersionsCountEveryEntryOfTheFile() throws {
        let diagnostics = try errors("""
            activity: a
            versions:
              - content-state: {}
              - version: 2
                content-state:
                  title: { type: string, max-length: 2, default: abc }
            """)
        #expect(diagnostics.map(\.code) == ["schema-missing-key", "schema-invalid-default"])
        #expect(diagnostics.last?.pointer == "/versions/1/content-state/title/default")
        #expect(diagnostics.last?.position?.line == 6)
        #expect(diagnostics.last?.position?.column == 54)
    }

    @Test func aFieldLeftOutForItsOwnErrorCausesNoFollowOnErrors() throws {
        let diagnostics = try errors("""
            activity: a
            clients: { strict: [2] }
            versions:
              - version: 1
                content-state:
                  note: { type: strin }
              - version: 2
                removed: [note]
                content-state: {}
              - version: x
                content-state: {}
            """)
        #expect(diagnostics.map(\.code) == ["schema-unknown-type", "schema-wrong-type"])
    }

    @Test func loadErrorPrintsLikeACompiler() throws {
        let error = try #require(throws: SchemaLoadError.self) {
            try SchemaLoader().load(yaml: Array("activity: b\nversions: {}\n".utf8), file: "schemas/b.yaml")
        }
        #expect(error.description == "schemas/b.yaml:2:11: error: 'versions' must be a sequence of versions (- version: 1 ...), found a mapping (at /versions) [schema-wrong-type]")
    }

    @Test func quotedScalarsAreStringsAndPlainOnesFollowTheCoreSchema() throws {
        let schema = try load(fields("""
                  hex:    { type: int, default: 0x1F }
                  octal:  { type: int, default: 0o17 }
                  signed: { type: int, default: -12 }
                  exp:    { type: double, default: 1e3 }
                  whole:  { type: double, default: 2 }
                  flag:   { type: bool, default: True }
                  text:   { type: string, default: "true" }
                  number: { type: string, default: '12' }
                  yes:    { type: string, default: yes }
                  block:  { type: string, default: "line\\nbreak" }
                  maybe:  { type: int, optional: true, default: ~ }
            """))
        let defaults = schema.versions[0].contentState.map(\.defaultValue)
        #expect(defaults == [
            .int(31), .int(15), .int(-12), .double(1000), .double(2), .bool(true),
            .string("true"), .string("12"), .string("yes"), .string("line\nbreak"), .null,
        ])
    }

    @Test func plainNumbersAreNotStrings() throws {
        let diagnostics = try errors(fields("      version: { type: string, default: 1.0 }\n"))
        #expect(diagnostics.map(\.code) == ["schema-invalid-default"])
        #expect(diagnostics.first?.message.contains("quote it") == true)
    }

    @Test func integerTooLargeForIntIsAnInvalidDefault() throws {
        let diagnostics = try errors(fields("      count: { type: int, default: 99999999999999999999 }\n"))
        #expect(diagnostics.map(\.code) == ["schema-invalid-default"])
    }

    @Test func columnsCountUTF8BytesAndCRLFEndsLines() throws {
        let text = "activity: a\r\nversions:\r\n  - version: 1\r\n    content-state:\r\n      \"naïve\": { type: float }\r\n"
        let diagnostics = try errors(text)
        #expect(diagnostics.map(\.code) == ["schema-unknown-type"])
        // `"naïve": { type: ` is 18 bytes after 6 spaces (ï is 2 bytes), so `float` starts at byte column 25.
        #expect(diagnostics.first?.position?.line == 5)
        #expect(diagnostics.first?.position?.column == 25)
        #expect(diagnostics.first?.pointer == "/versions/0/content-state/naïve/type")
    }

    @Test func byteOrderMarkIsSkippedButCountedInOffsets() throws {
        let schema = try SchemaLoader().load(
            yaml: [0xEF, 0xBB, 0xBF] + Array("activity: a\nversions: [{version: 1, content-state: {t: {type: int}}}]\n".utf8),
            file: "a.yaml")
        #expect(schema.versions[0].contentState.first?.position == SourcePosition(offset: 55, line: 2, column: 41))
        // On line 1, columns start after the mark, as an editor shows them: `wrong` is at column 11.
        let error = try #require(throws: SchemaLoadError.self) {
            try SchemaLoader().load(yaml: [0xEF, 0xBB, 0xBF] + Array("activity: wrong\nversions: []\n".utf8), file: "a.yaml")
        }
        #expect(error.diagnostics.first?.position == SourcePosition(offset: 13, line: 1, column: 11))
        // A reader error on line 1 too: the tab at byte 3 is column 1.
        let tab = try #require(throws: SchemaLoadError.self) {
            try SchemaLoader().load(yaml: [0xEF, 0xBB, 0xBF] + Array("\tactivity: a\n".utf8), file: "a.yaml")
        }
        #expect(tab.diagnostics.first?.position?.line == 1)
        #expect(tab.diagnostics.first?.position?.column == 1)
    }

    /// Lines end where libyaml ends them, and where an editor does: at LF, CR, CRLF, NEL, LS
    /// and PS. A file saved with CR line ends was placed all on line 1.
    @Test func everyLineBreakYAMLKnowsStartsALine() throws {
        for lineBreak in ["\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}"] {
            let text = ["activity: a", "versions:", "  - version: 1", "    content-state:", "      é: { type: nope }", ""].joined(separator: lineBreak)
            let diagnostics = try errors(text)
            #expect(diagnostics.map(\.code) == ["schema-unknown-type"], "\(Array(lineBreak.unicodeScalars))")
            // `é: { type: ` is 12 bytes after 6 spaces, so `nope` starts at byte column 19.
            #expect(diagnostics.first.map { [$0.position?.line, $0.position?.column] } == [5, 19], "\(Array(lineBreak.unicodeScalars))")
        }
    }

    /// A `---` at the end with nothing after it, as tools that join documents write, holds no
    /// second document; one with anything after it, broken or not, is a second document.
    @Test func anEmptyLastDocumentIsNoSecondDocument() throws {
        let schema = "activity: a\nversions: [{version: 1, content-state: {n: {type: int}}}]\n"
        for end in ["---\n", "---\n...\n", "--- # end\n"] {
            #expect(try load(schema + end).versions.count == 1, "\(end)")
        }
        for end in ["---\nx: 1\n", "---\n---\n", "---\n[\n"] {
            let error = try errors(schema + end)
            #expect(error.map(\.code) == ["yaml-syntax"], "\(end)")
            #expect(error.first?.message.hasPrefix("a second YAML document starts here") == true, "\(end)")
            #expect(error.first?.position?.line == 3, "\(end)")
        }
    }

    /// A `%YAML 1.1` directive asks for another reading of `yes`, `off` and `010` than YAML
    /// 1.2's, which the loader gives: it is refused, never read as 1.2 without a word.
    @Test func aYAML11DirectiveIsRefusedAndA12OneIsRead() throws {
        let error = try #require(throws: SchemaLoadError.self) {
            try SchemaLoader().load(yaml: Array("%YAML 1.1\n---\nactivity: a\nversions: [{version: 1, content-state: {n: {type: int, default: 010}}}]\n".utf8), file: "a.yaml")
        }
        #expect(error.diagnostics.map(\.code) == [.yamlSyntax])
        #expect(error.diagnostics.first?.message.hasPrefix("the document declares %YAML 1.1, and LiveState reads YAML 1.2") == true)
        let schema = try load("%YAML 1.2\n---\nactivity: a\nversions: [{version: 1, content-state: {n: {type: int, default: 010}}}]\n")
        #expect(schema.versions[0].field("n")?.defaultValue == .int(10))
    }

    /// What an author meant and YAML 1.2 reads otherwise is named as written: `1_000` is a
    /// string, `1e400` is past a `Double`, and `café` in two spellings is one key to Swift.
    @Test func valuesReadOtherwiseThanMeantAreNamedAsWritten() throws {
        let enumError = try errors(fields("      size: { type: enum, values: [500, 1_000, 2_000] }\n"))
        #expect(enumError.map(\.pointer) == ["/versions/0/content-state/size/values/1"])
        #expect(enumError.first?.message == "values of enum field 'size' mix strings and integers: '1_000' is a string "
            + "(YAML 1.2 has no digit separators: write the digits alone, as in 1000)")
        let defaultError = try errors(fields("      n: { type: int, default: 1_000 }\n"))
        #expect(defaultError.first?.message.hasSuffix("found the string '1_000' (YAML 1.2 has no digit separators: write the digits alone, as in 1000)") == true)
        let bound = try errors(fields("      n: { type: int, minimum: 1_000 }\n"))
        #expect(bound.first?.message.hasSuffix("found the string '1_000' (YAML 1.2 has no digit separators: write the digits alone, as in 1000)") == true, "\(bound)")
        // A string field takes `1_000` as the string it is.
        #expect(try load(fields("      n: { type: string, default: 1_000 }\n")).versions[0].field("n")?.defaultValue == .string("1_000"))

        let huge = try errors(fields("      d: { type: double, default: 1e400 }\n"))
        #expect(huge.first?.message.hasSuffix("found the number 1e400, past a Double's range") == true)
        let infinity = try errors(fields("      d: { type: double, default: .inf }\n"))
        #expect(infinity.first?.message.hasSuffix("found the number .inf") == true)

        // `!!float 1` is 1.0, which an `int` refuses.
        let float = try errors(fields("      n: { type: int, default: !!float 1 }\n"))
        #expect(float.first?.message.hasSuffix("expected an integer, found the number 1.0") == true)
        // A key with no value: the finding is at the key, not at the `,` after it.
        let empty = try errors(fields("      n: { type: int, optional, default: 1 }\n"))
        #expect(empty.first.map { [$0.position?.line, $0.position?.column] } == [5, 23], "\(empty)")
        #expect(empty.first?.pointer == "/versions/0/content-state/n/optional")

        let twice = try errors(fields("      caf\u{E9}: { type: int }\n      cafe\u{301}: { type: int }\n"))
        #expect(twice.map(\.code) == ["schema-duplicate-name"])
        #expect(twice.first?.message.contains("compare them by Unicode canonical equivalence") == true)
        let sameBytes = try errors(fields("      a: { type: int }\n      a: { type: int }\n"))
        #expect(sameBytes.first?.message.contains("canonical") == false)
    }

    /// An integer past `Int` is read in its own base: `0xFFFFFFFFFFFFFFFF` is `UInt64.max`,
    /// as its decimal spelling is, and an octal bound past it is a number, not dropped.
    @Test func integersPastIntAreReadInTheirBase() throws {
        let schema = try load("""
            activity: a
            versions:
              - version: 1
                content-state:
                  dec: { type: int, format: uint64, default: 18446744073709551615 }
                  hex: { type: int, format: uint64, default: 0xFFFFFFFFFFFFFFFF }
                  oct: { type: int, format: uint64, default: 0o1777777777777777777777 }
                  big: { type: double, maximum: 0o1777777777777777777777777 }
            """)
        for name in ["dec", "hex", "oct"] {
            #expect(schema.versions[0].field(name)?.defaultValue == .uint(.max), "\(name)")
        }
        #expect(schema.versions[0].field("big")?.constraints.maximum == 0x1p73 - 1)
    }

    /// An integer bound a `Double` does not hold is refused where it is written, with the two
    /// it could be: rounded, `minimum: 9007199254740993` let 9007199254740992 through, and
    /// `minimum: 9223372036854775807` (read as 2^63) refused a default of 9223372036854775807
    /// with a bound the file never wrote (the ugly-input audit's M3). Bounds a `Double` holds
    /// load as before.
    @Test func anIntegerBoundADoubleDoesNotHoldIsRefused() throws {
        let diagnostics = try errors(fields("""
                  n: { type: int, minimum: 9007199254740993 }
                  d: { type: int, default: 9223372036854775807, minimum: 9223372036854775807 }
            """))
        #expect(diagnostics.map(\.code) == ["schema-invalid-constraint", "schema-invalid-constraint"], "\(diagnostics)")
        #expect(diagnostics.map(\.pointer) == ["/versions/0/content-state/n/minimum", "/versions/0/content-state/d/minimum"])
        #expect(diagnostics.first?.message.hasSuffix("so it would be 9007199254740992; write 9007199254740992 or 9007199254740994") == true,
                "\(diagnostics)")
        #expect(diagnostics.last?.message.hasSuffix("so it would be 9223372036854775808; write 9223372036854774784 or 9223372036854775808") == true)
        // Past `Int64`, a `uint64`'s bound alike (it let 9223372036854775808 through).
        let unsigned = try errors(fields("      u: { type: int, format: uint64, minimum: 9223372036854775809 }\n"))
        #expect(unsigned.first?.message.hasSuffix("so it would be 9223372036854775808; write 9223372036854775808 or 9223372036854777856") == true,
                "\(unsigned)")
        let held = try SchemaLoader().load(yaml: Array(fields("      n: { type: int, minimum: 9007199254740992, maximum: 9223372036854774784 }\n").utf8), file: "-")
        #expect(held.versions[0].field("n")?.constraints.maximum == 9223372036854774784)
    }

    /// A tab where indentation goes is named as one: libyaml says only that a character
    /// "cannot start any token" (the ugly-input audit's L8).
    @Test func aTabIndentIsNamed() throws {
        let diagnostics = try errors("activity: a\nversions:\n\t- version: 1\n")
        #expect(diagnostics.map(\.code) == ["yaml-syntax"])
        #expect(diagnostics.first?.message.hasSuffix("; it is a tab, and YAML indents with spaces only") == true, "\(diagnostics)")
        #expect(diagnostics.first?.position?.line == 3 && diagnostics.first?.position?.column == 1)
    }

    @Test func pointerTokensAreEscaped() throws {
        let diagnostics = try errors(fields("      \"a/b~c\": { type: nope }\n"))
        #expect(diagnostics.first?.pointer == "/versions/0/content-state/a~1b~0c/type")
        #expect(diagnostics.first?.position?.line == 5)
    }

    @Test func stdinNameSkipsTheActivityCheck() throws {
        #expect(try load("activity: anything\nversions: [{version: 1, content-state: {}}]\n", file: "-").activity == "anything")
        let mismatch = try errors("activity: anything\nversions: [{version: 1, content-state: {}}]\n", file: "dir/other.yml")
        #expect(mismatch.map(\.code) == ["schema-activity-mismatch"])
    }

    /// The stem is the name without its extension, whichever it is: `pizza.txt` is `pizza`.
    @Test func theStemDropsAnyExtension() throws {
        #expect(try load("activity: pizza\nversions: [{version: 1, content-state: {}}]\n", file: "dir/pizza.txt").activity == "pizza")
        let mismatch = try errors("activity: pizza\nversions: [{version: 1, content-state: {}}]\n", file: "dir/pizza.v2.txt")
        #expect(mismatch.map(\.message) == ["activity 'pizza' differs from the file's stem 'pizza.v2'"])
    }

    @Test func nullOnlyDefaultsAnOptionalField() throws {
        let schema = try load(fields("      note: { type: string, optional: true, default: null }\n"))
        #expect(schema.versions[0].contentState.first?.missingValue == .null)
    }

    @Test func arrayOfObjectsDefaultResolvesEachElement() throws {
        let schema = try load(fields("""
                  stops:
                    type: array
                    items:
                      type: object
                      fields:
                        city: { type: string }
                        done: { type: bool, default: false }
                    default: [{ city: Oslo }, { city: Rome, done: true }]
            """))
        #expect(schema.versions[0].contentState.first?.defaultValue == .array([
            .object([Value.Member("city", .string("Oslo")), Value.Member("done", .bool(false))]),
            .object([Value.Member("city", .string("Rome")), Value.Member("done", .bool(true))]),
        ]))
    }

    @Test func duplicateKeysAreFoundAnywhereInTheDocument() throws {
        let diagnostics = try errors("activity: a\nactivity: a\nversions: [{version: 1, version: 2, content-state: {}}]\n")
        #expect(diagnostics.map(\.code) == ["schema-duplicate-name", "schema-duplicate-name"])
        #expect(diagnostics.map { $0.position?.line } == [2, 3])
    }

    @Test func everySchemaCodeIsNamedOnce() {
        #expect(DiagnosticCode.schemaCodes.count == 16)
        #expect(Set(DiagnosticCode.schemaCodes).count == DiagnosticCode.schemaCodes.count)
    }

    // MARK: loadAll

    @Test func loadAllExpandsDirectoriesToSortedYAMLFilesAndCollectsDiagnostics() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-all-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/nested.yaml", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let good = "versions: [{version: 1, content-state: {}}]\n"
        try ("activity: b\n" + good).write(toFile: directory + "/b.yml", atomically: true, encoding: .utf8)
        try ("activity: a\n" + good).write(toFile: directory + "/a.yaml", atomically: true, encoding: .utf8)
        try "activity: c\nversions: {}\n".write(toFile: directory + "/c.yaml", atomically: true, encoding: .utf8)
        try "not a schema".write(toFile: directory + "/notes.txt", atomically: true, encoding: .utf8)
        try "garbage: [".write(toFile: directory + "/.hidden.yaml", atomically: true, encoding: .utf8)

        let result = SchemaLoader().loadAll([directory, directory + "/missing.yaml"])
        #expect(result.schemas.map(\.activity) == ["a", "b"])
        #expect(result.schemas.map(\.file) == [directory + "/a.yaml", directory + "/b.yml"])
        #expect(result.diagnostics.map(\.code) == ["schema-wrong-type", "schema-io", "schema-io"])
        #expect(result.diagnostics.map(\.file) == [directory + "/c.yaml", directory + "/nested.yaml", directory + "/missing.yaml"])
    }

    /// A named pipe among a directory's schema files is not read, and said so: one whose writer
    /// stayed open held every load (a server's reloads, and its shutdown) until it closed.
    @Test(.timeLimit(.minutes(1))) func aNamedPipeInADirectoryIsNotReadAndSaidSo() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-fifo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "activity: a\nversions: [{version: 1, content-state: {}}]\n".write(toFile: directory + "/a.yaml", atomically: true, encoding: .utf8)
        #expect(mkfifo(directory + "/b.yaml", 0o600) == 0)
        // A writer that keeps it open (read and write, so the open does not wait for a reader).
        let writer = open(directory + "/b.yaml", O_RDWR | O_NONBLOCK)
        #expect(writer >= 0)
        defer { close(writer) }
        let result = SchemaLoader().loadAll([directory])
        #expect(result.schemas.map(\.activity) == ["a"])
        #expect(result.diagnostics.map { "\($0.severity) \($0.code) \($0.file ?? ""): \($0.message)" }
            == ["warning schema-io \(directory)/b.yaml: is a named pipe, not a schema file, and is not read"])
        // Named on its own, as `<(…)` names one, it is read.
        #expect(SchemaLoader.files(named: [directory]) == [directory + "/a.yaml"])
    }

    @Test func loadAllWarnsAboutADirectoryWithoutSchemas() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-none-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = SchemaLoader().loadAll([directory])
        #expect(result.schemas.isEmpty)
        #expect(result.diagnostics.map(\.code) == ["schema-io"])
        #expect(result.diagnostics.first?.severity == .warning)
    }
}
