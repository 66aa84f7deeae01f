import Testing
@_spi(Scanner) @testable import LiveState

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
