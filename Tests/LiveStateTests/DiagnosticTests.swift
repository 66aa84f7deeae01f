import Testing
@_spi(Scanner) @testable import LiveState
import LiveStateTestSupport

@Suite struct DiagnosticTests {
    @Test func locatesLineAndColumnFromByteOffset() {
        let bytes = Array("ab\ncd\n\nxyz".utf8)
        #expect(SourcePosition.locate(offset: 0, in: bytes) == SourcePosition(offset: 0, line: 1, column: 1))
        #expect(SourcePosition.locate(offset: 4, in: bytes) == SourcePosition(offset: 4, line: 2, column: 2))
        #expect(SourcePosition.locate(offset: 7, in: bytes) == SourcePosition(offset: 7, line: 4, column: 1))
        #expect(SourcePosition.locate(offset: 99, in: bytes).offset == bytes.count)
    }

    @Test func locatesEveryOffsetLikeCountingLineFeedsOneByOne() {
        // Long enough for the eight-byte path, with line feeds at every position in a word.
        let text = "ab\ncd\n\nxyz é\nlong line without a break here\n\n\n" + String(repeating: "x\ny", count: 9) + "\n"
        let bytes = Array(text.utf8)
        for offset in 0...bytes.count {
            var line = 1
            var lineStart = 0
            for index in 0..<offset where bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            #expect(SourcePosition.locate(offset: offset, in: bytes) == SourcePosition(offset: offset, line: line, column: offset - lineStart + 1))
        }
    }

    @Test func escapesJSONPointerTokens() {
        #expect(JSONPointer.appending("a/b~c", to: "/x") == "/x/a~1b~0c")
        #expect(JSONPointer.appending(3, to: "/items") == "/items/3")
    }

    @Test func rendersCompilerStyleLine() {
        let diagnostic = Diagnostic(
            code: "unknown-key", severity: .warning, message: "unknown key 'x'",
            file: "p.json", position: SourcePosition(offset: 5, line: 1, column: 6),
            scope: .contentState, pointer: "/x")
        #expect(diagnostic.description == "p.json:1:6: warning: unknown key 'x' (at /x) [unknown-key]")
    }

    /// A key with a real line feed and a key spelled `k\u{A}` printed the same; the backslash
    /// before an escape, or before `u{`, is doubled, and other text is left as it is.
    @Test func printableTextTellsAnEscapeFromTheSameCharactersTyped() {
        #expect(Diagnostic.printable("k\n") == #"k\u{A}"#)
        // The line and paragraph separators some viewers break a line on.
        #expect(Diagnostic.printable("k\u{2028}l\u{2029}") == #"k\u{2028}l\u{2029}"#)
        // The bidirectional controls, which reorder what is shown after them.
        #expect(Diagnostic.printable("a\u{202E}cba\u{2066}x\u{200F}") == #"a\u{202E}cba\u{2066}x\u{200F}"#)
        #expect(Diagnostic.printable("العربية") == "العربية")
        #expect(Diagnostic.printable(#"k\u{A}"#) == #"k\\u{A}"#)
        #expect(Diagnostic.printable("k\\\n") == #"k\\\u{A}"#)
        #expect(Diagnostic.printable(#"C:\dir\n "quoted\" \u"#) == #"C:\dir\n "quoted\" \u"#)
        #expect(Diagnostic.printable("a\tb\r", keeping: ["\t"]) == "a\tb\\u{D}")
        let line = Diagnostic(code: "unknown-key", severity: .warning, message: "unknown key 'k\n'")
        let typed = Diagnostic(code: "unknown-key", severity: .warning, message: #"unknown key 'k\u{A}'"#)
        #expect(line.description != typed.description)
    }

    /// Every text is given back by reading its printable form: a pair of backslashes before
    /// `u{` is one backslash, an odd one begins an escape.
    @Test func printableTextReadsBackAsTheText() {
        let alphabet: [String] = ["\\", "u", "{", "A", "}", "\n", "\u{1B}", "x", "\u{85}"]
        var random = SplitMix64(state: 12)
        for _ in 0..<2_000 {
            let text = (0..<Int(random.next() % 9)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
            let shown = Diagnostic.printable(text)
            #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
            #expect(Self.readBack(shown) == text, "\(text.debugDescription) → \(shown)")
        }
    }

    /// Undoes `Diagnostic.printable`, as its documentation says a reader does.
    private static func readBack(_ shown: String) -> String {
        let scalars = Array(shown.unicodeScalars)
        var text = ""
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "\\" else {
                text.unicodeScalars.append(scalars[index])
                index += 1
                continue
            }
            var end = index
            while end < scalars.count, scalars[end] == "\\" { end += 1 }
            let run = end - index
            let beforeBrace = end + 1 < scalars.count && scalars[end] == "u" && scalars[end + 1] == "{"
            guard beforeBrace else {
                text += String(repeating: "\\", count: run)
                index = end
                continue
            }
            text += String(repeating: "\\", count: run / 2)
            index = end
            if run % 2 == 1, let close = scalars[end...].firstIndex(of: "}"),
               let value = UInt32(String(String.UnicodeScalarView(scalars[(end + 2)..<close])), radix: 16),
               let scalar = Unicode.Scalar(value) {
                text.unicodeScalars.append(scalar)
                index = close + 1
            }
        }
        return text
    }

    @Test func writingStraightToAWriterMatchesTheJSONValue() {
        let diagnostics = [
            Diagnostic(code: "unknown-key", severity: .warning, message: "key 'a\"b/c' \u{1} é", file: "dir/p.json",
                       position: SourcePosition(offset: 5, line: 12, column: 345), scope: .contentState, pointer: "/a\"b~1c"),
            Diagnostic(code: "json-syntax", severity: .error, message: ""),
            Diagnostic(code: "over-budget", severity: .info, message: "m", scope: .envelope, pointer: ""),
        ]
        for count in 0...diagnostics.count {
            let slice = Array(diagnostics.prefix(count))
            var direct = JSONWriter()
            slice.write(to: &direct)
            var viaTree = JSONWriter()
            viaTree.write(.array(slice.map(\.jsonValue)))
            #expect(direct.bytes == viaTree.bytes)
            #expect(String(decoding: direct.bytes, as: UTF8.self).hasPrefix("["))
        }
    }

    @Test func budgetWrittenStraightMatchesItsJSONValue() {
        var budgets = [ByteBudget(limit: 4096, body: 670)]
        var full = ByteBudget(limit: 5120, body: 6000, contentState: 4500, deviceWorstCase: 4700)
        full.fields = [.init(name: "title", bytes: 20), .init(name: "a\"b/é", bytes: 3)]
        budgets.append(full)
        for budget in budgets {
            var direct = JSONWriter()
            budget.write(to: &direct)
            var viaTree = JSONWriter()
            viaTree.write(budget.jsonValue)
            #expect(direct.bytes == viaTree.bytes)
        }
    }
}
