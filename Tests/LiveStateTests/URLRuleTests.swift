import Foundation
import LiveStateTestSupport
import Testing
@_spi(Scanner) @testable import LiveState
@testable import LiveStateTooling

/// The table of URL strings (`Fixtures/urls.json`): each with how iOS 16 reads it (CFURL's
/// legality check, as swift-corelibs-foundation's `CFURL.c` writes it), how iOS 17 and later
/// read it (`URL(string:)` on current Foundation), whether it has a scheme, and the form both
/// read alike.
struct URLRow: Decodable, Sendable, CustomTestStringConvertible {
    var string: String
    var ios16: Bool
    var ios17: Bool
    var absolute: Bool?
    var portable: String?
    var note: String

    var testDescription: String { string.debugDescription }

    static let all: [URLRow] = {
        struct Document: Decodable { var urls: [URLRow] }
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/urls.json")
        return (try? JSONDecoder().decode(Document.self, from: Data(contentsOf: url)).urls) ?? []
    }()

    /// What the rule must say for an app that runs on `minIOS` and later.
    func expected(minIOS: IOSVersion) -> URLRule.Problem? {
        if !ios17 { return minIOS < .rfc3986URLs && ios16 ? .refusedFromIOS17 : .notAURL }
        if minIOS < .rfc3986URLs, !ios16 {
            let refusal = URLRule.legacyRefusal(string)
            return .refusedBeforeIOS17(offset: refusal?.offset ?? -1, character: refusal?.character ?? "", portable: portable)
        }
        // A relative reference is a URL to the app's `URL`: no problem.
        return nil
    }
}

@Suite struct URLRuleTests {
    /// The pattern JSON Schema states iOS 16's check with passes what the check passes, on
    /// random strings of its characters, the ones it refuses, and `%` and `#` in every place.
    @Test func theLegacyPatternIsTheLegacyCheck() throws {
        let pattern = try Regex(URLRule.legacyPattern)
        let alphabet = Array("aZ09-_.!~*'();/?:@&=+$,[]%#%#fFgG \"<>{}|\\^`\n\té😀")
        var random = SplitMix64(state: 16)
        var strings = ["", "%", "%2", "%20", "%g0", "#", "##", "a#b", "a#b#c", "-", "[", "]", "x\n", "\n"]
        for _ in 0..<20_000 {
            let count = Int(random.next() % 8)
            strings.append(String((0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }))
        }
        for string in strings {
            #expect((string.wholeMatch(of: pattern) != nil) == (URLRule.legacyRefusal(string) == nil), "\(string.debugDescription)")
        }
    }

    @Test func theTableHasFortyStringsAndMore() {
        #expect(URLRow.all.count >= 40)
        #expect(URLRow.all.contains { $0.ios17 && !$0.ios16 })
        #expect(URLRow.all.contains { $0.ios16 && $0.ios17 })
    }

    @Test(arguments: URLRow.all)
    func iOS16ReadsByCFURLsLegalityCheck(_ row: URLRow) {
        #expect((URLRule.legacyRefusal(row.string) == nil) == row.ios16, "\(row.note)")
    }

