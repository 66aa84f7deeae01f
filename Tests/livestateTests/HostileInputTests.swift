import Foundation
import Glibc
import LiveStateTestSupport
import Testing

/// Inputs that once made `livestate` wait for ever or trap: each must end, in a few seconds,
/// with a diagnostic and a non-zero status.
@Suite struct HostileInputTests {
    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes `text` to the file `name` in `folder`; its path.
    static func file(_ name: String, in folder: URL, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A named pipe that no program writes to: `open` waited for a writer for ever.
    static func fifo(in folder: URL, named name: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        #expect(mkfifo(path, 0o600) == 0)
        return path
    }

    @Test func aNamedPipeWithNoWriterReadsAsEmptyInsteadOfWaiting() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipe = try Self.fifo(in: folder, named: "pipe.json")
        let schemaPipe = try Self.fifo(in: folder, named: "pipe.yaml")
        let swiftPipe = try Self.fifo(in: folder, named: "Pipe.swift")
        let example = "schemas/examples/delivery/v3-update.json"
        let runs: [(arguments: [String], says: String)] = [
            (["lint", "--schema", "schemas/delivery.yaml", pipe], "\(pipe):1:1: error: empty input [json-syntax]"),
            (["decode", "--schema", "schemas/delivery.yaml", pipe], "\(pipe):1:1: error: empty input [json-syntax]"),
            (["budget", pipe], "\(pipe):1:1: error: empty input [json-syntax]"),
            (["lint", "--schema", schemaPipe, example], "\(schemaPipe):1:1: error: the file holds no schema"),
            (["check", schemaPipe], "\(schemaPipe):1:1: error: the file holds no schema"),
            (["import", "swift", swiftPipe], "ActivityAttributes"),
        ]
        for run in runs {
            let result = try LivestateBinary.run(run.arguments, timeout: 20)
            #expect(result.status != 0, "\(run.arguments)")
            #expect((result.stdout + result.stderr).contains(run.says), "\(run.arguments): \(result.stdout) \(result.stderr)")
        }
        // A pipe with a writer is read whole, as `<(curl …)` is.
        let written = try LivestateBinary.run(["lint", "--schema", "schemas/delivery.yaml", "/dev/stdin"],
                                  stdin: try Data(contentsOf: CLI.packageRoot.appendingPathComponent(example)), timeout: 20)
        #expect(written.status == 0, "\(written.stdout) \(written.stderr)")
    }

