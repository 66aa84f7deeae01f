import LiveState

/// Swift names for schema keys and enum values: valid identifiers, escaped keywords, and
/// names made unique within one scope.
///
/// A key that already is an ASCII identifier starting with a lowercase letter keeps its spelling
/// (`subTitle`, `isSeckill`), so generated properties read like the hand-written `Codable`
/// types they replace. Other keys
/// are camel-cased from their ASCII letters and digits (`on-the-way` is `onTheWay`, `1x` is
/// `_1x`). Keywords are written in backticks; the few names that clash with what every type
/// already has (`self`, `init`, `rawValue`, `hashValue`) get a trailing `_`.
enum SwiftIdentifier {
    /// Words that need backticks to be used as a name.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
        "init", "inout", "internal", "let", "open", "operator", "private", "precedencegroup",
        "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        "async", "consume", "copy", "discard", "each", "macro", "package", "some", "any",
    ]

    /// Names that backticks do not rescue: members every generated type has, or names that
    /// read as something else after a dot (`.self`, `.init`, `.Type`).
    static let unusable: Set<String> = [
        "self", "Self", "init", "super", "Type", "Protocol", "_", "rawValue", "allCases", "hashValue",
    ]

    /// A lowerCamelCase identifier for a JSON key or raw value; never empty, never a keyword
    /// that backticks cannot save, never capitalized (so it cannot hide a type such as `Date`).
    static func member(_ text: String) -> String {
        let keeps = isIdentifier(text) && text.first.map { $0 == "_" || $0.isLowercase } == true
        let base = keeps ? text : camelCase(text, upper: false)
        let name = base.isEmpty ? "empty" : base
        return unusable.contains(name) ? name + "_" : name
    }

    /// An UpperCamelCase type name derived from a JSON key.
    static func type(_ text: String) -> String {
        var name = camelCase(text, upper: true)
        if name.isEmpty { name = "Value" }
        if name.first == "_" { name = "Value" + name.dropFirst() }
        return name
    }

    /// `name`, in backticks when it is a keyword.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// Whether `text` is an ASCII Swift identifier: a letter or `_`, then letters, digits, `_`.
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.utf8.first, isLetter(first) || first == UInt8(ascii: "_") else { return false }
        return text.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// Whether `text` can name a type: an identifier that is no keyword.
    static func isTypeName(_ text: String) -> Bool {
        isIdentifier(text) && !keywords.contains(text) && !unusable.contains(text)
    }

    /// Joins the ASCII letter-and-digit runs of `text` in camel case: `on-the-way` →
    /// `onTheWay`, `ETA` → `eta`, `URLString` → `urlString`. A leading digit gets a `_`.
    static func camelCase(_ text: String, upper: Bool) -> String {
        var words: [String] = []
        var current: [UInt8] = []
        for byte in text.utf8 {
            if isLetter(byte) || isDigit(byte) {
                current.append(byte)
            } else if !current.isEmpty {
                words.append(String(decoding: current, as: UTF8.self))
                current = []
            }
        }
        if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
        var result = ""
        for (index, word) in words.enumerated() {
            if index == 0 && !upper {
                result += lowercasedLeadingCapitals(word)
            } else {
                result += word.prefix(1).uppercased() + word.dropFirst()
            }
        }
        if let first = result.utf8.first, isDigit(first) { result = "_" + result }
        return result
    }

    /// `ETA` → `eta`, `URLString` → `urlString`, `Title` → `title`, `title` → `title`.
    private static func lowercasedLeadingCapitals(_ word: String) -> String {
        let characters = Array(word)
        var end = 0
        while end < characters.count, characters[end].isUppercase { end += 1 }
        if end == 0 { return word }
        // Keep the last capital of a run that starts the next word: URLString → url + String.
        if end > 1, end < characters.count, characters[end].isLowercase { end -= 1 }
        return String(characters[..<end]).lowercased() + String(characters[end...])
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }

    /// A reference to an enum case: `.pending`, or `Status.none` for a case named as one of
    /// `Optional`'s (`none`, `some`), which a bare `.none` in an optional's place would mean
    /// (the app's field took `nil` for its `none` fallback or default).
    static func caseReference(_ name: String, type: String) -> String {
        ["none", "some"].contains(name) ? "\(type).\(escaped(name))" : ".\(escaped(name))"
    }
}

/// Hands out names that are unique within one scope, in the order they are asked for.
struct SwiftNameScope {
    private var taken: Set<String>

    /// Creates a scope in which `reserved` are already taken.
    init(reserved: Set<String> = []) {
        taken = reserved
    }

    /// `name`, or `name` followed by the first number from 2 that makes it unique.
    mutating func claim(_ name: String) -> String {
        var candidate = name
        var number = 2
        while taken.contains(candidate) {
            candidate = name + String(number)
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }

    /// Marks `name` as taken.
    mutating func reserve(_ name: String) {
        taken.insert(name)
    }
}
