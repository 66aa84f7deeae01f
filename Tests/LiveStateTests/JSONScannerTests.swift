import Foundation
import LiveStateTestSupport
import Testing
@_spi(Scanner) @testable import LiveState

@Suite struct JSONScannerTests {
    /// The writer's short escapes (`EscapeScan.shortEscape`) and the reader's
    /// (`JSONReader.shortUnescape`) are each other's way back, and the reader reads back every
    /// byte the writer writes with one.
    @Test func shortEscapesGoBothWays() throws {
        var escaped = 0
        for byte in UInt8(0) ... 0x7F {
            guard let letter = EscapeScan.shortEscape(byte) else { continue }
            escaped += 1
            #expect(JSONReader.shortUnescape(letter) == UInt32(byte), "\\\(Character(Unicode.Scalar(letter))) for \(byte)")
            let json: [UInt8] = [UInt8(ascii: "\""), UInt8(ascii: "\\"), letter, UInt8(ascii: "\"")]
            try json.withUnsafeBytes { buffer in
                var reader = try JSONReader(bytes: buffer)
                #expect(reader.string(try reader.readString()).utf8.elementsEqual([byte]))
            }
        }
        #expect(escaped == 7)
        #expect(JSONReader.shortUnescape(UInt8(ascii: "/")) == UInt32(UInt8(ascii: "/")))
    }

    // MARK: - Helpers

    /// Runs `body` on a reader over `bytes`; returns its result or the `JSONError` it threw.
    func read<T>(
        _ bytes: [UInt8], options: JSONScanOptions = .init(),
        _ body: (inout JSONReader) throws(JSONError) -> T
    ) -> Result<T, JSONError> {
        bytes.withUnsafeBytes { buffer -> Result<T, JSONError> in
            do throws(JSONError) {
                var reader = try JSONReader(bytes: buffer, options: options)
                return .success(try body(&reader))
            } catch {
                return .failure(error)
            }
        }
    }

    func read<T>(
        _ text: String, options: JSONScanOptions = .init(),
        _ body: (inout JSONReader) throws(JSONError) -> T
    ) -> Result<T, JSONError> {
        read(Array(text.utf8), options: options, body)
    }

    /// The error `JSONValidator` throws for `bytes`, or `nil`.
    func validationError(_ bytes: [UInt8], options: JSONScanOptions = .init()) -> JSONError? {
        bytes.withUnsafeBytes { buffer -> JSONError? in
            do throws(JSONError) {
                _ = try JSONValidator.validate(buffer, options: options)
                return nil
            } catch {
                return error
            }
        }
    }

    func validationError(_ text: String, options: JSONScanOptions = .init()) -> JSONError? {
        validationError(Array(text.utf8), options: options)
    }

    /// The error from `peek()` + `skipValue()` + `finish()`, or `nil`.
    func skipError(_ bytes: [UInt8], options: JSONScanOptions = .init()) -> JSONError? {
        let result = read(bytes, options: options) { (reader: inout JSONReader) throws(JSONError) in
            _ = try reader.peek()
            try reader.skipValue()
            try reader.finish()
        }
        if case .failure(let error) = result { return error }
        return nil
    }

    /// The `double(_:)` of a number text read by the reader.
    func double(_ text: String) throws -> Double {
        try read(text) { (reader: inout JSONReader) throws(JSONError) in
            let number = try reader.readNumber()
            try reader.finish()
            return reader.double(number)
        }.get()
    }

    func integer(_ text: String) throws -> Int? {
        try read(text) { (reader: inout JSONReader) throws(JSONError) in
            let number = try reader.readNumber()
            try reader.finish()
            return reader.integer(number)
        }.get()
    }

    // MARK: - Pull protocol

