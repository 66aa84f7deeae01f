import Testing
@testable import LiveState
import LiveStateTooling

@Suite struct CompatibilityCheckerTests {
    // MARK: One fixture per rule

    @Test(arguments: compatibilityCases)
    func fixtureProducesItsRule(_ fixture: CompatibilityCase) throws {
        let findings = fixture.findings()
        let finding = try #require(
            findings.first { $0.rule == fixture.rule.id && $0.pointer == fixture.pointer && $0.scope == fixture.scope },
            "found \(findings.map { "\($0.rule) \($0.pointer)" })")
        #expect(finding.severity == fixture.severity)
        #expect(finding.readerVersion == fixture.reader)
        #expect(finding.writerVersion == fixture.writer)
        #expect(finding.direction == (fixture.reader < fixture.writer ? .oldAppReadsNew : .newAppReadsOld))
        #expect(finding.message.hasPrefix("app v\(fixture.reader) reading v\(fixture.writer)") || finding.message.hasPrefix("v\(fixture.writer)"))
    }

    @Test func everyCatalogRuleIsProducedByAFixture() {
        let produced = Set(compatibilityCases.flatMap { $0.findings().map(\.rule) })
        let missing = CompatibilityRule.catalog.map(\.id).filter { !produced.contains($0) }
        #expect(missing.isEmpty, "rules without a fixture: \(missing)")
    }

    @Test func catalogIdsAreUniqueAndKebabCase() {
        let ids = CompatibilityRule.catalog.map(\.id)
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.allSatisfy { $0.isLowercase || $0 == "-" }, "\(id)")
            #expect(CompatibilityRule.rule(id: id)?.id == id)
        }
        #expect(CompatibilityRule.catalog.allSatisfy { !$0.summary.isEmpty && !$0.reasoning.isEmpty })
    }

    @Test func findingsUseOnlyCatalogRules() {
        let ids = Set(CompatibilityRule.catalog.map(\.id))
        for fixture in compatibilityCases {
            for finding in fixture.findings() {
                #expect(ids.contains(finding.rule), "\(finding.rule)")
            }
        }
    }

    // MARK: Messages

    /// A message quotes a field by its name, as `lint` does, not by its pointer's escaped
    /// token: the field `a/b~c` was called `'a~1b~0c'`, which is the name of the other field
    /// here. The pointers stay RFC 6901's.
    @Test func messagesQuoteFieldNamesAsTheyAreSpelled() {
        let schema = compatSchema([F.string("title")], [F.string("title"), F.string("a/b~c", default: ""), F.string("a~1b~0c", default: "")])
        let added = CompatibilityChecker().findings(schema, reader: 1, writer: 2).filter { $0.rule == "field-added-ignored" }
        #expect(added.map(\.pointer) == ["/a~1b~0c", "/a~01b~00c"])
        #expect(added.map(\.message) == [
            "app v1 reading v2 payloads: 'a/b~c' was added in v2; app v1 ignores it",
            "app v1 reading v2 payloads: 'a~1b~0c' was added in v2; app v1 ignores it",
        ])
    }

    // MARK: Pairs and directions

    @Test func findingsForAPairCoverBothDirections() {
        let schema = compatSchema([F.string("title"), F.string("badge", default: "")], [F.string("title")])
        let findings = CompatibilityChecker().findings(schema, from: 1, to: 2)
        #expect(findings.map(\.rule) == ["field-removed-defaulted", "field-removed-ignored"])
        #expect(findings.map(\.direction) == [.oldAppReadsNew, .newAppReadsOld])
        #expect(findings.map(\.readerVersion) == [1, 2])
        #expect(CompatibilityChecker().findings(schema, from: 2, to: 1) == findings)
    }

    @Test func unknownOrEqualVersionsHaveNoFindings() {
        let schema = compatSchema([F.string("title")], [F.int("title")])
        #expect(CompatibilityChecker().findings(schema, from: 1, to: 1).isEmpty)
        #expect(CompatibilityChecker().findings(schema, from: 1, to: 9).isEmpty)
    }

    @Test func fieldRemovedThenReturningWithAnotherTypePassesForwardButFailsForwardTransitive() {
        let schema = compatSchema(
            [F.string("title"), F.int("code", default: 0, rejectsInvalid: true)],
            [F.string("title")],
            [F.string("title"), F.string("code", default: "")])
        let checker = CompatibilityChecker()

        let forward = checker.check(schema, mode: .forward)
        #expect(forward.pairs.map(\.description) == ["app v1 reads v2", "app v2 reads v3"])
        #expect(forward.passes(failOn: .error))
        #expect(forward.findings.map(\.rule) == ["field-removed-defaulted", "field-added-ignored"])

        let transitive = checker.check(schema, mode: .forwardTransitive)
        #expect(transitive.pairs.map(\.description) == ["app v1 reads v2", "app v1 reads v3", "app v2 reads v3"])
        #expect(!transitive.passes(failOn: .error))
        let failure = transitive.findings.filter { $0.severity == .error }
        #expect(failure.map(\.rule) == ["type-changed"])
        #expect(failure.first?.readerVersion == 1 && failure.first?.writerVersion == 3)
        #expect(failure.first?.pointer == "/code")
    }

    @Test func tombstoneReuseIsReportedOnceWhereTheNameReturns() {
        let schema = compatSchema(
            [F.string("title"), F.int("code", default: 0)], [F.string("title")], [F.string("title"), F.string("code", default: "")],
            removed: [[], ["code"]])
        for mode in [CompatibilityMode.forward, .forwardTransitive, .fullTransitive] {
            let reuse = CompatibilityChecker().check(schema, mode: mode).findings.filter { $0.rule == "tombstone-reuse" }
            #expect(reuse.count == 1, "\(mode)")
            #expect(reuse.first?.writerVersion == 3)
        }
        #expect(CompatibilityChecker().check(schema, mode: .backward).findings.allSatisfy { $0.rule != "tombstone-reuse" })
    }

    @Test func tombstonedNameReturningWithItsOldTypeIsAllowed() {
        let schema = compatSchema(
            [F.int("code", default: 0)], [F.string("title", default: "")], [F.int("code", default: 0)], removed: [[], ["code"]])
        #expect(CompatibilityChecker().check(schema, mode: .fullTransitive).findings.allSatisfy { $0.rule != "tombstone-reuse" })
    }

    @Test func strictFindingsApplyOnlyWhereTheStrictVersionReads() {
        let schema = compatSchema([F.string("title")], [F.string("title", default: "")], strict: [1])
        let forward = CompatibilityChecker().check(schema, mode: .forward)
        #expect(forward.findings.map(\.rule) == ["strict-client-omittable-key"])
        #expect(!forward.passes())
        let backward = CompatibilityChecker().check(schema, mode: .backward)
        #expect(backward.findings.isEmpty)
        #expect(backward.passes(failOn: .warning))
    }

    @Test func strictReaderDropsAnyTypeChangeThatIsNotAPromotion() {
        let schema = compatSchema(
            [F.int("count", default: 0), F.double("ratio", default: 0)],
            [F.double("count", default: 0), F.int("ratio", default: 0)], strict: [2])
        let findings = CompatibilityChecker().findings(schema, reader: 2, writer: 1).filter { $0.rule.hasPrefix("type-") }
        #expect(findings.map(\.rule) == ["type-changed-compatible", "type-narrowed"])
        #expect(findings.map(\.severity) == [.info, .error])
    }

    @Test func checkWithoutModeUsesTheSchemasCompatibility() {
        var schema = compatSchema([F.string("title")], [F.string("title"), F.string("orderId")])
        schema.compatibility = .backward
        let report = CompatibilityChecker().check(schema)
        #expect(report.mode == .backward)
        #expect(report.pairs == [CompatibilityPair(readerVersion: 2, writerVersion: 1)])
        #expect(report.findings.map(\.rule) == ["field-added-without-default"])
        #expect(CompatibilityChecker().check(schema, mode: CompatibilityMode.none).pairs.isEmpty)
    }

    @Test func checkOfOnePairReadsTheWaysTheModeSays() {
        let schema = compatSchema([F.string("title")], [F.string("title"), F.string("orderId")], [F.string("title")])
        let checker = CompatibilityChecker()
        #expect(checker.check(schema, from: 1, to: 3).pairs.map(\.description) == ["app v1 reads v3", "app v3 reads v1"])
        #expect(checker.check(schema, from: 3, to: 1, mode: .forward).pairs.map(\.description) == ["app v1 reads v3"])
        #expect(checker.check(schema, from: 1, to: 3, mode: .backwardTransitive).pairs.map(\.description) == ["app v3 reads v1"])
        #expect(checker.check(schema, from: 1, to: 3, mode: CompatibilityMode.none).pairs.isEmpty)
    }

    // MARK: Pointers and positions

    @Test func nestedFieldsHaveNestedPointersAndArrayElementsTheDashToken() {
        let item = { (maxLength: Int) in
            Field(name: "", type: .object(fields: [F.string("name", default: "", maxLength: maxLength)]))
        }
        let v1 = [Field(name: "items", type: .array(items: item(16)), defaultValue: .array([]), constraints: .init(maxItems: 4)),
                  Field(name: "courier", type: .object(fields: [F.string("name", default: "", maxLength: 16)]), defaultValue: .object([.init("name", .string(""))]))]
        let v2 = [Field(name: "items", type: .array(items: item(32)), defaultValue: .array([]), constraints: .init(maxItems: 4)),
                  Field(name: "courier", type: .object(fields: [F.string("name", default: "", maxLength: 32)]), defaultValue: .object([.init("name", .string(""))]))]
        let findings = CompatibilityChecker().findings(compatSchema(v1, v2), reader: 1, writer: 2)
        #expect(findings.map(\.pointer) == ["/items/-/name", "/courier/name"])
        #expect(findings.allSatisfy { $0.rule == "constraint-loosened" && $0.severity == .warning })
        // The element's name falls back; the courier's name falls back to its own default.
        #expect(findings[0].message.contains("'items/-/name' takes its default"))
    }

    @Test func membersOfArrayElementsAreCheckedForPresenceAndInvalidElementsInvalidateTheArray() {
        let items = { (fields: [Field]) in
            Field(name: "subs", type: .array(items: Field(name: "", type: .object(fields: fields), isOptional: true)),
                  defaultValue: .array([]), constraints: .init(maxItems: 5))
        }
        let schema = compatSchema([items([F.string("original")])], [items([F.string("original"), F.string("replacement")])])
        let added = CompatibilityChecker().findings(schema, reader: 2, writer: 1)
        #expect(added.map(\.rule) == ["field-added-without-default"])
        #expect(added.first?.pointer == "/subs/-/replacement")
        #expect(added.first?.severity == .warning)
        #expect(added.first?.message.contains("'subs' takes its default") == true)

        let madeRequired = compatSchema([items([F.string("original", optional: true)])], [items([F.string("original")])])
        #expect(CompatibilityChecker().findings(madeRequired, reader: 2, writer: 1).map(\.rule) == ["field-made-required"])
    }

    /// A field whose null takes its default (`on-null: default`) takes a null as a missing key:
    /// a payload may carry null where its own version takes it, and a reader without the rule
    /// calls it invalid.
    @Test func aNullThatTakesTheDefaultIsComparedAsTheReaderReadsIt() {
        var nullTakesDefault = F.int("home", default: 0, rejectsInvalid: true)
        nullTakesDefault.nullTakesDefault = true
        let plain = F.int("home", default: 0, rejectsInvalid: true)
        let optional = Field(name: "home", type: .int, isOptional: true)
        let checker = CompatibilityChecker()
        // The writer's app reads null as 0; the reader's refuses it.
        let refused = checker.findings(compatSchema([nullTakesDefault], [plain]), reader: 2, writer: 1)
        #expect(refused.map(\.rule) == ["field-made-required"])
        #expect(refused.first?.severity == .error)
        #expect(refused.first?.message == "app v2 reading v1 payloads: 'home' reads null as its default in v1 (on-null: default) and not in v2: a missing key takes v2's default, but null is invalid; app v2 drops the update", "\(refused)")
        // The reader takes what either writer sends.
        #expect(checker.findings(compatSchema([nullTakesDefault], [plain]), reader: 1, writer: 2).isEmpty)
        #expect(checker.findings(compatSchema([nullTakesDefault, nullTakesDefault]), reader: 2, writer: 1).isEmpty)
        // An optional writer's null is the reader's default, not a refusal.
        let fromOptional = checker.findings(compatSchema([optional], [nullTakesDefault]), reader: 2, writer: 1)
        #expect(fromOptional.map(\.rule) == ["default-changed"], "\(fromOptional)")
        // Without the rule, the same reader refuses the optional writer's null.
        #expect(checker.findings(compatSchema([optional], [plain]), reader: 2, writer: 1).map(\.rule) == ["field-made-required"])
    }

    /// "makes" takes the consequence with its verbs bare: "makes app v1 drop the update", and,
    /// for a member of an object with a default, "makes 'courier' take its default".
    @Test func aFieldMadeOptionalSaysWhatAMissingKeyMakesTheOlderAppDo() {
        let required = Field(name: "r2o", type: .int)
        let optional = Field(name: "r2o", type: .int, isOptional: true)
        let checker = CompatibilityChecker()
        let dropped = checker.findings(compatSchema([required], [optional]), reader: 1, writer: 2)
        #expect(dropped.map(\.message) == ["app v1 reading v2 payloads: 'r2o' is optional in v2 and required in v1: a payload without it (or with null) makes app v1 drop the update"])
        let courier = { (member: Field) in
            Field(name: "courier", type: .object(fields: [member]), defaultValue: .object([.init("r2o", .int(0))]))
        }
        let fellBack = checker.findings(compatSchema([courier(required)], [courier(optional)]), reader: 1, writer: 2)
        #expect(fellBack.map(\.message) == ["app v1 reading v2 payloads: 'courier/r2o' is optional in v2 and required in v1: a payload without it (or with null) makes 'courier' take its default in app v1"])
    }

    @Test func invalidNestedValueWithoutDefaultFallsBackToTheEnclosingField() {
        let courier = { (type: FieldType) in
            Field(name: "courier", type: .object(fields: [Field(name: "rating", type: type)]), defaultValue: .object([.init("rating", .int(0))]))
        }
        let findings = CompatibilityChecker().findings(compatSchema([courier(.int)], [courier(.bool)]), reader: 1, writer: 2)
        #expect(findings.map(\.rule) == ["type-changed"])
        #expect(findings.first?.severity == .warning)
        #expect(findings.first?.message.contains("'courier' takes its default") == true)
    }

    @Test func positionIsTheNewerFieldsKeyOrTheOlderOneForRemovals() {
        var old = F.string("badge", default: "")
        old.position = SourcePosition(offset: 0, line: 10, column: 7)
        var kept = F.string("title", maxLength: 32)
        kept.position = SourcePosition(offset: 0, line: 9, column: 7)
        var newer = F.string("title", maxLength: 64)
        newer.position = SourcePosition(offset: 0, line: 20, column: 7)
        var schema = compatSchema([kept, old], [newer])
        schema.file = "s.yaml"
        let findings = CompatibilityChecker().findings(schema, from: 1, to: 2)
        let loosened = findings.first { $0.rule == "constraint-loosened" }
        #expect(loosened?.position?.line == 20)
        #expect(loosened?.file == "s.yaml")
        let removed = findings.first { $0.rule == "field-removed-defaulted" }
        #expect(removed?.position?.line == 10)
        #expect(removed?.diagnostic.description == "s.yaml:10:7: warning: app v1 reading v2 payloads: 'badge' was removed in v2; app v1 shows its default \"\" forever (at /badge) [field-removed-defaulted]")
    }

    // MARK: Defaults, elision and sizes

    @Test func objectDefaultsDifferingOnlyThroughMembersAreReportedAtTheMember() {
        let courier = { (name: String) in
            Field(name: "courier", type: .object(fields: [F.string("name", default: name)]), defaultValue: .object([.init("name", .string(name))]))
        }
        let findings = CompatibilityChecker().findings(compatSchema([courier("a")], [courier("b")]), reader: 1, writer: 2)
        #expect(findings.map(\.pointer) == ["/courier/name"])
        #expect(findings.map(\.rule) == ["default-changed"])
    }

    @Test func defaultsEqualAsJSONNumbersAreNotChanged() {
        let schema = compatSchema([F.int("count", default: 0)], [F.double("count", default: 0)])
        #expect(CompatibilityChecker().findings(schema, from: 1, to: 2).allSatisfy { $0.rule != "default-changed" })
    }

    /// The budget is each live version's own: measured once per version, after the pairs'
    /// findings, whatever pairs the mode reads (a schema of one version, the newest under
    /// `backward`), with the version as its own reader; not under `none`, which checks nothing.
    @Test func budgetFindingsAreEveryLiveVersionsOnce() {
        let note = F.string("note", optional: true, maxLength: nil)
        let schema = compatSchema([note], [note], [note])
        let report = CompatibilityChecker().check(schema, mode: .fullTransitive)
        let unbounded = report.findings.filter { $0.rule == "unbounded-size" }
        #expect(unbounded.map(\.writerVersion) == [1, 2, 3])
        #expect(unbounded.allSatisfy { $0.readerVersion == $0.writerVersion && $0.message.hasPrefix("v\($0.writerVersion) payloads: ") })
        let big = F.string("big", default: "", maxLength: 5000)
        let alone = compatSchema([big])
        let newest = compatSchema([F.string("a")], [F.string("a"), big])
        for (schema, mode) in [(alone, CompatibilityMode.backward), (newest, .backward), (newest, .forward)] {
            let sizes = CompatibilityChecker().check(schema, mode: mode).findings.filter { $0.rule == "worst-case-size-over-budget" }
            #expect(sizes.map(\.writerVersion) == [schema.versions.count], "\(mode)")
            #expect(sizes.first?.severity == .error)
        }
        #expect(CompatibilityChecker().check(newest, mode: CompatibilityMode.none).findings.isEmpty)
        // One pair: the versions the pair's ways write.
        #expect(CompatibilityChecker().check(newest, from: 1, to: 2, mode: .backward).findings.allSatisfy { $0.rule != "worst-case-size-over-budget" })
        #expect(CompatibilityChecker().check(newest, from: 1, to: 2, mode: .forward).findings.contains { $0.rule == "worst-case-size-over-budget" })
    }

    /// A fleet weighs a version's budget findings by every device (APNs refuses the body for
    /// all), so `--max-drop` does not let an oversized version pass; and a field a reader only
    /// ignores is not a fallback to defaults.
    @Test func aFleetWeighsBudgetFindingsByEveryDevice() throws {
        let schema = compatSchema([F.string("a", maxLength: 50)], [F.string("a", maxLength: 50), F.string("b", default: "", maxLength: 5000)])
        let fleet = Fleet(devices: [1: 10, 2: 990])
        let report = CompatibilityChecker().check(schema, mode: .forward).weighed(by: fleet, maxDrop: try #require(FleetThreshold("5%")))
        let size = try #require(report.findings.first { $0.rule == "worst-case-size-over-budget" })
        #expect(size.severity == .error)
        #expect(size.message.hasSuffix("(every app version: 100% of devices (1,000 of 1,000), refused)"), "\(size.message)")
        #expect(report.fleet?.dropping == 1000)
        #expect(report.fleet?.accepted == false)
        let unbounded = compatSchema([F.string("a", maxLength: 50)], [F.string("a", maxLength: 50), F.string("b", default: "", maxLength: nil)])
        let weighed = CompatibilityChecker().check(unbounded, mode: .forward).weighed(by: fleet, maxDrop: try #require(FleetThreshold("5%")))
        let risk = try #require(weighed.findings.first { $0.rule == "unbounded-size" })
        // A bound, not a reading some devices get wrong: not "at risk", which the summary's
        // count (0 here) means.
        #expect(risk.message.hasSuffix("(every app version: 100% of devices (1,000 of 1,000), should a payload reach that size)"), "\(risk.message)")
        #expect(weighed.fleet?.degraded == 0)
        // A version no device runs breaks nothing: its errors are warnings that say so, as
        // `lint --fleet` words them (they stayed errors, "0% of devices … broken").
        let empty = Fleet(devices: [1: 0, 2: 1000])
        let strict = compatSchema([F.string("a"), F.string("b")], [F.string("a")], strict: [1])
        let none = CompatibilityChecker().check(strict, mode: .forward).weighed(by: empty, maxDrop: .noDrop)
        #expect(!none.findings.isEmpty && none.findings.allSatisfy { $0.severity < .error }, "\(none.findings.map(\.message))")
        #expect(none.findings.contains { $0.message.hasSuffix("(no device of app v1 in the fleet reads it)") }, "\(none.findings.map(\.message))")
    }

    /// A strict reader (synthesized `Codable`) holds `nil` for a missing optional key, whatever
    /// default the schema gives it.
    @Test func aStrictReaderHoldsNullForAMissingOptionalWhateverItsDefault() {
        let optional = Field(name: "od", type: .int, defaultValue: .int(4), isOptional: true)
        let schema = compatSchema([F.int("k"), optional], [F.int("k")], strict: [1])
        let removed = CompatibilityChecker().check(schema, mode: .forward).findings.first { $0.rule == "field-removed-defaulted" }
        #expect(removed?.message.hasSuffix("'od' was removed in v2; app v1 shows null forever") == true, "\(String(describing: removed?.message))")
        let tolerant = compatSchema([F.int("k"), optional], [F.int("k")])
        #expect(CompatibilityChecker().check(tolerant, mode: .forward).findings.contains { $0.message.hasSuffix("shows its default 4 forever") })
    }

    @Test func byteBudgetIsAnOption() {
        let schema = compatSchema([F.string("title")], [F.string("title", maxLength: 100)])
        let small = CompatibilityChecker(options: .init(byteBudget: 64)).findings(schema, reader: 1, writer: 2)
        #expect(small.contains { $0.rule == "worst-case-size-over-budget" && $0.message.contains("is 112 bytes, over the 64-byte budget") })
        #expect(!CompatibilityChecker().findings(schema, reader: 1, writer: 2).contains { $0.rule == "worst-case-size-over-budget" })
    }

    // MARK: Report and gate

    @Test func reportPassesBelowFailOn() {
        let schema = compatSchema([F.string("title"), F.string("badge", default: "")], [F.string("title")])
        let report = CompatibilityChecker().check(schema, mode: .forward)
        #expect(report.count(.warning) == 1)
        #expect(report.passes(failOn: .error))
        #expect(!report.passes(failOn: .warning))
        #expect(report.diagnostics.map(\.code) == ["field-removed-defaulted"])
        #expect(report.summary == "fixture: forward, 1 pair: 0 errors, 1 warning, 0 infos")
    }

    @Test func gateReturnsWarningsAndErrorsOfEverySchema() {
        let first = compatSchema([F.string("title"), F.string("badge", default: "")], [F.string("title"), F.string("eta", default: "")])
        var second = compatSchema([F.string("title")], [F.string("title"), F.string("orderId")])
        second.activity = "second"
        second.compatibility = .backward
        let diagnostics = CompatibilityGate.run([first, second], mode: nil)
        #expect(diagnostics.map(\.code) == ["field-removed-defaulted", "field-added-without-default"])
        #expect(CompatibilityGate.run([first, second], mode: .forward).map(\.code) == ["field-removed-defaulted"])
        #expect(CompatibilityGate.run([first], mode: nil, minimumSeverity: .info).count == 2)
    }
}
