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

    /// Appends `/// ` doc comment lines; nothing for no lines. Empty lines become `///`.
    mutating func doc(_ text: [String]) {
        var trimmed = text
        while trimmed.last?.isEmpty == true { trimmed.removeLast() }
        while trimmed.first?.isEmpty == true { trimmed.removeFirst() }
        for line in trimmed {
            self.line(line.isEmpty ? "///" : "/// " + line)
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