    /// `JSONValidator.firstError` finds the error the validator and the skip find, and names
    /// the innermost member or element it is in; an error in a container's own syntax (a key,
    /// a comma, a colon) is the container's.
    @Test func firstErrorNamesTheValueItIsIn() {
        let cases: [(text: String, pointer: String?)] = [
            (#"{"a":{"b":tru}}"#, "/a/b"),
            (#"{"a":[1,2,]}"#, "/a"),
            (#"{"a":[1,{"b" 1}]}"#, "/a/1"),
            (#"{"a":[1,{"b":1}],"c":"x\u12"}"#, "/c"),
            (#"{"a~/b":[tru]}"#, "/a~0~1b/0"),
            (#"{"a":1,}"#, ""),
            (#"{"a\x":1}"#, ""),
            (#"{"a":1} x"#, ""),
            ("[", ""),
            ("", ""),
            ("[[[1]]", ""),
            (#"{"a":[[[1]]}"#, "/a"),
            (#"{"a":1,"a":2}"#, nil),
            (#"{"a":[1,{"b":null}]}"#, nil),
        ]
        for (text, pointer) in cases {
            let found = Array(text.utf8).withUnsafeBytes { JSONValidator.firstError(in: $0, options: .init()) }
            #expect(found?.pointer == pointer, "\(text)")
            #expect(found?.error == validationError(text, options: .init(duplicateKeys: .ignore)), "\(text)")
            #expect(found?.error == skipError(Array(text.utf8)), "\(text)")
        }
        // Limits: the input's size, before anything is read; the depth, where it is passed.
        let big = Array(#"{"a":1}"#.utf8).withUnsafeBytes { JSONValidator.firstError(in: $0, options: .init(maxInputBytes: 4)) }
        #expect(big?.error.code == .jsonLimit)
        #expect(big?.pointer == "")
        let deep = Array(("{\"a\":" + String(repeating: "[", count: 100_000)).utf8)
        let tooDeep = deep.withUnsafeBytes { JSONValidator.firstError(in: $0, options: .init()) }
        #expect(tooDeep?.error.code == .jsonLimit)
        #expect(tooDeep?.pointer == "/a" + String(repeating: "/0", count: 63))
    }

    @Test func walksWorkedExampleFromReaderComment() throws {
        let document = #"{"id": 7, "tags": ["a", "b"]}"#
        let steps = try read(document) { (reader: inout JSONReader) throws(JSONError) -> [String] in
            var log: [String] = []
            func note(_ what: String) { log.append("\(what) \(reader.offset) \(reader.depth)") }
            _ = try reader.peek()
            note("peek")
            try reader.beginObject()
            note("beginObject")
            let id = try reader.nextKey()
            note("nextKey \(id.map { reader.string($0) } ?? "nil") \(id.map { "\($0.start)..<\($0.end)" } ?? "")")
            let token = try reader.peek()
            note("peek \(token)")
            let number = try reader.readNumber()
            note("readNumber \(number.start)..<\(number.end) \(reader.integer(number) ?? -1)")
            let tags = try reader.nextKey()
            note("nextKey \(tags.map { reader.string($0) } ?? "nil") \(tags.map { "\($0.start)..<\($0.end)" } ?? "")")
            try reader.beginArray()
            note("beginArray")
            let first = try reader.nextElement()
            note("nextElement \(first)")
            let a = try reader.readString()
            note("readString \(a.start)..<\(a.end) \(reader.string(a))")
            let second = try reader.nextElement()
            note("nextElement \(second)")
            let b = try reader.readString()
            note("readString \(b.start)..<\(b.end) \(reader.string(b))")
            let third = try reader.nextElement()
            note("nextElement \(third)")
            let end = try reader.nextKey()
            note("nextKey \(end.map { reader.string($0) } ?? "nil")")
            try reader.finish()
            note("finish")
            return log
        }.get()
        #expect(steps == [
            "peek 0 0",
            "beginObject 1 1",
            "nextKey id 2..<4 6 1",
            "peek number 7 1",
            "readNumber 7..<8 7 8 1",
            "nextKey tags 11..<15 17 1",
            "beginArray 19 2",
            "nextElement true 19 2",
            "readString 20..<21 a 22 2",
            "nextElement true 24 2",
            "readString 25..<26 b 27 2",
            "nextElement false 28 1",
            "nextKey nil 29 0",
            "finish 29 0",
        ])
    }

    @Test func peekClassifiesEveryKindOfValue() throws {
        let cases: [(String, JSONToken)] = [
            ("{}", .objectStart), ("[]", .arrayStart), (#""s""#, .string), ("-1", .number), ("0", .number),
            ("9", .number), ("true", .true), ("false", .false), ("null", .null), (" \n\t\r1", .number),
        ]
        for (text, token) in cases {
            #expect(try read(text) { (reader: inout JSONReader) throws(JSONError) in try reader.peek() }.get() == token)
        }
    }

    @Test func readsScalarsAtTopLevel() throws {
        let values = try read(#" [true, false, null, "x", 12] "#) { (reader: inout JSONReader) throws(JSONError) in
            try reader.beginArray()
            var out: [String] = []
            while try reader.nextElement() {
                switch try reader.peek() {
                case .true, .false: out.append("\(try reader.readBool())")
                case .null:
                    try reader.readNull()
                    out.append("null")
                case .string: out.append(reader.string(try reader.readString()))
                case .number: out.append("\(reader.integer(try reader.readNumber()) ?? 0)")
                default: try reader.skipValue()
                }
            }
            try reader.finish()
            return out
        }.get()
        #expect(values == ["true", "false", "null", "x", "12"])
    }

    @Test func rejectsTrailingCommaInObject() {
        let result = read(#"{"a":1,}"#) { (reader: inout JSONReader) throws(JSONError) in
            try reader.beginObject()
            _ = try reader.nextKey()
            _ = try reader.readNumber()
            _ = try reader.nextKey()
        }
        guard case .failure(let error) = result else {
            Issue.record("accepted a trailing comma")
            return
        }
        #expect(error.code == .jsonSyntax)
        #expect(error.message == "trailing comma: expected a string key after ',', found '}'")
        #expect(error.position == SourcePosition(offset: 7, line: 1, column: 8))
    }

    @Test func rejectsTrailingCommaInArray() {
        let result = read("[1,\n]") { (reader: inout JSONReader) throws(JSONError) in
            try reader.beginArray()
            _ = try reader.nextElement()
            _ = try reader.readNumber()
            _ = try reader.nextElement()
        }
        guard case .failure(let error) = result else {
            Issue.record("accepted a trailing comma")
            return
        }
        #expect(error.message.contains("trailing comma"))
        #expect(error.position == SourcePosition(offset: 4, line: 2, column: 1))
    }

    @Test func skipValuePassesOverOneValueAndStopsAfterIt() throws {
        let rest = try read(#"[{"a":[1,{"b":"}"}],"c":[]}, 2]"#) { (reader: inout JSONReader) throws(JSONError) in
            try reader.beginArray()
            _ = try reader.nextElement()
            try reader.skipValue()
            #expect(reader.depth == 1)
            _ = try reader.nextElement()
            let number = try reader.readNumber()
            _ = try reader.nextElement()
            try reader.finish()
            return reader.integer(number)
        }.get()
        #expect(rest == 2)
    }

    @Test func skipValueCountsContainersAlreadyOpen() {
        let options = JSONScanOptions(maxDepth: 3)
        let accepted = read("[[[ ]]]", options: options) { (reader: inout JSONReader) throws(JSONError) in
            try reader.beginArray()
            _ = try reader.nextElement()
            try reader.skipValue()
        }
        #expect((try? accepted.get()) != nil)
        let rejected = read("[[[[]]]]", options: options) { (reader: inout JSONReader) throws(JSONError) in
            try reader.beginArray()
            _ = try reader.nextElement()
            try reader.skipValue()
        }
        guard case .failure(let error) = rejected else {
            Issue.record("skipValue ignored the open array")
            return
        }
        #expect(error.code == .jsonLimit)
        #expect(error.position.offset == 3)
    }

    @Test func skipValueHandlesNestingPast64WhenAllowed() {
        let options = JSONScanOptions(maxDepth: 300)
        let deep = String(repeating: #"{"k":["#, count: 140) + "1" + String(repeating: "]}", count: 140)
        #expect(skipError(Array(deep.utf8), options: options) == nil)
        #expect(validationError(deep, options: options) == nil)
        let mismatched = String(repeating: #"{"k":["#, count: 140) + "1" + String(repeating: "}]", count: 140)
        #expect(skipError(Array(mismatched.utf8), options: options)?.code == .jsonSyntax)
    }

    @Test func finishRejectsDataAfterTheTopLevelValue() {
        #expect(validationError("{} x")?.message == "expected the end of input after the top-level value, found 'x'")
        #expect(validationError("1 2")?.position.column == 3)
        #expect(validationError("[1] \n \t")?.message == nil)
    }

    // MARK: - Errors and positions

    @Test func reportsLineAndColumnAfterMultiLineInput() throws {
        let error = try #require(validationError("{\n  \"a\": [1, 2],\n  \"b\": tru\n}"))
        #expect(error.position.line == 3)
        #expect(error.position.column == 11)
        #expect(error.message == "invalid literal: expected 'true', found byte 0x0A")
        #expect(error.description == "3:11: error: \(error.message) [json-syntax]")
    }

    @Test func countsColumnsInUTF8BytesAfterMultiByteCharacters() throws {
        // "é" is 2 bytes, "€" 3, "😀" 4: 'x' is at byte offset 1 + (1+2+3+4+1) + 2 = 14.
        let error = try #require(validationError("[\"é€😀\", x]"))
        #expect(error.position == SourcePosition(offset: 14, line: 1, column: 15))
        let second = try #require(validationError("[\n\"😀\",\n\"é\" 1]"))
        #expect(second.position == SourcePosition(offset: 15, line: 3, column: 6))
    }

    @Test func errorMessagesNameWhatWasFoundAndExpected() {
        #expect(validationError(#"{"a":1 x}"#)?.message == "expected ',' or '}' after an object member, found 'x'")
        #expect(validationError("[1 2]")?.message == "expected ',' or ']' after an array element, found '2'")
        #expect(validationError("{1:2}")?.message == "expected a string key or '}' after '{', found '1'")
        #expect(validationError(#"{"a" 1}"#)?.message == "expected ':' after an object key, found '1'")
        #expect(validationError("[")?.message == "expected a value or ']' after '[', found end of input")
        #expect(validationError("[\u{7}]")?.message == "expected a value, found byte 0x07")
        #expect(validationError(#"["abc"#)?.message == "unterminated string")
        #expect(validationError(#"["\q"]"#)?.message == #"invalid escape: expected one of " \ / b f n r t u after '\', found 'q'"#)
        #expect(validationError("[01]")?.message == "leading zeros are not allowed in a number, found '1' after '0'")
        #expect(validationError("[1.]")?.message == "expected a digit after '.' in a number, found ']'")
        #expect(validationError("[1e+]")?.message == "expected a digit in the exponent of a number, found ']'")
        #expect(validationError("[-x]")?.message == "expected a digit after '-', found 'x'")
        #expect(validationError("[0x1]")?.message == "invalid number: unexpected 'x' after it")
        #expect(validationError("[nulL]")?.message == "invalid literal: expected 'null', found 'L'")
        #expect(validationError("")?.message == "empty input")
        #expect(validationError("  \n ")?.message == "empty input")
        #expect(validationError("[1,")?.message == "expected a value after ',', found end of input")
    }

    @Test func rejectsByteOrderMarkClearly() throws {
        let error = try #require(validationError([0xEF, 0xBB, 0xBF] + Array("{}".utf8)))
        #expect(error.code == .jsonSyntax)
        #expect(error.message == "byte order mark is not allowed")
        #expect(error.position == SourcePosition(offset: 0, line: 1, column: 1))
    }

    /// UTF-16, as Windows tools write it, is named, with or without a byte order mark: the
    /// message named only a stray byte (found by the hostile-input sweep).
    static let littleEndian: [UInt8] = [0x7B, 0x00, 0x7D, 0x00]  // {} in UTF-16LE
    static let bigEndian: [UInt8] = [0x00, 0x7B, 0x00, 0x7D]

    @Test(arguments: [
        (littleEndian, 1, "little-endian, a zero byte after each ASCII character"),
        ([0xFF, 0xFE] + littleEndian, 0, "little-endian, byte order mark FF FE"),
        ([0xFE, 0xFF] + bigEndian, 0, "big-endian, byte order mark FE FF"),
        (bigEndian, 0, "big-endian, a zero byte before each ASCII character"),
    ] as [([UInt8], Int, String)])
    func namesUTF16(_ bytes: [UInt8], _ offset: Int, _ how: String) throws {
        let error = try #require(validationError(bytes))
        #expect(error.position.offset == offset)
        #expect(error.message.hasSuffix("; the text is UTF-16 (\(how)), not UTF-8: convert it (iconv -f UTF-16 -t UTF-8)"), "\(error.message)")
        // A zero byte later on is only a stray byte.
        #expect(validationError(Array(#"{"a":"#.utf8) + [0, 0])?.message.contains("UTF-16") == false)
    }

    /// One zero byte before UTF-8 JSON, or after its first character, is a stray byte: the next
    /// code unit is not an ASCII character's in UTF-16.
    @Test func aLoneZeroByteBeforeUTF8IsNotUTF16() throws {
        for bytes in [[0] + Array(#"{"aps":{}}"#.utf8), [0x7B, 0x00] + Array(#""aps":{}}"#.utf8)] {
            let error = try #require(validationError(bytes))
            #expect(!error.message.contains("UTF-16"), "\(error.message)")
        }
    }

    @Test func rejectsTruncatedDocumentAtEveryByte() {
        let sample = Array("""
            {"title": "Zoë \\u00e0 \\ud83d\\ude00", "n": [-12.5e+3, 0, true, false, null],
             "nested": {"a": [{}, []], "b": "x"}}
            """.utf8)
        #expect(validationError(sample) == nil)
        for length in 0 ..< sample.count {
            let prefix = Array(sample[..<length])
            let error = validationError(prefix)
            #expect(error?.code == .jsonSyntax, "prefix of \(length) bytes")
            #expect(skipError(prefix) == error, "prefix of \(length) bytes")
            if let error { #expect(error.position.offset <= length) }
        }
    }

    @Test func rejectsInvalidUTF8Samples() throws {
        let samples: [([UInt8], String)] = [
            ([0xC0, 0x80], "overlong"),
            ([0xE0, 0x80, 0x80], "overlong"),
            ([0xF0, 0x8F, 0xBF, 0xBF], "overlong"),
            ([0xED, 0xA0, 0x80], "encoded surrogate"),
            ([0xF4, 0x90, 0x80, 0x80], "beyond U+10FFFF"),
            ([0x80], "unexpected continuation byte 0x80"),
            ([0xBF], "unexpected continuation byte 0xBF"),
            ([0xE2, 0x82], "expected a continuation byte after 0xE2, found '\"'"),
            ([0xC3, 0x41], "expected a continuation byte after 0xC3, found 'A'"),
            ([0xF8, 0x88, 0x80, 0x80, 0x80], "never occurs in UTF-8"),
            ([0xFE], "never occurs in UTF-8"),
        ]
        for (sequence, message) in samples {
            let document = Array("[\"ab".utf8) + sequence + Array("\"]".utf8)
            let error = try #require(validationError(document), "\(sequence)")
            #expect(error.message.hasPrefix("invalid UTF-8"), "\(sequence): \(error)")
            #expect(error.message.contains(message), "\(sequence): \(error)")
            #expect(error.position.offset == 4, "\(sequence): \(error)")
        }
        let truncated = try #require(validationError(Array("\"ab".utf8) + [0xF0, 0x9F]))
        #expect(truncated.message == "invalid UTF-8: truncated sequence at the end of input")
        // Valid sequences at every length boundary are accepted.
        for scalar in ["\u{7F}", "\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}"] {
            #expect(validationError("\"\(scalar)\"") == nil, "\(scalar.unicodeScalars.first?.value ?? 0)")
        }
    }

    @Test func rejectsLoneSurrogateEscapes() throws {
        let lone = [#""\uD800""#, #""\uDBFF x""#, #""\uDC00""#, #""\uDFFF\uD800""#, #""\uD800\uD800""#,
                    #""\uD800\u0041""#, #""\uD800\n""#, #""a\ud834""#]
        for text in lone {
            let error = try #require(validationError(text), "\(text)")
            #expect(error.message.hasPrefix("lone surrogate"), "\(text): \(error)")
        }
        #expect(validationError(#""\uD800\uDG00""#)?.message == "invalid \\u escape: expected 4 hex digits, found 'G'")
        #expect(validationError(#""\uD834\uDD1E""#) == nil)
    }

    @Test func rejectsRawControlCharactersInStrings() throws {
        for byte in UInt8(0) ..< 0x20 {
            let error = try #require(validationError([0x22, byte, 0x22]))
            #expect(error.message.hasPrefix("control character"))
        }
        #expect(validationError([0x22, 0x7F, 0x22]) == nil)
    }

    // MARK: - Limits

    @Test func acceptsDepth64AndRejectsDepth65() throws {
        for (open, close) in [("[", "]"), (#"{"k":"#, "}")] {
            let inner = open == "[" ? "" : "0"
            let at64 = String(repeating: open, count: 64) + inner + String(repeating: close, count: 64)
            let at65 = String(repeating: open, count: 65) + inner + String(repeating: close, count: 65)
            #expect(validationError(at64) == nil)
            #expect(skipError(Array(at64.utf8)) == nil)
            let error = try #require(validationError(at65))
            #expect(error.code == .jsonLimit)
            #expect(error.code == "json-limit")
            #expect(error.message == "nesting deeper than 64, the most LiveState reads (Foundation's JSONDecoder reads 512 levels)")
            #expect(error.position.offset == 64 * open.utf8.count)
            #expect(skipError(Array(at65.utf8)) == error)
        }
        #expect(validationError("[[[]]]", options: .init(maxDepth: 2))?.message.hasPrefix("nesting deeper than 2, the most LiveState reads") == true)
    }

    @Test func rejects100000OpenBracketsWithDepthLimitError() throws {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        let error = try #require(validationError(bytes))
        #expect(error.code == .jsonLimit)
        #expect(error.message.contains("64"))
        #expect(error.position == SourcePosition(offset: 64, line: 1, column: 65))
        #expect(skipError(bytes) == error)
    }

    @Test func rejects100000NestedObjectsWithDepthLimitError() throws {
        let bytes = Array(String(repeating: #"{"a":"#, count: 100_000).utf8)
        let error = try #require(validationError(bytes))
        #expect(error.code == .jsonLimit)
        #expect(error.message.contains("64"))
        #expect(error.position == SourcePosition(offset: 320, line: 1, column: 321))
        #expect(skipError(bytes) == error)
    }

    @Test func rejectsInputLargerThanLimitAtOffsetZero() throws {
        let bytes = Array("[1, 2, 3]".utf8)
        let error = try #require(validationError(bytes, options: .init(maxInputBytes: 8)))
        #expect(error.code == .jsonLimit)
        #expect(error.message == "input is larger than the limit of 8 bytes")
        #expect(error.position == SourcePosition(offset: 0, line: 1, column: 1))
        #expect(validationError(bytes, options: .init(maxInputBytes: 9)) == nil)
        #expect(validationError([UInt8](repeating: 0x20, count: (1 << 20) + 1))?.code == .jsonLimit)
    }

    @Test func accepts10MBStringWithRaisedInputLimit() throws {
        let length = 10_000_000
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length + 2)
        bytes[0] = 0x22
        bytes[length + 1] = 0x22
        for index in stride(from: 1, to: length, by: 1_000_003) { bytes[index] = UInt8(ascii: "Z") }
        let options = JSONScanOptions(maxInputBytes: 16 << 20)
        let token = try read(bytes, options: options) { (reader: inout JSONReader) throws(JSONError) in
            let token = try reader.readString()
            try reader.finish()
            #expect(reader.utf8Count(token) == length)
            return token
        }.get()
        #expect(token == JSONString(start: 1, end: length + 1, hasEscapes: false))
        #expect(validationError(bytes, options: options) == nil)
        #expect(validationError(bytes)?.code == .jsonLimit)
    }

    // MARK: - Strings

    @Test func matchesAndCountsEscapedKeysWithoutUnescapingFirst() throws {
        let document = #"{"\u0061b": 1, "q\"\\\/\b\f\n\r\t": 2, "\ud83d\ude00\u00e9": 3, "plain": 4}"#
        let keys = try read(document) { (reader: inout JSONReader) throws(JSONError) -> [JSONString] in
            try reader.beginObject()
            var keys: [JSONString] = []
            while let key = try reader.nextKey() {
                keys.append(key)
                try reader.skipValue()
            }
            return keys
        }.get()
        try #require(keys.count == 4)
        Array(document.utf8).withUnsafeBytes { buffer in
            guard let reader = try? JSONReader(bytes: buffer) else { return }
            func matches(_ key: JSONString, _ text: String) -> Bool {
                Array(text.utf8).withUnsafeBytes { reader.matches(key, $0) }
            }
            #expect(keys[0].hasEscapes)
            #expect(matches(keys[0], "ab"))
            #expect(!matches(keys[0], "a"))
            #expect(!matches(keys[0], "abc"))
            #expect(!matches(keys[0], "ac"))
            #expect(!matches(keys[0], ""))
            #expect(reader.utf8Count(keys[0]) == 2)
            #expect(reader.string(keys[0]) == "ab")

            #expect(matches(keys[1], "q\"\\/\u{8}\u{C}\n\r\t"))
            #expect(reader.utf8Count(keys[1]) == 9)
            #expect(reader.string(keys[1]) == "q\"\\/\u{8}\u{C}\n\r\t")

            #expect(matches(keys[2], "😀é"))
            #expect(!matches(keys[2], "😀e"))
            #expect(reader.utf8Count(keys[2]) == 6)
            #expect(reader.string(keys[2]) == "😀é")

            #expect(!keys[3].hasEscapes)
            #expect(matches(keys[3], "plain"))
            #expect(!matches(keys[3], "plaiN"))
            #expect(reader.utf8Count(keys[3]) == 5)
            #expect(reader.string(keys[3]) == "plain")
        }
    }

    @Test func unescapesEveryEscapeToTheSameStringAsFoundation() throws {
        let text = #"["\u0000\u001f \u007f\u0080\u07ff\u0800\uffff\ud800\udc00\udbff\udfff / \/ A\u0041"]"#
        let ours = try read(text) { (reader: inout JSONReader) throws(JSONError) in
            try reader.beginArray()
            _ = try reader.nextElement()
            return reader.string(try reader.readString())
        }.get()
        let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String]
        #expect(foundation == [ours])
        #expect(ours.utf8.count == 1 + 1 + 1 + 1 + 2 + 2 + 3 + 3 + 4 + 4 + 5 + 2)
    }

    /// Whether a `String` keeps its bytes inline, with no heap storage: on 64-bit platforms, the
    /// small-string bit of the discriminator in the top byte of its second word.
    static func isStoredInline(_ string: String) -> Bool {
        unsafeBitCast(string, to: (UInt64, UInt64).self).1 >> 61 & 1 == 1
    }

    @Test func shortValuesOfLongEscapedTokensAreStoredInline() throws {
        // The check itself: a made string of 15 bytes is inline, one of 16 is not.
        #expect(Self.isStoredInline(String(decoding: Array("0123456789abcde".utf8), as: UTF8.self)))
        #expect(!Self.isStoredInline(String(decoding: Array("0123456789abcdef".utf8), as: UTF8.self)))
        // Values of 0 to 24 bytes, each character written raw or escaped at random, so that the
        // escaped tokens run from 0 to well past 90 bytes.
        let characters: [(value: String, escapes: [String])] = [
            ("a", ["a", #"\u0061"#, #"\u0061"#]), ("é", ["é", #"\u00e9"#, #"\u00E9"#]), ("€", ["€", #"\u20ac"#]),
            ("😀", ["😀", #"\ud83d\ude00"#]), ("\n", [#"\n"#, #"\u000a"#]), ("\"", [#"\""#, #"\u0022"#]), ("/", ["/", #"\/"#]),
        ]
        var random = SplitMix64(state: 0xE5CA9E)
        var checked = (inline: 0, longTokens: 0)
        for _ in 0..<3_000 {
            var value = ""
            var escaped = ""
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                let character = characters.randomElement(using: &random)!
                guard value.utf8.count + character.value.utf8.count <= 24 else { break }
                value += character.value
                escaped += character.escapes.randomElement(using: &random)!
            }
            let text = "[\"" + escaped + "\"]"
            let ours = try read(text) { (reader: inout JSONReader) throws(JSONError) in
                try reader.beginArray()
                _ = try reader.nextElement()
                return reader.string(try reader.readString())
            }.get()
            #expect(ours == value, "\(text)")
            #expect(Self.isStoredInline(ours) == (value.utf8.count <= 15), "\(text): \(value.utf8.count) bytes")
            if value.utf8.count <= 15 { checked.inline += 1 }
            if escaped.utf8.count > 15 && value.utf8.count <= 15 { checked.longTokens += 1 }
        }
        #expect(checked.inline > 500 && checked.longTokens > 200)
    }

    @Test func toleratesForeignTokensWithoutTrapping() {
        Array(#""a\"#.utf8).withUnsafeBytes { buffer in
            guard let reader = try? JSONReader(bytes: buffer) else { return }
            let bogus = JSONString(start: -5, end: 99, hasEscapes: true)
            _ = reader.string(bogus)
            _ = reader.utf8Count(bogus)
            _ = reader.matches(bogus, UnsafeRawBufferPointer(start: nil, count: 0))
            _ = reader.double(JSONNumber(start: 3, end: 1, isInteger: false))
            _ = reader.integer(JSONNumber(start: 0, end: 100, isInteger: true))
        }
    }

    // MARK: - Duplicate keys

    @Test func reportsDuplicateKeysWithPointerAndPosition() throws {
        let document = Array(#"""
            {"a": {"x~/": 1,
                   "x~/": 2},
             "b": [0, {"k": 1, "\u006b": 2, "k": 3}],
             "a": null}
            """#.utf8)
        let duplicates = try document.withUnsafeBytes { buffer throws(JSONError) in
            try JSONValidator.validate(buffer)
        }
        #expect(duplicates == [
            JSONDuplicateKey(key: "x~/", pointer: "/a/x~0~1", position: SourcePosition(offset: 24, line: 2, column: 8)),
            JSONDuplicateKey(key: "k", pointer: "/b/1/k", position: SourcePosition(offset: 54, line: 3, column: 20)),
            JSONDuplicateKey(key: "k", pointer: "/b/1/k", position: SourcePosition(offset: 67, line: 3, column: 33)),
            JSONDuplicateKey(key: "a", pointer: "/a", position: SourcePosition(offset: 78, line: 4, column: 2)),
        ])
        let rejected = try #require(validationError(document, options: .init(duplicateKeys: .reject)))
        #expect(rejected.code == .jsonSyntax)
        #expect(rejected.message == "duplicate key 'x~/' at /a/x~0~1")
        #expect(rejected.position == SourcePosition(offset: 24, line: 2, column: 8))
        let ignored = try document.withUnsafeBytes { buffer throws(JSONError) in
            try JSONValidator.validate(buffer, options: .init(duplicateKeys: .ignore))
        }
        #expect(ignored.isEmpty)
    }

    // MARK: - Numbers

    @Test func convertsOutOfRangeExponentsToInfinityAndZero() throws {
        #expect(try double("1e400") == .infinity)
        #expect(try double("-1e400") == -.infinity)
        #expect(try double("1e99999999999999999999") == .infinity)
        #expect(try double("1e-400") == 0)
        #expect(try double("1e-400").sign == .plus)
        #expect(try double("-1e-99999999999999999999").sign == .minus)
        #expect(try double("0e99999999999999") == 0)
        #expect(try double("0.000000000000000000000000000000e-99999999999") == 0)
        #expect(try double("123456789e-99999999999999999999999") == 0)
        #expect(try integer("1e99999999999999999999") == nil)
    }

    @Test func keepsTheSignOfNegativeZero() throws {
        #expect(try double("-0").sign == .minus)
        #expect(try double("-0.0e5").sign == .minus)
        #expect(try double("0").sign == .plus)
        #expect(try integer("-0") == 0)
        #expect(try integer("-0.0") == 0)
    }

    @Test func integerParsesPlainDigitsExactlyAtInt64Bounds() throws {
        #expect(try integer("9223372036854775807") == Int.max)
        #expect(try integer("9223372036854775808") == nil)
        #expect(try integer("-9223372036854775808") == Int.min)
        #expect(try integer("-9223372036854775809") == nil)
        #expect(try integer("100000000000000000000000") == nil)
        #expect(try integer("0") == 0)
        #expect(try integer("-42") == -42)
    }

    @Test func integerConvertsIntegralFractionsAndExponentsLikeJSONDecoder() throws {
        #expect(try integer("2.0") == 2)
        #expect(try integer("1e2") == 100)
        #expect(try integer("1E+2") == 100)
        #expect(try integer("-25e-1") == nil)
        #expect(try integer("1.5") == nil)
        #expect(try integer("1e400") == nil)
        #expect(try integer("9.2233720368547758e18") == nil)
        // From 2^53 up, the text's digits, not its Double (-2^63): as JSONDecoder's Decimal path.
        #expect(try integer("-9.2233720368547758e18") == -9_223_372_036_854_775_800)
        #expect(try integer("9007199254740993.5") == 9_007_199_254_740_993)
        #expect(try integer("1e-2") == nil)
        // Foundation's JSONDecoder agrees on these.
        struct Box: Decodable { var value: Int }
        for text in [
            "2.0", "1e2", "-0", "9223372036854775807", "-9223372036854775808", "-9.2233720368547758e18", "9.2233720368547748e18",
            "9007199254740993.0", "9007199254740993.5", "-9007199254740993e0", "4503599627370497.5e1",
        ] {
            let decoded = try? JSONDecoder().decode(Box.self, from: Data(#"{"value":\#(text)}"#.utf8)).value
            #expect(try integer(text) == decoded, "\(text)")
        }
        for text in ["1.5", "9223372036854775808", "-9223372036854775808.0", "9223372036854775807.0"] {
            let decoded = try? JSONDecoder().decode(Box.self, from: Data(#"{"value":\#(text)}"#.utf8)).value
            #expect(decoded == nil, "\(text)")
            #expect(try integer(text) == nil, "\(text)")
        }
    }

    /// `double(_:)` and `Double(String)` must give the same bits.
    func expectSameAsDoubleString(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try #require(Double(text), sourceLocation: sourceLocation)
        let ours = try double(text)
        #expect(ours.bitPattern == expected.bitPattern, "\(text): \(ours) vs \(expected)", sourceLocation: sourceLocation)
    }

    @Test func doubleAgreesWithDoubleStringOnTrickyDecimals() throws {
        let tricky = [
            "0.1", "0.2", "0.3", "1.91", "4.9", "4.35", "2.2250738585072011e-308", "2.2250738585072012e-308",
            "2.2250738585072014e-308", "2.225073858507201136057409796709131975934819546351645648e-308",
            "9007199254740993", "9007199254740992", "9007199254740995", "18014398509481989",
            "1e23", "8.41e21", "5e-324", "4.9406564584124654e-324", "2.4703282292062327e-324",
            "2.4703282292062328e-324", "2.4703282292062327208828439643411068618252990130716238221279284125033775364e-324",
            "1e-323", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
            "1.797693134862315807e308", "179769313486231580793728971405301e276", "1e-400", "1e308", "1e309",
            "0.30000000000000004", "0.30000000000000004441", "123456789012345678901234567890",
            "3.141592653589793238462643383279502884197", "2.718281828459045", "1e22", "1e-22", "123e-20",
            "7.038531e-26", "1448997445238699", "9.109383701528e-31", "6.02214076e23", "1.5e-323",
            "0.1000000000000000055511151231257827021181583404541015625",
            "0.1000000000000000055511151231257827021181583404541015624",
            "0.1000000000000000055511151231257827021181583404541015626",
            "4503599627370496.5", "4503599627370497.5", "9007199254740993.0000000000000000001",
            "1125899906842624.125", "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.00000000000000011102230246251565404236316680908203126",
            "3.4028234663852886e38", "1.1754943508222875e-38", "-12.5e+3", "-0.0", "100000000000000000000000",
            "2.2204460492503131e-16", "1e-5", "0.000001", "123456.789e3", "1.0e0", "6.103515625e-5",
            "3.0517578125e-05", "72057594037927928", "72057594037927936", "72057594037927945",
            "7.2057594037927945e16", "295147905179352825856", "295147905179352842240",
            "1.23e-320", "2.225073858507201e-308",
        ]
        for text in tricky { try expectSameAsDoubleString(text) }
    }

    @Test func doubleAgreesWithDoubleStringOnRandomDecimals() throws {
        var random = SplitMix64(state: 0x4C69_7665_5374_6174)
        // Random digit strings with random decimal points and exponents.
        for _ in 0 ..< 1500 {
            let digitCount = Int.random(in: 1 ... 45, using: &random)
            var digits = String(Int.random(in: 1 ... 9, using: &random))
            for _ in 1 ..< digitCount { digits.append(String(Int.random(in: 0 ... 9, using: &random))) }
            var text = Bool.random(using: &random) ? "-" : ""
            let point = Int.random(in: 0 ... digitCount, using: &random)
            if point == 0 || point == digitCount {
                text += digits
            } else {
                let index = digits.index(digits.startIndex, offsetBy: point)
                text += String(digits[..<index]) + "." + String(digits[index...])
            }
            if Bool.random(using: &random) {
                text += "e" + String(Int.random(in: -360 ... 330, using: &random))
            }
            try expectSameAsDoubleString(text)
        }
        // Shortest and 17-digit forms of random doubles, including subnormals.
        for _ in 0 ..< 500 {
            let value = Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
            try expectSameAsDoubleString("\(value)".replacingOccurrences(of: "e+", with: "e"))
            try expectSameAsDoubleString(String(format: "%.16e", value))
        }
        // Exact halfway points between neighbouring doubles: ties go to even.
        for _ in 0 ..< 300 {
            let odd = (UInt64(1) << 53) | random.next() & ((UInt64(1) << 53) - 1) | 1
            let shift = UInt64.random(in: 0 ... 10, using: &random)
            try expectSameAsDoubleString(String(odd << shift))
            try expectSameAsDoubleString(String(odd << shift) + "e-" + String(Int.random(in: 1 ... 30, using: &random)))
        }
    }

    // MARK: - Robustness

    @Test func neverTrapsOnRandomBytesAndAgreesWithFoundation() {
        var random = SplitMix64(state: 42)
        let alphabet = Array(#"{}[],:"\ -+.eE0123456789tfrulnasux"#.utf8)
            + [0x0A, 0x09, 0xC3, 0xA9, 0xED, 0xF0, 0x80, 0x00, 0xEF, 0xBB, 0xBF]
        for _ in 0 ..< 3000 {
            let length = Int.random(in: 0 ... 24, using: &random)
            let bytes = (0 ..< length).map { _ in alphabet[Int.random(in: 0 ..< alphabet.count, using: &random)] }
            let validation = validationError(bytes)
            #expect(skipError(bytes) == validation, "\(bytes)")
            let foundation = (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
            let text = String(decoding: bytes, as: UTF8.self)
            // The documented differences: trailing commas, a byte order mark, NUL bytes (Foundation
            // then guesses UTF-16 or UTF-32), and exponents beyond Double's range.
            let trailingComma = text.range(of: #",\s*[\]}]"#, options: .regularExpression) != nil
            let guessedEncoding = bytes.contains(0) || bytes.starts(with: [0xEF, 0xBB, 0xBF])
            let exponent = zip(bytes, bytes.dropFirst()).contains { $0 &- 0x30 < 10 && $1 | 0x20 == 0x65 }
            if !(trailingComma || guessedEncoding || exponent) {
                #expect((validation == nil) == foundation, "\(text.debugDescription): \(validation.map { "\($0)" } ?? "accepted")")
            }
        }
    }

    // MARK: - Element count hint

    @Test func elementCountHintCountsTopLevelElementsAndDoesNotMove() {
        let cases: [(String, Int)] = [
            ("[]", 0), ("[ ]", 0), ("[1]", 1), ("[1, 2 ,3]", 3), (#"["a,b", "c]\"d", "\\"]"#, 3),
            ("[[1,2],{\"a\":[3,4]},5]", 3), (#"["a long string that crosses eight-byte words, with a comma", 2]"#, 2),
        ]
        for (json, expected) in cases {
            let result = read(Array(json.utf8)) { reader throws(JSONError) in
                try reader.beginArray()
                let before = reader.offset
                let hint = reader.elementCountHint(limit: 100)
                #expect(reader.offset == before)
                return hint
            }
            #expect(result == .success(expected), "\(json)")
        }
        let limited = read(Array("[1,2,3,4,5]".utf8)) { reader throws(JSONError) in
            try reader.beginArray()
            return reader.elementCountHint(limit: 2)
        }
        #expect(limited == .success(2))
    }

    @Test func stringsWithSpecialBytesAtEveryPositionOfAWord() {
        // The eight-byte scan jumps to the first byte that needs a look; put one at each position.
        for position in 0..<17 {
            for special in [#"\""#, #"\\"#, #"\u00e9"#, "é", "\u{1F600}"] {
                let content = String(repeating: "a", count: position) + special + String(repeating: "b", count: 9)
                let json = Array(("\"" + content + "\"").utf8)
                let result = read(json) { reader throws(JSONError) in reader.string(try reader.readString()) }
                let expected = try? JSONSerialization.jsonObject(with: Data(json), options: .fragmentsAllowed) as? String
                #expect(result == .success(expected ?? "?"), "\(content)")
            }
        }
        let control = read(Array("\"abcdefg\u{01}hij\"".utf8)) { reader throws(JSONError) in try reader.readString() }
        guard case .failure(let error) = control else {
            Issue.record("a raw control character must be an error")
            return
        }
        #expect(error.position.offset == 8)
    }

}