    /// A key with a line feed, an escape or a C1 control is quoted in messages: printed raw, a
    /// line feed made a forged finding, or a `::error::` line that GitHub Actions runs as a
    /// workflow command, and an escape drove the terminal.
    @Test func controlCharactersFromTheInputArePrintedEscaped() throws {
        let body = #"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"title":"t","x\n::error::forged\u001b[2J\u009b":1}}}"#
        let result = try LivestateBinary.run(["lint", "--verbose", "--schema", "schemas/delivery.yaml", "-"], stdin: Data(body.utf8), timeout: 20)
        let lines = result.stdout.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("::") }, "\(result.stdout)")
        #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B }, "\(result.stdout)")
        #expect(result.stdout.contains(#"x\u{A}::error::forged\u{1B}[2J\u{9B}"#), "\(result.stdout)")
    }

    /// `--max-bytes Int.max` overflowed the read of one byte past the limit; a limit past 1 GiB
    /// only lets an endless input take more memory. Refused as a usage error.
    @Test func maxBytesIsBounded() throws {
        for command in ["lint", "decode", "budget"] {
            for value in ["9223372036854775807", "0", "1073741825", "-5"] {
                let result = try LivestateBinary.run([command, "--max-bytes", value, "--schema", "schemas/delivery.yaml",
                                          "schemas/examples/delivery/v3-update.json"], timeout: 20)
                #expect(result.status == 2, "\(command) \(value): \(result.stderr)")
                #expect(result.stderr.contains("--max-bytes must be from 1 to 1073741824 (1 GiB), not \(value)"), "\(result.stderr)")
            }
        }
        let atCeiling = try LivestateBinary.run(["lint", "--max-bytes", "1073741824", "--schema", "schemas/delivery.yaml",
                                     "schemas/examples/delivery/v3-update.json"], timeout: 20)
        #expect(atCeiling.status == 0, "\(atCeiling.stderr)")
    }

    /// A negative number after a numeric option is its value, not an unknown option: it was
    /// refused as "Missing value for '--relevance-score'", although -1 is a relevance score and
    /// -5 a version the schema can be told it lacks.
    @Test func aNegativeNumberIsAnOptionsValue() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = try Self.file("state.json", in: folder, """
            {"title":"On its way","subTitle":"b","progress":0.5,"logo":"l"}
            """)
        let encoded = try LivestateBinary.run(["encode", "--schema", "schemas/delivery.yaml", "--version", "1", "--timestamp", "1795000000",
                                               "--event", "end", "--relevance-score", "-1", "--dismissal-date", "-5", state], timeout: 20)
        #expect(encoded.status == 0, "\(encoded.stderr)")
        #expect(encoded.stdout.contains(#""relevance-score":-1"#), "\(encoded.stdout)")
        #expect(encoded.stdout.contains(#""dismissal-date":-5"#), "\(encoded.stdout)")
        let lint = try LivestateBinary.run(["lint", "--schema", "schemas/delivery.yaml", "--version", "-5",
                                            "schemas/examples/delivery/v3-update.json"], timeout: 20)
        #expect(lint.stderr.contains("the schema has no version -5; it has 1, 2, 3 [unknown-version]"), "\(lint.stdout)\(lint.stderr)")
        let timestamp = try LivestateBinary.run(["encode", "--schema", "schemas/delivery.yaml", "--version", "1", "--timestamp", "-1", state],
                                                timeout: 20)
        #expect(timestamp.stderr.contains("timestamp must be now or a number of UNIX seconds, 0 or more, not '-1'"), "\(timestamp.stderr)")
    }

    /// `--append-to` edits the schema's text: a `strict:` line inside a block scalar (a
    /// description that quotes a schema) was taken for the clients' list and rewritten, the
    /// description changed and the new version not listed as strict. Only the `clients:`
    /// block's `strict:` is.
    @Test func appendingListsTheStrictVersionInTheClientsBlockOnly() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let schema = try Self.file("quoted.yaml", in: folder, """
            activity: quoted
            attributes-type: QuotedAttributes
            description: |
              A schema lists its strict app versions so:
              strict: [9]
            clients:
              strict: [1]
            versions:
              - version: 1
                content-state:
                  name: { type: string }
            """)
        let swift = try Self.file("Quoted.swift", in: folder, Self.quotedSwift)
        let result = try LivestateBinary.run(["import", "swift", swift, "--append-to", schema], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: schema, encoding: .utf8)
        #expect(text.contains("  A schema lists its strict app versions so:\n  strict: [9]\nclients:\n  strict: [1, 2]\n"), "\(text)")
        #expect(text.contains("  - version: 2\n"))
    }

    /// The app's type that the `--append-to` tests import: version 1's `name` and a new `count`.
    static let quotedSwift = """
        struct QuotedAttributes: ActivityAttributes {
            struct ContentState: Codable, Hashable {
                var name: String
                var count: Int
            }
        }
        """

    /// A schema laid out with 4-space indentation (its version items at `    -   version:`): the
    /// appended version was written at 2 spaces, which does not load, and the refusal's
    /// positions were in a text no one saw. It is written at the file's own indentation, and
    /// the strict list is found at its own.
    @Test func appendingFollowsTheFilesIndentation() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let layouts = [
            ("four", "clients:\n    strict: [1]\nversions:\n    -   version: 1\n        content-state:\n            name: { type: string }\n",
             "clients:\n    strict: [1, 2]\n", "\n    -   version: 2\n        description: "),
            ("flush", "clients:\n  strict: [1]\nversions:\n- version: 1\n  content-state:\n    name: { type: string }",
             "clients:\n  strict: [1, 2]\n", "\n- version: 2\n  description: "),
        ]
        for (name, body, strict, entry) in layouts {
            let schema = try Self.file("\(name).yaml", in: folder, "activity: \(name)\nattributes-type: QuotedAttributes\n" + body)
            #expect(try LivestateBinary.run(["check", schema]).status == 0, "\(name)")
            let swift = try Self.file("Quoted.swift", in: folder, Self.quotedSwift)
            let result = try LivestateBinary.run(["import", "swift", swift, "--append-to", schema], timeout: 60)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let text = try String(contentsOfFile: schema, encoding: .utf8)
            #expect(text.contains(strict), "\(name): \(text)")
            #expect(text.contains(entry), "\(name): \(text)")
            let check = try LivestateBinary.run(["check", schema])
            #expect(check.stdout.contains("loads (versions 1, 2)"), "\(name): \(check.stdout)\(check.stderr)")
        }
    }

    /// A schema written with CRLF line ends: its error shows the source line and the caret, as
    /// with LF (the excerpt was missing: CRLF is one `Character`, which a split on LF missed).
    @Test func aCRLFSchemasErrorShowsItsLine() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let schema = try Self.file(
            "crlf.yaml", in: folder, "activity: crlf\r\nattributes-type: A\r\nversions:\r\n  - version: 1\r\n    content-state:\r\n      name: { type: strin }\r\n")
        let result = try LivestateBinary.run(["check", schema], timeout: 20)
        #expect(result.status == 2)
        #expect((result.stdout + result.stderr).contains("crlf.yaml:6:21: error: unknown type 'strin'"))
        #expect((result.stdout + result.stderr).contains("\n          name: { type: strin }\n                        ^"), "\(result.stdout)\(result.stderr)")
    }

    /// A schema whose newest version is `Int.max` has no next version: `--append-to` trapped
    /// computing it.
    @Test func appendingAfterTheLargestVersionNumberIsRefused() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let schema = try Self.file("huge.yaml", in: folder, """
            activity: huge
            attributes-type: HugeAttributes
            versions:
              - version: 9223372036854775807
                content-state:
                  name: { type: string, default: "" }
            """)
        #expect(try LivestateBinary.run(["check", schema]).status == 0)
        let swift = try Self.file("Huge.swift", in: folder, """
            struct HugeAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var name: String
                }
            }
            """)
        let before = try String(contentsOfFile: schema, encoding: .utf8)
        let result = try LivestateBinary.run(["import", "swift", swift, "--append-to", schema], timeout: 60)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("\(schema):4:5: error: the newest version is 9223372036854775807, the largest number a version can have"),
                "\(result.stderr)")
        #expect(try String(contentsOfFile: schema, encoding: .utf8) == before)
    }

    /// A key given 100,000 times made 99,999 `duplicate-key` lines, 11 MB of text from a 700 KB
    /// body, and a 900 KB key was printed whole, twice. A listing shows 100 findings of a code
    /// and counts the rest, and the middle of a long message; the exit status is the same.
    @Test func manyFindingsAndLongKeysAreListedInBrief() throws {
        let repeated = (0..<100_000).map { _ in #""zz":1"# }.joined(separator: ",")
        let body = #"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"title":"t","#
            + repeated + #","\#(String(repeating: "k", count: 300_000))":2}}}"#
        let text = try LivestateBinary.run(["lint", "--schema", "schemas/delivery.yaml", "-"], stdin: Data(body.utf8), timeout: 60)
        #expect(text.status == 1)
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count < 110, "\(lines.count) lines")
        #expect(lines.filter { $0.hasSuffix("[duplicate-key]") }.count == 101)
        #expect(text.stdout.contains("<stdin>: warning: 99,899 more duplicate-key findings are not listed; the first 100 are [duplicate-key]"),
                "\(text.stdout.prefix(2_000))")
        #expect(text.stdout.contains("bytes left out)…"))
        #expect(text.stdout.utf8.count < 40_000)
        #expect(text.stdout.contains("[over-budget]"))

        let json = try LivestateBinary.run(["lint", "--format", "json", "--schema", "schemas/delivery.yaml", "-"], stdin: Data(body.utf8), timeout: 60)
        #expect(json.status == 1)
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let diagnostics = document?["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.filter { $0["code"] as? String == "duplicate-key" }.count == 101)
        // A pointer is for programs, and stays whole in JSON.
        let long = diagnostics.first { ($0["pointer"] as? String)?.utf8.count == 300_001 }
        #expect((long?["message"] as? String)?.contains("(299,") == true, "\(String(describing: long?["message"]))")
    }

    /// A standard output that cannot be written (closed here; a full disk is the same) trapped
    /// in `FileHandle.write`: now an `io-error` and status 2, as `--output` to a full disk.
    @Test func aStandardOutputThatCannotBeWrittenIsAnIOError() throws {
        for arguments in [["codegen", "swift", "--schema", "schemas/pizza.yaml"], ["budget", "schemas/examples/pizza/v1-update.json"]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            let command = ([LivestateBinary.url.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            process.arguments = ["-c", command + " >&-"]
            process.currentDirectoryURL = CLI.packageRoot
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 2, "\(arguments): \(said)")
            #expect(said.contains("error: standard output cannot be written: Bad file descriptor [io-error]"), "\(said)")
        }
    }

    /// A payload that is a link loop said "no such file"; UTF-32 text was called UTF-16, with an
    /// `iconv` that would make garbage of it.
    @Test func aLinkLoopAndUTF32TextAreNamed() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("a.json").path
        let second = folder.appendingPathComponent("b.json").path
        try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: second)
        try FileManager.default.createSymbolicLink(atPath: second, withDestinationPath: first)
        let loop = try LivestateBinary.run(["lint", "--schema", "schemas/delivery.yaml", first], timeout: 20)
        #expect(loop.status == 2)
        #expect(loop.stdout.contains("\(first): error: cannot read: too many levels of symbolic links [io-error]"), "\(loop.stdout)")
        let utf32 = Data([0xFF, 0xFE, 0, 0] + #"{"aps":{}}"#.unicodeScalars.flatMap { scalar -> [UInt8] in [UInt8(scalar.value), 0, 0, 0] })
        let text = try LivestateBinary.run(["lint", "--schema", "schemas/delivery.yaml", "-"], stdin: utf32, timeout: 20)
        #expect(text.stdout.contains("the text is UTF-32 (little-endian, byte order mark FF FE 00 00), not UTF-8: convert it (iconv -f UTF-32 -t UTF-8)"),
                "\(text.stdout)")
    }

    /// A whole body given where a content-state is asked for decoded as every default and
    /// exited 0; `encode` said only that the version has no field 'aps'.
    @Test func aWholeBodyGivenAsAContentStateIsNamed() throws {
        let body = "schemas/examples/pizza/v1-update.json"
        let decoded = try LivestateBinary.run(["decode", "--schema", "schemas/pizza.yaml", "--content-state", body], timeout: 20)
        #expect(decoded.status == 2)
        #expect(decoded.stderr.contains("error: the file is a whole APNs body (it has an aps object), not a bare content-state: leave out --content-state [usage]"),
                "\(decoded.stderr)")
        let encoded = try LivestateBinary.run(["encode", "--schema", "schemas/pizza.yaml", body], timeout: 20)
        #expect(encoded.status == 1)
        #expect(encoded.stderr.contains("version 2 has no field 'aps'; the state is a content-state alone, and this looks like a whole APNs body: give its content-state"),
                "\(encoded.stderr)")
    }
}
