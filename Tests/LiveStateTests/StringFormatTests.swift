import Foundation
import Testing
@_spi(Scanner) @testable import LiveState

/// `format: uuid` and `format: base64`: the rule (`Field.StringFormat.problem`) against
/// Foundation's own parsers, and every reader and writer asking it.
@Suite struct StringFormatTests {
    /// Strings for a `UUID`, each checked with `UUID(uuidString:)` below.
    static let uuidStrings = [
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "E621e1f8-C36C-495a-93FC-0c247A3E6E5F",
        "00000000-0000-0000-0000-000000000000", "E621E1F8C36C495A93FC0C247A3E6E5F", "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}",
        " E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F ", "E621E1F8-C36C-495A-93FC-0C247A3E6E5",
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5FA", "E621E1F8-C36C-495A-93FC+0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5G",
        "E621E1F8_C36C_495A_93FC_0C247A3E6E5F", "E621E1F-8C36C-495A-93FC-0C247A3E6E5F", "", "trip-42",
        "urn:uuid:E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "Ｅ621E1F8-C36C-495A-93FC-0C247A3E6E5F",
    ]

    /// Strings for `Data`: the canonical base64 forms, and forms no Foundation reads.
    static let base64Strings = [
        "", "aGk=", "aGVsbG8=", "YQ==", "+/8=", "aGVsbG8gd29ybGQh", "YR==",
        "aGk", "aGVsbG8", "YQ", "Y===", "aG k=", "aGVsbG8=\n", "-_8=", "aGk=aGk=", "==", "=", "Y", "\taGk=", "aGk=\r\n",
    ]

    /// Strings that current Foundation's `Data(base64Encoded:)` reads although they are not
    /// canonical base64 (swift-foundation's decoder, on Linux and from iOS 18 on, takes extra
    /// padding and `=` inside the last group), which the rule refuses: earlier releases do not
    /// read them, and no encoder writes them.
    static let lenientBase64 = ["aGk==", "aG===", "YQ===", "====", "aGVs=", "YQ=a"]

    /// Strings that `UUID(uuidString:)` reads although they are not a UUID's text: it parses with
    /// `sscanf`'s `%2hhx` (Apple's `uuid_parse`, and swift-foundation's copy on Linux), which
    /// takes a sign, `0x` or white space inside a pair and stops at a NUL, and reads another UUID
    /// than the one written. The rule refuses them: the verdict says such an update is dropped
    /// where a strict app may take it with the wrong UUID.
    static let lenientUUIDs = [
        "+621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621 1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0x247A3E6E5F",
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5F\u{0}", "E621E1F8-C36C-495A-93FC-0C247A3E6E-F",
    ]

    @Test(arguments: uuidStrings)
    func aUUIDIsWhatUUIDStringReads(_ text: String) {
        #expect((Field.StringFormat.uuid.problem(text) == nil) == (UUID(uuidString: text) != nil), "\(text.debugDescription)")
    }

    @Test(arguments: lenientUUIDs)
    func uuidTextThatSscanfAlsoReadsIsRefused(_ text: String) {
        #expect(UUID(uuidString: text) != nil, "\(text.debugDescription): the parser no longer reads it; move it to uuidStrings")
        #expect(Field.StringFormat.uuid.problem(text) != nil, "\(text.debugDescription)")
    }

    /// Two texts of a format are the same value when the app reads the same: a UUID in either
    /// case, base64 of the same bytes; and which lengths leave a value.
    @Test func sameValuesAndPossibleLengths() {
        #expect(Field.StringFormat.uuid.same("e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(!Field.StringFormat.uuid.same("00000000-0000-0000-0000-000000000000", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(!Field.StringFormat.uuid.same("abc", "ABC"))
        #expect(Field.StringFormat.base64.same("aA==", "aB=="))
        #expect(!Field.StringFormat.base64.same("aA==", "aQ=="))
        #expect(Field.StringFormat.uuid.admitsSomeLength(.init(minLength: 36, maxLength: 36)))
        #expect(!Field.StringFormat.uuid.admitsSomeLength(.init(maxLength: 10)))
        #expect(!Field.StringFormat.uuid.admitsSomeLength(.init(minLength: 40)))
        #expect(Field.StringFormat.base64.admitsSomeLength(.init(maxLength: 3)))
        #expect(!Field.StringFormat.base64.admitsSomeLength(.init(minLength: 1, maxLength: 3)))
        #expect(Field.StringFormat.base64.admitsSomeLength(.init(minLength: 5, maxLength: 8)))
        #expect(!Field.StringFormat.base64.admitsSomeLength(.init(minLength: 5, maxLength: 7)))
    }

