import Foundation
import LiveState
import LiveStateYAML
import Testing

/// Inputs built to hurt a loader: each must end in a diagnostic, never a trap, a hang or
/// unbounded memory.
@Suite(.timeLimit(.minutes(1))) struct SchemaLoaderHostileInputTests {
    private func loadError(_ text: String, file: String = "-", limits: SchemaLoader.Limits = .init()) throws -> SchemaLoadError {
        try loadError(Array(text.utf8), file: file, limits: limits)
    }

    private func loadError(_ bytes: [UInt8], file: String = "-", limits: SchemaLoader.Limits = .init()) throws -> SchemaLoadError {
        try #require(throws: SchemaLoadError.self) {
            try SchemaLoader(limits: limits).load(yaml: bytes, file: file)
        }
    }

    /// A directory of its own under the temporary directory, removed by `body`'s end.
    private func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("livestate-yaml-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try body(directory)
    }

    /// libyaml reads a key of more than 1,024 characters as no key, and said only "mapping
    /// values are not allowed in this context", at the colon after it.
    @Test func aKeyPastYAMLsLimitSaysSo() throws {
        let name = String(repeating: "a", count: 1_100)
        let error = try loadError("activity: k\nversions:\n  - version: 1\n    content-state:\n      \(name): { type: string }\n")
        #expect(error.diagnostics.first?.message == "mapping values are not allowed in this context; a key longer than 1,024 characters is "
            + "not read as a key (YAML's limit for an implicit key): shorten it, or write it as an explicit key, '? key' on its own "
            + "line and ': value' on the next", "\(error.diagnostics)")
        #expect(error.diagnostics.first?.position?.line == 5)
        // A key of 1,000 characters is a key.
        #expect(throws: Never.self) {
            try SchemaLoader().load(yaml: Array("activity: k\nversions:\n  - version: 1\n    content-state:\n      \(String(repeating: "a", count: 1_000)): { type: string }\n".utf8), file: "-")
        }
    }

    @Test func billionLaughsAliasBombIsRefusedAsYAMLLimit() throws {
        var text = "activity: bomb\nlol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            let alias = Array(repeating: "*l\(level - 1)", count: 9).joined(separator: ", ")
            text += "lol\(level): &l\(level) [\(alias)]\n"
        }
        text += "versions: [*l9]\n"
        let error = try loadError(text)
        #expect(error.diagnostics.count == 1)
        #expect(error.diagnostics.first?.code == "yaml-limit")
        #expect(error.diagnostics.first?.position?.line == 8)
    }

    @Test func aliasExpansionBelowTheBoundIsAllowed() throws {
        let text = """
            activity: shared
            versions:
              - version: 1
                content-state:
                  title: &text { type: string, default: "" }
                  subtitle: *text
            """
        let schema = try SchemaLoader().load(yaml: Array(text.utf8), file: "-")
        #expect(schema.versions[0].contentState.map(\.name) == ["title", "subtitle"])
        #expect(schema.versions[0].contentState[1].type == .string)
        #expect(schema.versions[0].contentState[1].position?.line == 6)
    }

    @Test func aliasBoundIsConfigurable() throws {
        let text = "activity: a\nx: &x [1, 2, 3]\ny: [*x, *x]\nversions: [{version: 1, content-state: {}}]\n"
        let error = try loadError(text, limits: .init(maxAliasExpansion: 7))
        #expect(error.diagnostics.first?.code == "yaml-limit")
        #expect(error.diagnostics.first?.position == SourcePosition(offset: 36, line: 3, column: 9))
    }

    @Test func tenThousandNestedFlowSequencesStopAtTheDepthLimit() throws {
        let text = "activity: deep\nversions: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "\n"
        let error = try loadError(text)
        #expect(error.diagnostics.map(\.code) == ["yaml-limit"])
        // The root mapping is level 1, so the 32nd bracket opens level 33.
        #expect(error.diagnostics.first?.position?.line == 2)
        #expect(error.diagnostics.first?.position?.column == 11 + 31)
    }

    @Test func tenThousandNestedBlockMappingsStopAtTheDepthLimit() throws {
        // Line n + 2 is n spaces and `k:`: about 50 MB, laid out in one allocation of spaces.
        let header = Array("activity: deep\n".utf8)
        var bytes = [UInt8](repeating: UInt8(ascii: " "), count: header.count + 10_000 * 3 + 10_000 * 9_999 / 2)
        bytes.replaceSubrange(0..<header.count, with: header)
        var offset = header.count
        for level in 0..<10_000 {
            offset += level
            bytes[offset] = UInt8(ascii: "k")
            bytes[offset + 1] = UInt8(ascii: ":")
            bytes[offset + 2] = UInt8(ascii: "\n")
            offset += 3
        }
        #expect(offset == bytes.count)
        let error = try loadError(bytes, limits: .init(maxFileBytes: 64 << 20))
        #expect(error.diagnostics.map(\.code) == ["yaml-limit"])
        // Line 1 holds the root mapping (level 1); the mapping under line n's key is level n.
        #expect(error.diagnostics.first?.position?.line == 34)
    }

    @Test func tenThousandNestedBlockSequencesStopAtTheDepthLimit() throws {
        let text = "activity: deep\nversions:\n" + String(repeating: "- ", count: 10_000) + "x\n"
        let error = try loadError(text)
        #expect(error.diagnostics.map(\.code) == ["yaml-limit"])
    }

    @Test func depthLimitIsConfigurable() throws {
        let text = "activity: a\nversions: [{version: 1, content-state: {}}]\n"
        #expect(try loadError(text, limits: .init(maxDepth: 2)).diagnostics.first?.code == "yaml-limit")
        #expect(try SchemaLoader(limits: .init(maxDepth: 4)).load(yaml: Array(text.utf8), file: "a.yaml").activity == "a")
    }

    @Test func millionsOfTinyScalarsStopAtTheNodeLimit() throws {
        var bytes = Array("activity: a\nversions: [".utf8)
        bytes.reserveCapacity(4 << 20)
        while bytes.count < (4 << 20) - 8 {
            bytes.append(UInt8(ascii: "a"))
            bytes.append(UInt8(ascii: ","))
        }
        bytes.append(contentsOf: "a]\n".utf8)
        let error = try loadError(bytes)
        #expect(error.diagnostics.map(\.code) == ["yaml-limit"])
        #expect(error.diagnostics.first?.message.contains("100000 nodes") == true)
    }

    @Test func moreThanAThousandVersionsAreRefusedAtTheFirstOneOver() throws {
        func schema(versions: Int) -> String {
            "activity: a\nversions:\n" + (1...versions).map { "  - {version: \($0), content-state: {}}\n" }.joined()
        }
        let error = try loadError(schema(versions: 1_001))
        #expect(error.diagnostics.map(\.code) == ["yaml-limit"])
        #expect(error.diagnostics.first?.message.contains("1001 versions, over the limit of 1000") == true)
        #expect(error.diagnostics.first?.pointer == "/versions/1000")
        #expect(error.diagnostics.first?.position?.line == 1_003)
        #expect(try SchemaLoader().load(yaml: Array(schema(versions: 1_000).utf8), file: "a.yaml").versions.count == 1_000)
    }

    @Test func errorsStopAtOneHundredWithANote() throws {
        let text = "activity: a\nversions: [" + Array(repeating: "a", count: 500).joined(separator: ",") + "]\n"
        let error = try loadError(text)
        #expect(error.diagnostics.count == 101)
        #expect(error.diagnostics.prefix(100).allSatisfy { $0.code == "schema-wrong-type" })
        #expect(error.diagnostics.last?.code == "yaml-limit")
        #expect(error.diagnostics.last?.severity == .error)
    }

    @Test func depthAboveTheCeilingIsNotHonoured() throws {
        let text = "activity: deep\nversions: " + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "\n"
        let error = try loadError(text, limits: .init(maxDepth: .max))
        #expect(error.diagnostics.map(\.code) == ["yaml-limit"])
        #expect(error.diagnostics.first?.message.contains("100 levels") == true)
    }

    @Test func extremeLimitsNeitherTrapNorOverflow() throws {
        let text = Array("activity: a\nversions: [{version: 1, content-state: {a: &f {type: int}, b: *f}}]\n".utf8)
        let loose = SchemaLoader(limits: .init(maxFileBytes: .max, maxDepth: .max, maxAliasExpansion: .max, maxNodes: .max))
        #expect(try loose.load(yaml: text, file: "a.yaml").activity == "a")
        let strict = SchemaLoader(limits: .init(maxFileBytes: -1, maxDepth: -1, maxAliasExpansion: -1, maxNodes: -1))
        #expect(throws: SchemaLoadError.self) { try strict.load(yaml: text, file: "a.yaml") }
        try withTemporaryDirectory { (directory: String) throws in
            let path = directory + "/a.yaml"
            try Data(text).write(to: URL(fileURLWithPath: path))
            #expect(try loose.load(contentsOf: path).activity == "a")
            #expect(throws: SchemaLoadError.self) { try strict.load(contentsOf: path) }
        }
    }

    @Test func fiftyMegabyteFileIsRefusedBeforeReading() throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/huge.yaml"
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.truncate(atOffset: 50 << 20)  // sparse: no 50 MB written to disk
            try handle.close()
            let error = try #require(throws: SchemaLoadError.self) {
                try SchemaLoader().load(contentsOf: path)
            }
            #expect(error.diagnostics.map(\.code) == ["schema-io"])
            #expect(error.diagnostics.first?.message.contains("\(50 << 20) bytes") == true)
            #expect(error.diagnostics.first?.message.contains("\(4 << 20) bytes") == true)
            #expect(error.diagnostics.first?.file == path)
        }
    }

    @Test func bytesOverTheLimitAreRefusedToo() throws {
        let error = try loadError([UInt8](repeating: 0x20, count: 101), limits: .init(maxFileBytes: 100))
        #expect(error.diagnostics.map(\.code) == ["schema-io"])
    }

    @Test func directoryIsSchemaIO() throws {
        try withTemporaryDirectory { directory in
            let error = try #require(throws: SchemaLoadError.self) {
                try SchemaLoader().load(contentsOf: directory)
            }
            #expect(error.diagnostics.map(\.code) == ["schema-io"])
            #expect(error.diagnostics.first?.message.contains("is a directory") == true)
        }
    }

    @Test func missingFileIsSchemaIO() throws {
        let error = try #require(throws: SchemaLoadError.self) {
            try SchemaLoader().load(contentsOf: "/nonexistent/livestate/delivery.yaml")
        }
        #expect(error.diagnostics.map(\.code) == ["schema-io"])
        #expect(error.diagnostics.first?.message.contains("no such file") == true)
    }

    @Test func emptyInputIsSchemaEmpty() throws {
        #expect(try loadError([]).diagnostics.map(\.code) == ["schema-empty"])
        #expect(try loadError("---\n").diagnostics.map(\.code) == ["schema-empty"])
        #expect(try loadError("~\n").diagnostics.map(\.code) == ["schema-empty"])
    }

    @Test func binaryGarbageIsYAMLSyntaxWithAPosition() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var bytes: [UInt8] = []
        for _ in 0..<4096 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            bytes.append(UInt8(truncatingIfNeeded: state >> 56))
        }
        let error = try loadError(bytes)
        #expect(error.diagnostics.map(\.code) == ["yaml-syntax"])
        #expect(error.diagnostics.first?.position != nil)
    }

    @Test func invalidUTF8IsYAMLSyntaxAtTheBadByte() throws {
        let bytes = Array("activity: a\nversions: x".utf8) + [0xC3, 0x28] + Array("\n".utf8)
        let error = try loadError(bytes)
        #expect(error.diagnostics.map(\.code) == ["yaml-syntax"])
        #expect(error.diagnostics.first?.position == SourcePosition(offset: 23, line: 2, column: 12))
        #expect(error.diagnostics.first?.message.contains("0xC3") == true)
    }

    @Test func utf16ByteOrderMarkIsRefusedAsNotUTF8() throws {
        let error = try loadError([0xFF, 0xFE] + Array("a\0:\0".utf8))
        #expect(error.diagnostics.map(\.code) == ["yaml-syntax"])
    }

    @Test func selfReferencingAliasIsYAMLSyntax() throws {
        let error = try loadError("activity: a\nversions: &v [*v]\n")
        #expect(error.diagnostics.map(\.code) == ["yaml-syntax"])
        #expect(error.diagnostics.first?.message.contains("recursive") == true)
    }

    @Test func aliasToUndefinedAnchorIsYAMLSyntax() throws {
        let error = try loadError("activity: a\nversions: *nowhere\n")
        #expect(error.diagnostics.map(\.code) == ["yaml-syntax"])
        #expect(error.diagnostics.first?.position?.column == 11)
    }

    @Test func secondDocumentIsRefusedWithAClearMessage() throws {
        let error = try loadError("activity: a\nversions: []\n...\n---\nactivity: b\n")
        #expect(error.diagnostics.map(\.code) == ["yaml-syntax"])
        #expect(error.diagnostics.first?.message.contains("one document per file") == true)
        #expect(error.diagnostics.first?.position?.line == 4)
    }

    @Test func everyPrefixOfAGoodFileLoadsOrFailsWithPositions() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("valid/delivery.yaml"))))
        for length in stride(from: 0, through: bytes.count, by: 3) {
            do {
                _ = try SchemaLoader().load(yaml: Array(bytes[..<length]), file: "delivery.yaml")
            } catch {
                #expect(!error.diagnostics.isEmpty)
                for diagnostic in error.diagnostics {
                    #expect(diagnostic.position != nil, "\(length): \(diagnostic)")
                }
            }
        }
    }

    @Test func flippedBytesNeverTrap() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixtures.path("valid/delivery.yaml"))))
        let replacements: [UInt8] = [0x00, 0x0A, 0x20, 0x22, 0x26, 0x2A, 0x2D, 0x3A, 0x5B, 0x7B, 0xFF]
        for index in stride(from: 0, to: bytes.count, by: 5) {
            var mutated = bytes
            mutated[index] = replacements[index % replacements.count]
            do {
                _ = try SchemaLoader().load(yaml: mutated, file: "delivery.yaml")
            } catch {
                #expect(!error.diagnostics.isEmpty)
            }
        }
    }
}