    @Test(arguments: URLRow.all)
    func iOS17ReadsByURLStringOfCurrentFoundation(_ row: URLRow) {
        let url = URL(string: row.string)
        #expect((url != nil) == row.ios17, "\(row.note)")
        if let url { #expect((url.scheme != nil) == row.absolute) }
    }

    @Test(arguments: URLRow.all)
    func theVerdictFollowsTheDeploymentTarget(_ row: URLRow) {
        #expect(URLRule(minIOS: .liveActivities).problem(row.string) == row.expected(minIOS: .liveActivities), "\(row.note)")
        #expect(URLRule(minIOS: IOSVersion(16, 4)).problem(row.string) == row.expected(minIOS: IOSVersion(16, 4)))
        #expect(URLRule(minIOS: .rfc3986URLs).problem(row.string) == row.expected(minIOS: .rfc3986URLs), "\(row.note)")
        #expect(URLRule(minIOS: IOSVersion(18)).problem(row.string) == row.expected(minIOS: IOSVersion(18)))
    }

    /// The form the encoder writes is read alike by both parsers: iOS 17 leaves it as it is.
    @Test(arguments: URLRow.all.filter { $0.portable != nil })
    func thePortableFormPassesBothParsers(_ row: URLRow) throws {
        let portable = try #require(row.portable)
        #expect(URLRule.legacyRefusal(portable) == nil)
        #expect(URL(string: portable)?.absoluteString == portable)
        #expect(URL(string: row.string)?.absoluteString == portable)
    }

    @Test func theMessageNamesTheCharacterItsByteAndTheFix() throws {
        let rule = URLRule()
        let string = "https://example.com/a b"
        let problem = try #require(rule.problem(string))
        #expect(rule.message(problem, in: string)
            == "'https://example.com/a b' is no URL on iOS 16 (min-ios 16.1): URL(string:) there refuses a space at byte 21, which iOS 17 and later percent-encode; send 'https://example.com/a%20b'")
        let idna = "https://例子.com/"
        #expect(rule.problem(idna) == .refusedBeforeIOS17(offset: 8, character: "'例'", portable: "https://xn--fsqu00a.com/"))
        #expect(URLRule.legacyRefusal("https://x.com/#a#b")?.character == "a second '#'")
        #expect(URLRule.legacyRefusal("https://x.com/%zz")?.character == "'%' without two hex digits after it")
        #expect(URLRule.legacyRefusal("https://x.com/a\tb")?.character == "the control character U+0009")
        // A character that shows as a space, or as nothing, is named: it was quoted as it is.
        #expect(URLRule.legacyRefusal("https://x.com/a\u{A0}b")?.character == "the character U+00A0")
        #expect(URLRule.legacyRefusal("https://x.com/a\u{200D}b")?.character == "the character U+200D")
        #expect(URLRule.legacyRefusal("https://x.com/a\u{E9}b")?.character == "'\u{E9}'")
    }

    /// Tests on Linux can reproduce iOS 16's verdict with `URL(string:encodingInvalidCharacters:
    /// false)`, RFC 3986 without the encoding, on every string of the table but three: `[` `]`
    /// in a path, which CFURL let pass anywhere, and two strings CFURL's character check passes
    /// though they are no URLs (a port that is not a number, an unclosed IPv6 host).
    @Test(arguments: URLRow.all)
    func urlWithoutEncodingReproducesIOS16ButForThree(_ row: URLRow) {
        guard #available(macOS 14, iOS 17, *) else { return }
        let differs: Set = ["http://example.com/a[b]", "https://example.com:abc/", "http://[::1"]
        let strict = URL(string: row.string, encodingInvalidCharacters: false) != nil
        #expect(strict == (differs.contains(row.string) ? !row.ios16 : row.ios16), "\(row.note)")
    }

    @Test func deploymentTargetsReadAsSchemasWriteThem() {
        #expect(IOSVersion("16.1") == .liveActivities)
        #expect(IOSVersion("17") == .rfc3986URLs)
        #expect(IOSVersion("17.0.1") == .rfc3986URLs)
        #expect(IOSVersion("16.10")! > IOSVersion("16.9")!)
        for bad in ["", "16.", ".1", "v17", "17.a", "1.2.3.4", "16 1", "99999"] {
            #expect(IOSVersion(bad) == nil, "\(bad)")
        }
    }
}

/// decode, lint and encode give one verdict on every string of the table, for an app on iOS 16
/// and for one on iOS 17: a strict client drops what its oldest iOS refuses, a tolerant one
/// takes the default, the encoder writes what every supported iOS reads alike.
@Suite struct URLAgreementTests {
    static func schema(minIOS: IOSVersion) -> Schema {
        Schema(activity: "links", strictClients: [1], versions: [
            SchemaVersion(version: 1, contentState: [Field(name: "link", type: .url)]),
            SchemaVersion(version: 2, contentState: [
                Field(name: "link", type: .url, defaultValue: .string("https://example.com/home")),
            ]),
        ], minIOS: minIOS)
    }

    static let targets = [IOSVersion.liveActivities, .rfc3986URLs]

