import Foundation
import LiveState
import LiveStateTooling
import LiveStateYAML
import Testing

/// Paths of the compatibility fixtures (in LiveStateTests) and of the bundled schemas.
private enum CompatibilityPaths {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Tests/LiveStateTests/Fixtures/compat")
    static let schemas = packageRoot.appendingPathComponent("schemas")

    /// Every `compat/*.yaml` rule fixture (the golden schema aside).
    static func ruleFixtures() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") && $0 != "golden.yaml" }.sorted()
    }
}

/// What a rule fixture's first line says it produces.
private struct Expectation {
    var reader: Int
    var writer: Int
    var rule: String
    var severity: String
    var pointer: String

    /// Parses `# expect: app 2 reads 1: field-added-with-default info /eta` (`""` is the empty pointer).
    init?(_ line: Substring) {
        let words = line.split(separator: " ")
        guard words.count == 9, words[1] == "expect:", words[2] == "app", words[4] == "reads",
              let reader = Int(words[3]), let writer = Int(words[5].dropLast()) else { return nil }
        self.reader = reader
        self.writer = writer
        rule = String(words[6])
        severity = String(words[7])
        pointer = words[8] == "\"\"" ? "" : String(words[8])
    }
}

@Suite struct CompatibilityYAMLTests {
    /// The one YAML quoting (the YAML report, the rule catalog, the import's schema writer)
    /// writes text libyaml reads back as it was: quotes, backslashes, C0 and C1 controls, DEL,
    /// the line and paragraph separators, the byte-order mark and the noncharacters libyaml
    /// refuses raw, and text beyond ASCII. (The
    /// reports once wrote JSON's escapes, which leave C1 controls and DEL raw.)
    @Test func quotedTextReadsBackAsItWas() throws {
        let text = "a\"b\\c\nd\te\u{1}\r\u{7F}\u{85}\u{9F}\u{2028}\u{2029}\u{FEFF}\u{FFFE}é😀 "
        let yaml = """
            activity: quoting
            versions:
              - version: 1
                content-state:
                  title: { type: string, description: \(yamlScalar(text)) }
            """
        let schema = try SchemaLoader().load(yaml: Array(yaml.utf8), file: "quoting.yaml")
        #expect(schema.versions.first?.contentState.first?.documentation == text)
    }

    /// A schema of the `versions` list given (YAML, indented as under `versions:`).
    static func schema(versions: String, strict: [Int] = []) throws -> Schema {
        let clients = strict.isEmpty ? "" : "clients: { strict: [\(strict.map(String.init).joined(separator: ", "))] }\n"
        let yaml = "activity: pair\n" + clients + "versions:\n" + versions
        return try SchemaLoader().load(yaml: Array(yaml.utf8), file: "pair.yaml")
    }

