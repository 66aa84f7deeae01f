import LiveState

/// Lines of Swift source with four-space indentation.
struct SwiftSourceWriter {
    private(set) var lines: [String] = []
    /// The current indentation level.
    var indent = 0

    /// Appends a line at the current indentation; an empty line has no trailing spaces.
    mutating func line(_ text: String = "") {
        lines.append(text.isEmpty ? "" : String(repeating: "    ", count: indent) + text)
    }

    /// Appends `/// ` doc comment lines, `text` split as `commentLines` splits it; nothing for
    /// no lines. Empty lines become `///`; those at the start and the end are left out.
    mutating func doc(_ text: [String]) {
        var trimmed = Self.commentLines(text)
        while trimmed.last?.isEmpty == true { trimmed.removeLast() }
        while trimmed.first?.isEmpty == true { trimmed.removeFirst() }
        for line in trimmed {
            self.line(line.isEmpty ? "///" : "/// " + line)
        }
    }

    /// Appends `// ` comment lines, `text` split as `commentLines` splits it. Empty lines
    /// become `//`.
    mutating func comment(_ text: [String]) {
        for line in Self.commentLines(text) {
            self.line(line.isEmpty ? "//" : "// " + line)
        }
    }

    /// The lines of comment text that may come from a schema (a description, an alias, the
    /// activity): split at LF, CR and CR LF, which end a `//` comment in Swift (a CR in a
    /// description ended the comment and compiled the rest of it as code in the app), and at
    /// U+2028 and U+2029, which editors show as line breaks; other control characters written
    /// `Diagnostic.printable` (`\u{1B}`), a tab kept.
    private static func commentLines(_ text: [String]) -> [String] {
        // A `Character` holds CR LF as one.
        let lineBreaks: Set<Character> = ["\n", "\r", "\r\n", "\u{2028}", "\u{2029}"]
        return text.flatMap { line in
            line.split(omittingEmptySubsequences: false, whereSeparator: lineBreaks.contains)
                .map { Diagnostic.printable(String($0), keeping: ["\t"]) }
        }
    }

    /// Appends `opener {`, the body one level deeper, and `}`.
    mutating func block<Failure: Error>(_ opener: String, _ body: (inout SwiftSourceWriter) throws(Failure) -> Void) throws(Failure) {
        line(opener + " {")
        indent += 1
        try body(&self)
        indent -= 1
        line("}")
    }

    /// The source text, ending with one newline.
    var text: String {
        lines.joined(separator: "\n") + "\n"
    }
}
