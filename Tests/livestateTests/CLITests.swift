import Foundation
import Glibc
import LiveStateTestSupport
import Testing

/// The built `livestate` binary (`LivestateBinary`), with this target's fixtures.
struct CLI {
    typealias Result = LivestateBinary.Result
    static let packageRoot = LivestateBinary.packageRoot
    static var binary: URL { LivestateBinary.url }

    static func fixture(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/livestateTests/Fixtures/\(name)").path
    }

    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        try LivestateBinary.run(arguments, stdin: stdin, environment: environment)
    }

    static func json(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any])
    }
}

@Suite struct CheckCommandTests {
    @Test func bundledSchemasLoadAndThreeFailTheirGatesOnPurpose() throws {
        let result = try CLI.run(["check", "schemas"])
        #expect(result.status == 1, "\(result.stderr)")
        for activity in ["delivery", "grocery", "match-score"] {
            #expect(result.stdout.contains("schemas/\(activity).yaml: \(activity) loads"))
            #expect(result.stdout.contains("\(activity) loads (versions") && result.stdout.contains("fails its"))
        }
        #expect(result.stdout.contains("schemas/delivery.yaml:32:7: error: app v1 reading v2 payloads: v2 payloads carry 'subtitle'"))
        #expect(result.stdout.contains("[field-renamed-alias-unknown]"))
        for activity in ["flash-sale", "pizza"] {
            #expect(result.stdout.contains("\(activity) loads (versions 1, 2) and passes its forward-transitive gate"))
            #expect(try CLI.run(["check", "schemas/\(activity).yaml"]).status == 0)
        }
    }

    /// `--fail-on` takes info too, and every command's help says so (help text is wrapped, so
    /// it is compared with its white space as single spaces).
    @Test(arguments: [["check"], ["diff"], ["budget"], ["lint"], ["decode"], ["encode"], ["codegen"]])
    func failOnHelpNamesEverySeverity(_ command: [String]) throws {
        let result = try CLI.run(command + ["--help"])
        let help = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let expected = command == ["codegen"] ? "Taken as the other commands take it, with no effect: codegen writes its output (exit 0) or fails (exit 2)."
            : "The lowest severity that makes the exit status 1: info, warning or error."
        #expect(help.contains(expected) && help.contains("(values: info, warning, error; default: error)"), "\(result.stdout)")
    }

    /// One version is "version 1", and standard input is `<stdin>`, as every command names it.
    @Test func aSchemaOfOneVersionFromStandardInput() throws {
        let yaml = Data("activity: solo\nversions: [{version: 1, content-state: {n: {type: int, maximum: 9}}}]\n".utf8)
        let check = try CLI.run(["check", "-"], stdin: yaml)
        #expect(check.status == 0)
        #expect(check.stdout.contains("<stdin>: solo loads (version 1) and passes its forward-transitive gate\n"), "\(check.stdout)")
        let budget = try CLI.run(["budget", "--schema", "-"], stdin: yaml)
        #expect(budget.stdout.hasPrefix("<stdin>: version 1 content-state"), "\(budget.stdout)")
    }

    @Test func modeNoneTurnsTheGateOff() throws {
        #expect(try CLI.run(["check", "--mode", "none", "schemas"]).status == 0)
    }

    @Test func brokenSchemaExitsTwoWithPosition() throws {
        let result = try CLI.run(["check", CLI.fixture("broken.yaml")])
        #expect(result.status == 2)
        #expect(result.stdout.contains("broken.yaml:6:"))
        #expect(result.stdout.contains("error:"))
        #expect(result.stdout.contains("[schema-invalid-default]"))
    }

    @Test func jsonFormatListsDiagnosticsWithEveryKey() throws {
        let result = try CLI.run(["check", "--format", "json", CLI.fixture("broken.yaml")])
        #expect(result.status == 2)
        let document = try CLI.json(result.stdout)
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        let first = try #require(diagnostics.first)
        #expect(Set(first.keys) == ["code", "severity", "message", "file", "line", "column", "scope", "pointer"])
        #expect(first["line"] as? Int == 6)
        #expect(first["scope"] as? String == "schema")
    }