    /// What a writer of the same type sends that the reader does not decode, beyond its
    /// constraints: a URL an iOS 17 version writes that an iOS 16 one refuses, a number too
    /// small for the reader's `Float` or `Decimal`. `diff` passed both, where `lint` and
    /// JSONDecoder drop the update.
    @Test func aWriterOfTheSameTypeMaySendWhatTheReaderRefuses() throws {
        func findings(_ versions: String, reader: Int = 1, writer: Int = 2) throws -> [CompatibilityFinding] {
            let schema = try Self.schema(versions: versions, strict: [1])
            return CompatibilityChecker().findings(schema, reader: reader, writer: writer).filter { $0.rule == "type-narrowed" }
        }
        let url = """
              - version: 1
                content-state: { link: { type: url } }
              - version: 2
                min-ios: "17.0"
                content-state: { link: { type: url } }
            """
        let urls = try findings(url)
        #expect(urls.map(\.severity) == [.error] && urls.first?.pointer == "/link", "\(urls)")
        #expect(urls.first?.message.contains("v2 runs on iOS 17.0 and later, whose URL(string:) reads strings with a space") == true, "\(urls)")
        // An iOS 17 app reads what an iOS 16 version writes.
        #expect(try findings(url, reader: 2, writer: 1).isEmpty)
        for (format, example) in [("float", "1e-50"), ("decimal", "1e-200")] {
            let tiny = try findings("""
                  - version: 1
                    content-state: { v: { type: double, format: \(format), minimum: 0, maximum: 100 } }
                  - version: 2
                    content-state: { v: { type: double, minimum: 0, maximum: 100 } }
                """)
            #expect(tiny.map(\.severity) == [.error], "\(format): \(tiny)")
            #expect(tiny.first?.message.contains("may send a non-zero number closer to zero than") == true
                && tiny.first?.message.contains("(such as \(example))") == true, "\(tiny)")
            // A writer bounded away from zero, or of the same type, sends no such number.
            for writer in ["{ type: double, minimum: 0.01, maximum: 100 }", "{ type: double, format: \(format), minimum: 0, maximum: 100 }"] {
                #expect(try findings("""
                      - version: 1
                        content-state: { v: { type: double, format: \(format), minimum: 0, maximum: 100 } }
                      - version: 2
                        content-state: { v: \(writer) }
                    """).isEmpty, "\(format) \(writer)")
            }
        }
    }

    /// A `double` or `date` read as an enum of integers with a fallback: the fallback takes an
    /// unlisted whole number, but a number with a fraction is no `Int`, and the update is
    /// dropped (the diff audit's H1: a warning said every other value took the fallback, and the
    /// gate passed). From an `int`, every value is a whole number: the fallback's warning stands.
    @Test func aNumberWithAFractionIsNoEnumRawValueForTheFallbackToTake() throws {
        func findings(_ writer: String) throws -> [CompatibilityFinding] {
            try CompatibilityChecker().findings(Self.schema(versions: """
                  - version: 1
                    content-state: { lvl: \(writer), hist: { type: array, items: \(writer), max-items: 3 } }
                  - version: 2
                    content-state:
                      lvl: { type: enum, values: [1, 2], fallback: 1 }
                      hist: { type: array, items: { type: enum, values: [1, 2], fallback: 1 }, max-items: 3 }
                """), reader: 2, writer: 1).filter { $0.rule == "type-narrowed" }
        }
        for writer in ["{ type: double, minimum: 0, maximum: 9 }", "{ type: date }"] {
            let fractions = try findings(writer)
            #expect(fractions.map(\.severity) == [.error, .error] && fractions.map(\.pointer) == ["/lvl", "/hist/-"], "\(fractions)")
            #expect(fractions.first?.message.hasSuffix("other whole numbers take the fallback 1, but a number with a fraction is no "
                + "integer raw value: for such a value app v2 drops the update") == true, "\(fractions)")
        }
        let whole = try findings("{ type: int, minimum: 0, maximum: 9 }")
        #expect(whole.map(\.severity) == [.warning, .warning], "\(whole)")
        #expect(whole.first?.message.hasSuffix("other values take the fallback 1") == true, "\(whole)")
    }

    /// An object read as a map is bounded by its fields: as many members as it has fields, keys
    /// as long as their names. The map's `max-items` and `max-key-length` were each an error
    /// ("v1 has no max-items") although every object decodes (the diff audit's M1); a bound
    /// the names pass is still one.
    @Test func anObjectReadAsAMapIsBoundedByItsFields() throws {
        func findings(_ bounds: String) throws -> [CompatibilityFinding] {
            try CompatibilityChecker().findings(Self.schema(versions: """
                  - version: 1
                    content-state:
                      scores: { type: object, fields: { home: { type: int, default: 0 }, away: { type: int, default: 0 } } }
                  - version: 2
                    content-state:
                      scores: { type: map, items: { type: int }, \(bounds) }
                """), reader: 2, writer: 1).filter { $0.severity > .info }
        }
        #expect(try findings("max-items: 4, max-key-length: 8").isEmpty)
        #expect(try findings("max-items: 2, max-key-length: 4").isEmpty)
        let short = try findings("max-items: 4, max-key-length: 3")
        #expect(short.map(\.rule) == ["constraint-tightened"] && short.first?.message.contains("v1 allows up to 4 bytes") == true, "\(short)")
        // Too many members is said once (it was a type-narrowed and a constraint-tightened).
        let few = try findings("max-items: 1, max-key-length: 8")
        #expect(few.map(\.rule) == ["constraint-tightened"] && few.first?.message.contains("v1 allows up to 2 items") == true, "\(few)")
    }

    /// The attributes are read from a push-to-start alone: a reader that cannot decode them
    /// drops the start, which its finding says (it said "drops the update", which no attributes
    /// can make it do; the diff audit's L2).
    @Test func whatAReaderOfTheAttributesDropsIsTheStart() throws {
        let schema = try Self.schema(versions: """
              - version: 1
                content-state: { title: { type: string } }
                attributes: { order: { type: string } }
              - version: 2
                content-state: { title: { type: string } }
                attributes: { order: { type: string }, total: { type: string } }
            """, strict: [1])
        let added = CompatibilityChecker().findings(schema, reader: 2, writer: 1).filter { $0.severity == .error }
        #expect(added.map(\.message) == ["app v2 reading v1 payloads: 'total' was added in v2 without a default and is missing from every v1 payload; app v2 drops the push-to-start"],
                "\(added.map(\.message))")
        let strict = CompatibilityChecker().findings(schema, reader: 1, writer: 2)
        #expect(!strict.contains { $0.message.contains("the update") }, "\(strict.map(\.message))")
    }

    /// A writer whose null means its default, read by a version that takes the same default
    /// for the invalid null, loses nothing: an info, not a warning (the diff audit's L5). With
    /// another default, or a reader that rejects the null, it stays a warning or an error.
    @Test func aNullThatMeansTheDefaultTheReaderTakesLosesNothing() throws {
        func severities(_ reader: String) throws -> [Severity] {
            try CompatibilityChecker().findings(Self.schema(versions: """
                  - version: 1
                    content-state: { b: \(reader) }
                  - version: 2
                    content-state: { b: { type: string, default: "y", on-null: default } }
                """), reader: 1, writer: 2).filter { $0.rule == "field-made-optional" }.map(\.severity)
        }
        #expect(try severities(#"{ type: string, default: "y" }"#) == [.info])
        #expect(try severities(#"{ type: string, default: "n" }"#) == [.warning])
        #expect(try severities(#"{ type: string, default: "y", on-invalid: reject }"#) == [.error])
    }

    /// A narrowed type is still held to the reader's bounds: a double up to 100 read as an int
    /// up to 10 drops a whole 50 too, which a finding of its own says (only "numbers with a
    /// fraction" were named; the diff audit's L4).
    @Test func aNarrowedTypeIsStillHeldToTheReadersBounds() throws {
        let findings = try CompatibilityChecker().findings(Self.schema(versions: """
              - version: 1
                content-state: { big: { type: double, minimum: 0, maximum: 100 } }
              - version: 2
                content-state: { big: { type: int, minimum: 0, maximum: 10 } }
            """), reader: 2, writer: 1)
        #expect(findings.map(\.rule) == ["type-narrowed", "constraint-tightened"], "\(findings.map(\.message))")
        #expect(findings.last?.message.hasSuffix("'big' maximum: v2 has maximum 10, v1 allows up to 100; such a value is invalid: app v2 drops the update") == true)
    }

    /// A type that reads every value's kind but whose bounds refuse some is not said to decode
    /// every value, beside the finding that some drop (the diff audit's L3).
    @Test func aCompatibleTypeWithTighterBoundsIsNotSaidToDecodeEveryValue() throws {
        let findings = try CompatibilityChecker().findings(Self.schema(versions: """
              - version: 1
                content-state: { u: { type: string, max-length: 3 } }
              - version: 2
                content-state: { u: { type: enum, values: [red, green] } }
            """), reader: 1, writer: 2)
        #expect(findings.map(\.rule) == ["type-changed-compatible", "constraint-loosened"], "\(findings.map(\.message))")
        #expect(findings.first?.message.hasSuffix("JSON strings, so each value is of a kind it reads, but v1's bounds refuse some (below)") == true,
                "\(findings.map(\.message))")
    }

    /// An enum of integers read as a date shifts its meaning as an int does: `date-epoch-changed`,
    /// a warning, not `type-changed-compatible` (the diff audit's L6).
    @Test func anIntEnumReadAsADateIsAnEpochChange() throws {
        let findings = try CompatibilityChecker().findings(Self.schema(versions: """
              - version: 1
                content-state: { k: { type: enum, values: [1, 2] } }
              - version: 2
                content-state: { k: { type: date } }
            """), reader: 2, writer: 1).filter { $0.severity > .info }
        #expect(findings.map(\.rule) == ["date-epoch-changed"], "\(findings.map(\.message))")
    }

    /// An older version that already lists the newer name among its aliases renamed nothing:
    /// the finding says what it reads, not that it renamed the field.
    @Test func anOlderReaderThatKnowsTheNewerNameIsNotSaidToRenameIt() throws {
        let schema = try Self.schema(versions: """
              - version: 1
                content-state: { subTitle: { type: string, aliases: [subtitle] } }
              - version: 2
                content-state: { subtitle: { type: string, aliases: [subTitle] } }
            """)
        let older = CompatibilityChecker().findings(schema, reader: 1, writer: 2).filter { $0.rule == "field-renamed-alias-known" }
        #expect(older.map(\.message) == ["app v1 reading v2 payloads: v2 payloads carry 'subtitle', which app v1 lists among the aliases of 'subTitle' and reads"])
        let newer = CompatibilityChecker().findings(schema, reader: 2, writer: 1).filter { $0.rule == "field-renamed-alias-known" }
        #expect(newer.first?.message.contains("'subTitle' was renamed 'subtitle' in v2") == true, "\(newer)")
    }

    /// A newer field that takes a name an older version listed as an alias, beside the older
    /// field under its own name, is a new field, not the older one renamed: it takes its
    /// default from older payloads (the gate failed on a false `field-renamed-alias-unknown`).
    @Test func aNewFieldNamedLikeAnOlderAliasIsNotARename() throws {
        let schema = try Self.schema(versions: """
              - version: 1
                content-state: { subtitle: { type: string, aliases: [subTitle] } }
              - version: 2
                content-state: { subtitle: { type: string }, subTitle: { type: int, default: 0 } }
            """)
        let findings = CompatibilityChecker().findings(schema, reader: 2, writer: 1).filter { $0.rule != "unbounded-size" }
        #expect(findings.map(\.rule) == ["field-added-with-default"], "\(findings)")
        #expect(findings.first?.pointer == "/subTitle")
    }

    /// A newer field named like an older version's alias is read under that alias by the older
    /// app when a payload leaves the older field's own name out: of another type, it is
    /// invalid there (diff said "app v1 ignores it", while `lint --version 1` drops the update).
    @Test func aKeyAnOlderAppReadsUnderAnAliasIsComparedAsThatField() throws {
        let schema = try Self.schema(versions: """
              - version: 1
                content-state: { subtitle: { type: string, default: "", on-invalid: reject, aliases: [subTitle] } }
              - version: 2
                content-state: { subtitle: { type: string, optional: true }, subTitle: { type: int, default: 0 } }
            """)
        let findings = CompatibilityChecker().findings(schema, reader: 1, writer: 2).filter { $0.rule != "unbounded-size" }
        let aliasRead = try #require(findings.first { $0.pointer == "/subTitle" }, "\(findings)")
        #expect(aliasRead.rule == "type-changed" && aliasRead.severity == .error, "\(aliasRead)")
        #expect(aliasRead.message == "app v1 reading v2 payloads: v2 payloads that leave out 'subtitle' may carry 'subTitle', which app v1 "
            + "reads under its alias as 'subtitle': it is int in v2 and string in v1, which decodes none of its values; app v1 drops the update")
        // The same type: read as the field, an info.
        let same = try Self.schema(versions: """
              - version: 1
                content-state: { subtitle: { type: string, default: "", aliases: [subTitle] } }
              - version: 2
                content-state: { subtitle: { type: string, default: "" }, subTitle: { type: string, default: "" } }
            """)
        let read = CompatibilityChecker().findings(same, reader: 1, writer: 2).filter { $0.pointer == "/subTitle" && $0.rule != "unbounded-size" }
        #expect(read.map(\.rule) == ["field-renamed-alias-known"], "\(read)")
        // A payload that always carries the older field's own name never reaches the alias.
        let always = try Self.schema(versions: """
              - version: 1
                content-state: { subtitle: { type: string, aliases: [subTitle] } }
              - version: 2
                content-state: { subtitle: { type: string }, subTitle: { type: int, default: 0 } }
            """)
        #expect(CompatibilityChecker().findings(always, reader: 1, writer: 2).filter { $0.pointer == "/subTitle" && $0.rule != "unbounded-size" }
            .map(\.rule) == ["field-added-ignored"])
        // A field that only gained a default is left out only by a server that elides defaults:
        // a warning, unless servers are said to (as for default-changed).
        let elided = try Self.schema(versions: """
              - version: 1
                content-state: { subtitle: { type: string, aliases: [subTitle] } }
              - version: 2
                content-state: { subtitle: { type: string, default: "" }, subTitle: { type: int, optional: true } }
            """)
        for (assumes, severity) in [(false, Severity.warning), (true, .error)] {
            let checker = CompatibilityChecker(options: .init(assumeDefaultElision: assumes))
            let read = checker.findings(elided, reader: 1, writer: 2).filter { $0.pointer == "/subTitle" }
            #expect(read.map(\.rule) == ["type-changed"] && read.map(\.severity) == [severity], "\(assumes): \(read)")
            #expect(read.first?.message.contains("leave out 'subtitle' (a server that elides defaults does) may carry 'subTitle'") == true)
        }
    }

    /// What follows an alias read compares the key's values with the field's rules, and names
    /// the key as read as the field: its bounds and enum values are the key's, not the field's.
    @Test func anAliasReadsFindingsNameTheKeyAsReadAsTheField() throws {
        let schema = try Self.schema(versions: """
              - version: 1
                content-state:
                  s1: { type: string, default: "", max-length: 8, aliases: [s1x] }
                  e1: { type: enum, values: [a, b], default: a, aliases: [e1x] }
              - version: 2
                content-state:
                  s1: { type: string, default: "", max-length: 8 }
                  s1x: { type: string, default: "", max-length: 32 }
                  e1: { type: enum, values: [a, b], default: a }
                  e1x: { type: enum, values: [a, b, c], default: a }
            """)
        let findings = CompatibilityChecker(options: .init(assumeDefaultElision: true)).findings(schema, reader: 1, writer: 2)
        let bound = try #require(findings.first { $0.rule == "constraint-loosened" }, "\(findings.map(\.message))")
        #expect(bound.message == "app v1 reading v2 payloads: 's1x' read as 's1' max-length: v1 has max-length 8, v2 allows up to 32 bytes; "
            + "such a value is invalid: 's1' takes its default in app v1", "\(bound.message)")
        let value = try #require(findings.first { $0.rule == "enum-value-added-without-fallback" }, "\(findings.map(\.message))")
        #expect(value.message.contains("[\"c\"] was added to 'e1x' read as 'e1' in v2"), "\(value.message)")
    }

    /// A pair of versions apart names the versions that added or removed each raw value, not
    /// the pair's newer one ("[\"b\"] was added in v3" of a value v2 added).
    @Test func enumValuesChangedBetweenAPairSayWhichVersionChangedThem() throws {
        let added = try Self.schema(versions: """
              - version: 1
                content-state: { e: { type: enum, values: [a] } }
              - version: 2
                content-state: { e: { type: enum, values: [a, b] } }
              - version: 3
                content-state: { e: { type: enum, values: [a, b, c, d] } }
              - version: 4
                content-state: { e: { type: enum, values: [a, b, c, d] } }
            """)
        let checker = CompatibilityChecker()
        let older = checker.findings(added, reader: 1, writer: 4).filter { $0.rule == "enum-value-added-without-fallback" }
        #expect(older.map(\.message).first?.hasPrefix(#"app v1 reading v4 payloads: ["b", "c", "d"] were added to 'e' in v2 and v3 and are unknown to app v1"#) == true,
                "\(older.map(\.message))")
        let one = checker.findings(added, reader: 2, writer: 4).filter { $0.rule == "enum-value-added-without-fallback" }
        #expect(one.map(\.message).first?.hasPrefix(#"app v2 reading v4 payloads: ["c", "d"] were added to 'e' in v3 and"#) == true, "\(one.map(\.message))")
        let removed = try Self.schema(versions: """
              - version: 1
                content-state: { e: { type: enum, values: [a, b, c] } }
              - version: 2
                content-state: { e: { type: enum, values: [a, b] } }
              - version: 3
                content-state: { e: { type: enum, values: [a] } }
            """)
        let newer = checker.findings(removed, reader: 3, writer: 1).filter { $0.rule == "enum-value-removed-without-fallback" }
        #expect(newer.map(\.message).first?.hasPrefix(#"app v3 reading v1 payloads: ["b", "c"] were removed from 'e' in v2 and v3 and may still come in v1 payloads"#) == true,
                "\(newer.map(\.message))")
    }

    /// A field renamed between the pair's versions is read by its old name in the versions
    /// before the rename: a raw value removed there is said removed in that version (it was
    /// said removed by the pair's newer, whose name the older versions do not have).
    @Test func enumValuesOfARenamedFieldNameTheVersionThatChangedThem() throws {
        let schema = try Self.schema(versions: """
              - version: 1
                content-state: { phase: { type: enum, values: [a, b, x] } }
              - version: 2
                content-state: { phase: { type: enum, values: [a, b] } }
              - version: 3
                content-state: { stage: { type: enum, values: [a, b, c], aliases: [phase] } }
            """)
        let findings = CompatibilityChecker().findings(schema, reader: 3, writer: 1).filter { $0.rule == "enum-value-removed-without-fallback" }
        #expect(findings.map(\.message).first?.contains(#"["x"] was removed from 'stage' in v2 and may still come in v1 payloads"#) == true,
                "\(findings.map(\.message))")
        // Renamed twice: the version between has a third name, followed by its alias (asked by
        // the pair's two names, it lacked the field and was said to have removed the value).
        let chain = try Self.schema(versions: """
              - version: 1
                content-state: { phase: { type: enum, values: [a, b, x] } }
              - version: 2
                content-state: { step: { type: enum, values: [a, b, x], aliases: [phase] } }
              - version: 3
                content-state: { stage: { type: enum, values: [a, b], aliases: [step, phase] } }
            """)
        let renamed = CompatibilityChecker().findings(chain, reader: 3, writer: 1).filter { $0.rule.hasPrefix("enum-value-removed") }
        #expect(renamed.map(\.message).first?.contains(#"["x"] was removed from 'stage' in v3 and"#) == true, "\(renamed.map(\.message))")
    }

    /// A `float` field's own bounds are worded as the greatest `Float`, not the midpoint past it
    /// that the loader holds them at.
    @Test func aFloatsOwnBoundsAreWordedAsTheGreatestFloat() throws {
        let schema = try Self.schema(versions: """
              - version: 1
                content-state: { ratio: { type: double } }
              - version: 2
                content-state: { ratio: { type: double, format: float } }
            """, strict: [2])
        let messages = CompatibilityChecker().findings(schema, reader: 2, writer: 1).filter { $0.rule == "constraint-tightened" }.map(\.message)
        #expect(messages.count == 2, "\(messages)")
        #expect(messages.first?.contains("v2 has minimum -3.4028235e+38, v1 has no minimum") == true, "\(messages)")
        #expect(messages.last?.contains("v2 has maximum 3.4028235e+38, v1 has no maximum") == true, "\(messages)")
        // A `Decimal`'s, as the greatest `Decimal`, exactly.
        let decimal = try Self.schema(versions: """
              - version: 1
                content-state: { price: { type: double } }
              - version: 2
                content-state: { price: { type: double, format: decimal } }
            """, strict: [2])
        let decimalMessages = CompatibilityChecker().findings(decimal, reader: 2, writer: 1).filter { $0.rule == "constraint-tightened" }.map(\.message)
        #expect(decimalMessages.last?.contains("v2 has maximum 3.40282366920938463463374607431768211455e+165, v1 has no maximum") == true,
                "\(decimalMessages)")
    }

    /// A rename an older app does not know is as severe as a removal with the same outcome: a
    /// warning where the app shows its default or loses an optional value, an error where it
    /// drops the update (a required field, a strict client's non-optional one).
    @Test func aRenameIsAsSevereAsTheRemovalItIsToTheOlderApp() throws {
        let schema = try Self.schema(versions: """
              - version: 1
                content-state:
                  title: { type: string, default: "" }
                  note: { type: string, optional: true }
                  code: { type: string }
              - version: 2
                content-state:
                  heading: { type: string, default: "", aliases: [title] }
                  remark: { type: string, optional: true, aliases: [note] }
                  label: { type: string, aliases: [code] }
            """, strict: [])
        let renames = CompatibilityChecker().findings(schema, reader: 1, writer: 2).filter { $0.rule == "field-renamed-alias-unknown" }
        #expect(renames.map(\.pointer) == ["/heading", "/remark", "/label"], "\(renames)")
        #expect(renames.map(\.severity) == [.warning, .warning, .error], "\(renames)")
        let strict = try Self.schema(versions: """
              - version: 1
                content-state: { note: { type: string, optional: true }, code: { type: string } }
              - version: 2
                content-state: { remark: { type: string, optional: true, aliases: [note] }, label: { type: string, aliases: [code] } }
            """, strict: [1])
        let strictRenames = CompatibilityChecker().findings(strict, reader: 1, writer: 2).filter { $0.rule == "field-renamed-alias-unknown" }
        #expect(strictRenames.map(\.severity) == [.warning, .error], "\(strictRenames)")
        #expect(strictRenames.first?.message.hasSuffix("which has no aliases, and loses the value") == true, "\(strictRenames)")
    }

    @Test(arguments: CompatibilityPaths.ruleFixtures())
    func yamlRuleFixtureProducesItsRuleAtTheFieldsKey(_ name: String) throws {
        let path = CompatibilityPaths.fixtures.appendingPathComponent(name).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let firstLine = try #require(text.split(separator: "\n").first)
        if firstLine.hasPrefix("# expect-load-error: ") {
            let code = firstLine.dropFirst("# expect-load-error: ".count)
            #expect(throws: SchemaLoadError.self) { try SchemaLoader().load(contentsOf: path) }
            do {
                _ = try SchemaLoader().load(contentsOf: path)
            } catch {
                #expect(error.diagnostics.map(\.code.rawValue).contains(String(code)))
            }
            return
        }
        let expectation = try #require(Expectation(firstLine), "bad expect line in \(name)")
        let schema = try SchemaLoader().load(contentsOf: path)
        let findings = CompatibilityChecker().findings(schema, reader: expectation.reader, writer: expectation.writer)
        let finding = try #require(
            findings.first { $0.rule == expectation.rule && $0.pointer == expectation.pointer },
            "\(name): found \(findings.map(\.description))")
        #expect(finding.severity.rawValue == expectation.severity)
        #expect(finding.file == path)
        #expect((finding.position?.line ?? 0) > 1)
        #expect(name == expectation.rule + ".yaml")
    }

    @Test func loadedGoldenSchemaRendersTheGoldenReports() throws {
        var schema = try SchemaLoader().load(contentsOf: CompatibilityPaths.fixtures.appendingPathComponent("golden.yaml").path)
        schema.file = "golden.yaml"
        let report = CompatibilityChecker().check(schema)
        let golden = CompatibilityPaths.fixtures.appendingPathComponent("golden")
        for (format, file) in [(CompatibilityReportFormat.text, "report.txt"), (.json, "report.json"), (.yaml, "report.yaml"),
                               (.markdown, "report.md"), (.github, "report.github.txt")] {
            let expected = try String(contentsOf: golden.appendingPathComponent(file), encoding: .utf8)
            #expect(report.rendered(as: format) == expected, "\(file)")
        }
    }
}

/// The bundled example schemas under their own `compatibility:` gates.
@Suite struct BundledSchemaCompatibilityTests {
    private func report(_ name: String, mode: CompatibilityMode? = nil) throws -> CompatibilityReport {
        let schema = try SchemaLoader().load(contentsOf: CompatibilityPaths.schemas.appendingPathComponent(name + ".yaml").path)
        return CompatibilityChecker().check(schema, mode: mode)
    }

    private func errors(_ report: CompatibilityReport) -> [String] {
        report.findings.filter { $0.severity == .error }.map { "\($0.readerVersion)<-\($0.writerVersion) \($0.rule) \($0.pointer)" }
    }

    @Test func deliveryFailsBecauseStrictVersionOneCannotReadVersionsTwoAndThree() throws {
        let report = try report("delivery")
        #expect(report.mode == .forwardTransitive)
        #expect(!report.passes())
        #expect(errors(report) == [
            "1<-2 strict-client-omittable-key /logo", "1<-2 field-renamed-alias-unknown /subtitle", "1<-2 strict-client-omittable-key /progress",
            "1<-3 strict-client-omittable-key /logo", "1<-3 field-renamed-alias-unknown /subtitle", "1<-3 strict-client-omittable-key /progress",
        ])
        let warnings = report.findings.filter { $0.severity == .warning }.map { "\($0.readerVersion)<-\($0.writerVersion) \($0.rule) \($0.pointer)" }
        #expect(warnings == ["2<-3 constraint-loosened /courier/name"])
    }

    @Test func flashSalePassesWithInformationOnly() throws {
        let report = try report("flash-sale")
        #expect(report.passes(failOn: .warning))
        #expect(report.findings.map(\.rule) == ["field-added-ignored", "field-added-ignored", "field-added-ignored"])
    }

    @Test func groceryFailsOnlyForStrictVersionOne() throws {
        let report = try report("grocery")
        #expect(!report.passes())
        #expect(errors(report).count == 8)
        #expect(report.findings.filter { $0.severity == .error }.allSatisfy { $0.readerVersion == 1 && $0.rule == "strict-client-omittable-key" })
        #expect(report.findings.filter { $0.severity == .warning }.map(\.rule) == ["field-removed-defaulted"])
    }

    @Test func matchScoreFailsFullOnTheDefaultedScoreAndFullTransitiveOnItsRemoval() throws {
        let full = try report("match-score")
        #expect(full.mode == .full)
        #expect(errors(full) == ["1<-2 strict-client-omittable-key /score"])
        let transitive = try report("match-score", mode: .fullTransitive)
        #expect(errors(transitive) == ["1<-2 strict-client-omittable-key /score", "1<-3 field-removed-strict-client /score"])
    }

    @Test func pizzaPassesWithWarningsForDefaultsVersionOneRequires() throws {
        let report = try report("pizza")
        #expect(report.passes())
        #expect(!report.passes(failOn: .warning))
        #expect(report.findings.filter { $0.severity == .warning }.map(\.pointer) == ["/name", "/status"])
        let elided = CompatibilityChecker(options: .init(assumeDefaultElision: true)).check(
            try SchemaLoader().load(contentsOf: CompatibilityPaths.schemas.appendingPathComponent("pizza.yaml").path))
        #expect(!elided.passes())
    }

    @Test func gateOverEveryBundledSchemaReportsOnlyStrictClientErrors() throws {
        let paths = try FileManager.default.contentsOfDirectory(atPath: CompatibilityPaths.schemas.path)
            .filter { $0.hasSuffix(".yaml") }.sorted().map { CompatibilityPaths.schemas.appendingPathComponent($0).path }
        let (schemas, loadDiagnostics) = SchemaLoader().loadAll(paths)
        #expect(loadDiagnostics.isEmpty)
        let diagnostics = CompatibilityGate.run(schemas, mode: nil)
        #expect(diagnostics.filter { $0.severity == .error }.count == 6 + 8 + 1)
        #expect(diagnostics.allSatisfy { $0.severity != .info })
    }
}