    /// A strict version's `Codable` fails on the URL: the default the schema's reading takes
    /// there is said to be the schema's, beside the error that the app drops the update (it
    /// read as if the app took it).
    @Test func aStrictVersionsDefaultIsTheSchemasReading() throws {
        let schema = Schema(activity: "links", strictClients: [1], versions: [
            SchemaVersion(version: 1, contentState: [Field(name: "link", type: .url, defaultValue: .string("https://example.com/"))]),
        ])
        let result = try ContentStateDecoder(schema: schema, version: 1).decode(contentState: Array(#"{"link":"https://example.com/a b"}"#.utf8))
        #expect(!result.appDecodes)
        let defaulted = try #require(result.allDiagnostics.first { $0.code == "invalid-defaulted" })
        #expect(defaulted.message.hasSuffix("in the schema's reading; this app version decodes with synthesized Codable, which fails on it"),
                "\(defaulted.message)")
        #expect(result.allDiagnostics.contains { $0.code == "strict-decode-failure" && $0.severity == .error })
    }

    @Test(arguments: URLRow.all, targets)
    func decodeLintAndEncodeAgree(_ row: URLRow, minIOS: IOSVersion) throws {
        let schema = Self.schema(minIOS: minIOS)
        let expected = row.expected(minIOS: minIOS)
        var writer = JSONWriter()
        writer.write(.string(row.string))
        let state = #"{"link":"# + String(decoding: writer.bytes, as: UTF8.self) + "}"
        let body = #"{"aps":{"timestamp":1795000000,"event":"update","content-state":"# + state + "}}"
        let refused = expected != nil

        // The strict app version 1 drops what synthesized Codable throws on.
        let strict = try ContentStateDecoder(schema: schema, version: 1)
        let strictResult = strict.decode(contentState: Array(state.utf8))
        #expect(strictResult.appDecodes == !refused, "\(row.note)")
        #expect(strict.decodeInFull(contentState: Array(state.utf8)) == strictResult)
        let strictLint = try PayloadValidator(schema: schema, version: 1).validate(Array(body.utf8))
        #expect(strictLint.appDecodes == strictResult.appDecodes)

        // The tolerant version 2 takes its default for any problem.
        let tolerant = try ContentStateDecoder(schema: schema, version: 2)
        let tolerantResult = tolerant.decode(contentState: Array(state.utf8))
        #expect(tolerantResult.appDecodes)
        #expect(tolerantResult.state?["link"] == .string(expected == nil ? row.string : "https://example.com/home"))
        #expect(tolerantResult.diagnostics.contains { $0.code == "invalid-defaulted" } == (expected != nil))
        #expect(tolerant.decodeInFull(contentState: Array(state.utf8)) == tolerantResult)
        let tolerantLint = try PayloadValidator(schema: schema, version: 2).validate(Array(body.utf8))
        #expect(tolerantLint.state == tolerantResult.state)
        #expect(tolerantLint.diagnostics.map(\.code) == tolerantResult.diagnostics.map(\.code))

        // The encoder writes the string, its portable form, or nothing.
        let encoded = try ContentStateEncoder(schema: schema, version: 2).encode(.object([.init("link", .string(row.string))]))
        switch expected {
        case nil:
            #expect(encoded.succeeded)
            #expect(tolerant.decode(contentState: encoded.bytes).state?["link"] == .string(row.string))
        case .refusedBeforeIOS17(_, _, let portable?):
            #expect(encoded.succeeded, "\(encoded.diagnostics)")
            #expect(encoded.diagnostics.map(\.code) == ["url-made-portable"])
            let written = tolerant.decode(contentState: encoded.bytes)
            #expect(written.state?["link"] == .string(portable))
            #expect(!written.diagnostics.contains { $0.severity > .info })
        default:
            #expect(!encoded.succeeded)
            #expect(encoded.diagnostics.contains { $0.code == "invalid-state" })
        }
    }

    /// A value both too long and not a URL: synthesized `Codable` throws on the URL, whatever
    /// the length, so a strict client drops the push even though the field has a default.
    @Test func aStrictClientDropsAURLThatIsAlsoTooLong() throws {
        let schema = Schema(activity: "links", strictClients: [1], versions: [
            SchemaVersion(version: 1, contentState: [
                Field(name: "link", type: .url, defaultValue: .string("https://example.com/"), constraints: .init(maxLength: 20)),
            ]),
        ])
        let decoder = try ContentStateDecoder(schema: schema, version: 1)
        for link in ["https://example.com/a b c d", "https://example.com/aaaa"] {
            let state = Array(#"{"link":"\#(link)"}"#.utf8)
            let result = decoder.decode(contentState: state)
            #expect(result.appDecodes == !link.contains(" "), "\(link)")
            #expect(decoder.decodeInFull(contentState: state) == result)
            let body = #"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"link":"\#(link)"}}}"#
            #expect(try PayloadValidator(schema: schema, version: 1).validate(Array(body.utf8)).appDecodes == result.appDecodes)
        }
    }

    @Test func aStrictClientOnIOS16DropsWhatIOS17Encodes() throws {
        let state = Array(#"{"link":"https://example.com/a b"}"#.utf8)
        let old = try ContentStateDecoder(schema: Self.schema(minIOS: .liveActivities), version: 1).decode(contentState: state)
        #expect(!old.appDecodes)
        let error = try #require(old.allDiagnostics.first { $0.severity == .error })
        #expect(error.code == "wrong-type")
        #expect(error.pointer == "/link")
        #expect(error.position?.column == 9)
        #expect(error.message.contains("refuses a space at byte 21"))
        #expect(error.message.contains("synthesized Codable"))
        let new = try ContentStateDecoder(schema: Self.schema(minIOS: .rfc3986URLs), version: 1).decode(contentState: state)
        #expect(new.appDecodes)
        #expect(new.allDiagnostics.isEmpty)
    }
}

/// The encoder makes a URL portable wherever it is in the state (an object's member, an
/// array's element), and notes each with its place.
@Suite struct NestedPortableURLTests {
    @Test func nestedURLsAreMadePortableAndNotedWhereTheyAre() throws {
        let schema = Schema(activity: "links", versions: [
            SchemaVersion(version: 1, contentState: [
                Field(name: "card", type: .object(fields: [Field(name: "link", type: .url), Field(name: "title", type: .string, defaultValue: .string(""))])),
                Field(name: "links", type: .array(items: Field(name: "", type: .url))),
            ]),
        ], minIOS: .liveActivities)
        let state: Value = .object([
            .init("card", .object([.init("link", .string("https://example.com/a b"))])),
            .init("links", .array([.string("https://example.com/x"), .string("https://example.com/{id}")])),
        ])
        let encoded = try ContentStateEncoder(schema: schema).encode(state)
        #expect(encoded.succeeded, "\(encoded.diagnostics)")
        #expect(encoded.diagnostics.map(\.code) == ["url-made-portable", "url-made-portable"])
        #expect(encoded.diagnostics.map(\.pointer) == ["/card/link", "/links/1"])
        #expect(encoded.diagnostics.first?.message
            == "'https://example.com/a b' is written 'https://example.com/a%20b': iOS 16 (min-ios 16.1) refuses a space in a URL, and iOS 17 and later read both as one URL")
        let written = try ContentStateDecoder(schema: schema).decode(contentState: encoded.bytes)
        #expect(written.state == .object([
            .init("card", .object([.init("link", .string("https://example.com/a%20b")), .init("title", .string(""))])),
            .init("links", .array([.string("https://example.com/x"), .string("https://example.com/%7Bid%7D")])),
        ]))
        #expect(!written.diagnostics.contains { $0.severity > .info })
        // From a state file, each is placed where the file holds the URL (it had no line).
        let file = "{\n  \"card\": {\"link\": \"https://example.com/a b\"},\n  \"links\": [\"https://example.com/x\", \"https://example.com/{id}\"]\n}"
        let fromFile = try ContentStateEncoder(schema: schema).encode(stateJSON: Array(file.utf8), file: "state.json")
        #expect(fromFile.diagnostics.map { "\($0.file ?? "-"):\($0.position?.line ?? 0):\($0.position?.column ?? 0)" }
            == ["state.json:2:20", "state.json:3:38"], "\(fromFile.diagnostics)")
    }

    /// A URL that iOS 16 reads and iOS 17 refuses has no form both read: the encoder refuses
    /// it, in the words `decode` gives it (iOS 16 reads it), not as "not a URL" on any iOS.
    @Test func aURLOnlyIOS16ReadsIsRefusedInDecodesWords() throws {
        let schema = Schema(activity: "links", versions: [
            SchemaVersion(version: 1, contentState: [Field(name: "link", type: .url, defaultValue: .string("https://example.com/"))]),
        ], minIOS: .liveActivities)
        let state = Array(#"{"link":"my_app://x"}"#.utf8)
        let encoded = try ContentStateEncoder(schema: schema).encode(stateJSON: state, file: "state.json")
        #expect(!encoded.succeeded)
        let error = try #require(encoded.diagnostics.first { $0.severity == .error }, "\(encoded.diagnostics)")
        #expect(error.message.hasPrefix("'my_app://x' \(URLRule.iOS17Only) (min-ios 16.1): URL(string:) there parses by RFC 3986, which refuses it; iOS 16 reads it"),
                "\(error.message)")
        #expect(error.pointer == "/link")
        let decoded = try ContentStateDecoder(schema: schema).decode(contentState: state)
        let finding = try #require(decoded.diagnostics.first { $0.pointer == "/link" })
        #expect(error.message.hasPrefix(finding.message), "the encoder says what decode says, and why nothing is written")
        // From iOS 17 on, no device reads it.
        var modern = schema
        modern.minIOS = .rfc3986URLs
        let refused = try ContentStateEncoder(schema: modern).encode(stateJSON: state)
        #expect(refused.diagnostics.first { $0.severity == .error }?.message.hasPrefix("'my_app://x' is not a URL: URL(string:) parses by RFC 3986") == true,
                "\(refused.diagnostics)")
    }

    /// A host's characters are IDNA-encoded from iOS 17 on, a path's percent-encoded: the
    /// message says which; and a written form is shown whole, never cut inside an escape.
    @Test func aHostIsSaidToBeIDNAEncodedAndAWrittenFormIsShownWhole() throws {
        let rule = URLRule(minIOS: .liveActivities)
        let host = "https://例子.com/a"
        #expect(rule.problem(host).map { rule.message($0, in: host) }?.contains("at byte 8, which iOS 17 and later IDNA-encode; send 'https://xn--fsqu00a.com/a'") == true)
        let path = "https://example.com/路径"
        #expect(rule.problem(path).map { rule.message($0, in: path) }?.contains("which iOS 17 and later percent-encode; send") == true)
        // The host as RFC 3986 finds it: not user info, not a `://` in a query; a port is not
        // in it, an IPv6 literal is.
        for (string, encoding) in [
            ("https://ü@a.com/", "percent-encode"), ("myapp:open?u=https://例.com/", "percent-encode"),
            ("https://例子.com:8080/", "IDNA-encode"), ("https://a.com:8080/é", "percent-encode"),
        ] {
            let message = rule.problem(string).map { rule.message($0, in: string) }
            #expect(message?.contains("which iOS 17 and later \(encoding)") == true, "\(string): \(message ?? "")")
        }

        let schema = Schema(activity: "links", versions: [SchemaVersion(version: 1, contentState: [Field(name: "link", type: .url)])], minIOS: .liveActivities)
        let long = "https://例子.com/" + String(repeating: "路径", count: 5)
        let encoded = try ContentStateEncoder(schema: schema).encode(.object([.init("link", .string(long))]))
        let written = try #require(String(decoding: encoded.bytes, as: UTF8.self).split(separator: "\"").dropFirst(3).first)
        #expect(encoded.diagnostics.first?.message.contains("is written '\(written)'") == true, "\(encoded.diagnostics)")
    }
}

