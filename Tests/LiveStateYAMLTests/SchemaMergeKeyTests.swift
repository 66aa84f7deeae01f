import LiveState
import LiveStateTooling
import LiveStateYAML
import Testing

/// YAML's merge key (`<<: *base`), as PyYAML, ruamel and yaml-cpp read it, and the top-level
/// `x-` keys a schema file keeps its anchors under: one version's fields written once and
/// merged into the next.
struct SchemaMergeKeyTests {
    private func load(_ yaml: String) throws(SchemaLoadError) -> Schema {
        try SchemaLoader().load(yaml: Array(yaml.utf8), file: "merge.yaml")
    }

    private func names(_ fields: [Field]) -> [String] { fields.map(\.name) }

    /// A schema of two versions: the first's content-state, anchored `&v1`, holds the one
    /// field `field`; the second's holds the one line `second`, which merges it.
    private func twoVersions(_ field: String, then second: String) -> String {
        "activity: merge\nversions:\n  - version: 1\n    content-state: &v1\n      \(field)\n"
            + "  - version: 2\n    content-state:\n      \(second)\n"
    }

    /// `valid/merge.yaml` and the same schema written out whole are one model.
    @Test func aMergedSchemaLoadsAsItsExpandedFormDoes() throws {
        let merged = try SchemaLoader().load(contentsOf: Fixtures.path("valid/merge.yaml"))
        let expanded = try SchemaLoader().load(contentsOf: Fixtures.path("valid/merge-expanded.yaml"))
        #expect(SchemaLoaderTests.withoutPositions(merged).versions == SchemaLoaderTests.withoutPositions(expanded).versions)
        #expect(merged.versions[1].contentState.map(\.name) == ["status", "courier", "live", "title"])
    }

    @Test func aVersionMergesTheFieldsOfTheOneBeforeAndAddsItsOwn() throws {
        let schema = try load("""
            activity: merge
            versions:
              - version: 1
                content-state: &v1
                  title: { type: string, max-length: 64 }
                  count: { type: int, default: 0 }
              - version: 2
                content-state:
                  <<: *v1
                  live: { type: bool, default: false }
            """)
        #expect(names(schema.versions[0].contentState) == ["title", "count"])
        #expect(names(schema.versions[1].contentState) == ["title", "count", "live"])
        #expect(schema.versions[1].field("title")?.constraints.maxLength == 64)
    }

    @Test func aKeyTheMappingStatesWinsOverAMergedOneInItsOwnPlace() throws {
        let schema = try load("""
            activity: merge
            versions:
              - version: 1
                content-state: &v1
                  title: { type: string }
                  count: { type: int, default: 0 }
                  note: { type: string, default: "" }
              - version: 2
                content-state:
                  count: { type: int, default: 5 }
                  <<: *v1
            """)
        // The merged pairs stand where `<<` stands; `count` is the version's own, first.
        #expect(names(schema.versions[1].contentState) == ["count", "title", "note"])
        #expect(schema.versions[1].field("count")?.defaultValue == .int(5))
        #expect(schema.versions[0].field("count")?.defaultValue == .int(0))
    }

    @Test func aSequenceOfMappingsMergesEachAndTheEarlierWins() throws {
        let schema = try load("""
            activity: merge
            x-base: &base
              title: { type: string, default: "base" }
              count: { type: int, default: 1 }
            x-extra: &extra
              title: { type: string, default: "extra" }
              live: { type: bool, default: true }
            versions:
              - version: 1
                content-state:
                  <<: [*base, *extra]
            """)
        #expect(names(schema.versions[0].contentState) == ["title", "count", "live"])
        #expect(schema.versions[0].field("title")?.defaultValue == .string("base"))
    }