    @Test func missingPathAndEmptyFolderExitTwo() throws {
        #expect(try CLI.run(["check", "no/such/dir"]).status == 2)
        // A folder name with a line feed stays on its line.
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-empty\n-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let result = try CLI.run(["check", empty.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains(#"no schema files found in "#), "\(result.stderr)")
        #expect(result.stderr.contains(#"livestate-empty\u{A}-"#) && !result.stderr.contains("empty\n"), "\(result.stderr)")
    }

    /// The line per schema printed the file and activity raw: an activity with a line feed
    /// (which the loader takes) split it in two. It is written as the finding lines are.
    @Test func theLinePerSchemaWritesNamesPrintable() throws {
        let yaml = Data("activity: \"nl\\nx\\e[2J\"\nversions: [{version: 1, content-state: {n: {type: int, maximum: 9}}}]\n".utf8)
        let check = try CLI.run(["check", "-"], stdin: yaml)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout == #"<stdin>: nl\u{A}x\u{1B}[2J loads (version 1) and passes its forward-transitive gate"# + "\n", "\(check.stdout)")
        let diff = try CLI.run(["diff", "--schema", "-"], stdin: yaml)
        #expect(diff.stderr == #"nl\u{A}x\u{1B}[2J: forward-transitive, 0 pairs: 0 errors, 0 warnings, 0 infos"# + "\n", "\(diff.stderr)")
    }

    /// The caret under an echoed source line was placed by characters: after `😀` and `日本語`,
    /// each two columns wide in a terminal, it stood four columns left of the column. The
    /// column still counts UTF-8 bytes.
    @Test func theCaretStandsUnderTheColumnInATerminal() throws {
        let folder = try HostileInputTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let yaml = "activity: wide\nversions:\n  - version: 1\n    content-state:\n      \"é😀\": { description: \"日本語\", type: strng }\n"
        let path = try HostileInputTests.file("wide.yaml", in: folder, yaml)
        let result = try CLI.run(["check", path])
        #expect(result.status == 2)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("\(path):5:51: error: unknown type 'strng'") == true, "\(result.stdout)")
        #expect(lines.dropFirst().first == #"          "é😀": { description: "日本語", type: strng }"#)
        #expect(lines.dropFirst(2).first.map(String.init) == "    " + String(repeating: " ", count: 44) + "^", "\(result.stdout)")
    }

    /// A source line with a control character (which the YAML reader refuses) was echoed raw,
    /// an escape sequence and all; it is shown printable, the caret under the column as shown.
    @Test func anEchoedSourceLineIsPrintable() throws {
        let folder = try HostileInputTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try HostileInputTests.file("esc.yaml", in: folder, "activity: esc\nversions:\n  - version: 1\n    content-state:\n      \"a\u{1B}b\": { type: strng }\n")
        let result = try CLI.run(["check", path])
        #expect(result.status == 2)
        #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x1B }, "\(result.stdout)")
        #expect(result.stdout.contains("\(path):5:9: error: control characters are not allowed (0x1B) [yaml-syntax]\n"
            + #"          "a\u{1B}b": { type: strng }"# + "\n" + String(repeating: " ", count: 12) + "^"), "\(result.stdout)")
    }

    @Test func unknownFormatIsAUsageError() throws {
        let result = try CLI.run(["check", "--format", "xml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("xml"))
    }
}

@Suite struct DecodeCommandTests {
    @Test func printsEveryFieldOfTheVersion() throws {
        let result = try CLI.run(["decode", "--schema", "schemas/delivery.yaml", "--version", "2", "schemas/examples/delivery/v2-update.json"])
        #expect(result.status == 0, "\(result.stderr)")
        let state = try CLI.json(result.stdout)
        #expect(state["subtitle"] as? String == "Courier is 3 stops away")
        #expect(state["progress"] as? Double == 0.6)
        #expect(state.keys.count == 11)
    }

    @Test func jsonFormatWrapsStateAndDiagnostics() throws {
        let result = try CLI.run(["decode", "--format", "json", "--schema", "schemas/delivery.yaml", "--version", "2",
                                  "schemas/examples/delivery/v3-update.json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try CLI.json(result.stdout)
        #expect(document["decodes"] as? Bool == true)
        #expect(document["version"] as? Int == 2)
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.contains { $0["code"] as? String == "unknown-key" && $0["pointer"] as? String == "/delayMinutes" })
    }

    @Test func strictOldAppDropsRenamedKeyAndExitsOne() throws {
        let result = try CLI.run(["decode", "--schema", "schemas/delivery.yaml", "--version", "1", "schemas/examples/delivery/v2-update.json"])
        #expect(result.status == 1)
        // Both decoders miss the key: one error, that says what synthesized Codable does.
        #expect(result.stderr.contains("required key 'subTitle' is missing; the app drops this update (the app decodes with synthesized Codable, which fails on it too) (at /subTitle) [missing-required-key]"))
        #expect(!result.stderr.contains("[strict-decode-failure]"))
    }

    /// A start whose content-state reads but whose attributes fail starts nothing: no state is
    /// shown, in text or in JSON, as the command's reference says.
    @Test func anUpdateTheAppDropsShowsNoState() throws {
        let body = Data(#"""
            {"aps":{"event":"start","timestamp":1795000600,"content-state":{"statusText":"x","minutesLeft":5,"progress":0.5,"riderName":"a"},
            "alert":{"title":"a","body":"b"},"attributes-type":"GroceryDeliveryAttributes","attributes":{"orderId":1,"storeName":"s","screenWidth":300}}}
            """#.utf8)
        let text = try CLI.run(["decode", "--schema", "schemas/grocery.yaml", "--version", "1", "-"], stdin: body)
        #expect(text.status == 1)
        #expect(text.stdout.isEmpty)
        // Version 1 is a strict client: its attributes type decodes with synthesized Codable too.
        #expect(text.stderr.contains("'orderId' has no default, so the activity does not start (the app decodes with synthesized Codable, which fails on it too) (at /orderId in attributes) [wrong-type]"), "\(text.stderr)")
        let json = try CLI.json(try CLI.run(["decode", "--format", "json", "--schema", "schemas/grocery.yaml", "--version", "1", "-"], stdin: body).stdout)
        #expect(json["decodes"] as? Bool == false)
        #expect(json["state"] is NSNull)
    }

    @Test func readsStandardInput() throws {
        let result = try CLI.run(["decode", "--schema", "schemas/pizza.yaml", "--content-state", "-"],
                                 stdin: Data(#"{"timer":[816000000,816001800]}"#.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("<stdin>:1:1: info:"))
        #expect(try CLI.json(result.stdout)["driverName"] as? String == "")
    }

    /// What `decode` shows when the app applies a push but there is no state to print: an end
    /// without a content-state, and a strict version applying values only the schema's
    /// constraints refuse (it printed nothing, exit 0, for the end).
    @Test func decodeSaysWhyThereIsNoStateToShow() throws {
        let end = try CLI.run(["decode", "--schema", "schemas/match-score.yaml", "-"], stdin: Data(#"{"aps":{"timestamp":1795000000,"event":"end"}}"#.utf8))
        #expect(end.status == 0)
        #expect(end.stdout == "no content-state: the activity ends showing the state it has\n")
        let strict = try CLI.run(["decode", "--schema", "schemas/delivery.yaml", "--version", "1", "-"],
                                 stdin: Data(#"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"logo":"a","title":"t","subTitle":"s","progress":1.2}}}"#.utf8))
        #expect(strict.status == 1)
        #expect(strict.stdout.hasPrefix("no state: the schema refuses it (see the errors), but this app version applies it"))
        #expect(strict.stderr.contains("so the schema refuses it, but this app version decodes with synthesized Codable, which does not check that: the push applies"))
    }

    @Test func syntaxErrorExitsOneWithLineAndColumn() throws {
        let result = try CLI.run(["decode", "--schema", "schemas/pizza.yaml", "--content-state", "-"],
                                 stdin: Data("{\n  \"timer\": [1, 2".utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains("<stdin>:2:"))
        #expect(result.stderr.contains("[json-syntax]"))
    }

    @Test func hugeInputIsALimitError() throws {
        let huge = Data(("{\"name\":\"" + String(repeating: "x", count: 10_000_000) + "\"}").utf8)
        let result = try CLI.run(["decode", "--schema", "schemas/pizza.yaml", "--content-state", "-"], stdin: huge)
        #expect(result.status == 1)
        // The CLI reads one byte past the limit: the message must not give that as the size.
        #expect(result.stderr.contains("<stdin>:1:1: error: input is larger than the limit of 1048576 bytes [json-limit]"))
    }

    /// Standard input is read one byte past the limit, as a file is: an endless input (a pipe
    /// left open, `/dev/zero`) is a limit error, not a hang that fills memory.
    @Test(arguments: [
        ["lint", "--max-bytes", "100", "--schema", "schemas/match-score.yaml", "-"],
        ["budget", "--schema", "schemas/match-score.yaml", "-"],
        ["decode", "--schema", "schemas/match-score.yaml", "-"],
        ["encode", "--schema", "schemas/match-score.yaml", "--content-state", "-"],
    ])
    func endlessStandardInputIsALimitError(_ arguments: [String]) throws {
        let result = try LivestateBinary.run(arguments, stdinPath: "/dev/zero", timeout: 30)
        #expect(result.status == 1, "\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("<stdin>:1:1: error: input is larger than the limit of "), "\(result.stdout)\(result.stderr)")
        // Nor a budget of the bytes read: `budget` printed "body 1048577 of 4096 bytes".
        #expect(!result.stdout.contains("1048577"), "\(result.stdout)")
    }

    /// `--schema -` (and `check -`) reads the schema from standard input, as every command reads
    /// `-` (SPEC section 7); findings name it `<stdin>`.
    @Test(arguments: [
        ["lint", "--schema", "-", "schemas/examples/pizza/v2-update.json"],
        ["budget", "--schema", "-", "schemas/examples/pizza/v2-update.json"],
        ["decode", "--schema", "-", "schemas/examples/pizza/v2-update.json"],
        ["diff", "--schema", "-"],
        ["codegen", "swift", "--schema", "-"],
        ["check", "-"],
    ])
    func aSchemaIsReadFromStandardInput(_ arguments: [String]) throws {
        let schema = try Data(contentsOf: URL(fileURLWithPath: "schemas/pizza.yaml"))
        let result = try CLI.run(arguments, stdin: schema)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let broken = try CLI.run(arguments, stdin: Data("activity: pizza\nversions: 3\n".utf8))
        #expect(broken.status == 2)
        #expect(broken.stdout.contains("<stdin>:2:11: error: ") || broken.stderr.contains("<stdin>:2:11: error: "), "\(broken.stdout)\(broken.stderr)")
    }

    /// A schema on standard input is read one byte past the loader's limit, as a payload is: an
    /// endless input is a `schema-io` error that does not claim to know its size.
    @Test func anEndlessSchemaOnStandardInputIsRefused() throws {
        let result = try LivestateBinary.run(["check", "-"], stdinPath: "/dev/zero", timeout: 30)
        #expect(result.status == 2)
        #expect(result.stdout.contains("<stdin>: error: is more than 4194304 bytes, over the limit of 4194304 bytes for a schema file [schema-io]"),
                "\(result.stdout)\(result.stderr)")
    }

    /// Standard input can be read once: `-` for the schema and for a payload is a usage error,
    /// not a payload read as empty.
    @Test(arguments: [
        ["lint", "--schema", "-", "-"],
        ["decode", "--schema", "-", "-"],
        ["encode", "--schema", "-", "--content-state", "-"],
        ["check", "-", "-"],
    ])
    func standardInputNamedTwiceIsAUsageError(_ arguments: [String]) throws {
        let result = try CLI.run(arguments, stdin: Data())
        #expect(result.status == 2)
        #expect(result.stderr.contains("standard input can be read once"), "\(result.stderr)")
    }

    @Test func deepNestingIsALimitError() throws {
        let deep = Data(String(repeating: "[", count: 100_000).utf8)
        let result = try CLI.run(["decode", "--schema", "schemas/pizza.yaml", "--content-state", "-"], stdin: deep)
        #expect(result.status == 1)
        #expect(result.stderr.contains("[json-limit]"))
    }

    @Test func directoryAsPayloadIsAnIOError() throws {
        let result = try CLI.run(["decode", "--schema", "schemas/pizza.yaml", "schemas"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("is a directory"))
    }

    @Test func unknownVersionIsAUsageError() throws {
        let result = try CLI.run(["decode", "--schema", "schemas/pizza.yaml", "--version", "9", "schemas/examples/pizza/v1-update.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no version 9"))
    }

    @Test func missingSchemaOptionIsAUsageError() throws {
        let result = try CLI.run(["decode", "schemas/examples/pizza/v1-update.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--schema"))
    }

    @Test func brokenSchemaExitsTwo() throws {
        let result = try CLI.run(["decode", "--schema", CLI.fixture("broken.yaml"), "schemas/examples/pizza/v1-update.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("[schema-invalid-default]"))
    }
}

@Suite struct LintCommandTests {
    @Test func cleanExampleExitsZeroAndPrintsNothing() throws {
        let result = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", "--version", "2", "schemas/examples/delivery/v2-update.json"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.isEmpty)
    }

    @Test func errorsExitOneInCompilerStyle() throws {
        let result = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", "schemas/examples/delivery/failing/timestamp-in-milliseconds.json"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("schemas/examples/delivery/failing/timestamp-in-milliseconds.json:3:18: error: timestamp 1795000600000 is in milliseconds"))
        #expect(result.stdout.contains("[date-in-milliseconds]"))
    }

    /// A key with a real line feed and a key spelled `k\u{A}` printed the same finding; the
    /// typed backslash is doubled where it stands before `u{`.
    @Test func twoKeysThatDifferPrintDifferently() throws {
        let body = #"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"title":"t","k\n":1,"k\\u{A}":2}}}"#
        let result = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", "-"], stdin: Data(body.utf8))
        let keys = result.stdout.split(separator: "\n").filter { $0.contains("[unknown-key]") }
            .map { $0.split(separator: "unknown key ").last?.split(separator: " is ignored").first.map(String.init) }
        #expect(keys == [#"'k\u{A}'"#, #"'k\\u{A}'"#], "\(result.stdout)")
    }

    @Test func warningsPassUnlessFailOnWarning() throws {
        let file = "schemas/examples/delivery/failing/unknown-aps-key.json"
        #expect(try CLI.run(["lint", "--schema", "schemas/delivery.yaml", file]).status == 0)
        #expect(try CLI.run(["lint", "--fail-on", "warning", "--schema", "schemas/delivery.yaml", file]).status == 1)
    }

    @Test func verboseShowsDefaultsTaken() throws {
        let file = "schemas/examples/delivery/v3-update-minimal.json"
        let quiet = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", file])
        let verbose = try CLI.run(["lint", "--verbose", "--schema", "schemas/delivery.yaml", file])
        #expect(!quiet.stdout.contains("[defaulted]"))
        #expect(verbose.stdout.contains("[defaulted]"))
    }

    @Test func manyFilesInOneCallWithJSON() throws {
        let result = try CLI.run(["lint", "--format", "json", "--schema", "schemas/pizza.yaml",
                                  "schemas/examples/pizza/v2-update.json", "schemas/examples/pizza/failing/inverted-timer.json"])
        #expect(result.status == 1)
        let document = try CLI.json(result.stdout)
        let files = try #require(document["files"] as? [[String: Any]])
        #expect(files.map { $0["decodes"] as? Bool } == [true, false])
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.contains { $0["file"] as? String == "schemas/examples/pizza/failing/inverted-timer.json" && $0["severity"] as? String == "error" })
    }

    @Test func allVersionsNamesTheAppVersionsThatDrop() throws {
        let result = try CLI.run(["lint", "--all-versions", "--schema", "schemas/delivery.yaml", "schemas/examples/delivery/v2-update.json"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("error: app version 1: the app drops this update; first error: missing-required-key at /subTitle in the content-state (at /subTitle) [dropped-by-version]"))
        #expect(!result.stdout.contains("app version 2: the app drops"))
        #expect(!result.stdout.contains("app version 1: app version"))
    }

    @Test func readsStandardInput() throws {
        let body = #"{"aps":{"timestamp":1795000000,"event":"end"}}"#
        let result = try CLI.run(["lint", "--schema", "schemas/pizza.yaml", "-"], stdin: Data(body.utf8))
        #expect(result.status == 0, "\(result.stdout)")
    }

    @Test func folderStandsForItsJSONFiles() throws {
        let result = try CLI.run(["lint", "--format", "json", "--schema", "schemas/delivery.yaml", "schemas/examples/delivery/failing"])
        #expect(result.status == 1)
        let files = try #require(try CLI.json(result.stdout)["files"] as? [[String: Any]])
        #expect(files.count == 15)
        #expect(files.first?["file"] as? String == "schemas/examples/delivery/failing/dismissal-date-on-update.json")
    }

    @Test func emptyFolderAndMissingFileAreIOErrors() throws {
        let result = try CLI.run(["lint", "--schema", "schemas/pizza.yaml", "schemas/examples/pizza", "Tests/livestateTests/Fixtures", "no-such.json"])
        #expect(result.status == 2)
        #expect(result.stdout.contains("Tests/livestateTests/Fixtures: error: is a folder with no .json files [io-error]"))
        #expect(result.stdout.contains("no-such.json: error: no such file [io-error]"))
    }

    /// With --format json, a command that stops before its work (a schema or an input that
    /// cannot be read, a version the schema lacks, a bad option value) still prints its one
    /// JSON document, with the reason among its diagnostics, and exits 2.
    @Test(arguments: [
        (["decode", "--format", "json", "--schema", "schemas/delivery.yaml", "no-such.json"], "io-error"),
        (["encode", "--format", "json", "--schema", "schemas/delivery.yaml", "no-such.json"], "io-error"),
        (["encode", "--format", "json", "--schema", "schemas/delivery.yaml", "--event", "begin", "-"], "usage"),
        (["diff", "--format", "json", "--schema", "no-such.yaml"], "schema-io"),
        (["diff", "--format", "json", "--schema", "schemas/delivery.yaml", "--from", "1", "--to", "9"], "unknown-version"),
        (["codegen", "--format", "json", "swift", "--schema", "no-such.yaml"], "schema-io"),
        (["lint", "--format", "json", "--schema", "no-such.yaml", "-"], "schema-io"),
        (["lint", "--format", "json", "--schema", "schemas/delivery.yaml", "--version", "9", "-"], "unknown-version"),
        (["budget", "--format", "json", "--schema", "no-such.yaml", "-"], "schema-io"),
        (["send", "--format", "json", "--dry-run", "--key", "no-such.p8", "--key-id", "ABCDEFGHIJ", "--team-id", "TEAM123456",
          "--topic", "com.example.app", "--sandbox", "--schema", "schemas/delivery.yaml", "--token", "abcd", "-"], "bad-provider-key"),
    ])
    func aStopIsOneJSONDocument(arguments: [String], code: String) throws {
        let result = try CLI.run(arguments, stdin: Data(#"{"title":"T"}"#.utf8))
        #expect(result.status == 2, "\(result.stderr)")
        let diagnostics = try #require(try CLI.json(result.stdout)["diagnostics"] as? [[String: Any]], "\(result.stdout)")
        #expect(diagnostics.contains { $0["code"] as? String == code }, "\(diagnostics)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func versionAndAllVersionsExcludeEachOther() throws {
        let result = try CLI.run(["lint", "--version", "1", "--all-versions", "--schema", "schemas/pizza.yaml", "x.json"])
        #expect(result.status == 2)
    }

    @Test func emptyAndBinaryInputsAreSyntaxErrors() throws {
        for input in [Data(), Data([0xFF, 0xFE, 0x00, 0x41]), Data("{\"aps\":{\"event\":\"end\"".utf8)] {
            let result = try CLI.run(["lint", "--schema", "schemas/pizza.yaml", "-"], stdin: input)
            #expect(result.status == 1)
            #expect(result.stdout.contains("[json-syntax]"))
            #expect(result.stdout.contains("<stdin>:1:"))
        }
    }
}

@Suite struct BudgetCommandTests {
    @Test func breaksDownTheBodyWithoutASchema() throws {
        let result = try CLI.run(["budget", "schemas/examples/delivery/v2-update.json"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("schemas/examples/delivery/v2-update.json: body "))
        #expect(result.stdout.contains("of 4096 bytes, headroom"))
        #expect(result.stdout.contains("  items: "))
    }

    /// The keys of a body were printed raw: one with a line feed forged a line, one with an
    /// escape sequence cleared the screen. They are written as findings write them.
    @Test func keysFromTheBodyArePrintedPrintable() throws {
        let body = #"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"new\nline":1,"esc\u001b[2J\u0007":2}}}"#
        let result = try CLI.run(["budget", "-"], stdin: Data(body.utf8))
        #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(result.stdout)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix(#"  new\u{A}line: "#) }, "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix(#"  esc\u{1B}[2J\u{7}: "#) }, "\(result.stdout)")
    }

    @Test func jsonHasTheBudgetObject() throws {
        let result = try CLI.run(["budget", "--format", "json", "--schema", "schemas/delivery.yaml", "schemas/examples/delivery/v3-update.json"])
        #expect(result.status == 0)
        let document = try CLI.json(result.stdout)
        let budget = try #require(document["budget"] as? [String: Any])
        #expect(budget["limit"] as? Int == 4096)
        #expect((budget["body"] as? Int ?? 0) > 0)
        #expect((budget["deviceWorstCase"] as? Int ?? 0) >= (budget["contentState"] as? Int ?? .max) - 200)
        let fields = try #require(budget["fields"] as? [String: Int])
        #expect(fields["title"] != nil)
    }

    /// A body over APNs's limit is refused by APNs, for every version: the summary said "the
    /// app drops this update" of a push no app gets.
    @Test func aBodyOverTheLimitIsSaidToBeRefusedByAPNsForEveryVersion() throws {
        let result = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", "--all-versions", "schemas/examples/delivery/failing/over-budget.json"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("error: app version 3: APNs refuses this body (413), so it never reaches the app; first error: over-budget at the root [dropped-by-version]"),
                "\(result.stdout)")
        // Version 1 would drop it for its own reason too, which is said, and APNs refuses it
        // first: the cause named is over-budget, and not as its first error (it said so).
        #expect(result.stdout.contains("app version 1: required key 'subTitle' is missing"))
        #expect(result.stdout.contains("app version 1: APNs refuses this body (413), so it never reaches the app; cause: over-budget at the root [dropped-by-version]"),
                "\(result.stdout)")
    }

    @Test func overBudgetExitsOne() throws {
        let result = try CLI.run(["budget", "schemas/examples/delivery/failing/over-budget.json"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("[over-budget]"))
        #expect(result.stdout.contains("headroom -"))
    }

    /// A body stamped far ahead of the clock (a "never" sentinel, a year ahead) is `send`'s
    /// `timestamp-in-future` warning in `lint` too, at the value: once a device applies it, it
    /// ignores every later update stamped with the real time.
    @Test func aTimestampAheadOfTheClockIsAWarning() throws {
        let body = Data(#"{"aps":{"timestamp":9999999999,"event":"update","content-state":{"title":"t","subTitle":"s","progress":0.5,"logo":"l"}}}"#.utf8)
        for arguments in [["lint", "--schema", "schemas/delivery.yaml", "--version", "1", "-"],
                          ["lint", "--schema", "schemas/delivery.yaml", "--all-versions", "-"]] {
            let result = try CLI.run(arguments, stdin: body)
            #expect(result.stdout.contains("<stdin>:1:21: warning: timestamp 9999999999 is "), "\(arguments): \(result.stdout)")
            #expect(result.stdout.contains("[timestamp-in-future]"), "\(result.stdout)")
        }
        let strict = try CLI.run(["lint", "--fail-on", "warning", "--schema", "schemas/delivery.yaml", "--version", "1", "-"], stdin: body)
        #expect(strict.status == 1)
        let now = Int(Date().timeIntervalSince1970)
        let current = Data(#"{"aps":{"timestamp":\#(now),"event":"update","content-state":{"title":"t","subTitle":"s","progress":0.5,"logo":"l"}}}"#.utf8)
        #expect(try !CLI.run(["lint", "--schema", "schemas/delivery.yaml", "--version", "1", "-"], stdin: current).stdout.contains("timestamp-in-future"))
    }

    /// A file over the limit only by its white space (pretty-printed, with a final line feed) is
    /// over as sent, and says that as a server's JSON encoder sends it, it fits; with a schema or
    /// without.
    @Test func aBodyOverOnlyByItsWhiteSpaceSaysItFitsCompact() throws {
        let compact = "{\"aps\":{\"event\":\"update\",\"timestamp\":1795000600,\"content-state\":{\"title\":\""
            + String(repeating: "x", count: 4010) + "\"}}}"
        let spaced = Data(compact.replacingOccurrences(of: ",", with: ",\n    ").utf8) + Data("\n".utf8)
        for arguments in [["budget", "-"], ["budget", "--schema", "schemas/delivery.yaml", "-"]] {
            let result = try CLI.run(arguments, stdin: spaced)
            #expect(result.status == 1)
            #expect(result.stdout.contains("<stdin>:1:1: error: the body is \(spaced.count) bytes, \(spaced.count - 4096) over the APNs "
                + "limit of 4096; APNs answers 413 (without its white space, as JSON encoders send a body, it is \(compact.utf8.count) "
                + "bytes, which fits)"), "\(arguments): \(result.stdout)")
        }
    }

    /// Without a schema, findings are placed and worded as with one: the content-state's at its
    /// first byte, a syntax error with the pointer of the value it is in.
    @Test func findingsWithoutASchemaArePlacedAsWithOne() throws {
        let body = Data(("{\"aps\":{\"event\":\"update\",\"timestamp\":1795000600,\"content-state\": {\"title\":\""
            + String(repeating: "x", count: 5000) + "\"}}}").utf8)
        for arguments in [["budget", "-"], ["budget", "--schema", "schemas/delivery.yaml", "-"]] {
            let result = try CLI.run(arguments, stdin: body)
            #expect(result.status == 1)
            #expect(result.stdout.contains("<stdin>:1:1: error: the body is 5079 bytes, 983 over the APNs limit of 4096"), "\(arguments): \(result.stdout)")
        }
        // The state as it is, re-encoded, is over the device's limit too. The delivery schema's
        // version drops a title that long (`max-length`, and no default): with it there is no
        // state for the device to re-encode, and only the body is over.
        let bare = try CLI.run(["budget", "-"], stdin: body)
        #expect(bare.stdout.contains("<stdin>:1:66: error: the device re-encodes this state (5012 bytes as sent) to 5012 bytes at the least"), "\(bare.stdout)")
        let decoded = try CLI.run(["budget", "--schema", "schemas/delivery.yaml", "-"], stdin: body)
        #expect(!decoded.stdout.contains("[content-state-over-budget]"), "\(decoded.stdout)")
        let trailingComma = Data(#"{"aps":{"alert":{"a":1,}}}"#.utf8)
        for arguments in [["budget", "-"], ["budget", "--schema", "schemas/delivery.yaml", "-"]] {
            let result = try CLI.run(arguments, stdin: trailingComma)
            #expect(result.stdout.contains("<stdin>:1:24: error: trailing comma: expected a string key after ',', found '}' (at /aps/alert) [json-syntax]"),
                    "\(arguments): \(result.stdout)")
        }
    }

    @Test func aStateTheVersionDropsHasNoReencodedSize() throws {
        // pizza version 2 requires 'timer': the app drops this state, so nothing is re-encoded.
        let body = Data(#"{"aps":{"event":"update","timestamp":1,"content-state":{"name":"x","status":1}}}"#.utf8)
        let result = try CLI.run(["budget", "--schema", "schemas/pizza.yaml", "-"], stdin: body)
        #expect(result.stdout.contains("  content-state: 23 bytes as sent, none re-encoded (the app version drops it) (limit 4096)"),
                "\(result.stdout)")
        let json = try CLI.run(["budget", "--format", "json", "--schema", "schemas/pizza.yaml", "-"], stdin: body)
        let budget = try #require(try CLI.json(json.stdout)["budget"] as? [String: Any])
        #expect(budget["deviceWorstCase"] is NSNull)
        // Without a schema there is no app version: a state that is not an object is what no
        // app decodes.
        let notAnObject = try CLI.run(["budget", "-"], stdin: Data(#"{"aps":{"content-state":"x"}}"#.utf8))
        #expect(notAnObject.stdout.contains("  content-state: 3 bytes as sent, none re-encoded (it is not an object, which no app decodes) (limit 4096)"),
                "\(notAnObject.stdout)")
    }

    @Test func broadcastRaisesTheLimit() throws {
        let result = try CLI.run(["budget", "--broadcast", "schemas/examples/delivery/failing/over-budget.json"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("of 5120 bytes"))
    }

    /// A body the app version drops has no re-encoding to size: the budget says why, as `lint`
    /// does, and fails; a body that is not JSON shows no budget before its error.
    @Test func aBodyTheAppDropsIsNotAQuietPass() throws {
        let notAPNs = try CLI.run(["budget", "--schema", "schemas/delivery.yaml", "-"], stdin: Data("[1,2,3]".utf8))
        #expect(notAPNs.status == 1, "\(notAPNs.stdout)")
        #expect(notAPNs.stdout.contains("no content-state"))
        #expect(notAPNs.stdout.contains("[missing-aps]"), "\(notAPNs.stdout)")
        let empty = try CLI.run(["budget", "--schema", "schemas/delivery.yaml", "-"], stdin: Data())
        #expect(empty.status == 1)
        #expect(!empty.stdout.contains("body 0 of"), "\(empty.stdout)")
        #expect(empty.stdout.contains("<stdin>:1:1: error: empty input [json-syntax]"), "\(empty.stdout)")
        // Cut short inside the state: no budget either.
        let cut = try CLI.run(["budget", "--schema", "schemas/delivery.yaml", "-"], stdin: Data(#"{"aps":{"event":"update","content-state":{"title":"#.utf8))
        #expect(cut.status == 1)
        #expect(!cut.stdout.contains("body "), "\(cut.stdout)")
        #expect(cut.stdout.contains("[json-syntax]"))
    }

    /// When `--fit` cannot bring a body under the limit because of what is beside the state,
    /// the error says what takes the bytes.
    @Test func fitSaysWhenTheRestOfTheBodyIsOver() throws {
        let state = #"{"title":"Order 1","status":"preparing","eta":0,"progress":0.5}"#
        let result = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--timestamp", "1795000600", "--fit",
                                  "--alert-title", "t", "--alert-body", String(repeating: "a", count: 3990), "-"], stdin: Data(state.utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains("; the rest of the body (its aps keys and any alert) takes "), "\(result.stderr)")
    }

    @Test func schemaAloneSizesTheVersionsWorstCase() throws {
        let result = try CLI.run(["budget", "--schema", "schemas/delivery.yaml", "--version", "3"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("schemas/delivery.yaml: version 3 content-state at most "))
        #expect(result.stdout.contains(" bytes before escaping (strings and URLs at max-length bytes, numbers at 17 digits, decimals at 131 bytes; limit 4096)"))
        // items: 40 strings of at most 64 bytes is the largest field.
        let firstField = result.stdout.split(separator: "\n").first { $0.hasPrefix("  ") && !$0.hasPrefix("  after") }
        #expect(firstField?.hasPrefix("  items: ") == true)
        #expect(result.stdout.contains("after --fit"))
    }

    @Test func worstCaseInJSONAddsUp() throws {
        let result = try CLI.run(["budget", "--format", "json", "--schema", "schemas/delivery.yaml",
                                  "schemas/examples/delivery/v3-update.json"])
        #expect(result.status == 0)
        let document = try CLI.json(result.stdout)
        #expect(document["budget"] != nil)
        let worstCase = try #require(document["worstCase"] as? [String: Any])
        #expect(worstCase["version"] as? Int == 3)
        #expect(worstCase["bounded"] as? Bool == true)
        #expect(worstCase["limit"] as? Int == 4096)
        let bytes = try #require(worstCase["bytes"] as? Int)
        let fields = try #require(worstCase["fields"] as? [[String: Any]])
        // Braces, the fields' "key":value, and the commas between them.
        let sum = fields.compactMap { $0["bytes"] as? Int }.reduce(2, +) + fields.count - 1
        #expect(bytes == sum)
        // badge (drop-priority) goes and note (truncate) empties under --fit.
        let fitted = try #require(worstCase["fittedBytes"] as? Int)
        #expect(fitted < bytes)
        #expect((worstCase["unbounded"] as? [Any])?.isEmpty == true)
    }

    @Test func unboundedFieldsAreNamed() throws {
        let schema = CLI.fixture("budget/unbounded.yaml")
        let text = try CLI.run(["budget", "--schema", schema])
        #expect(text.status == 0)
        #expect(text.stdout.contains("version 1 content-state unbounded: at least "))
        #expect(text.stdout.contains("no bound on 2 field(s)"))
        #expect(text.stdout.contains("  /note: no max-length"))
        #expect(text.stdout.contains("  /tags: no max-items"))
        let json = try CLI.json(try CLI.run(["budget", "--format", "json", "--schema", schema]).stdout)
        let worstCase = try #require(json["worstCase"] as? [String: Any])
        #expect(worstCase["bounded"] as? Bool == false)
        let unbounded = try #require(worstCase["unbounded"] as? [[String: Any]])
        #expect(unbounded.compactMap { $0["pointer"] as? String } == ["/note", "/tags"])
        #expect(worstCase["fittedBytes"] is NSNull)
    }

    /// A body of 60,000 keys printed 60,005 lines: the keys are listed as findings are, the
    /// 100 largest and one line for the rest.
    @Test func budgetListsTheLargestKeys() throws {
        let members = (0..<5_000).map { #""k\#($0)":\#($0 == 7 ? "\"long\"" : "1")"# }.joined(separator: ",")
        let body = #"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"# + members + "}}}"
        let result = try CLI.run(["budget", "-"], stdin: Data(body.utf8))
        // The body's line, the content-state's, the keys (over budget: the findings follow).
        let lines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }
        #expect(lines.count == 102, "\(lines.prefix(5))")
        #expect(lines[1] == "  k7: 12")
        #expect(lines.last?.hasPrefix("  4,900 more keys, ") == true, "\(lines.last ?? "")")
        #expect(lines.last?.hasSuffix(" bytes, are not listed; the 100 largest are") == true)
    }

    /// Without a schema, bytes that are JSON but no APNs body (`[1,2,3]`, an `aps` that is not
    /// an object) are `lint`'s errors, at `lint`'s positions, and exit 1: they passed with "no
    /// content-state". A body with an `aps` object and no state (an end) is measured as before.
    /// The envelope written without its `aps` is named as `lint` names it (`budget` said only
    /// "no aps object").
    @Test func budgetRefusesJSONThatIsNoAPNsBody() throws {
        for (body, expected) in [("[1,2,3]", "<stdin>:1:1: error: an APNs body must be a JSON object with an aps object [missing-aps]"),
                                 (#"  "str""#, "<stdin>:1:3: error: an APNs body must be a JSON object with an aps object [missing-aps]"),
                                 (#"{"x":1}"#, "<stdin>:1:1: error: the body has no aps object (at /aps) [missing-aps]"),
                                 (#"{"timestamp":1,"x":1,"event":"update"}"#,
                                  #"<stdin>:1:1: error: the body has no aps object; its keys timestamp and event belong inside it: {"aps": {…}} (at /aps) [missing-aps]"#),
                                 (#"{"aps":[]}"#, "<stdin>:1:8: error: aps must be an object (at /aps) [invalid-aps-value]")] {
            let result = try CLI.run(["budget", "-"], stdin: Data(body.utf8))
            #expect(result.status == 1, "\(body): \(result.stdout)")
            #expect(result.stdout.contains(expected), "\(body): \(result.stdout)")
            let lint = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", "-"], stdin: Data(body.utf8))
            #expect(lint.stdout.contains(expected), "lint says it so: \(lint.stdout)")
        }
        let end = try CLI.run(["budget", "-"], stdin: Data(#"{"aps":{"event":"end","timestamp":1795000000}}"#.utf8))
        #expect(end.status == 0 && end.stdout.contains("no content-state"), "\(end.stdout)")
    }

    /// Without a schema, what the device does with a state it re-encodes over its limit is
    /// worded for the push's event, as `lint` words it (it said "the device drops this push").
    @Test func budgetWordsTheConsequenceForTheEvent() throws {
        let state = #"{"s":""# + String(repeating: "/", count: 2100) + #""}"#
        for (event, broadcast, words) in [("update", false, "the app drops this update"), ("end", false, "the app drops this end"),
                                          ("update", true, "the app drops this broadcast update"), ("nope", false, "the device drops this push")] {
            let body = #"{"aps":{"timestamp":1795000000,"event":""# + event + #"","content-state":"# + state + "}}"
            let result = try CLI.run(["budget", "-"] + (broadcast ? ["--broadcast"] : []), stdin: Data(body.utf8))
            #expect(result.status == 1 && result.stdout.contains("over its limit of 4096; \(words); largest"), "\(event): \(result.stdout)")
        }
    }

    @Test func budgetNeedsPayloadsOrASchema() throws {
        let result = try CLI.run(["budget"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("or a --schema to size"))
    }
}

@Suite struct DiffCommandTests {
    static let golden = "Tests/LiveStateTests/Fixtures/compat/golden.yaml"

    @Test func failingGateExitsOneInCompilerStyle() throws {
        let result = try CLI.run(["diff", "--schema", "schemas/delivery.yaml"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("schemas/delivery.yaml:32:7: error: app v1 reading v2 payloads"))
        #expect(result.stdout.contains("[field-renamed-alias-unknown]"))
    }

    /// Twenty versions under full-transitive made 190 lines of one rule; 1,000 made 499,500. The
    /// text and the workflow commands list 100 of a rule and count the rest.
    @Test func manyFindingsOfOneRuleAreListedInBrief() throws {
        let versions = (1...20).map { "  - version: \($0)\n    content-state:\n      s: { type: string, default: \"\", max-length: \($0) }\n" }
        let schema = Data(("activity: many\ncompatibility: full-transitive\nversions:\n" + versions.joined()).utf8)
        for (format, summary) in [
            ("text", "<stdin>: warning: 90 more constraint-loosened findings are not listed; the first 100 are [constraint-loosened]"),
            ("github", "::warning file=<stdin>,title=constraint-loosened::90 more constraint-loosened findings are not listed; the first 100 are [constraint-loosened]"),
        ] {
            let result = try CLI.run(["diff", "--format", format, "--schema", "-"], stdin: schema)
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 101, "\(format): \(lines.count)")
            #expect(lines.last.map(String.init) == summary, "\(format): \(String(describing: lines.last))")
        }
    }

    @Test func passingGateExitsZero() throws {
        #expect(try CLI.run(["diff", "--schema", "schemas/flash-sale.yaml"]).status == 0)
        #expect(try CLI.run(["diff", "--mode", "none", "--schema", "schemas/delivery.yaml"]).status == 0)
    }

    @Test func failOnWarningCountsWarnings() throws {
        #expect(try CLI.run(["diff", "--schema", "schemas/pizza.yaml"]).status == 0)
        #expect(try CLI.run(["diff", "--fail-on", "warning", "--schema", "schemas/pizza.yaml"]).status == 1)
    }

    /// `--fail-on info` counts the informational findings, in `check` as in `diff`, and shows them.
    @Test func failOnInfoCountsInfos() throws {
        #expect(try CLI.run(["check", "schemas/flash-sale.yaml"]).status == 0)
        let check = try CLI.run(["check", "--fail-on", "info", "schemas/flash-sale.yaml"])
        #expect(check.status == 1)
        #expect(check.stdout.contains("info: ") && check.stdout.contains("[field-added-ignored]"), "\(check.stdout)")
        #expect(check.stdout.contains("fails its"), "\(check.stdout)")
        #expect(try CLI.run(["diff", "--fail-on", "info", "--schema", "schemas/flash-sale.yaml"]).status == 1)
    }

    @Test func fromAndToPickOnePair() throws {
        let result = try CLI.run(["diff", "--schema", "schemas/delivery.yaml", "--from", "2", "--to", "3", "--format", "json"])
        let document = try CLI.json(result.stdout)
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(!findings.isEmpty)
        #expect(findings.allSatisfy { Set([$0["readerVersion"] as? Int, $0["writerVersion"] as? Int]) == [2, 3] })
        #expect(document["diagnostics"] is [[String: Any]])
    }

    @Test(arguments: [("text", "report.txt"), ("json", "report.json"), ("yaml", "report.yaml"), ("markdown", "report.md"), ("github", "report.github.txt")])
    func everyFormatMatchesItsGoldenFile(format: String, golden: String) throws {
        // The golden files were written with the schema path as given: run from its folder.
        let folder = CLI.packageRoot.appendingPathComponent("Tests/LiveStateTests/Fixtures/compat")
        let process = try CLI.run(["diff", "--schema", CLI.packageRoot.appendingPathComponent(Self.golden).path, "--format", format])
        let expected = try String(contentsOf: folder.appendingPathComponent("golden/\(golden)"), encoding: .utf8)
        let normalized = process.stdout.replacingOccurrences(of: folder.path + "/", with: "")
        #expect(normalized == expected)
        #expect(process.status == 1)
    }

    @Test func githubFormatWritesAnnotations() throws {
        let result = try CLI.run(["diff", "--schema", "schemas/grocery.yaml", "--format", "github"])
        #expect(result.stdout.hasPrefix("::error file=schemas/grocery.yaml,line="))
    }

    @Test func listRulesPrintsTheCatalog() throws {
        let result = try CLI.run(["diff", "--list-rules"])
        #expect(result.status == 0)
        for rule in ["field-added-with-default", "strict-client-omittable-key", "tombstone-reuse", "worst-case-size-over-budget"] {
            #expect(result.stdout.contains(rule))
        }
    }

    @Test func eitherEndOfThePairAloneChecksThatPair() throws {
        // pizza has versions 1 and 2: `--from 1` is the pair 1–2, `--to 2` the same pair.
        for arguments in [["--from", "1"], ["--to", "2"]] {
            let result = try CLI.run(["diff", "--schema", "schemas/pizza.yaml", "--format", "json"] + arguments)
            let pairs = try #require(try CLI.json(result.stdout)["pairs"] as? [Any], "\(result.stdout)")
            #expect(pairs.count == 2, "\(arguments)")
        }
        let same = try CLI.run(["diff", "--schema", "schemas/pizza.yaml", "--from", "2", "--to", "2"])
        #expect(same.status == 0)
    }

    /// `--from` the newest version alone, or `--to` the oldest alone, names no pair: a usage
    /// error that says so, not a gate that passes on nothing.
    @Test func anEndWhoseDefaultPartnerIsItselfIsAUsageError() throws {
        let newest = try CLI.run(["diff", "--schema", "schemas/pizza.yaml", "--from", "2"])
        #expect(newest.status == 2)
        #expect(newest.stdout.isEmpty)
        #expect(newest.stderr.contains("--from 2 is the newest live version, which a missing --to stands for: there is no pair to check; name --to, or leave out --from to check every pair"), "\(newest.stderr)")
        let oldest = try CLI.run(["diff", "--schema", "schemas/pizza.yaml", "--to", "1"])
        #expect(oldest.status == 2)
        #expect(oldest.stderr.contains("--to 1 is the oldest live version, which a missing --from stands for: there is no pair to check; name --from, or leave out --to to check every pair"), "\(oldest.stderr)")
        #expect(!oldest.stderr.contains("livestate <subcommand>"), "not the root command's usage: \(oldest.stderr)")
        let json = try CLI.run(["diff", "--format", "json", "--schema", "schemas/pizza.yaml", "--to", "1"])
        #expect(json.status == 2 && json.stdout.contains(#""code":"usage""#), "\(json.stdout)")
    }

    /// A schema that does not load printed nothing on standard output in `github`, `yaml`
    /// and `markdown`: a CI job had no annotation. The error is written in the format asked
    /// for, and still compiler style on standard error.
    @Test func aSchemaThatDoesNotLoadIsReportedInTheFormatAskedFor() throws {
        let yaml = Data("activity: x\nversions:\n  - version: 1\n    content-state:\n      n: { type: strng }\n".utf8)
        let github = try CLI.run(["diff", "--schema", "-", "--format", "github"], stdin: yaml)
        #expect(github.status == 2)
        #expect(github.stdout.hasPrefix("::error file=<stdin>,line=5,col=18,title=schema-unknown-type::unknown type 'strng'"), "\(github.stdout)")
        #expect(github.stderr.hasPrefix("<stdin>:5:18: error: unknown type 'strng'"), "\(github.stderr)")
        let yamlFormat = try CLI.run(["diff", "--schema", "-", "--format", "yaml"], stdin: yaml)
        #expect(yamlFormat.status == 2)
        #expect(yamlFormat.stdout.contains("diagnostics:\n  - code: schema-unknown-type\n    severity: error\n"), "\(yamlFormat.stdout)")
        let markdown = try CLI.run(["diff", "--schema", "-", "--format", "markdown"], stdin: yaml)
        #expect(markdown.status == 2)
        #expect(markdown.stdout.contains("| error | `schema-unknown-type` | &lt;stdin&gt;:5:18 | unknown type 'strng'"), "\(markdown.stdout)")
        let version = try CLI.run(["diff", "--schema", "schemas/pizza.yaml", "--from", "1", "--to", "9", "--format", "github"])
        #expect(version.status == 2)
        #expect(version.stdout == "::error file=schemas/pizza.yaml,title=unknown-version::the schema has no version 9; it has 1, 2 [unknown-version]\n", "\(version.stdout)")
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try CLI.run(["diff"]).status == 2)
        #expect(try CLI.run(["diff", "--schema", "schemas/pizza.yaml", "--from", "1", "--to", "9"]).status == 2)
        #expect(try CLI.run(["diff", "--schema", "schemas/pizza.yaml", "--mode", "sideways"]).status == 2)
        #expect(try CLI.run(["diff", "--schema", "no-such.yaml"]).status == 2)
    }
}

@Suite struct EncodeCommandTests {
    static func fixture(_ name: String) -> String { CLI.fixture("encode/\(name)") }

    @Test func writesAWholeBodyThatLintsClean() throws {
        let encoded = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--timestamp", "1795000000", Self.fixture("state.json")])
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(encoded.stdout.hasPrefix(#"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"logo":"","title":"On its way","#))
        #expect(encoded.stdout.contains(#""note":"Ring twice / gate 4""#))
        let lint = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", "-"], stdin: Data(encoded.stdout.utf8))
        #expect(lint.status == 0, "\(lint.stdout)")
    }

    /// `encode` writes for one version, but a server sends what it writes to every device: an
    /// older app version in the field that cannot decode it is warned of, by version and first
    /// error (the audit's H1: delivery's version 1, strict, needs `subTitle`, which version 3
    /// does not write, and `encode` said nothing, not even with `--fail-on info`). A version
    /// that reads it says nothing; `--fail-on warning` refuses it.
    @Test func warnsOfEachAppVersionInTheFieldThatDropsWhatItWrites() throws {
        let warning = "state.json: warning: app version 1: the app drops this update; first error: missing-required-key "
            + "at /subTitle in the content-state (at /subTitle) [dropped-by-version]"
        let body = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--timestamp", "1795000000", Self.fixture("state.json")])
        #expect(body.status == 0)
        #expect(body.stderr.hasSuffix(warning + "\n"), "\(body.stderr)")
        #expect(body.stderr.components(separatedBy: "[dropped-by-version]").count == 2, "version 2 reads it: \(body.stderr)")
        let bare = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--content-state", Self.fixture("state.json")])
        #expect(bare.stderr.contains("app version 1: a push with this content-state is dropped; first error: missing-required-key"), "\(bare.stderr)")
        let strict = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--timestamp", "1795000000", "--fail-on", "warning", Self.fixture("state.json")])
        #expect(strict.status == 1 && strict.stdout.isEmpty)
        // Written for version 1, the body is read by versions 2 and 3 (under subTitle, their alias).
        let old = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--version", "1", "--timestamp", "1795000000", Self.fixture("v1-state.json")])
        #expect(old.status == 0 && !old.stderr.contains("dropped-by-version"), "\(old.stderr)")
    }

    @Test func elidesDefaultsAndSaysSo() throws {
        let result = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--content-state", "--elide-defaults", Self.fixture("state.json")])
        #expect(result.status == 0)
        // Into a pipe, the bytes alone: no final line feed, which would be sent too.
        #expect(result.stdout == #"{"logo":"","title":"On its way","progress":0.25,"courier":{"name":"Li","rating":4.9},"note":"Ring twice / gate 4"}"#)
        #expect(result.stderr.contains("[elided-default]"))
    }

    /// A strict version applies a value its schema replaces with a default: `decode` shows no
    /// state (the schema's default is not what the app holds) and exits 1, as the synopsis says.
    @Test func aStrictVersionsRefusedValueShowsNoState() throws {
        let schema = Data("""
            activity: s
            clients: { strict: [1] }
            versions:
              - version: 1
                content-state:
                  title: { type: string, default: "x", max-length: 4 }
            """.utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("s.yaml")
        try schema.write(to: file)
        let result = try CLI.run(["decode", "--schema", file.path, "--content-state", "-"], stdin: Data(#"{"title":"too long"}"#.utf8))
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("no state: the schema refuses it"), "\(result.stdout)")
        #expect(result.stderr.contains("error: 8 bytes is longer than max-length 4; 'title' takes its default \"x\" in the schema's reading"), "\(result.stderr)")
    }

    /// A push-to-start for iOS 18 asks for the new activity's update token, or names a channel,
    /// and may give its alert a sound; lint reads the body clean. Either option on another
    /// event, or both together, is a usage error.
    @Test func aStartAsksHowItsActivityIsReachedLater() throws {
        let start = ["encode", "--schema", "schemas/pizza.yaml", "--event", "start", "--timestamp", "1795000000",
                     "--attributes", Self.fixture("pizza-attributes.json"), "--alert-title", "Ordered", "--alert-body", "2 pizzas",
                     "--alert-sound", "default"]
        let token = try CLI.run(start + ["--input-push-token", Self.fixture("pizza-state.json")])
        #expect(token.status == 0, "\(token.stderr)")
        #expect(token.stdout.contains(#""input-push-token":1,"alert":{"title":"Ordered","body":"2 pizzas","sound":"default"}"#), "\(token.stdout)")
        let lint = try CLI.run(["lint", "--schema", "schemas/pizza.yaml", "-"], stdin: Data(token.stdout.utf8))
        #expect(lint.status == 0, "\(lint.stdout)")
        let channel = try CLI.run(start + ["--input-push-channel", "dGVzdA==", Self.fixture("pizza-state.json")])
        #expect(channel.status == 0 && channel.stdout.contains(#""input-push-channel":"dGVzdA==""#), "\(channel.stderr)")
        let both = try CLI.run(start + ["--input-push-token", "--input-push-channel", "dGVzdA==", Self.fixture("pizza-state.json")])
        #expect(both.status == 2 && both.stderr.contains("give one: input-push-token for an update token"), "\(both.stderr)")
        let update = try CLI.run(["encode", "--schema", "schemas/pizza.yaml", "--input-push-token", Self.fixture("pizza-state.json")])
        #expect(update.status == 2 && update.stderr.contains("error: input-push-token is for event start"), "\(update.stderr)")
    }

    /// An attributes file that is not JSON is worded as a payload is: `json-limit` for a bound,
    /// and the pointer to where the text broke (every failure was `json-syntax`, with no
    /// pointer; the ugly-input audit's L2).
    @Test func anAttributesFileThatIsNotJSONGetsThePayloadsWords() throws {
        let folder = try ImportSwiftCommandTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let deep = folder.appendingPathComponent("deep.json").path
        try (String(repeating: #"{"a":"#, count: 70) + "1" + String(repeating: "}", count: 70)).write(toFile: deep, atomically: true, encoding: .utf8)
        let cut = folder.appendingPathComponent("cut.json").path
        try #"{"numberOfPizzas":2,"totalAmount":"#.write(toFile: cut, atomically: true, encoding: .utf8)
        for (file, code, pointer) in [(deep, "json-limit", "/" + Array(repeating: "a", count: 64).joined(separator: "/")), (cut, "json-syntax", "/totalAmount")] {
            let result = try CLI.run(["encode", "--format", "json", "--schema", "schemas/pizza.yaml", "--event", "start", "--alert-title", "a",
                                      "--alert-body", "b", "--attributes", file, Self.fixture("pizza-state.json")])
            let found = try #require(try CLI.json(result.stdout)["diagnostics"] as? [[String: Any]]).first
            #expect(found?["code"] as? String == code && found?["pointer"] as? String == pointer && found?["scope"] as? String == "attributes",
                    "\(result.stdout)")
        }
    }

    /// A date in UNIX seconds is said once, where the state file has it, whether the state is
    /// written bare or in a body, and by `decode --content-state` as by `decode` of a body: the
    /// bare forms said nothing, and a body said it without a line and column.
    @Test func aUnixDateInTheStateIsSaidOnceWhereTheStateHasIt() throws {
        let state = Data(#"{"title":"x","eta":1795000000}"#.utf8)
        let said = "<stdin>:1:20: warning: 1795000000 looks like UNIX time: the device reads seconds since 2001-01-01, "
            + "so this is the year 2057; send 816692800 (at /eta) [unix-date-in-date-field]"
        for bare in [true, false] {
            let result = try CLI.run(["encode", "--schema", "schemas/delivery.yaml"] + (bare ? ["--content-state"] : []) + ["-"], stdin: state)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").filter { $0.hasSuffix("[unix-date-in-date-field]") } == [Substring(said)],
                    "\(result.stderr)")
        }
        let decoded = try CLI.run(["decode", "--schema", "schemas/delivery.yaml", "--content-state", "-"], stdin: state)
        #expect(decoded.status == 0)
        #expect(decoded.stderr.contains(said), "\(decoded.stderr)")
    }

    /// The bare content-state has no envelope: the options given for one are named as the
    /// command spells them.
    @Test func aBareContentStateRefusesEnvelopeOptionsByName() throws {
        let result = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--content-state", "--event", "end",
                                  "--alert-body", "b", "--timestamp", "1795000000", Self.fixture("state.json")])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(
            "error: --content-state writes the bare content-state, which takes no envelope options (given: --event, --timestamp, --alert-title/--alert-body) [usage]"),
            "\(result.stderr)")
    }

    /// `--attributes` without `--event start` is a usage error (the attributes would be left
    /// out of an update), checked before the file is read, as `send` checks it; with
    /// `--format json` it is the one JSON document.
    @Test func attributesWithoutAStartAreAUsageError() throws {
        let attributes = Self.fixture("attributes.json")
        let update = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--attributes", attributes, Self.fixture("state.json")])
        #expect(update.status == 2)
        #expect(update.stdout.isEmpty, "\(update.stdout)")
        #expect(update.stderr.contains(
            "error: --attributes is for --event start: the static attributes go only in a start, and an update (--event update, the default) would leave them out; give --event start, or leave --attributes out [usage]"),
            "\(update.stderr)")
        let end = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--event", "end", "--attributes", "no-such.json", Self.fixture("state.json")])
        #expect(end.status == 2)
        #expect(end.stderr.contains("and an end (--event end) would leave them out"), "\(end.stderr)")
        let json = try CLI.run(["encode", "--format", "json", "--schema", "schemas/delivery.yaml", "--attributes", attributes, Self.fixture("state.json")])
        #expect(json.status == 2)
        let diagnostics = try #require(try CLI.json(json.stdout)["diagnostics"] as? [[String: Any]], "\(json.stdout)")
        #expect(diagnostics.first?["code"] as? String == "usage")
        let start = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--event", "start", "--alert-title", "T", "--alert-body", "B",
                                 "--attributes", attributes, Self.fixture("state.json")])
        #expect(start.status == 0, "\(start.stderr)")
        #expect(start.stdout.contains(#""attributes":{"#), "\(start.stdout)")
    }

    /// An attributes file that is not JSON, or gives a key twice, is refused with where: the
    /// start would otherwise carry both values (found by the hostile-input sweep, as was the
    /// error wrapped twice, `file: error: 1:1: error: empty input [json-syntax] [json-syntax]`).
    /// A file that is not JSON is a usage error (2); a key given twice, a finding about the
    /// attributes (1), as the state's findings are.
    @Test(arguments: [
        ("", "-:1:1: error: empty input [json-syntax]", 2),
        (#"{"a":1,"#, "-:1:8: error: expected a string key after ',', found end of input [json-syntax]", 2),
        (#"{"totalAmount":1,"totalAmount":2}"#,
         "-:1:18: error: 'totalAmount' is given twice; the start would carry both, and which one the app reads is not specified (at /totalAmount in attributes) [duplicate-key]", 1),
    ])
    func badAttributesAreRefusedWithWhere(_ attributes: String, _ expected: String, _ status: Int32) throws {
        let result = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--event", "start", "--alert-title", "T", "--alert-body", "B",
                                  "--attributes", "-", Self.fixture("state.json")], stdin: Data(attributes.utf8))
        #expect(result.status == status)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == expected + "\n", "\(result.stderr)")
    }

    @Test func stateThatDoesNotFitTheVersionExitsOne() throws {
        let result = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", Self.fixture("invalid-state.json")])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("invalid-state.json:1:"))
        #expect(result.stderr.contains("version 3 has no field 'colour'"))
    }

    @Test func fitDropsAndShortensUntilTheBudgetHolds() throws {
        let without = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--timestamp", "1795000000", Self.fixture("over-budget-fits.json")])
        #expect(without.status == 1)
        #expect(without.stderr.contains("[over-budget]"))
        let fitted = try CLI.run(["encode", "--format", "json", "--fit", "--schema", "schemas/delivery.yaml", "--timestamp", "1795000000", Self.fixture("over-budget-fits.json")])
        #expect(fitted.status == 0)
        let document = try CLI.json(fitted.stdout)
        let codes = (document["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        // App version 1 reads `subTitle`, which version 3 no longer writes (`writesWhatAnOlderVersionDrops…`).
        #expect(codes == ["dropped-to-fit", "truncated-to-fit", "dropped-by-version"])
        let budget = try #require(document["budget"] as? [String: Any])
        #expect((budget["deviceWorstCase"] as? Int ?? .max) <= 4096)
        #expect(document["payload"] is [String: Any])
        // The fields as budget counts them: each member with its comma, within the braces.
        let fields = try #require(budget["fields"] as? [String: Int])
        #expect(!fields.isEmpty && fields.values.reduce(0, +) == (budget["contentState"] as? Int ?? 0) - 2, "\(fields)")
    }

    @Test func cannotFitExitsOne() throws {
        let result = try CLI.run(["encode", "--fit", "--schema", "schemas/delivery.yaml", Self.fixture("over-budget.json")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("does not fit even"))
    }

    @Test func startCarriesAttributesAndAlert() throws {
        let result = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--event", "start", "--timestamp", "1795000000",
                                  "--attributes", Self.fixture("attributes.json"), "--alert-title", "Order", "--alert-body", "On its way",
                                  Self.fixture("state.json")])
        #expect(result.status == 0, "\(result.stderr)")
        let lint = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", "-"], stdin: Data(result.stdout.utf8))
        #expect(lint.status == 0, "\(lint.stdout)")
    }

    /// A finding about a value in the --attributes file is placed at that value, line and
    /// column, as a state file's findings are; a missing key, which the file does not hold, at
    /// the object that lacks it; attributes that are not an object at the file's value.
    @Test func anAttributesFindingIsPlacedAtItsValue() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-attributes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let attributes = folder.appendingPathComponent("attributes.json").path
        try "{\n  \"orderId\": 7,\n  \"storeName\": \"Corner\"\n}\n".write(toFile: attributes, atomically: true, encoding: .utf8)
        let result = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--event", "start", "--timestamp", "1795000000",
                                  "--attributes", attributes, "--alert-title", "Order", "--alert-body", "On its way", Self.fixture("state.json")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(attributes):2:14: error: "), "\(result.stderr)")
        #expect(result.stderr.contains("(at /orderId in attributes) [wrong-type]"), "\(result.stderr)")
        #expect(result.stderr.contains("\(attributes):1:1: error: required key 'totalAmount' is missing"), "\(result.stderr)")
        try "\n  null\n".write(toFile: attributes, atomically: true, encoding: .utf8)
        let null = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--event", "start", "--timestamp", "1795000000",
                                "--attributes", attributes, "--alert-title", "Order", "--alert-body", "On its way", Self.fixture("state.json")])
        #expect(null.status == 1)
        #expect(null.stderr.contains("\(attributes):2:3: error: attributes must be an object of the static attributes; the activity does not start"),
                "\(null.stderr)")
    }

    /// The written body gets lint's verdict: a start without an alert or attributes is refused
    /// by the device, so encode says so and exits 1, as lint does on its output.
    @Test func aStartTheDeviceRefusesExitsOneWithLintsFindings() throws {
        let result = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--event", "start", "--timestamp", "1795000000",
                                  Self.fixture("state.json")])
        #expect(result.status == 1)
        // The alert and the attributes are not in the state file: the findings name the options
        // that lack them.
        #expect(result.stderr.contains("--alert-title/--alert-body: error: a start needs aps.alert with title and body; the activity does not start (at /aps/alert) [missing-aps-key]"))
        #expect(result.stderr.contains("\n--attributes: error: required key 'totalAmount' is missing; the activity does not start (at /totalAmount in attributes) [missing-required-key]"))
        // Not written where a script takes the body from; in JSON, shown beside the findings.
        #expect(result.stdout.isEmpty)
        let json = try CLI.run(["encode", "--format", "json", "--schema", "schemas/delivery.yaml", "--event", "start", "--timestamp", "1795000000",
                                Self.fixture("state.json")])
        #expect(json.status == 1)
        let payload = try #require(try CLI.json(json.stdout)["payload"] as? [String: Any])
        let body = try JSONSerialization.data(withJSONObject: payload)
        let lint = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", "-"], stdin: body)
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("[missing-aps-key]"))
    }

    /// `--format json` shows the body as the encoder wrote it: `-0` stays `-0` (text output and
    /// the sidecar keep it), where a parse into a `Value` wrote `0`.
    @Test func theJSONDocumentShowsTheBodyAsWritten() throws {
        let state = Data(#"{"title": "On its way", "progress": -0, "courier": {"name": "Li", "rating": -0.0}}"#.utf8)
        let text = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--timestamp", "1795000000", "-"], stdin: state)
        #expect(text.status == 0, "\(text.stderr)")
        let json = try CLI.run(["encode", "--format", "json", "--schema", "schemas/delivery.yaml", "--timestamp", "1795000000", "-"], stdin: state)
        #expect(json.status == 0, "\(json.stderr)")
        let body = text.stdout.trimmingCharacters(in: .newlines)
        #expect(body.contains(#""progress":-0"#), "\(body)")
        #expect(json.stdout.hasPrefix(#"{"payload":"# + body + #","budget":{"#), "\(json.stdout)")
        let empty = try CLI.run(["encode", "--format", "json", "--schema", "schemas/delivery.yaml", "--timestamp", "1795000000", "-"],
                                stdin: Data(#"{"progress": 2}"#.utf8))
        #expect(empty.status == 1)
        #expect(empty.stdout.hasPrefix(#"{"payload":null,"budget":null,"diagnostics":[{"#), "\(empty.stdout)")
        _ = try CLI.json(json.stdout)
    }

    /// Swift reads `nan` and `inf` as a `Double`; JSON has neither, so the option is a usage
    /// error (status 2), as the command's help says of every envelope option.
    @Test(arguments: ["nan", "inf", "-inf"])
    func aRelevanceScoreThatIsNotFiniteIsAUsageError(_ score: String) throws {
        let result = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--relevance-score=\(score)", Self.fixture("state.json")])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("error: relevance-score must be a finite number, not "), "\(result.stderr)")
    }

    /// A finding about an `aps` key an option wrote names the option, not the state file, which
    /// holds no such key (its pointer is in the written body).
    @Test func aFindingAboutAnOptionNamesTheOption() throws {
        let result = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--timestamp", "1795000000",
                                  "--dismissal-date", "1795000600", Self.fixture("state.json")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("--dismissal-date: warning: dismissal-date has no effect on update; it only counts on end (at /aps/dismissal-date) [dismissal-date-outside-end]\n"))
        let json = try CLI.run(["encode", "--format", "json", "--schema", "schemas/delivery.yaml", "--timestamp", "1795000000",
                                "--dismissal-date", "1795000600", Self.fixture("state.json")])
        let diagnostics = try #require(try CLI.json(json.stdout)["diagnostics"] as? [[String: Any]])
        // (The other finding is app version 1's `dropped-by-version`, about the state file's body.)
        #expect(diagnostics.first?["file"] as? String == "--dismissal-date")
        let milliseconds = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--timestamp", "1795000000000", Self.fixture("state.json")])
        #expect(milliseconds.stderr.hasPrefix("--timestamp: error: timestamp 1795000000000 is in milliseconds"), "\(milliseconds.stderr)")
    }

    /// A body over the budget is not written to standard output, though the encoder made it:
    /// `encode > body.json` must not leave a body that the device drops.
    @Test func aBodyOverTheBudgetIsNotWritten() throws {
        let result = try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--timestamp", "1795000000", Self.fixture("over-budget-fits.json")])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("[over-budget]"))
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--event", "begin", Self.fixture("state.json")]).status == 2)
        #expect(try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--timestamp", "soon", Self.fixture("state.json")]).status == 2)
        #expect(try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "schemas"]).status == 2)
        #expect(try CLI.run(["encode", "--schema", "schemas/delivery.yaml", "--version", "7", Self.fixture("state.json")]).status == 2)
    }
}

/// `lint`, `decode` and `budget` give one verdict for the same bytes: on every payload of the
/// field corpus (`Tests/LiveStateYAMLTests/Fixtures/field`), written as other senders write them.
@Suite struct OneVerdictTests {
    static let folder = "Tests/LiveStateYAMLTests/Fixtures/field"

    struct Entry: CustomTestStringConvertible, Sendable {
        var file: String
        var schema: String
        var testDescription: String { file }
    }

    static let entries: [Entry] = {
        let url = CLI.packageRoot.appendingPathComponent("\(folder)/expectations.json")
        guard let data = try? Data(contentsOf: url),
              let list = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else { return [] }
        return list.compactMap { entry in
            guard entry["allVersions"] as? Bool != true, entry["broadcast"] as? Bool != true, entry["version"] is NSNull,
                  let file = entry["file"] as? String, let schema = entry["schema"] as? String else { return nil }
            return Entry(file: file, schema: schema)
        }
    }()

    /// The warnings and errors of a JSON report, as `code pointer` lines.
    static func findings(_ document: [String: Any]) -> [String] {
        let diagnostics = document["diagnostics"] as? [[String: Any]] ?? []
        return diagnostics.filter { $0["severity"] as? String != "info" }
            .map { "\($0["code"] as? String ?? "") \($0["pointer"] as? String ?? "-")" }.sorted()
    }

    @Test func theCorpusIsThere() {
        #expect(Self.entries.count > 30)
    }

    @Test(arguments: entries)
    func lintDecodeAndBudgetAgree(entry: Entry) throws {
        let path = "\(Self.folder)/\(entry.file)"
        let schema = "schemas/\(entry.schema).yaml"
        let lint = try CLI.run(["lint", "--format", "json", "--schema", schema, path])
        let decode = try CLI.run(["decode", "--format", "json", "--schema", schema, path])
        let budget = try CLI.run(["budget", "--format", "json", "--schema", schema, path])
        let linted = try CLI.json(lint.stdout)
        let decoded = try CLI.json(decode.stdout)
        let lintDecodes = (linted["files"] as? [[String: Any]])?.first?["decodes"] as? Bool
        #expect(lintDecodes == decoded["decodes"] as? Bool)
        #expect(Self.findings(linted) == Self.findings(decoded))
        // Exit 1 exactly when the push is not applied or has an error, for both.
        #expect(decode.status == lint.status || (decode.status == 1 && lintDecodes == false))
        // The budget's findings are the lint's budget and syntax findings; when there are none
        // and the app drops the push, the lint's first error says why nothing is re-encoded.
        let budgetFindings = Self.findings(try CLI.json(budget.stdout))
        var expected = Self.findings(linted).filter { $0.contains("over-budget") || $0.hasPrefix("json-") }
        let lintDiagnostics = linted["diagnostics"] as? [[String: Any]] ?? []
        if expected.isEmpty, lintDecodes == false, let first = lintDiagnostics.first(where: { $0["severity"] as? String == "error" }) {
            expected = ["\(first["code"] as? String ?? "") \(first["pointer"] as? String ?? "-")"]
        }
        #expect(budgetFindings == expected)
        #expect((budget.status == 1) == !expected.isEmpty)
    }
}

/// `min-ios` decides what a `url` field takes: iOS 16 refuses what iOS 17 percent-encodes.
@Suite struct MinIOSCommandTests {
    /// A schema with a strict version 1 and a tolerant version 2, each with a `url` field.
    static func schema(minIOS: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-minios-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("links.yaml").path
        try """
            activity: links
            min-ios: \(minIOS)
            clients: { strict: [1] }
            versions:
              - version: 1
                content-state:
                  link: { type: url }
              - version: 2
                content-state:
                  link: { type: url, default: "https://example.com/home" }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let body = Data(#"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"link":"https://example.com/a b"}}}"#.utf8)

    @Test func onIOS16AStrictClientDropsTheUpdateAndATolerantOneTakesItsDefault() throws {
        let schema = try Self.schema(minIOS: #""16.1""#)
        defer { RetiredVersionTests.remove(schema) }
        let strict = try CLI.run(["lint", "--schema", schema, "--version", "1", "-"], stdin: Self.body)
        #expect(strict.status == 1)
        #expect(strict.stdout.contains(
            "<stdin>:1:73: error: 'https://example.com/a b' is no URL on iOS 16 (min-ios 16.1): URL(string:) there refuses a space at byte 21, which iOS 17 and later percent-encode; send 'https://example.com/a%20b'; 'link' has no default, so the app drops this update (the app decodes with synthesized Codable, which fails on it too) (at /link) [wrong-type]"),
            "\(strict.stdout)")
        let tolerant = try CLI.run(["decode", "--schema", schema, "--version", "2", "-"], stdin: Self.body)
        #expect(tolerant.status == 0)
        #expect(tolerant.stdout.contains(#""link": "https://example.com/home""#))
        #expect(tolerant.stderr.contains("[invalid-defaulted]"))
        let encoded = try CLI.run(["encode", "--schema", schema, "--content-state", "-"],
                                  stdin: Data(#"{"link":"https://example.com/a b"}"#.utf8))
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(encoded.stdout.contains(#"{"link":"https://example.com/a%20b"}"#))
        #expect(encoded.stderr.contains("iOS 16 (min-ios 16.1) refuses a space in a URL"))
    }

    @Test func onIOS17TheSameURLIsFine() throws {
        let schema = try Self.schema(minIOS: "17")
        defer { RetiredVersionTests.remove(schema) }
        let strict = try CLI.run(["lint", "--schema", schema, "--version", "1", "-"], stdin: Self.body)
        #expect(strict.status == 0, "\(strict.stdout)")
        #expect(strict.stdout.isEmpty)
        let encoded = try CLI.run(["encode", "--schema", schema, "--content-state", "-"], stdin: Data(#"{"link":"https://example.com/a b"}"#.utf8))
        #expect(encoded.stdout.contains(#"{"link":"https://example.com/a b"}"#))
    }

    @Test(arguments: [("\"15.4\"", "[schema-invalid-constraint]"), ("sixteen", "[schema-wrong-type]"), ("[16]", "[schema-wrong-type]")])
    func checkRefusesADeploymentTargetBeforeLiveActivities(_ value: String, _ code: String) throws {
        let schema = try Self.schema(minIOS: value)
        defer { RetiredVersionTests.remove(schema) }
        let result = try CLI.run(["check", schema])
        #expect(result.status == 2)
        #expect(result.stdout.contains("links.yaml:2:10: error:") || result.stderr.contains("links.yaml:2:10: error:"), "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains(code))
    }
}

/// `--fleet` and `--max-drop` on `lint`, `check` and `diff`, with the bundled delivery fleet:
/// the strict app version 1 on 3.1% of devices, version 2 on 21.5%, version 3 on 75.4%.
@Suite struct FleetCommandTests {
    static let update = "schemas/examples/delivery/v3-update.json"

    @Test(arguments: ["schemas/fleet/delivery.csv", "Tests/livestateTests/Fixtures/fleet/delivery.yaml"])
    func lintNamesTheShareThatDropsAndFailsOverTheThreshold(_ fleet: String) throws {
        let result = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", "--fleet", fleet, Self.update])
        #expect(result.status == 1)
        #expect(result.stdout.contains("error: app version 1: the app drops this update for 3.1% of devices (310 of 10,000); first error: missing-required-key at /subTitle in the content-state (at /subTitle) [dropped-by-version]"))
        #expect(result.stdout.contains("\(Self.update): 3.1% of devices (310 of 10,000) would lose this update (app version 1); 21.5% (2,150) would fall back to defaults (app version 2); over --max-drop 0%"))
    }

    /// The summary speaks of the push as it is: a start is not an update.
    @Test func lintSummarySaysTheEvent() throws {
        let result = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", "--fleet", "schemas/fleet/delivery.csv", "schemas/examples/delivery/v3-start.json"])
        #expect(result.stdout.contains("would lose this start"), "\(result.stdout)")
        #expect(!result.stdout.contains("would lose this update"))
    }

    /// A strict version's state is shown when the only error is the envelope's: a timestamp in
    /// milliseconds is no refusal of the state by the schema.
    @Test func decodeShowsAStrictStateBesideAnEnvelopeError() throws {
        let body = #"{"aps":{"timestamp":1795000000000,"event":"update","content-state":{"logo":"a","title":"b","subTitle":"c","progress":0.5}}}"#
        let result = try CLI.run(["decode", "--format", "json", "--schema", "schemas/delivery.yaml", "--version", "1", "-"], stdin: Data(body.utf8))
        let document = try CLI.json(result.stdout)
        #expect(document["decodes"] as? Bool == true, "\(result.stdout)")
        #expect((document["state"] as? [String: Any])?["title"] as? String == "b", "\(result.stdout)")
    }

    @Test func lintAcceptsADropWithinMaxDrop() throws {
        let result = try CLI.run(["lint", "--format", "json", "--schema", "schemas/delivery.yaml", "--fleet", "schemas/fleet/delivery.csv", "--max-drop", "5%", Self.update])
        #expect(result.status == 0, "\(result.stdout)")
        let document = try CLI.json(result.stdout)
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(!diagnostics.contains { $0["severity"] as? String == "error" })
        #expect(diagnostics.contains { ($0["message"] as? String)?.hasSuffix("(accepted by --max-drop 5%: 3.1% of devices drop it)") == true })
        let file = try #require((document["files"] as? [[String: Any]])?.first)
        let fleet = try #require(file["fleet"] as? [String: Any])
        #expect(fleet["total"] as? Int == 10_000)
        #expect(fleet["accepted"] as? Bool == true)
        let dropping = try #require(fleet["dropping"] as? [String: Any])
        #expect(dropping["devices"] as? Int == 310)
        #expect(dropping["versions"] as? [Int] == [1])
        #expect(dropping["share"] as? Double == 0.031)
        #expect(dropping["percent"] as? String == "3.1%")
    }

    @Test func checkGatesOnTheShare() throws {
        let strict = try CLI.run(["check", "--fleet", "schemas/fleet/delivery.csv", "--max-drop", "1%", "schemas/delivery.yaml"])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("(app v1: 3.1% of devices (310 of 10,000), broken) (at /subtitle) [field-renamed-alias-unknown]"))
        #expect(strict.stdout.contains("fleet: 3.1% of devices (310 of 10,000) would lose updates (app version 1)"))
        let lenient = try CLI.run(["check", "--fleet", "schemas/fleet/delivery.csv", "--max-drop", "5", "schemas/delivery.yaml"])
        #expect(lenient.status == 0, "\(lenient.stdout)")
        #expect(lenient.stdout.contains("delivery loads (versions 1, 2, 3) and passes its forward-transitive gate"))
    }

    @Test(arguments: ["json", "yaml", "markdown", "github"])
    func diffCarriesTheSharesInEveryFormat(_ format: String) throws {
        let result = try CLI.run(["diff", "--schema", "schemas/delivery.yaml", "--fleet", "schemas/fleet/delivery.csv", "--format", format])
        #expect(result.status == 1)
        #expect(result.stdout.contains(format == "github" ? "3.1%25 of devices" : "3.1% of devices"))
        if format == "json" {
            let fleet = try #require(try CLI.json(result.stdout)["fleet"] as? [String: Any])
            #expect((fleet["dropping"] as? [String: Any])?["devices"] as? Int == 310)
        }
    }

    @Test func badFleetFilesStopWithTheirPosition() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-fleet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases = [
            ("unknown.csv", "version,count\n1,5\n4,10\n", "unknown.csv:3:1: error: the fleet counts devices on version 4, which delivery does not have (it has 1, 2, 3) [fleet-unknown-version]"),
            ("extra.csv", "version,count\n1,5\n3,10,extra\n", "extra.csv:3:6: error: this row has 3 cells and the header 2 columns: 'extra' is under none [fleet-syntax]"),
            ("negative.csv", "version,count\n1,-5\n", "negative.csv:2:3: error: count '-5' is not a number of devices (a whole number, 0 or more) [fleet-invalid-count]"),
            ("empty.csv", "", "empty.csv:1:1: error: the fleet file is empty; it needs a header (version,count) and a row per schema version [fleet-empty]"),
            ("rows.yaml", "- { version: 1, count: x }\n", "rows.yaml:1:24: error: count 'x' is not a number of devices (a whole number, 0 or more) (at /0/count) [fleet-invalid-count]"),
        ]
        for (name, text, expected) in cases {
            let path = folder.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", "--fleet", path, Self.update])
            #expect(result.status == 2)
            #expect(result.stderr.contains(folder.path + "/" + expected), "\(result.stderr)")
        }
        let folderAsFleet = try CLI.run(["check", "--fleet", folder.path, "schemas/delivery.yaml"])
        #expect(folderAsFleet.status == 2)
        #expect(folderAsFleet.stderr.contains("is a directory, not a fleet file [fleet-io]"))
    }

    @Test func maxDropNeedsAFleetAndAFleetNeedsOneSchema() throws {
        let noFleet = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", "--max-drop", "1%", Self.update])
        #expect(noFleet.status == 2)
        #expect(noFleet.stderr.contains("--max-drop needs --fleet"))
        let twoSchemas = try CLI.run(["check", "--fleet", "schemas/fleet/delivery.csv", "schemas/delivery.yaml", "schemas/pizza.yaml"])
        #expect(twoSchemas.status == 2)
        #expect(twoSchemas.stderr.contains("--fleet weighs one schema's versions"))
        let badThreshold = try CLI.run(["check", "--fleet", "schemas/fleet/delivery.csv", "--max-drop", "lots", "schemas/delivery.yaml"])
        #expect(badThreshold.status == 2)
    }
}

/// A retired version: out of the gate, the lint and the encoder; its fields stay.
@Suite struct RetiredVersionTests {
    /// The delivery schema with version 1 (the strict one that breaks the gate) retired.
    static func retiredDelivery(_ retirement: String = "    retired: true\n    retired-on: \"2026-11-01\"\n    retired-reason: \"0.2% of devices\"\n") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-retired-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let text = try String(contentsOfFile: CLI.packageRoot.appendingPathComponent("schemas/delivery.yaml").path, encoding: .utf8)
        let path = folder.appendingPathComponent("delivery.yaml").path
        try text.replacingOccurrences(of: "  - version: 1\n", with: "  - version: 1\n" + retirement)
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Removes the scratch folder a schema at `path` was written in (`retiredDelivery`'s,
    /// `MinIOSCommandTests.schema`'s).
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }

    @Test func aRetiredVersionNoLongerGatesNorDrops() throws {
        let schema = try Self.retiredDelivery()
        defer { Self.remove(schema) }
        let check = try CLI.run(["check", schema])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.contains("delivery loads (versions 1, 2, 3) and passes its forward-transitive gate"))
        #expect(!check.stdout.contains("app v1"))
        let lint = try CLI.run(["lint", "--all-versions", "--format", "json", "--schema", schema, "schemas/examples/delivery/v3-update.json"])
        #expect(lint.status == 0, "\(lint.stdout)")
        let file = try #require((try CLI.json(lint.stdout)["files"] as? [[String: Any]])?.first)
        #expect((file["decodes"] as? [String: Bool])?.keys.sorted() == ["2", "3"])
    }

    @Test func lintAndEncodeSaySoForTheRetiredVersion() throws {
        let schema = try Self.retiredDelivery()
        defer { Self.remove(schema) }
        let lint = try CLI.run(["lint", "--schema", schema, "--version", "1", "schemas/examples/delivery/v1-update.json"])
        #expect(lint.stdout.contains("warning: app version 1 is retired on 2026-11-01: 0.2% of devices; no app in the field reads this push [retired-version]"), "\(lint.stdout)")
        let encode = try CLI.run(["encode", "--schema", schema, "--version", "1", "-"], stdin: Data(#"{"title":"x"}"#.utf8))
        #expect(encode.status == 1)
        #expect(encode.stderr.contains("version 1 is retired on 2026-11-01: 0.2% of devices; no app in the field reads its payloads, so none is written"))
        #expect(encode.stderr.contains("[retired-version]"))
    }

    /// A schema that does not load beside one that does: the gate runs on the one, and the
    /// fleet, which weighs one schema, is said not to be applied.
    @Test func aFleetBesideASchemaThatDoesNotLoadIsSaidNotToApply() throws {
        let result = try CLI.run(["check", "schemas/delivery.yaml", "no-such.yaml", "--fleet", "schemas/fleet/delivery.csv"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--fleet schemas/fleet/delivery.csv was not applied: it weighs the versions of one schema, and not every path named gave a schema that loads"), "\(result.stderr)")
        #expect(!result.stdout.contains("of devices"), "\(result.stdout)")
    }

    /// A folder that holds no schema file beside the one schema is a warning: the fleet is
    /// applied, and one that does not load stops the command (it passed unweighed, exit 0).
    @Test func aFolderOfNoSchemaDoesNotKeepTheFleetFromApplying() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let weighed = try CLI.run(["check", "schemas/delivery.yaml", folder.path, "--fleet", "schemas/fleet/delivery.csv", "--max-drop", "5"])
        #expect(weighed.stdout.contains("fleet: 3.1% of devices (310 of 10,000) would lose updates"), "\(weighed.stdout)")
        #expect(weighed.status == 0, "\(weighed.stdout)\(weighed.stderr)")
        let missing = try CLI.run(["check", "schemas/delivery.yaml", folder.path, "--fleet", "/nonexistent.csv"])
        #expect(missing.status == 2, "\(missing.stdout)\(missing.stderr)")
        #expect((missing.stdout + missing.stderr).contains("[fleet-io]"))
    }

    @Test func theFleetWarnsOfDevicesOnARetiredVersion() throws {
        let schema = try Self.retiredDelivery()
        defer { Self.remove(schema) }
        let check = try CLI.run(["check", "--fleet", "schemas/fleet/delivery.csv", schema])
        #expect(check.status == 0)
        #expect(check.stdout.contains("warning: the fleet counts 3.1% of devices (310 of 10,000) on version 1, which is retired on 2026-11-01: 0.2% of devices; they count in the total, and nothing is checked for them any more but a body APNs refuses, which reaches none of them [fleet-retired-version]"), "\(check.stdout)")
        // A body APNs refuses reaches the retired version's devices too, as `check` counts a
        // refused size (lint left them out: 96.9% of the devices, where all lose it).
        let lint = try CLI.run(["lint", "--schema", schema, "--fleet", "schemas/fleet/delivery.csv", "schemas/examples/delivery/failing/over-budget.json"])
        #expect(lint.stdout.contains("100% of devices (10,000 of 10,000) would lose this update"), "\(lint.stdout)")
        // With the command's findings: in JSON, in the one document.
        let json = try CLI.run(["check", "--fleet", "schemas/fleet/delivery.csv", "--format", "json", schema])
        let codes = (try CLI.json(json.stdout)["diagnostics"] as? [[String: Any]])?.compactMap { $0["code"] as? String } ?? []
        #expect(codes.contains("fleet-retired-version"), "\(json.stdout)")
    }

    @Test func aLiveVersionWithoutARowIsCountedAsNoDevicesAndSaidSo() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-fleet-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "version,count\n3,9400\n".write(toFile: path, atomically: true, encoding: .utf8)
        for command in [["check", "--fleet", path, "schemas/delivery.yaml"], ["lint", "--schema", "schemas/delivery.yaml", "--fleet", path, FleetCommandTests.update]] {
            let result = try CLI.run(command)
            for version in [1, 2] {
                #expect(result.stdout.contains(
                    "\(path): warning: the fleet has no row for version \(version), a live version of delivery; it is counted as no devices, so what it drops weighs nothing (give it a row, with count 0 if none is left, or retire it) [fleet-missing-version]"),
                    "\(command[0]): \(result.stdout)")
            }
        }
        let diff = try CLI.run(["diff", "--schema", "schemas/delivery.yaml", "--fleet", path, "--format", "json"])
        #expect(diff.stderr.contains("[fleet-missing-version]"), "\(diff.stderr)")
        _ = try CLI.json(diff.stdout)
    }

    @Test func aFleetThatDoesNotLoadStopsInTheJSONDocument() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-fleet-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "version,count\n1,-5\n2,3\n3,10\n".write(toFile: path, atomically: true, encoding: .utf8)
        for command in [
            ["check", "--fleet", path, "--format", "json", "schemas/delivery.yaml"],
            ["diff", "--schema", "schemas/delivery.yaml", "--fleet", path, "--format", "json"],
            ["lint", "--schema", "schemas/delivery.yaml", "--fleet", path, "--format", "json", FleetCommandTests.update],
        ] {
            let result = try CLI.run(command)
            #expect(result.status == 2, "\(command[0])")
            let codes = (try CLI.json(result.stdout)["diagnostics"] as? [[String: Any]])?.compactMap { $0["code"] as? String } ?? []
            #expect(codes == ["fleet-invalid-count"], "\(command[0]): \(result.stdout)")
        }
    }

    /// Each share beside a threshold is as precise as it takes to compare with it, on every
    /// line: 499 of 10,000 under a 5% gate is 4.99% in the version's finding, the compatibility
    /// finding and the YAML to commit, as in the summary (they said 5.0%).
    @Test func everyShareBesideAThresholdComparesWithIt() throws {
        let fleet = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-fleet-\(UUID().uuidString).csv")
        try Data("version,count\n1,499\n2,2000\n3,7501\n".utf8).write(to: fleet)
        defer { try? FileManager.default.removeItem(at: fleet) }
        let lint = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", "--fleet", fleet.path, "--max-drop", "5%", "schemas/examples/delivery/v3-update.json"])
        #expect(lint.stdout.contains("app version 1: the app drops this update for 4.99% of devices (499 of 10,000)"), "\(lint.stdout)")
        let check = try CLI.run(["check", "--fleet", fleet.path, "--max-drop", "5%", "--suggest-retire", "5%", "schemas/delivery.yaml"])
        #expect(check.stdout.contains("(app v1: 4.99% of devices (499 of 10,000), broken)"), "\(check.stdout)")
        #expect(check.stdout.contains(#"retired-reason: "4.99% of devices (499 of 10000)"#), "\(check.stdout)")
        #expect(!check.stdout.contains("5.0% of devices"), "\(check.stdout)")
    }

    /// A threshold out of its range is refused with the form it takes (the parser said only
    /// that the value is invalid), and `--fleet -` says the fleet is a file (it looked for one
    /// named `-`).
    @Test func aFleetOptionOutOfItsFormSaysWhatItTakes() throws {
        let drop = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", "--fleet", "schemas/fleet/delivery.csv", "--max-drop", "101", "schemas/examples/delivery/v3-update.json"])
        #expect(drop.status == 2 && drop.stderr.contains("'101' is invalid for '--max-drop <max-drop>': --max-drop must be a percentage from 0 to 100 such as 1% or 0.5, with at most 12 decimals"), "\(drop.stderr)")
        let retire = try CLI.run(["check", "--fleet", "schemas/fleet/delivery.csv", "--suggest-retire", "1.0000000000001", "schemas/delivery.yaml"])
        #expect(retire.status == 2 && retire.stderr.contains("--suggest-retire must be a percentage from 0 to 100"), "\(retire.stderr)")
        let stdin = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", "--fleet", "-", "schemas/examples/delivery/v3-update.json"])
        #expect(stdin.status == 2 && stdin.stderr.contains("--fleet takes the fleet file's path"), "\(stdin.stderr)")
    }

    @Test func suggestRetireListsTheSmallVersionsWithTheirYAML() throws {
        let result = try CLI.run(["check", "--fleet", "schemas/fleet/delivery.csv", "--max-drop", "5%", "--suggest-retire", "5%", "schemas/delivery.yaml"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("schemas/delivery.yaml: version 1 holds 3.1% of devices (310 of 10,000), under 5%: retire it\n  - version: 1\n    retired: true\n"))
        #expect(!result.stdout.contains("version 2 holds"))
        let none = try CLI.run(["check", "--fleet", "schemas/fleet/delivery.csv", "--max-drop", "5%", "--suggest-retire", "1%", "schemas/delivery.yaml"])
        #expect(none.stdout.contains("none to retire"))
        let noFleet = try CLI.run(["check", "--suggest-retire", "1%", "schemas/delivery.yaml"])
        #expect(noFleet.status == 2)
    }

    @Test func retirementsTheSchemaRefuses() throws {
        let strayPath = try Self.retiredDelivery("    retired-on: \"2026-11-01\"\n")
        defer { Self.remove(strayPath) }
        let stray = try CLI.run(["check", strayPath])
        #expect(stray.status == 2)
        #expect(stray.stdout.contains("'retired-on' describes a retirement; add retired: true, or leave it out"), "\(stray.stdout)")
        let text = try String(contentsOfFile: CLI.packageRoot.appendingPathComponent("schemas/pizza.yaml").path, encoding: .utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-retired-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("pizza.yaml").path
        try text.replacingOccurrences(of: "  - version: 2\n", with: "  - version: 2\n    retired: true\n").write(toFile: path, atomically: true, encoding: .utf8)
        let newest = try CLI.run(["check", path])
        #expect(newest.status == 2)
        #expect((newest.stdout + newest.stderr).contains("the newest version, 2, cannot be retired"))
    }
}

/// `livestate import swift`: the shipped app's `ContentState` as a strict schema version.
@Suite struct ImportSwiftCommandTests {
    static let ride = "Tests/LiveStateImportTests/Corpus/Ride.swift"

    /// The activity's id is the type's name in kebab case, a run of capitals one word.
    @Test(arguments: [("HALiveActivityAttributes", "ha-live"), ("FoodOrderAttributes", "food-order"), ("ETAAttributes", "eta"),
                      ("Game2ScoreAttributes", "game2-score"), ("DeliveryActivityAttributes", "delivery")])
    func theActivityIsTheTypesNameInKebabCase(_ type: String, _ id: String) throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("A.swift").path
        try "struct \(type): ActivityAttributes { struct ContentState: Codable, Hashable { var title: String } }\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let result = try CLI.run(["import", "swift", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\nactivity: \(id)\n"), "\(result.stdout)")
    }

    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func writesASchemaThatLoads() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("ride.yaml").path
        let result = try CLI.run(["import", "swift", Self.ride, "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        let yaml = try String(contentsOfFile: output, encoding: .utf8)
        #expect(yaml.contains("activity: ride\nattributes-type: RideAttributes\n"))
        #expect(yaml.contains("  strict: [1]"))
        #expect(yaml.contains(#"      eta: { type: int, description: "Swift default 4; synthesized Codable ignores it, so the key is required." }"#))
        let check = try CLI.run(["check", output])
        #expect(check.status == 0, "\(check.stdout)")
        // The shipped app drops a payload without 'eta', though Swift gave it a default.
        let decode = try CLI.run(["decode", "--schema", output, "--content-state", "-"], stdin: Data(#"{"driver_name":"Ana"}"#.utf8))
        #expect(decode.status == 1)
        #expect(decode.stderr.contains("key 'eta' is missing"))
    }

    /// When no file could be read, their errors say why, and nothing claims that no type was
    /// found in no files.
    @Test func unreadableSourcesGetOnlyTheirOwnErrors() throws {
        let result = try CLI.run(["import", "swift", "no-such.swift"])
        #expect(result.status == 2)
        #expect(result.stderr == "no-such.swift: error: cannot read: no such file or directory [schema-io]\n")
    }

    /// An --output that is a folder is refused as one, before its name is taken for the
    /// activity's id, and nothing is written.
    @Test func anOutputThatIsAFolderIsRefused() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLI.run(["import", "swift", Self.ride, "--output", folder.path])
        #expect(result.status == 2)
        #expect(result.stderr.hasSuffix("\(folder.path): error: is a folder, not a file: --output names the file to write [io-error]\n"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        // A folder that does not exist yet, named with its '/': a file named `out` was written.
        let slash = folder.appendingPathComponent("out").path + "/"
        let unmade = try CLI.run(["import", "swift", Self.ride, "--output", slash])
        #expect(unmade.status == 2)
        #expect(unmade.stderr.hasSuffix("\(slash): error: ends in '/', which names a folder, not a file: --output names the file to write [io-error]\n"), "\(unmade.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// An `--output` that is a symbolic link is written through to its target, and one that is
    /// a named pipe is written into: each was replaced by a regular file (the link's target
    /// left as it was, the pipe's reader given nothing), exit 0 (the ugly-input audit's H1).
    @Test func anOutputThatIsALinkOrAPipeIsWrittenThrough() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = folder.appendingPathComponent("real.yaml").path
        try "old\n".write(toFile: real, atomically: true, encoding: .utf8)
        // The file keeps its permissions: the new one renamed over it had a new file's.
        #expect(chmod(real, 0o640) == 0)
        let link = folder.appendingPathComponent("ride.yaml").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        let linked = try CLI.run(["import", "swift", Self.ride, "--output", link])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real)
        #expect(try String(contentsOfFile: real, encoding: .utf8).contains("activity: ride\n"))
        #expect((try FileManager.default.attributesOfItem(atPath: real)[.posixPermissions] as? NSNumber)?.intValue == 0o640)
        // A link to a file not made yet makes that file, and stays a link (it was replaced).
        let dangling = folder.appendingPathComponent("dangling.swift").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "made/../new.swift")
        try FileManager.default.createDirectory(atPath: folder.appendingPathComponent("made").path, withIntermediateDirectories: true)
        #expect(try CLI.run(["codegen", "swift", "--schema", "schemas/pizza.yaml", "--output", dangling]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dangling) == "made/../new.swift")
        #expect(try String(contentsOfFile: folder.appendingPathComponent("new.swift").path, encoding: .utf8).contains("PizzaDeliveryAttributes"))
        // A link's relative target is relative to its folder as the system finds it, through a
        // linked folder on the way (it was taken from the path as written: `folder/t.swift`).
        let realFolder = folder.appendingPathComponent("real/dir")
        try FileManager.default.createDirectory(at: realFolder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("lnk").path, withDestinationPath: realFolder.path)
        try FileManager.default.createSymbolicLink(atPath: realFolder.appendingPathComponent("out.swift").path, withDestinationPath: "../t.swift")
        #expect(try CLI.run(["codegen", "swift", "--schema", "schemas/pizza.yaml", "--output", folder.appendingPathComponent("lnk/out.swift").path]).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("real/t.swift").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("t.swift").path))
        // A loop of links leads to no file: refused, and left as it was.
        let loop = folder.appendingPathComponent("loop.swift").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: "loop.swift")
        let looped = try CLI.run(["codegen", "swift", "--schema", "schemas/pizza.yaml", "--output", loop])
        #expect(looped.status == 2 && looped.stderr.contains("is a loop of symbolic links"), "\(looped.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: loop) == "loop.swift")

        let pipe = folder.appendingPathComponent("out.swift").path
        #expect(mkfifo(pipe, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        reader.arguments = ["20", "cat", pipe]
        let read = Pipe()
        reader.standardOutput = read
        try reader.run()
        let piped = try CLI.run(["codegen", "swift", "--schema", "schemas/pizza.yaml", "--output", pipe])
        #expect(piped.status == 0, "\(piped.stderr)")
        var info = stat()
        #expect(stat(pipe, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "still a named pipe")
        if info.st_mode & S_IFMT != S_IFIFO { reader.terminate() }
        let text = String(decoding: read.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        #expect(text.contains("PizzaDeliveryAttributes"), "the reader got: \(text.prefix(200))")
    }

    /// A schema file's activity must be its stem: written to `trips.yaml`, the import is
    /// activity `trips` (it was `ride`, from the type's name, and then did not load).
    @Test func theOutputFilesStemIsTheActivity() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("trips.yaml").path
        let result = try CLI.run(["import", "swift", Self.ride, "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).contains("activity: trips\nattributes-type: RideAttributes\n"))
        #expect(try CLI.run(["check", output]).status == 0)
    }

    /// Imports a `PizzaDeliveryAttributes` whose `ContentState` has `members` into a copy of
    /// the bundled `pizza.yaml` in `folder` with `--append-to`: the schema's path, and the text
    /// written.
    static func appendPizza(_ members: String, in folder: URL) throws -> (schema: String, text: String) {
        let swift = folder.appendingPathComponent("Pizza.swift").path
        try """
            struct PizzaDeliveryAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
            \(members)
                }
                var numberOfPizzas: Int
                var totalAmount: String
                var orderNumber: String
            }
            """.write(toFile: swift, atomically: true, encoding: .utf8)
        let schema = folder.appendingPathComponent("pizza.yaml").path
        try FileManager.default.copyItem(atPath: CLI.packageRoot.appendingPathComponent("schemas/pizza.yaml").path, toPath: schema)
        let result = try CLI.run(["import", "swift", swift, "--append-to", schema])
        #expect(result.status == 0, "\(result.stderr)")
        return (schema, try String(contentsOfFile: schema, encoding: .utf8))
    }

    @Test func appendsTheShippedAppToAnExistingSchema() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (schema, text) = try Self.appendPizza("""
                    var name: String
                    var status: Int
                    var timer: ClosedRange<Date>
                    var driverName: String
                    var toppings: [String]
            """, in: folder)
        #expect(text.contains("  - version: 3\n"))
        #expect(text.contains("strict: [3]"))
        // The current v2 payloads lack 'toppings': the shipped app version 3 drops them.
        let lint = try CLI.run(["lint", "--all-versions", "--schema", schema, "schemas/examples/pizza/v2-update.json"])
        #expect(lint.status == 1)
        #expect(lint.stdout.contains("app version 3: the app drops this update; first error: missing-required-key at /toppings in the content-state"), "\(lint.stdout)")
    }

    /// An app whose `ContentState` reads its keys in its own `init(from:)` is appended as it
    /// decodes: not a strict client, with the defaults its `??`s give, so a payload without a
    /// defaulted key passes and one with a value of another type does not.
    @Test func appendsAnAppWithItsOwnInitializerAsItDecodes() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (schema, text) = try Self.appendPizza("""
                    var driverName: String
                    var minutes: Int
                    init(from decoder: Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        driverName = try container.decode(String.self, forKey: .driverName)
                        minutes = try container.decodeIfPresent(Int.self, forKey: .minutes) ?? 30
                    }
            """, in: folder)
        #expect(text.contains("  - version: 3\n"))
        #expect(!text.contains("strict: [3]") && !text.contains("strict: [1, 3]"), "\(text)")
        #expect(text.contains(#"      minutes: { type: int, default: 30, on-invalid: reject, on-null: default, description: "init(from:) reads 'minutes' with decodeIfPresent ?? 30: a missing key or null reads as 30; a value that does not decode as Int is refused." }"#), "\(text)")
        let state = { (json: String) in try CLI.run(["decode", "--schema", schema, "--content-state", "-"], stdin: Data(json.utf8)) }
        #expect(try state(#"{"driverName":"Ana"}"#).status == 0)
        let wrong = try state(#"{"driverName":"Ana","minutes":"soon"}"#)
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("/minutes"), "\(wrong.stderr)")
    }

    @Test func needsReviewExitsThree() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let swift = folder.appendingPathComponent("Wrapped.swift").path
        try "struct W: ActivityAttributes { struct ContentState: Codable, Hashable { var owner: Person } }".write(toFile: swift, atomically: true, encoding: .utf8)
        let result = try CLI.run(["import", "swift", swift])
        #expect(result.status == 3)
        #expect(result.stderr.contains("Wrapped.swift:1:84: warning: 'owner' has the type Person, which is not in the given files; stated as a string, which is wrong if it is a struct or a number: give the file that declares Person too [needs-review]"), "\(result.stderr)")
        #expect(result.stdout.contains("owner: { type: string }"))
    }

    /// Two attributes types that hold the same state: without --attributes-type, a usage
    /// error, and each finding about the shared type printed once, not once per type.
    @Test func severalAttributesTypesPrintEachFindingOnce() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Two.swift").path
        try """
            struct Shared: Codable, Hashable { var kind: Elsewhere }
            struct OneAttributes: ActivityAttributes { typealias ContentState = Shared }
            struct TwoAttributes: ActivityAttributes { typealias ContentState = Shared }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try CLI.run(["import", "swift", path])
        #expect(run.status == 2)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.filter { $0.contains("'kind' has the type Elsewhere") }.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("several ActivityAttributes types (OneAttributes, TwoAttributes)"))
    }

    /// `-` reads the Swift source from standard input, as every other path argument does.
    @Test func importReadsStandardInput() throws {
        let source = "struct TapAttributes: ActivityAttributes {\n  struct ContentState: Codable, Hashable { var taps: Int }\n}\n"
        let run = try CLI.run(["import", "swift", "-"], stdin: Data(source.utf8))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#"description: "Imported from <stdin>; decoded with synthesized Codable.""#), "\(run.stdout)")
        #expect(run.stdout.contains("taps: { type: int }"))
        let latin1 = try CLI.run(["import", "swift", "-"], stdin: Data("// caf".utf8 + [0xE9]))
        #expect(latin1.status == 2)
        #expect(latin1.stderr.contains("<stdin>:1:7: error: is not UTF-8 text"), "\(latin1.stderr)")
    }

    @Test func badSourcesStopWithTheirPosition() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("Broken.swift").path
        try "struct A: ActivityAttributes {\n  var x: = 3\n}\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let syntax = try CLI.run(["import", "swift", broken])
        #expect(syntax.status == 2)
        #expect(syntax.stderr.contains("Broken.swift:2:10: error: expected type [swift-syntax]"), "\(syntax.stderr)")
        #expect(syntax.stderr.contains("[swift-syntax]"))
        let latin1 = folder.appendingPathComponent("Latin1.swift")
        try Data("struct A {\n  var x = \"caf".utf8 + [0xE9] + "\"\n}\n".utf8).write(to: latin1)
        let notUTF8 = try CLI.run(["import", "swift", latin1.path])
        #expect(notUTF8.status == 2)
        #expect(notUTF8.stderr.contains("Latin1.swift:2:15: error: is not UTF-8 text, so not Swift source: byte 0xE9 here starts no UTF-8 character [schema-io]"),
                "\(notUTF8.stderr)")
        let plain = folder.appendingPathComponent("Plain.swift").path
        try "struct A { var x: Int }".write(toFile: plain, atomically: true, encoding: .utf8)
        let none = try CLI.run(["import", "swift", plain])
        #expect(none.status == 2)
        #expect(none.stderr.contains("[no-activity-attributes]"))
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let noFiles = try CLI.run(["import", "swift", empty.path])
        #expect(noFiles.status == 2)
        #expect(noFiles.stderr.contains("is a folder with no .swift files"))
        let huge = folder.appendingPathComponent("Huge.swift").path
        try String(repeating: "// filler\n", count: 1_000_000).write(toFile: huge, atomically: true, encoding: .utf8)
        let tooLarge = try CLI.run(["import", "swift", huge])
        #expect(tooLarge.status == 2)
        #expect(tooLarge.stderr.contains("is 10000000 bytes, over the limit of 8388608 bytes for a Swift file"), "\(tooLarge.stderr)")
        let several = try CLI.run(["import", "swift", "Tests/LiveStateImportTests/Corpus"])
        #expect(several.status == 2)
        #expect(several.stderr.contains("pick one with --attributes-type"))
        let picked = try CLI.run(["import", "swift", "Tests/LiveStateImportTests/Corpus", "--attributes-type", "OrderAttributes"])
        #expect(picked.status == 0, "\(picked.stderr)")
        #expect(picked.stdout.contains("attributes-type: OrderAttributes"))
    }

    /// A folder with several attributes types: the one picked is imported, with its findings
    /// only. (Another type's needs-review warnings were printed too, though the exit status, 0,
    /// was the picked type's.) Reduced from RoverPlatform/rover-ios (a nested type with its own
    /// init(from:)) and Umar-M-Haroon/SportsCal (plain), side by side.
    @Test func thePickedTypesFindingsOnly() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            public struct RoverNBAActivityAttributes: ActivityAttributes {
                public var gameID: String
                public typealias ContentState = NBAContentState
            }
            public struct NBAContentState: Codable, Hashable {
                public var clock: String?
                public var isClockPaused: Bool
                public init(from decoder: Decoder) throws { fatalError() }
            }
            """.write(to: folder.appendingPathComponent("RoverNBAActivityAttributes.swift"), atomically: true, encoding: .utf8)
        try """
            struct LiveSportActivityAttributes: ActivityAttributes {
                public struct ContentState: Codable, Hashable {
                    var homeScore: Int
                    var status: String?
                }
                var eventID: String
            }
            """.write(to: folder.appendingPathComponent("LiveSportActivityAttributes.swift"), atomically: true, encoding: .utf8)
        let sport = try CLI.run(["import", "swift", folder.path, "--attributes-type", "LiveSportActivityAttributes"])
        #expect(sport.status == 0)
        #expect(sport.stderr.isEmpty, "\(sport.stderr)")
        let rover = try CLI.run(["import", "swift", folder.path, "--attributes-type", "RoverNBAActivityAttributes"])
        #expect(rover.status == 3)
        #expect(rover.stderr.contains("RoverNBAActivityAttributes.swift:8:49: warning: NBAContentState has its own init(from:)"), "\(rover.stderr)")
    }

    @Test func aFolderOfTwoThousandFilesImportsItsOneActivity() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        for index in 0..<2_000 {
            try "struct Model\(index): Codable { var value\(index): Int }\n"
                .write(to: folder.appendingPathComponent("Model\(index).swift"), atomically: false, encoding: .utf8)
        }
        try "struct PackAttributes: ActivityAttributes { struct ContentState: Codable, Hashable { var model: Model1999 } }\n"
            .write(to: folder.appendingPathComponent("PackAttributes.swift"), atomically: false, encoding: .utf8)
        let result = try CLI.run(["import", "swift", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("value1999: { type: int }"), "\(result.stdout)")
    }
}

/// `livestate serve` as a process: settings from flags and the environment, and a clean stop.
@Suite struct ServeCommandTests {
    /// A run that does not end (here a server that starts) is stopped and reported, so a
    /// regression that lets `serve` start where a refusal is expected fails a test, not the
    /// whole run by a hang.
    @Test func aRunThatDoesNotEndIsStopped() throws {
        #expect(throws: LivestateBinary.TimedOut.self) {
            try LivestateBinary.run(["serve", "--port", "0", "--schemas", "schemas"], timeout: 3)
        }
    }

    @Test func environmentVariablesAreCheckedWithTheirNames() throws {
        for (variable, value) in [("LIVESTATE_PORT", "99999"), ("LIVESTATE_LOG_FORMAT", "xml"), ("LIVESTATE_MAX_BODY_BYTES", "-1"), ("LIVESTATE_LOG_LEVEL", "loud"),
                                  ("LIVESTATE_WATCH", "maybe"), ("LIVESTATE_WATCH", ""), ("LIVESTATE_WATCH", "enabled")] {
            let result = try CLI.run(["serve"], environment: [variable: value])
            #expect(result.status == 2, "\(variable)")
            #expect(result.stderr.contains("\(variable) must be"), "\(variable): \(result.stderr)")
        }
        let watch = try CLI.run(["serve"], environment: ["LIVESTATE_WATCH": "maybe"])
        #expect(watch.stderr.contains("LIVESTATE_WATCH must be 1, true, yes or on (on), or 0, false, no or off (off), not 'maybe'"), "\(watch.stderr)")
        // A flag wins over its variable.
        let flag = try CLI.run(["serve", "--port", "70000"], environment: ["LIVESTATE_PORT": "0"])
        #expect(flag.stderr.contains("--port must be"), "\(flag.stderr)")
        // A body is held whole: at most 1 GiB, as lint's --max-bytes (a 1.5 GB body took 3 GB).
        for flag in ["--max-body-bytes", "--max-batch-bytes"] {
            let huge = try CLI.run(["serve", flag, "9223372036854775807"])
            #expect(huge.status == 2 && huge.stderr.contains("\(flag) must be from 1 to 1073741824 (1 GiB) bytes, not 9223372036854775807"),
                    "\(huge.stderr)")
        }
        let drain = try CLI.run(["serve"], environment: ["LIVESTATE_DRAIN_SECONDS": "-1"])
        #expect(drain.status == 2)
        #expect(drain.stderr.contains("LIVESTATE_DRAIN_SECONDS must be a whole number of seconds between 0 and 3600, not -1"), "\(drain.stderr)")
    }

    /// With `--format json`, a usage error the argument parser finds (a value out of range, an
    /// option the command does not have) is a JSON document on standard output, as a command's
    /// own usage errors are: standard output was empty (the ugly-input audit's L1).
    @Test func aUsageErrorIsAJSONDocumentWhenJSONIsAskedFor() throws {
        for arguments in [["lint", "--format", "json", "--max-bytes", "-1", "--schema", "schemas/pizza.yaml", "x.json"],
                          ["encode", "--format=json", "--schema", "schemas/pizza.yaml", "--no-such-option", "x.json"]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 2)
            let diagnostics = try #require(try CLI.json(result.stdout)["diagnostics"] as? [[String: Any]], "\(result.stdout)")
            #expect(diagnostics.map { $0["code"] as? String } == ["usage"], "\(diagnostics)")
            #expect(result.stderr.contains("Usage: livestate"), "the text stays on standard error")
        }
        #expect(try CLI.run(["lint", "--max-bytes", "-1", "--schema", "schemas/pizza.yaml", "x.json"]).stdout.isEmpty)
        // The last --format given wins, as the parser takes it.
        let last = try CLI.run(["lint", "--format", "json", "--format", "text", "--max-bytes", "-1", "--schema", "schemas/pizza.yaml", "x.json"])
        #expect(last.status == 2 && last.stdout.isEmpty, "\(last.stdout)")
        // A command with no --format: it is an unknown option there, and no JSON is printed.
        for arguments in [["serve", "--format", "json"], ["import", "swift", "--format", "json", "x.swift"]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(arguments): \(result.stdout)")
            #expect(result.stderr.contains("Unknown option '--format'"))
        }
    }

    /// With JSON logs, a bad flag or variable is a JSON line too: it was plain text with the
    /// usage, which a log collector drops.
    @Test func aBadSettingIsAJSONLineWithJSONLogs() throws {
        for (arguments, environment, said) in [
            (["serve"], ["LIVESTATE_LOG_FORMAT": "json", "LIVESTATE_MAX_BODY_BYTES": "0"], "must be"),
            (["serve", "--log-format", "json", "--port", "99999"], [:], "must be"),
            // What the argument parser refuses was plain text and the usage block.
            (["serve", "--log-format", "json", "--port", "abc"], [:], "The value 'abc' is invalid for '--port <port>'"),
            (["serve", "--log-format=json", "--drain-seconds", "1.5"], [:], "is invalid for '--drain-seconds"),
            (["serve", "--no-such-option"], ["LIVESTATE_LOG_FORMAT": "json"], "Unknown option '--no-such-option'"),
        ] {
            let result = try CLI.run(arguments, environment: environment)
            #expect(result.status == 2)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(result.stderr)")
            let object = try CLI.json(String(lines.first ?? ""))
            #expect(object["level"] as? String == "critical")
            #expect(object["code"] as? String == "usage")
            #expect((object["message"] as? String)?.contains(said) == true, "\(object)")
        }
    }

    /// A SIGHUP while the schemas load (a folder of hundreds takes seconds) is ignored: its
    /// default action ended the process with status 129 before the reload handler was there.
    @Test func aHangUpWhileTheSchemasLoadDoesNotEndTheServer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-hup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pizza = try String(contentsOfFile: "\(CLI.packageRoot.path)/schemas/pizza.yaml", encoding: .utf8)
        for index in 0..<700 {
            try pizza.replacingOccurrences(of: "activity: pizza", with: "activity: pizza\(index)")
                .write(to: folder.appendingPathComponent("pizza\(index).yaml"), atomically: true, encoding: .utf8)
        }
        let server = try ServeProcess(["serve", "--port", "0", "--schemas", folder.path], defaultHangUp: true)
        defer { server.remove() }
        try await Task.sleep(for: .milliseconds(300))
        kill(server.process.processIdentifier, SIGHUP)
        let log = try await server.log(waitingFor: "listening on")
        #expect(server.process.isRunning, "\(log)")
        #expect(log.contains("listening on http://127.0.0.1:"), "\(log)")
        server.process.terminate()
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0)
    }

    /// A new folder holding a copy of the bundled `pizza.yaml`, for a server to watch: the
    /// folder (the test's to remove) and the schema file.
    static func folderWithPizzaSchema() throws -> (folder: URL, schema: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let schema = folder.appendingPathComponent("pizza.yaml")
        try FileManager.default.copyItem(atPath: "\(CLI.packageRoot.path)/schemas/pizza.yaml", toPath: schema.path)
        return (folder, schema)
    }

    /// `LIVESTATE_WATCH` takes on and off as well as 1 and 0, in any case: `On` watches (a
    /// changed schema file is reloaded), `OFF` starts without watching rather than being
    /// refused, and `--watch` wins over a variable it does not read.
    @Test func theWatchVariableTakesOnAndOff() async throws {
        let (folder, schema) = try Self.folderWithPizzaSchema()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServeProcess(["serve", "--port", "0", "--schemas", folder.path],
                                      environment: ["LIVESTATE_WATCH": "On", "LIVESTATE_WATCH_INTERVAL": "0.05"])
        defer { server.remove() }
        _ = try await server.log(waitingFor: "listening on http://127.0.0.1:")
        let handle = try FileHandle(forWritingTo: schema)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("# changed\n".utf8))
        try handle.close()
        let log = try await server.log(waitingFor: "schema files changed: reloading")
        server.process.terminate()
        server.process.waitUntilExit()
        #expect(log.contains("schema files changed: reloading"), "\(log)")
        // The line names the file that changed (it named only the folder).
        #expect(log.contains("changed=\(schema.path)"), "\(log)")
        for (arguments, value) in [([String](), "OFF"), (["--watch"], "maybe")] {
            #expect(throws: LivestateBinary.TimedOut.self, "\(arguments) \(value): it starts") {
                try LivestateBinary.run(["serve", "--port", "0", "--schemas", "schemas"] + arguments, environment: ["LIVESTATE_WATCH": value], timeout: 3)
            }
        }
    }

    /// In JSON, a reload's errors are log lines with the finding's code and place as fields, as
    /// the start's are (they were the text alone).
    @Test func aFailedReloadLogsItsErrorsWithTheirCodeAndPlace() async throws {
        let (folder, schema) = try Self.folderWithPizzaSchema()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServeProcess(["serve", "--port", "0", "--schemas", folder.path, "--watch", "--watch-interval", "0.05", "--log-format", "json"])
        defer { server.remove() }
        _ = try await server.log(waitingFor: "listening on http://127.0.0.1:")
        // Renamed into place: written in place, a look every 50 ms could read it half written
        // (empty: another error) on a loaded machine.
        try Data("activity: [unclosed\n".utf8).write(to: schema, options: .atomic)
        let log = try await server.log(waitingFor: "keeping the loaded schemas")
        server.process.terminate()
        server.process.waitUntilExit()
        let objects = log.split(separator: "\n").compactMap { try? CLI.json(String($0)) }
        let error = try #require(objects.first { $0["level"] as? String == "error" && $0["code"] != nil }, "\(log)")
        #expect(error["file"] as? String == schema.path, "\(error)")
        #expect(error["code"] as? String == "yaml-syntax" && error["line"] as? String == "2" && error["column"] as? String == "1", "\(error)")
        #expect((error["message"] as? String)?.hasPrefix(schema.path + ":2:1: error: ") == true, "\(error)")
    }

    /// A text log line escapes a finding's control characters once, in its message as in its
    /// fields (the message was the finding's printable line, escaped again: `\\u{A}`).
    @Test func aTextLogLineEscapesAFindingOnce() async throws {
        let (folder, _) = try Self.folderWithPizzaSchema()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServeProcess(["serve", "--port", "0", "--schemas", folder.path, "--watch", "--watch-interval", "0.05"])
        defer { server.remove() }
        _ = try await server.log(waitingFor: "listening on http://127.0.0.1:")
        try Data("activity: [unclosed\n".utf8).write(to: folder.appendingPathComponent("evil\nx.yaml"))
        let log = try await server.log(waitingFor: "[yaml-syntax]")
        server.process.terminate()
        server.process.waitUntilExit()
        let line = try #require(log.split(separator: "\n").first { $0.contains("[yaml-syntax]") }, "\(log)")
        #expect(line.contains(#"evil\u{A}x.yaml:2:1: error: "#) && !line.contains(#"\\u{A}"#), "\(line)")
    }

    /// `serve --help` names every path of the OpenAPI document, `/metrics`, `validate-batch`
    /// and `encode-content-state` among them.
    @Test func helpListsEveryEndpointOfTheDocument() throws {
        let yaml = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Sources/LiveStateServer/openapi.yaml"), encoding: .utf8)
        let paths = yaml.split(separator: "\n").filter { $0.hasPrefix("  /") && $0.hasSuffix(":") }.map { String($0.dropFirst(2).dropLast()) }
        #expect(paths.count >= 10, "\(paths)")
        let help = try CLI.run(["serve", "--help"])
        #expect(help.status == 0)
        let named = Set(help.stdout.split(whereSeparator: \.isWhitespace).map { word in
            String(word.prefix { $0 != "?" }).trimmingCharacters(in: CharacterSet(charactersIn: ",.;()"))
        })
        for path in paths {
            #expect(named.contains(path), "serve --help does not name \(path)")
        }
    }

    /// A port another socket listens on: `serve` says it cannot listen there and why, with the
    /// host, the port and the code, as text or as one critical JSON line, and exits 2.
    @Test func aBusyPortIsSaidPlainlyWithItsCode() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(socket >= 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && listen(socket, 8) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        try #require(listening)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let text = try CLI.run(["serve", "--port", "\(port)"])
        #expect(text.status == 2, "\(text.stderr)")
        #expect(text.stderr.contains("livestate serve: error: cannot listen on 127.0.0.1:\(port): address already in use [io-error]"), "\(text.stderr)")
        #expect(!text.stderr.contains("bind(descriptor"), "\(text.stderr)")
        let json = try CLI.run(["serve", "--port", "\(port)", "--log-format", "json"])
        #expect(json.status == 2, "\(json.stderr)")
        let lines = json.stderr.split(separator: "\n").map { try? CLI.json(String($0)) }
        #expect(lines.allSatisfy { $0 != nil }, "\(json.stderr)")
        let critical = try #require(lines.compactMap { $0 }.first { $0["level"] as? String == "critical" }, "\(json.stderr)")
        #expect(critical["code"] as? String == "io-error", "\(critical)")
        #expect((critical["message"] as? String)?.contains("cannot listen on 127.0.0.1:\(port): address already in use") == true, "\(critical)")
    }

    /// Two fleet files for one schema: `serve` does not start, and says which two.
    @Test func twoFleetFilesForOneSchemaStopTheStart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-fleets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(atPath: "\(CLI.packageRoot.path)/schemas/fleet/delivery.csv", toPath: folder.path + "/delivery.csv")
        try FileManager.default.copyItem(atPath: CLI.fixture("fleet/delivery.yaml"), toPath: folder.path + "/delivery.yaml")
        let result = try CLI.run(["serve", "--port", "0", "--fleet", folder.path])
        #expect(result.status == 2)
        #expect((result.stdout + result.stderr).contains(
            "\(folder.path)/delivery.yaml: error: gives the fleet of schema 'delivery', as \(folder.path)/delivery.csv does; keep one of the two files [fleet-duplicate-schema]"),
            "\(result.stdout)\(result.stderr)")
    }

    /// The text banner named the schemas raw: an activity with a line feed split it in two.
    /// It is written as findings are.
    @Test func theBannerWritesSchemaNamesPrintable() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-banner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let yaml = "activity: \"nl\\nx\"\nversions: [{version: 1, content-state: {n: {type: int, maximum: 9}}}]\n"
        try Data(yaml.utf8).write(to: folder.appendingPathComponent("nl\nx.yaml"))
        let server = try ServeProcess(["serve", "--port", "0", "--schemas", folder.path])
        defer { server.remove() }
        let log = try await server.log(waitingFor: "listening on http://127.0.0.1:")
        server.process.terminate()
        server.process.waitUntilExit()
        let banner = log.split(separator: "\n").first { $0.hasPrefix("livestate serve: listening on http://127.0.0.1:") }
        #expect(banner?.hasSuffix(#" with schemas nl\u{A}x"#) == true, "\(log)")
    }

    /// A missing `--fleet` path is said to be one, as a missing `--schemas` path is.
    @Test func aMissingFleetPathCannotBeRead() throws {
        let result = try CLI.run(["serve", "--port", "0", "--fleet", "/nonexistent"])
        #expect(result.status == 2)
        #expect((result.stdout + result.stderr).contains("/nonexistent: error: cannot read: no such file or directory [fleet-io]"),
                "\(result.stdout)\(result.stderr)")
        let lint = try CLI.run(["lint", "--schema", "schemas/delivery.yaml", "--fleet", "/nonexistent", "schemas/examples/delivery/v3-update.json"])
        #expect(lint.status == 2)
        #expect(lint.stderr.contains("/nonexistent: error: cannot read: no such file or directory [fleet-io]"), "\(lint.stderr)")
    }

    /// With `--log-format json` every line on standard error is a JSON object: the schemas'
    /// errors that stop the start, the warning of a listener beyond loopback, the banner.
    @Test func jsonLogsHaveOnlyJSONLines() async throws {
        let failed = try CLI.run(["serve", "--log-format", "json", "--schemas", "/nonexistent"])
        #expect(failed.status == 2)
        let failedLines = failed.stderr.split(separator: "\n")
        #expect(!failedLines.isEmpty)
        for line in failedLines {
            let object = try? CLI.json(String(line))
            #expect(object?["level"] as? String == "critical", "\(line)")
            #expect(object?["code"] as? String == "schema-io", "\(line)")
        }

        let server = try ServeProcess(["serve", "--host", "0.0.0.0", "--port", "0", "--log-format", "json"])
        defer { server.remove() }
        _ = try await server.log(waitingFor: "listening on http://0.0.0.0:")
        server.process.terminate()
        server.process.waitUntilExit()
        let log = try server.log()
        let objects = log.split(separator: "\n").map { try? CLI.json(String($0)) }
        #expect(objects.allSatisfy { $0 != nil }, "\(log)")
        let messages = objects.compactMap { $0?["message"] as? String }
        #expect(messages.contains("listening on 0.0.0.0: the sidecar has no authentication"), "\(log)")
        #expect(messages.contains { $0.hasPrefix("listening on http://0.0.0.0:") && $0.contains("with schemas delivery") }, "\(log)")
    }

    /// `--drain-seconds 0` stops an idle server without error lines: cancelled at once, the
    /// server logged its cancellation as errors on most routine stops.
    @Test func aStopWithNoDrainLogsNoError() async throws {
        for _ in 0..<3 {
            let server = try ServeProcess(["serve", "--port", "0", "--drain-seconds", "0"])
            _ = try await server.port()
            server.process.terminate()
            server.process.waitUntilExit()
            let log = try server.log()
            server.remove()
            #expect(server.process.terminationStatus == 0 && log.contains("stopped"), "\(log)")
            #expect(!log.contains(" error "), "\(log)")
            #expect(log.contains("stopping: the requests in flight have 100 ms to finish"), "\(log)")
        }
    }

    /// The host as an operator writes it: an IPv6 address in brackets is that address, and the
    /// banner writes it so (it wrote `http://::1:…`, and refused `[::1]`); every 127.x.x.x
    /// address is loopback, with no warning; an empty host is a usage error naming its flag
    /// (it said the name does not resolve). A setting that does nothing is said.
    @Test func serveTakesTheHostAsAnOperatorWritesIt() async throws {
        let empty = try CLI.run(["serve", "--host", "", "--port", "0"])
        #expect(empty.status == 2 && empty.stderr.contains("--host must name the address to listen on"), "\(empty.stderr)")
        let variable = try CLI.run(["serve", "--port", "0"], environment: ["LIVESTATE_HOST": ""])
        #expect(variable.status == 2 && variable.stderr.contains("LIVESTATE_HOST must name the address"), "\(variable.stderr)")
        let six = try ServeProcess(["serve", "--host", "[::1]", "--port", "0"])
        let sixLog = try await six.log(waitingFor: "listening on http://[::1]:")
        six.stop()
        #expect(sixLog.contains("livestate serve: listening on http://[::1]:") && !sixLog.contains("warning"), "\(sixLog)")
        let loopback = try ServeProcess(["serve", "--host", "127.0.0.2", "--port", "0", "--watch-interval", "5"])
        let loopbackLog = try await loopback.log(waitingFor: "listening on http://127.0.0.2:")
        loopback.stop()
        #expect(!loopbackLog.contains("no authentication"), "\(loopbackLog)")
        #expect(loopbackLog.contains("warning: --watch-interval has no effect without --watch (or LIVESTATE_WATCH)"), "\(loopbackLog)")
        let far = try CLI.run(["serve", "--watch", "--watch-interval", "3601"])
        #expect(far.status == 2 && far.stderr.contains("between 0.05 and 3600 seconds, not 3601\n"), "\(far.stderr)")
        let large = try CLI.run(["serve", "--watch", "--watch-interval", "1e4"])
        #expect(large.status == 2 && large.stderr.contains("between 0.05 and 3600 seconds, not 1e4\n"), "\(large.stderr)")
        for given in ["3.6e3x", "ten", " 5", "nan"] {
            let refused = try CLI.run(["serve", "--watch", "--watch-interval", given])
            #expect(refused.status == 2 && refused.stderr.contains("must be a number of seconds between 0.05 and 3600, not \(given)\n"),
                    "\(refused.stderr)")
        }
    }

    /// SIGTERM while the schemas still load (here: a pipe the test holds open and has not
    /// written) is a clean stop as well.
    @Test func sigtermDuringStartupStopsCleanly() async throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-serve-\(UUID().uuidString).yaml").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        // A writer first (read and write: it opens without waiting for a reader), so that the
        // server's read waits for data; a pipe with no writer would read as empty at once.
        let writer = open(fifo, O_RDWR)
        #expect(writer >= 0)
        defer { if writer >= 0 { close(writer) } }
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["serve", "--port", "0", "--schemas", fifo]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The server has the pipe open (one of its descriptors names it) while it waits to read.
        func serverHasThePipeOpen() -> Bool {
            let folder = "/proc/\(process.processIdentifier)/fd"
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return descriptors.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)")) == fifo }
        }
        var opened = false
        for _ in 0..<400 where !opened && process.isRunning {
            opened = serverHasThePipeOpen()
            if !opened { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(opened, "the server never opened its schema file")
        process.terminate()  // SIGTERM
        for _ in 0..<200 where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(process.terminationReason) \(process.terminationStatus)")
    }

    @Test func sigtermStopsTheServerCleanly() async throws {
        let server = try ServeProcess(
            ["serve", "--watch"], environment: ["LIVESTATE_PORT": "0", "LIVESTATE_LOG_FORMAT": "json", "LIVESTATE_SCHEMAS": "schemas"])
        defer { server.remove() }
        let process = server.process
        var log = try await server.log(waitingFor: "listening on http://127.0.0.1:")
        #expect(log.contains("listening on http://127.0.0.1:"), "\(log)")
        process.terminate()  // SIGTERM
        for _ in 0..<200 where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(process.terminationReason) \(process.terminationStatus)")
        log = try server.log()
        // The framework's own lines come as JSON objects.
        #expect(log.split(separator: "\n").contains { $0.hasPrefix(#"{"time":"#) }, "\(log)")
    }
}