/// What shows as nothing or as another space is named by its code point, in a URL message and in
/// generated Swift alike (`ValueText.isUnseen`, one rule).
@Suite struct UnseenCharacterTests {
    @Test func aNoBreakSpaceIsNamedInMessagesAndInGeneratedSwift() {
        #expect(ValueText.isUnseen("\u{A0}"))
        #expect(ValueText.isUnseen("\u{200B}"))
        #expect(ValueText.isUnseen("\u{1B}"))
        #expect(!ValueText.isUnseen(" "))
        #expect(!ValueText.isUnseen("é"))
        #expect(SwiftLiteral.string("a\u{A0}b\u{200D}c d") == #""a\u{A0}b\u{200D}c d""#)
    }
}

/// A URL within its `max-length` as given, but over it once percent-encoded for iOS 16, is
/// refused in words that say so: the message quoted the encoded length alone, longer than
/// anything in the state (the encoder audit's L1).
@Suite struct PortableURLLengthTests {
    @Test func aURLOverItsBoundOncePercentEncodedIsRefusedSayingSo() throws {
        let schema = Schema(activity: "links", versions: [
            SchemaVersion(version: 1, contentState: [Field(name: "link", type: .url, constraints: .init(maxLength: 20))]),
        ], minIOS: .liveActivities)
        let given = "https://x.com/a b c"
        #expect(given.utf8.count == 19)
        let encoded = try ContentStateEncoder(schema: schema).encode(.object([.init("link", .string(given))]))
        #expect(!encoded.succeeded)
        #expect(encoded.diagnostics.first?.message.hasSuffix(
            "23 bytes is longer than max-length 20 once percent-encoded, the form iOS 16 reads (it refuses the URL as given)") == true,
                "\(encoded.diagnostics)")
        let fits = try ContentStateEncoder(schema: schema).encode(.object([.init("link", .string("https://x.com/a b"))]))
        #expect(fits.succeeded && fits.diagnostics.map(\.code) == ["url-made-portable"])
    }
}
