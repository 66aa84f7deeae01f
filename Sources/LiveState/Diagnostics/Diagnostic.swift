/// How serious a diagnostic is.
public enum Severity: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
    /// Informational: nothing is wrong.
    case info
    /// A heuristic finding or something the app survives.
    case warning
    /// A rule violation: the update would be dropped or refused, or the schema is invalid.
    case error

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// The object a diagnostic's JSON Pointer is relative to.
public enum DiagnosticScope: String, Sendable, Hashable, Codable, CaseIterable {
    /// The `content-state` object: `/courier/name`.
    case contentState = "content-state"
    /// The static `attributes` object of a start event.
    case attributes
    /// The whole APNs body: `/aps/timestamp`.
    case envelope
    /// A schema file.
    case schema
    /// A fleet file: devices per schema version.
    case fleet
}

/// One finding about an input: a schema, a payload, or a pair of schema versions.
///
/// `code` is a stable kebab-case identifier (`json-syntax`, `unknown-key`); new codes may be
/// added, existing ones never change meaning.
///
/// A diagnostic is also what a decoder, an encoder or a validator throws when it cannot be made:
/// `unknown-version` for a version the schema does not have.
public struct Diagnostic: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The stable kebab-case code.
    public var code: DiagnosticCode
    /// How serious the finding is.
    public var severity: Severity
    /// What is wrong and, where it helps, what was expected.
    public var message: String
    /// The file the finding is in, when known.
    public var file: String?
    /// The position in that file, when known.
    public var position: SourcePosition?
    /// The object `pointer` is relative to.
    public var scope: DiagnosticScope?
    /// A JSON Pointer (RFC 6901) to the value concerned, relative to `scope`.
    public var pointer: String?

    /// Creates a diagnostic.
    /// - Parameters:
    ///   - code: The stable kebab-case code.
    ///   - severity: How serious it is.
    ///   - message: What is wrong.
    ///   - file: The file, when known.
    ///   - position: The position in the file, when known.
    ///   - scope: The object `pointer` is relative to.
    ///   - pointer: A JSON Pointer to the value concerned.
    public init(
        code: DiagnosticCode,
        severity: Severity,
        message: String,
        file: String? = nil,
        position: SourcePosition? = nil,
        scope: DiagnosticScope? = nil,
        pointer: String? = nil
    ) {
        self.code = code
        self.severity = severity
        self.message = message
        self.file = file
        self.position = position
        self.scope = scope
        self.pointer = pointer
    }

    /// The compiler-style line: `file:line:column: severity: message (at pointer) [code]`.
    ///
    /// A pointer into a start's `attributes` says so (`(at /teamA in attributes)`): in a whole
    /// body's findings, a bare `/teamA` reads as a key of the content-state.
    public var description: String {
        Self.printable(line)
    }

    /// `description` before it is made printable: for a writer that escapes what it writes
    /// itself (a log handler), which would escape `description`'s escapes again.
    package var line: String {
        var prefix = file ?? "<input>"
        if let position {
            prefix += ":\(position.line):\(position.column)"
        }
        return "\(prefix): \(severity.rawValue): \(shownMessage)\(placeText) [\(code)]"
    }

    /// `text` with each control character (C0, DEL, C1, the line and paragraph separators and
    /// the bidirectional controls) written as `\u{1B}`: a message quotes
    /// keys and values from the input, and one with a line feed or an escape sequence would
    /// otherwise print as a line of its own (a forged finding, or a CI workflow command such as
    /// `::error::`) or drive the terminal.
    ///
    /// The escaping can be undone: a run of backslashes that stands before an escape, or before
    /// `u{` in the text, is doubled, so that `\u{A}` is always a line feed and `\\u{A}` the six
    /// characters `\u{A}` (a key with a real line feed and a key spelled `k\u{A}` printed the
    /// same). Read back, in a run of backslashes before `u{` each pair is one backslash and an odd
    /// one begins an escape; every other backslash is itself, so text without control characters
    /// or `u{` after a backslash is returned as it is.
    /// - Parameters:
    ///   - text: The text to print.
    ///   - kept: Control characters left as they are, for a format that has its own way of
    ///     writing them (a GitHub workflow command's `%0A`, a doc comment's tab).
    package static func printable(_ text: String, keeping kept: Set<Unicode.Scalar> = []) -> String {
        func escaped(_ scalar: Unicode.Scalar) -> Bool { isControl(scalar) && !kept.contains(scalar) }
        guard text.unicodeScalars.contains(where: { $0 == "\\" || escaped($0) }) else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = ""
        result.unicodeScalars.reserveCapacity(scalars.count)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\" {
                var end = index
                while end < scalars.count, scalars[end] == "\\" { end += 1 }
                let beforeEscape = end < scalars.count
                    && (escaped(scalars[end]) || (scalars[end] == "u" && end + 1 < scalars.count && scalars[end + 1] == "{"))
                let run = (end - index) * (beforeEscape ? 2 : 1)
                result.unicodeScalars.append(contentsOf: repeatElement("\\", count: run))
                index = end
            } else {
                if escaped(scalar) {
                    result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
                index += 1
            }
        }
        return result
    }

    /// The first 80 characters of `text`: how a message quotes a value given whole (a token, a
    /// topic, a header). Its control characters stay as they are, as in every other message
    /// that quotes input (a key, a value): a message is made printable where it is printed
    /// (`description`, each report format, the log), once. Escaped here as well, a text line
    /// doubled the escape's backslash (`'a\\u{1}b'`).
    package static func quoted(_ text: some StringProtocol) -> String {
        String(text.prefix(80))
    }

    /// C0 and C1 controls, DEL, the line and paragraph separators some viewers break on, and
    /// the bidirectional controls (U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), which
    /// reorder what a terminal or a review page shows after them ("Trojan Source").
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The error for a version a schema does not have: `unknown-version`, naming the versions it
    /// has. Thrown by the decoder's, the encoder's and the validator's initializers, and answered by
    /// the CLI, the sidecar and the code generators in the same words.
    /// - Parameters:
    ///   - version: The version asked for.
    ///   - available: The versions the schema has.
    package static func unknownVersion(_ version: Int, available: [Int]) -> Diagnostic {
        Diagnostic(
            code: .unknownVersion, severity: .error,
            message: "the schema has no version \(version); it has \(available.map(String.init).joined(separator: ", "))")
    }

    /// ` (at /teamA)`, ` (at /teamA in attributes)`, or nothing when there is no pointer.
    package var placeText: String {
        guard let pointer = pointer.map(Self.shown), !pointer.isEmpty else { return "" }
        return scope == .attributes ? " (at \(pointer) in attributes)" : " (at \(pointer))"
    }

    /// Whether this finding may be why the device drops the push (or APNs refuses it): an
    /// error, but not one of the envelope whose push still applies (`pushStillApplies`: a
    /// date in milliseconds, a start's unusable `input-push-token`, …). What names the cause of
    /// a drop and what weighs a drop by devices ask it, as the body checker's verdict does.
    package var dropsPush: Bool {
        severity == .error && !(scope == .envelope && code.pushStillApplies)
    }

    /// `; first error: missing-required-key at /subTitle in the content-state`: the end of a
    /// `dropped-by-version` message, naming the error that makes the version drop the push.
    /// `isFirst` is `false` for an error named before others ahead of it (an over-budget body,
    /// which APNs refuses whatever else is wrong): `; cause: over-budget at the root`.
    package func causeNote(isFirst: Bool = true) -> String {
        let pointer = pointer.map { $0.isEmpty ? "the root" : $0 } ?? "the body"
        let place = scope.map { $0 == .envelope ? pointer : "\(pointer) in the \($0.rawValue)" } ?? pointer
        return (isFirst ? "; first error: " : "; cause: ") + "\(code) at \(place)"
    }
}

extension Array<Diagnostic> {
    /// Inserts `finding` where its position falls among findings in input order, as a
    /// validator's are: after the last one at or before it (at the end when it has no position).
    /// - Parameter finding: A finding made apart from the walk that made the others.
    package mutating func insert(inInputOrder finding: Diagnostic) {
        let offset = finding.position?.offset ?? .max
        insert(finding, at: firstIndex { ($0.position?.offset ?? 0) > offset } ?? endIndex)
    }
}
