import Foundation
import Testing
@_spi(Scanner) @testable import LiveState

/// The conformance folder `Fixtures/json`: every `y_*.json` must be accepted, every `n_*.json`
/// rejected. Cases are written from RFC 8259; binary ones (invalid UTF-8, UTF-16, NUL) too.
@Suite struct JSONConformanceTests {
    static let folder: URL? = Bundle.module.url(forResource: "Fixtures", withExtension: nil)?
        .appendingPathComponent("json")

    static let fileNames: [String] = {
        guard let folder else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }()

    static let acceptedNames = fileNames.filter { $0.hasPrefix("y_") }
    static let rejectedNames = fileNames.filter { $0.hasPrefix("n_") }

    /// Documents where Foundation's `JSONSerialization` (with `.fragmentsAllowed`) disagrees
    /// with strict RFC 8259 as we read it, and why. Each must really differ.
    static let foundationDifferences: [String: String] = [
        "n_object_trailing_comma.json": "Foundation accepts a trailing comma in an object",
        "n_object_trailing_comma_multiline.json": "Foundation accepts a trailing comma in an object",
        "n_array_trailing_comma.json": "Foundation accepts a trailing comma in an array",
        "n_byte_order_mark.json": "Foundation skips a UTF-8 byte order mark; RFC 8259 says parsers may ignore it, we reject it",
        "n_utf16le.json": "Foundation detects UTF-16 and UTF-32; RFC 8259 requires UTF-8 between systems",
        "n_utf16be.json": "Foundation detects UTF-16 and UTF-32; RFC 8259 requires UTF-8 between systems",
        "n_utf32le.json": "Foundation detects UTF-16 and UTF-32; RFC 8259 requires UTF-8 between systems",
        "n_limit_depth_65_arrays.json": "Foundation's nesting limit is 512, ours is 64",
        "n_limit_depth_65_objects.json": "Foundation's nesting limit is 512, ours is 64",
        "y_number_huge_exponent.json": "Foundation rejects a number beyond Double's range (1e400); we read it as +infinity, as Double(String) does",
    ]

    /// Positions of the errors in a handful of rejected documents: line, column, and a part of
    /// the message.
    static let expectedErrors: [String: (line: Int, column: Int, message: String)] = [
        "n_empty.json": (1, 1, "empty input"),
        "n_whitespace_only.json": (2, 4, "empty input"),
        "n_byte_order_mark.json": (1, 1, "byte order mark is not allowed"),
        "n_object_missing_colon.json": (1, 6, "expected ':' after an object key, found '1'"),
        "n_object_missing_comma_multiline.json": (3, 3, "expected ',' or '}' after an object member, found '\"'"),
        "n_object_trailing_comma_multiline.json": (3, 1, "trailing comma"),
        "n_array_trailing_comma.json": (1, 4, "trailing comma"),
        "n_utf8_after_multibyte_text.json": (1, 8, "expected a value, found 'x'"),
        "n_string_raw_newline.json": (1, 4, "control character 0x0A must be escaped"),
        "n_string_unterminated.json": (1, 2, "unterminated string"),
        "n_string_lone_high_surrogate.json": (1, 3, "lone surrogate"),
        "n_utf8_encoded_high_surrogate.json": (1, 3, "encoded surrogate"),
        "n_number_leading_zero.json": (1, 3, "leading zeros"),
        "n_nul_after_value.json": (1, 4, "found byte 0x00"),
        "n_limit_depth_65_arrays.json": (1, 65, "nesting deeper than 64"),
    ]

    static func contents(_ name: String) throws -> [UInt8] {
        let folder = try #require(folder)
        return try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// Validates with `JSONValidator`; returns the error or `nil`.
    static func validationError(_ bytes: [UInt8]) -> JSONError? {
        bytes.withUnsafeBytes { buffer -> JSONError? in
            do throws(JSONError) {
                _ = try JSONValidator.validate(buffer)
                return nil
            } catch {
                return error
            }
        }
    }

    /// Reads the document with `peek()`, `skipValue()` and `finish()`; returns the error or `nil`.
    static func skipError(_ bytes: [UInt8]) -> JSONError? {
        bytes.withUnsafeBytes { buffer -> JSONError? in
            do throws(JSONError) {
                var reader = try JSONReader(bytes: buffer)
                _ = try reader.peek()
                try reader.skipValue()
                try reader.finish()
                return nil
            } catch {
                return error
            }
        }
    }

    @Test func fixtureFolderHoldsEnoughCases() {
        #expect(Self.acceptedNames.count >= 40)
        #expect(Self.rejectedNames.count >= 80)
    }

    @Test(arguments: acceptedNames)
    func acceptsConformingDocument(_ name: String) throws {
        let bytes = try Self.contents(name)
        #expect(Self.validationError(bytes) == nil)
        #expect(Self.skipError(bytes) == nil)
    }

    @Test(arguments: rejectedNames)
    func rejectsNonConformingDocument(_ name: String) throws {
        let bytes = try Self.contents(name)
        let error = try #require(Self.validationError(bytes))
        #expect(error.code == (name.hasPrefix("n_limit_") ? .jsonLimit : .jsonSyntax), "\(error)")
        #expect(error.position == SourcePosition.locate(offset: error.position.offset, in: bytes))
        // skipValue() reports the same problem at the same place.
        #expect(Self.skipError(bytes) == error)
    }

    @Test func reportsLineAndColumnForRejectedDocuments() throws {
        for (name, expected) in Self.expectedErrors {
            let error = try #require(Self.validationError(try Self.contents(name)), "\(name)")
            #expect(error.position.line == expected.line, "\(name): \(error)")
            #expect(error.position.column == expected.column, "\(name): \(error)")
            #expect(error.message.contains(expected.message), "\(name): \(error)")
        }
    }

    @Test func agreesWithFoundationExceptForDocumentedDifferences() throws {
        #expect(!Self.fileNames.isEmpty)
        for name in Self.fileNames {
            let bytes = try Self.contents(name)
            let oursAccepts = Self.validationError(bytes) == nil
            let foundationAccepts = (try? JSONSerialization.jsonObject(
                with: Data(bytes), options: [.fragmentsAllowed])) != nil
            #expect(oursAccepts == name.hasPrefix("y_"), "\(name)")
            if let reason = Self.foundationDifferences[name] {
                #expect(oursAccepts != foundationAccepts, "\(name) is listed as a difference (\(reason)) but agrees")
            } else {
                #expect(oursAccepts == foundationAccepts, "\(name): ours \(oursAccepts), Foundation \(foundationAccepts)")
            }
        }
        for name in Self.foundationDifferences.keys {
            #expect(Self.fileNames.contains(name), "\(name) is listed as a difference but missing")
        }
    }
}