    @Test func mergesNestInsideAnchorsObjectsAndAttributes() throws {
        let schema = try load("""
            activity: merge
            x-person: &person
              name: { type: string, default: "" }
            x-common: &common
              courier: { type: object, fields: { <<: *person, phone: { type: string, default: "" } } }
            versions:
              - version: 1
                content-state:
                  <<: *common
                attributes: { <<: *person }
            """)
        guard case .object(let fields) = try #require(schema.versions[0].field("courier")).type else {
            Issue.record("courier is not an object")
            return
        }
        #expect(names(fields) == ["name", "phone"])
        #expect(names(schema.versions[0].attributes) == ["name"])
    }

    @Test func aQuotedMergeKeyIsAFieldNameAndATaggedOneMerges() throws {
        let error = try #require(throws: SchemaLoadError.self) {
            try load(twoVersions("title: { type: string }", then: #""<<": *v1"#))
        }
        // Quoted, it is a key like any other: a field named `<<` with no `type`.
        #expect(error.diagnostics.contains { $0.code == .schemaUnknownKey && $0.pointer == "/versions/1/content-state/<</title" })

        let schema = try load(twoVersions("title: { type: string }", then: "!!merge <<: *v1"))
        #expect(names(schema.versions[1].contentState) == ["title"])
    }

    @Test func aFindingInAMergedFieldPointsAtTheTextWrittenOnce() throws {
        let error = try #require(throws: SchemaLoadError.self) {
            try load(twoVersions("title: { type: string, max-length: -1 }", then: "<<: *v1"))
        }
        let findings = error.diagnostics.filter { $0.code == .schemaInvalidConstraint }
        // Once for each version that has the field, each at the one place it is written.
        #expect(findings.map(\.pointer) == ["/versions/0/content-state/title/max-length", "/versions/1/content-state/title/max-length"])
        #expect(findings.map { $0.position?.line } == [5, 5])
        #expect(findings.map { $0.position?.column } == [42, 42])
    }

    @Test func topLevelKeysStartingWithXAreLeftUnreadAndOnlyThere() throws {
        let schema = try load("""
            activity: merge
            x-notes: anything at all, [unread]
            versions:
              - version: 1
                content-state:
                  title: { type: string }
            """)
        #expect(names(schema.versions[0].contentState) == ["title"])

        let error = try #require(throws: SchemaLoadError.self) {
            try load("""
                activity: merge
                extra: 1
                versions:
                  - version: 1
                    x-notes: none
                    content-state:
                      title: { type: string }
                """)
        }
        let unknown = error.diagnostics.filter { $0.code == .schemaUnknownKey }
        #expect(unknown.map(\.pointer) == ["/extra", "/versions/0/x-notes"])
        #expect(unknown.first?.message.hasSuffix("and any key starting with 'x-'") == true)
        #expect(unknown.last?.message.contains("starting with 'x-'") == false)
    }

    @Test func aMergedMappingsOwnDuplicateIsReportedWhereItIsWritten() throws {
        let error = try #require(throws: SchemaLoadError.self) {
            try load("""
                activity: merge
                x-base: &base
                  title: { type: string }
                  title: { type: int }
                versions:
                  - version: 1
                    content-state:
                      <<: *base
                """)
        }
        // Where the anchor is, and where it is merged: both at the text written once.
        let duplicates = error.diagnostics.filter { $0.code == .schemaDuplicateName }
        #expect(duplicates.map(\.pointer) == ["/x-base/title", "/versions/0/content-state/title"])
        #expect(duplicates.map { $0.position?.line } == [4, 4])

        // A mapping written in place under `<<` is in the tree nowhere else: its duplicate
        // was dropped without a word, where PyYAML and ruamel read the later one.
        let inPlace = try #require(throws: SchemaLoadError.self) {
            try load(twoVersions("title: { type: string }", then: "<<: { live: { type: bool }, live: { type: int } }"))
        }
        #expect(inPlace.diagnostics.map(\.code) == [.schemaDuplicateName], "\(inPlace.diagnostics)")
        #expect(inPlace.diagnostics.first?.pointer == "/versions/1/content-state/live")
    }

    /// A tag on what is written in place under `<<` is checked as any other tag is: the
    /// mapping is in the tree nowhere else, and its `!custom` passed without a word.
    @Test func aTagOnAMappingMergedInPlaceIsChecked() throws {
        for (merge, shown) in [("<<: !custom { live: { type: bool } }", "!custom"), ("<<: !!binary [{ live: { type: bool } }]", "!!binary")] {
            let error = try #require(throws: SchemaLoadError.self) { try load(twoVersions("title: { type: string }", then: merge)) }
            #expect(error.diagnostics.map(\.message) == ["unsupported tag \(shown); schema files use untagged YAML"], "\(merge)")
            #expect(error.diagnostics.first?.position?.line == 8, "\(merge)")
        }
        let schema = try load(twoVersions("title: { type: string }", then: "<<: !!seq [!!map { live: { type: bool } }, *v1]"))
        #expect(names(schema.versions[1].contentState) == ["live", "title"])
    }

    @Test func aMergeOfAliasesCountsTowardTheAliasBound() throws {
        var yaml = "activity: merge\nx-a: &a { " + (0..<50).map { "f\($0): { type: int }" }.joined(separator: ", ") + " }\n"
        yaml += "versions:\n"
        for version in 1...40 {
            yaml += "  - version: \(version)\n    content-state: { <<: [" + Array(repeating: "*a", count: 40).joined(separator: ", ") + "] }\n"
        }
        let error = try #require(throws: SchemaLoadError.self) {
            try SchemaLoader(limits: .init(maxAliasExpansion: 10_000)).load(yaml: Array(yaml.utf8), file: "merge.yaml")
        }
        #expect(error.diagnostics.first?.code == .yamlLimit)
    }
}