extension ServeCommandTests {
    /// A client that sends its body a byte at a time kept the server from stopping: it was still
    /// up 75 s after SIGTERM, a second signal did nothing, and systemd or Kubernetes would have
    /// killed it. The requests in flight now have `--drain-seconds`, then their connections close.
    @Test func aClientTricklingItsBodyDoesNotHoldTheStop() async throws {
        let server = try ServeProcess(["serve", "--port", "0", "--drain-seconds", "1"])
        defer { server.remove() }
        let log = try await server.log(waitingFor: "listening on http://127.0.0.1:")
        let port = try #require(log.firstRange(of: #/127\.0\.0\.1:(\d+)/#).flatMap { Int(log[$0].split(separator: ":")[1]) })
        let client = try #require(LoopbackSocket.connect(port: port))
        defer { close(client) }
        let head = "POST /v1/schemas/pizza/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"
        _ = head.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        try await Task.sleep(for: .milliseconds(200))
        server.process.terminate()  // SIGTERM
        // The client goes on sending, a byte every 100 ms, for at most 20 s.
        for _ in 0..<200 where server.process.isRunning {
            _ = send(client, " ", 1, Int32(MSG_NOSIGNAL))
            try await Task.sleep(for: .milliseconds(100))
        }
        let stoppedInTime = !server.process.isRunning
        if server.process.isRunning { kill(server.process.processIdentifier, SIGKILL) }
        server.process.waitUntilExit()
        #expect(stoppedInTime)
        #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0)
        let lines = try server.log()
        #expect(lines.contains("stopping: the requests in flight have 1 s to finish"), "\(lines)")
        #expect(lines.contains("info livestate.serve: stopped"), "\(lines)")
    }
}

