import Foundation
import LiveState
import LiveStateYAML
import Testing

/// Fleet files whose text is not lines of UTF-8 say so, rather than naming a header that lacks
/// its columns.
@Suite struct FleetFileTextTests {
    static func load(_ bytes: [UInt8], named name: String) throws -> [Diagnostic] {
        let file = try write(bytes, named: name)
        defer { try? FileManager.default.removeItem(atPath: file) }
        return FleetLoader.load(contentsOf: file).1
    }

    /// A temporary file of `bytes`, its name ending in `name`.
    static func write(_ bytes: [UInt8], named name: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(UUID().uuidString)-\(name)")
        try Data(bytes).write(to: file)
        return file.path
    }

    /// In a JSON or YAML fleet file a finding names its row, or its cell, by JSON Pointer too
    /// (the key as written); a CSV file's have line and column alone.
    @Test func jsonAndYAMLFleetFindingsHaveAPointer() throws {
        let json = try Self.load(Array(#"[{"version":1,"count":5},{"version":2,"Count":"x"},{"count":1}]"#.utf8), named: "rows.json")
        #expect(json.map(\.pointer) == ["/1/Count", "/2"], "\(json)")
        let yaml = try Self.load(Array("- {version: 1, count: 5}\n- {version: 0, count: 1}\n- {count: 2}\n".utf8), named: "rows.yaml")
        #expect(yaml.map(\.pointer) == ["/1/version", "/2"], "\(yaml)")
        #expect(yaml.map(\.code.rawValue) == ["fleet-invalid-version", "fleet-missing-column"])
        let notARow = try Self.load(Array(#"[{"version":1,"count":5},7]"#.utf8), named: "seven.json")
        #expect(notARow.map(\.pointer) == ["/1"] && notARow.first?.position?.column == 26, "\(notARow)")
        let csv = try Self.load(Array("version,count\n1,x\n".utf8), named: "rows.csv")
        #expect(csv.count == 1 && csv.first?.pointer == nil)
        // A version the schema does not have is placed at its row.
        let (fleet, _) = FleetLoader.load(contentsOf: try Self.write(Array("- {version: 1, count: 5}\n- {version: 9, count: 1}\n".utf8), named: "nine.yaml"))
        let schema = try SchemaLoader().load(yaml: Array("activity: t\nversions:\n  - version: 1\n    content-state: { a: { type: string } }\n".utf8), file: "t.yaml")
        #expect(try #require(fleet).check(against: schema).map(\.pointer) == ["/1"])
    }

    /// A value that is no number or string is named as it is written: `null`, `true`, or "an
    /// object" (they were all "'not a number or string'", quoted as if it were the value); a
    /// JSON file's byte order mark is read past, as a CSV or YAML file's (it was refused).
    @Test func aCellThatIsNoScalarIsNamedAndAByteOrderMarkIsReadPast() throws {
        let null = try Self.load(Array(#"[{"version":1,"count":null}]"#.utf8), named: "null.json")
        #expect(null.map(\.message) == ["count 'null' is not a number of devices (a whole number, 0 or more)"], "\(null)")
        let object = try Self.load(Array(#"[{"version":1,"count":{"n":5}}]"#.utf8), named: "object.json")
        #expect(object.map(\.message) == ["'count' must be a number or a string, not an object"] && object.first?.pointer == "/0/count", "\(object)")
        let sequence = try Self.load(Array("- {version: 1, count: [5]}\n".utf8), named: "seq.yaml")
        #expect(sequence.map(\.message) == ["'count' must be a number or a string, not a sequence"], "\(sequence)")
        let bom = try Self.load([0xEF, 0xBB, 0xBF] + Array(#"[{"version":1,"count":5}]"#.utf8), named: "bom.json")
        #expect(bom.isEmpty, "\(bom)")
        // A null ios is an iOS not known, as an empty one (it was refused as no release).
        #expect(try Self.load(Array(#"[{"version":1,"ios":null,"count":5}]"#.utf8), named: "null-ios.json").isEmpty)
        #expect(try Self.load(Array("- {version: 1, ios: ~, count: 5}\n".utf8), named: "null-ios.yaml").isEmpty)
    }

    @Test func lineEndsOfCRAloneAreNamed() throws {
        let found = try Self.load(Array("version,count\r1,10\r2,20\r".utf8), named: "cr.csv")
        #expect(found.map(\.message) == ["the fleet file's lines end in CR alone; end them in LF (or CR LF)"])
        #expect(found.first?.code == "fleet-syntax" && found.first?.position?.line == 1)
        // CR LF is read as it was.
        #expect(try Self.load(Array("version,count\r\n1,10\r\n".utf8), named: "crlf.csv").isEmpty)
    }

    @Test func utf16AndUTF32AreNamedWithTheirConversion() throws {
        let text = "version,count\n1,10\n"
        let utf16: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try Self.load(utf16, named: "u16.csv").map(\.message) == [
            "the fleet file is UTF-16 (little-endian, byte order mark FF FE), not UTF-8: convert it (iconv -f UTF-16 -t UTF-8)",
        ])
        let utf32: [UInt8] = text.unicodeScalars.flatMap { scalar -> [UInt8] in [UInt8(scalar.value), 0, 0, 0] }
        #expect(try Self.load(utf32, named: "u32.csv").map(\.message) == [
            "the fleet file is UTF-32 (little-endian, three zero bytes after each ASCII character), not UTF-8: convert it (iconv -f UTF-32 -t UTF-8)",
        ])
    }

    /// A byte that is not UTF-8 is said where it is: read as text, it made a count of '�4'.
    @Test func aByteThatIsNotUTF8IsNamedWhereItIs() throws {
        let found = try Self.load(Array("version,count\n1,".utf8) + [0xE9] + Array("4\n".utf8), named: "latin1.csv")
        #expect(found.map(\.message) == ["the fleet file is not UTF-8 text: byte 0xE9 here is not UTF-8; save the file as UTF-8"])
        #expect(found.first?.position?.line == 2 && found.first?.position?.column == 3)
    }

    /// A YAML fleet file of 40,000 rows (1 MB) loads: the node limit is a 4 MiB file's.
    @Test func aLargeYAMLFleetLoads() throws {
        let rows = (0..<40_000).map { "- { version: 1, app-version: \"1.\($0)\", count: 1 }\n" }.joined()
        #expect(try Self.load(Array(rows.utf8), named: "rows.yaml").isEmpty)
    }

    @Test func aSecondYAMLDocumentIsAFleetFilesMistake() throws {
        let found = try Self.load(Array("- { version: 1, count: 1 }\n---\n- { version: 2, count: 1 }\n".utf8), named: "two.yaml")
        #expect(found.first?.message == "a second YAML document starts here; a fleet file holds one document per file")
    }

    /// A quote a line leaves open took the rest of the line as the cell: `1,"310` counted 310.
    @Test func aQuoteLeftOpenIsRefusedWhereItOpens() throws {
        let found = try Self.load(Array("version,count\n1,\"310\n2,5\n".utf8), named: "quote.csv")
        #expect(found.map(\.description).first?.hasSuffix(
            "quote.csv:2:3: error: the quote that starts here is not closed on its line; a cell is on one line [fleet-syntax]") == true, "\(found)")
    }

    /// A JSON fleet file is bounded as a CSV or YAML one is (4 MiB), not by a payload's 1 MiB.
    @Test func aJSONFleetFileTakesTheFleetFilesLimit() throws {
        let rows = (0..<30_000).map { _ in #"{"version":1,"count":1,"app-version":"1.4.2-build-0000000000000000000"}"# }
        let bytes = Array(("[" + rows.joined(separator: ",") + "]").utf8)
        #expect(bytes.count > 1 << 21)
        #expect(try Self.load(bytes, named: "big.json").isEmpty)
    }
}