    @Test(arguments: base64Strings)
    func base64IsWhatDataBase64EncodedReads(_ text: String) {
        #expect((Field.StringFormat.base64.problem(text) == nil) == (Data(base64Encoded: text) != nil), "\(text.debugDescription)")
    }

    @Test(arguments: lenientBase64)
    func base64ThatOnlyCurrentFoundationReadsIsRefused(_ text: String) {
        #expect(Field.StringFormat.base64.problem(text) != nil, "\(text.debugDescription)")
    }

    /// What the rule takes, Foundation writes back the same: `base64EncodedString()` of every
    /// length, `uuidString` of random UUIDs.
    @Test func whatFoundationWritesTheRuleTakes() {
        for count in 0..<40 {
            let data = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
            #expect(Field.StringFormat.base64.problem(data.base64EncodedString()) == nil)
        }
        for _ in 0..<20 {
            let uuid = UUID()
            #expect(Field.StringFormat.uuid.problem(uuid.uuidString) == nil)
            #expect(Field.StringFormat.uuid.problem(uuid.uuidString.lowercased()) == nil)
        }
    }

    /// The JSON Schema pattern matches just the strings the rule passes.
    @Test func thePatternIsTheRule() throws {
        for (format, strings) in [(Field.StringFormat.uuid, Self.uuidStrings), (.base64, Self.base64Strings + Self.lenientBase64)] {
            let expression = try NSRegularExpression(pattern: format.pattern)
            for text in strings {
                let range = NSRange(text.startIndex..., in: text)
                let matches = expression.firstMatch(in: text, range: range) != nil
                #expect(matches == (format.problem(text) == nil), "\(format) \(text.debugDescription)")
            }
        }
    }

    @Test func theMessageSaysWhatIsWrong() {
        #expect(Field.StringFormat.uuid.problem("trip-42")?.hasPrefix("'trip-42' is not a UUID: it is 7 bytes long;") == true)
        #expect(Field.StringFormat.uuid.problem("x")?.contains("it is 1 byte long;") == true)
        #expect(Field.StringFormat.uuid.problem("E621E1F8C36C495A93FC0C247A3E6E5F0000")?.contains("byte 8 is not a hyphen") == true)
        #expect(Field.StringFormat.uuid.problem("E621E1F8-C36C-495A-93FC-0C247A3E6E5G")?.contains("byte 35 is not a hexadecimal digit") == true)
        #expect(Field.StringFormat.base64.problem("aGk")?.contains("it is 3 characters long, not a multiple of 4") == true)
        #expect(Field.StringFormat.base64.problem("a")?.contains("it is 1 character long, not a multiple of 4") == true)
        // The line feed an encoder appended, not the `=` before it.
        #expect(Field.StringFormat.base64.problem("aGk=\n")?.contains("byte 4 is not a base64 character") == true)
        #expect(Field.StringFormat.base64.problem("-_8=")?.contains("byte 0 is not a base64 character") == true)
        #expect(Field.StringFormat.base64.problem("aGk=aGk=")?.contains("'=' at byte 3 is not at the end") == true)
    }

    // MARK: - Every reader and writer asks the rule

    struct Ride: Codable, Equatable {
        var trip: UUID
        var receipt: Data
        var stops: [UUID]
    }

    static let schema = Schema(
        activity: "ride",
        strictClients: [1],
        versions: [
            SchemaVersion(version: 1, contentState: [
                formatted("trip", .uuid), formatted("receipt", .base64),
                Field(name: "stops", type: .array(items: formatted("", .uuid))),
            ]),
            SchemaVersion(version: 2, contentState: [
                formatted("trip", .uuid, default: "00000000-0000-0000-0000-000000000000"), formatted("receipt", .base64, default: ""),
                Field(name: "stops", type: .array(items: formatted("", .uuid)), defaultValue: .array([])),
            ]),
        ])

    static func formatted(_ name: String, _ format: Field.StringFormat, default text: String? = nil) -> Field {
        var field = Field(name: name, type: .string, defaultValue: text.map(Value.string))
        field.stringFormat = format
        return field
    }