extension ServeCommandTests {
    /// A client that sends its body a byte at a time held its connection for as long as it liked
    /// (each byte started the idle time-out again): the request now has `--request-timeout`
    /// to arrive whole, then it is answered 408 (it was closed without an answer) and its
    /// connection is closed. One that sends in time is answered.
    @Test func aRequestTricklingItsBodyIsClosedAtTheRequestTimeout() async throws {
        let server = try ServeProcess(["serve", "--port", "0", "--request-timeout", "1"])
        defer { server.stop() }
        let port = try await server.port()
        let client = try #require(LoopbackSocket.connect(port: port))
        defer { close(client) }
        let head = "POST /v1/schemas/pizza/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"
        _ = head.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        let started = ContinuousClock.now
        var closedAfter: Duration?
        var buffer = [UInt8](repeating: 0, count: 512)
        var answer: [UInt8] = []
        // A byte every 100 ms for at most 10 s, until the server closes the connection.
        for _ in 0..<100 {
            try await Task.sleep(for: .milliseconds(100))
            var read = recv(client, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            while read > 0 {
                answer += buffer[..<read]
                read = recv(client, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            }
            if read == 0 || (read < 0 && errno != EAGAIN && errno != EWOULDBLOCK) || send(client, " ", 1, Int32(MSG_NOSIGNAL)) < 0 {
                closedAfter = ContinuousClock.now - started
                break
            }
        }
        // Closed by the request time-out: not before it, and well before the 30 s idle time-out
        // (the loop's 10 s; on a loaded machine the test's own wake-ups come late).
        let after = try #require(closedAfter, "the connection was still open after 10 s")
        #expect(after >= .milliseconds(800), "\(after)")
        let text = String(decoding: answer, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(text)")
        #expect(text.lowercased().contains("connection: close\r\n"), "\(text)")
        #expect(text.hasSuffix(#"{"error":{"status":408,"code":"request-timeout","message":"the request did not arrive whole within 1 s; "#
            + #"send the body at once, or raise --request-timeout"}}"#), "\(text)")
        #expect(server.process.isRunning)
        let metrics = try #require(LoopbackSocket.exchange(port: port, "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
        #expect(metrics.contains(#"livestate_http_requests_total{route="/v1/schemas/{id}/validate",method="POST",status="408"} 1"#), "\(metrics)")
    }
}

extension ServeCommandTests {
    /// A request NIO's parser refuses (an unknown method, two `Content-Length`s) is answered 400
    /// by the exchange handler and never reaches the router: it is counted in `/metrics` under
    /// the route `unparsed` (it was not counted at all), and not timed: its time was never
    /// measured (it was recorded at zero seconds).
    @Test func aRequestTheParserRefusesIsCounted() async throws {
        let server = try ServeProcess(["serve", "--port", "0"])
        defer { server.stop() }
        let port = try await server.port()
        func exchange(_ request: String) throws -> String { try #require(LoopbackSocket.exchange(port: port, request)) }
        for request in ["BLAH / HTTP/1.1\r\nHost: x\r\n\r\n",
                        "POST /v1/schemas/pizza/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"] {
            #expect(try exchange(request).hasPrefix("HTTP/1.1 400"))
        }
        let metrics = try exchange("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(metrics.contains(#"livestate_http_requests_total{route="unparsed",method="unknown",status="400"} 2"#), "\(metrics)")
        #expect(!metrics.contains(#"route="unparsed",le="#), "\(metrics)")
    }
}

/// A `livestate serve` started from the package root, its standard error written to a file the
/// test reads as the log.
private struct ServeProcess {
    let process = Process()
    private let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-serve-\(UUID().uuidString)")
    private let errURL: URL
    private let err: FileHandle

    /// Starts `livestate` with `arguments`, and `environment` added to this process's; with
    /// `defaultHangUp`, with SIGHUP's default action (the test runner starts its children with
    /// SIGHUP ignored, which a process inherits).
    init(_ arguments: [String], environment: [String: String] = [:], defaultHangUp: Bool = false) throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        errURL = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        err = try FileHandle(forWritingTo: errURL)
        if defaultHangUp {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["--default-signal=HUP", CLI.binary.path] + arguments
        } else {
            process.executableURL = CLI.binary
            process.arguments = arguments
        }
        process.currentDirectoryURL = CLI.packageRoot
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    /// The log so far.
    func log() throws -> String {
        String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
    }

    /// The log once it contains `text`, or as it is after 10 s.
    func log(waitingFor text: String) async throws -> String {
        var log = ""
        for _ in 0..<200 where !log.contains(text) {
            try await Task.sleep(for: .milliseconds(50))
            log = try self.log()
        }
        return log
    }

    /// The port it listens on, once its log says so.
    func port() async throws -> Int {
        let log = try await log(waitingFor: "listening on http://127.0.0.1:")
        return try #require(log.firstRange(of: #/127\.0\.0\.1:(\d+)/#).flatMap { Int(log[$0].split(separator: ":")[1]) })
    }

    /// Stops the process (SIGTERM), waits for it, and removes the log.
    func stop() {
        process.terminate()
        process.waitUntilExit()
        remove()
    }

    /// Closes the log and removes its folder (the process is the test's to stop).
    func remove() {
        try? err.close()
        try? FileManager.default.removeItem(at: scratch)
    }
}
