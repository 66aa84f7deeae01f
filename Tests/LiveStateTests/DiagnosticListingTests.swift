import Testing
@_spi(Scanner) @testable import LiveState

/// What a listing shows of many findings, and of a long message: a hostile body made 99,999
/// `duplicate-key` warnings, and a 10 MB key was printed whole.
@Suite struct DiagnosticListingTests {
    static func finding(_ code: DiagnosticCode, _ number: Int, file: String? = "a.json") -> Diagnostic {
        Diagnostic(code: code, severity: .warning, message: "finding \(number)", file: file, pointer: "/k\(number)")
    }

    @Test func aFewFindingsAreListedAsTheyAre() {
        let findings = (0..<Diagnostic.listedPerCode).map { Self.finding(.duplicateKey, $0) }
            + (0..<Diagnostic.listedPerCode).map { Self.finding(.unknownKey, $0) }
        #expect(findings.listed == findings)
    }

    @Test func findingsOfOneCodePastTheLimitAreCountedAfterTheLastOneListed() {
        let limit = Diagnostic.listedPerCode
        var findings = (0..<(limit + 250)).map { Self.finding(.duplicateKey, $0) }
        // The worst of those left out is what the count says: an error among warnings.
        findings[limit + 7].severity = .error
        findings.insert(Self.finding(.unknownKey, 0), at: 3)
        findings.append(Self.finding(.unknownKey, 1))
        let listing = findings.listed
        #expect(listing.count == limit + 1 + 2)
        #expect(Array(listing[0..<3]) == Array(findings[0..<3]))
        #expect(listing[3].code == .unknownKey)
        #expect(listing[limit].message == "finding \(limit - 1)")
        let count = listing[limit + 1]
        #expect(count.code == .duplicateKey)
        #expect(count.severity == .error)
        #expect(count.file == "a.json")
        #expect(count.position == nil && count.pointer == nil)
        #expect(count.message == "250 more duplicate-key findings are not listed; the first \(limit) are")
        #expect(listing.last == findings.last)
    }

    @Test func eachFileIsCountedApart() {
        let limit = Diagnostic.listedPerCode
        let findings = (0..<(limit + 1)).map { Self.finding(.unknownKey, $0, file: "a.json") }
            + (0..<(limit + 2)).map { Self.finding(.unknownKey, $0, file: "b.json") }
        let counts = findings.listed.filter { $0.message.contains("more unknown-key findings") }
        #expect(counts.map(\.file) == ["a.json", "b.json"])
        #expect(counts.map(\.message) == [
            "1 more unknown-key findings are not listed; the first \(limit) are",
            "2 more unknown-key findings are not listed; the first \(limit) are",
        ])
        #expect(findings.listed.count == 2 * limit + 2)
    }

    @Test func aLongMessageShowsItsEndsAndHowMuchIsLeftOut() {
        let key = String(repeating: "k", count: 10_000_000)
        let finding = Diagnostic(
            code: .unknownKey, severity: .warning, message: "unknown key '\(key)' is ignored by app version 2",
            file: "a.json", position: SourcePosition(offset: 4, line: 1, column: 5), pointer: "/" + key)
        let line = finding.description
        #expect(line.utf8.count < 1_000)
        #expect(line.hasPrefix("a.json:1:5: warning: unknown key 'kkk"))
        // 13 bytes before the key and 29 after it: 10,000,042 in all, 256 + 128 of them shown.
        #expect(line.contains("…(9,999,658 bytes left out)…" + String(repeating: "k", count: 99) + "' is ignored by app version 2 (at /kkk"))
        #expect(line.hasSuffix("…(9,999,617 bytes left out)…" + String(repeating: "k", count: 128) + ") [unknown-key]"))
        // JSON shows the message as text does, and keeps the pointer whole: it is for programs.
        #expect(finding.jsonValue["message"] == .string(finding.shownMessage))
        #expect(finding.jsonValue["pointer"] == .string("/" + key))
        var direct = JSONWriter()
        [finding].write(to: &direct)
        var viaTree = JSONWriter()
        viaTree.write(.array([finding.jsonValue]))
        #expect(direct.bytes == viaTree.bytes)
        // Up to the limit, a message is whole.
        let whole = String(repeating: "é", count: Diagnostic.shownBytes / 2)
        #expect(Diagnostic.shown(whole) == whole)
        #expect(Diagnostic.shown(whole + "x") != whole + "x")
    }

    @Test func writingStraightToAWriterListsAsTheArrayDoes() {
        let findings = (0..<(Diagnostic.listedPerCode + 5)).map { Self.finding(.duplicateKey, $0) }
        var writer = JSONWriter()
        findings.write(to: &writer)
        var viaTree = JSONWriter()
        viaTree.write(.array(findings.listed.map(\.jsonValue)))
        #expect(writer.bytes == viaTree.bytes)
        #expect(findings.listed.count == Diagnostic.listedPerCode + 1)
        var fromCollection = JSONWriter()
        findings[...].write(to: &fromCollection)
        #expect(fromCollection.bytes == writer.bytes)
    }
}