    static let valid = #"{"trip":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","receipt":"aGk=","stops":["e621e1f8-c36c-495a-93fc-0c247a3e6e5f"]}"#

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
        var writer = JSONWriter()
        writer.writeString(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Payloads with each member replaced: by valid and invalid text, by other types.
    static let payloads: [String] = {
        let members = [("trip", #""E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#), ("receipt", #""aGk=""#), ("stops", #"["e621e1f8-c36c-495a-93fc-0c247a3e6e5f"]"#)]
        let replacements = (uuidStrings + base64Strings).map(Self.quoted)
            + ["1", "null", "[]", #"["x"]"#, #"["E621E1F8-C36C-495A-93FC-0C247A3E6E5F","00000000-0000-0000-0000-000000000000"]"#,
               #""\u0045621E1F8-C36C-495A-93FC-0C247A3E6E5F""#, #""aG\u006b=""#]
        return LiveStateTests.payloads(valid: valid, members: members, replacements: replacements)
    }()

    /// A strict version's verdict is synthesized `Codable`'s with `JSONDecoder` (but for the
    /// strings only current Foundation reads, which are not among the payloads).
    @Test func theStrictVerdictIsJSONDecoders() throws {
        let decoder = try ContentStateDecoder(schema: Self.schema, version: 1)
        var refused = 0
        for payload in Self.payloads {
            let foundation = (try? JSONDecoder().decode(Ride.self, from: Data(payload.utf8))) != nil
            let result = decoder.decode(contentState: Array(payload.utf8))
            #expect(result.appDecodes == foundation, "\(payload): \(result.allDiagnostics.map(\.message))")
            if !foundation { refused += 1 }
        }
        #expect(refused > 40)
    }

    /// The tape and the full decoder say the same, for a strict and a tolerant version.
    @Test func theTapeAndTheFullDecoderAgree() throws {
        try TapeAgreement.expect(Self.schema, versions: [1, 2], payloads: Self.payloads)
    }

    /// A tolerant version takes the default for text of the wrong form, with the rule's words.
    @Test func aTolerantVersionTakesTheDefault() throws {
        let payload = #"{"trip":"trip-42","receipt":"aGk","stops":["E621E1F8-C36C-495A-93FC-0C247A3E6E5F","x"]}"#
        let result = try ContentStateDecoder(schema: Self.schema, version: 2).decode(contentState: Array(payload.utf8))
        #expect(result.appDecodes)
        #expect(result.state?["trip"] == .string("00000000-0000-0000-0000-000000000000"))
        #expect(result.state?["receipt"] == .string(""))
        #expect(result.state?["stops"] == .array([]))
        let messages = result.allDiagnostics.map(\.message)
        #expect(messages.count == 3, "\(messages)")
        #expect(messages.first?.hasPrefix("'trip-42' is not a UUID: it is 7 bytes long;") == true, "\(messages)")
        #expect(result.allDiagnostics.allSatisfy { $0.code == .invalidDefaulted })
    }

    /// `decode(T.self)` reads `UUID` and `Data` as `JSONDecoder` does, from the tape and from a
    /// `Value`.
    @Test func typedAccessReadsUUIDAndData() throws {
        let result = try ContentStateDecoder(schema: Self.schema, version: 1).decode(contentState: Array(Self.valid.utf8))
        let expected = try JSONDecoder().decode(Ride.self, from: Data(Self.valid.utf8))
        #expect(try result.decode(Ride.self) == expected)
        #expect(try ValueDecoder.decode(Ride.self, from: try #require(result.state), codingPath: []) == expected)
        #expect(expected.receipt == Data("hi".utf8))
    }

    /// The encoder writes a `UUID` and `Data` as `JSONEncoder` does, and refuses a value whose
    /// text is not of the field's format.
    @Test func theEncoderWritesAndChecksTheFormat() throws {
        let encoder = try ContentStateEncoder(schema: Self.schema, version: 1)
        let ride = Ride(trip: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, receipt: Data([0, 255, 7]), stops: [])
        let encoded = try encoder.encode(ride)
        #expect(encoded.succeeded, "\(encoded.diagnostics.map(\.message))")
        let written = try JSONDecoder().decode(Ride.self, from: Data(encoded.bytes))
        #expect(written == ride)
        #expect(String(decoding: encoded.bytes, as: UTF8.self).contains(#""receipt":"AP8H""#))

        let invalid = encoder.encode(.object([
            .init("trip", .string("trip-42")), .init("receipt", .string("aGk=")), .init("stops", .array([])),
        ]))
        #expect(!invalid.succeeded)
        #expect(invalid.diagnostics.contains { $0.message.contains("'trip-42' is not a UUID") }, "\(invalid.diagnostics.map(\.message))")
    }

    /// A default of the wrong form is a violation, as `check` reports it.
    @Test func aDefaultOfTheWrongFormIsAViolation() {
        #expect(Self.formatted("trip", .uuid).violation(of: .string("trip-42"))?.contains("is not a UUID") == true)
        #expect(Self.formatted("trip", .uuid).violation(of: .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")) == nil)
        #expect(Self.formatted("receipt", .base64).violation(of: .string("")) == nil)
        #expect(Self.formatted("receipt", .base64).violation(of: .int(1)) != nil)
    }
}
