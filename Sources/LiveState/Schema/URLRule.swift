import Foundation

/// How the device's `URL(string:)` reads the string of a `url` field, on every iOS an app
/// version supports: the one URL rule, asked by the decoder, the encoder and the schema checks.
///
/// `URL(string:)` changed with iOS 17. From iOS 17 on it parses by RFC 3986 and percent- or
/// IDNA-encodes what it must (`a b` becomes `a%20b`, `例子.com` becomes `xn--fsqu00a.com`): what
/// `URL(string:)` does on every platform with a current Foundation, Linux included. On iOS 16 it
/// went through CoreFoundation's legality check first (`_CFStringIsLegalURLString`, in
/// swift-corelibs-foundation's `CFURL.c`): letters, digits, `-_.!~*'()`, `;/?:@&=+$,`, `%` with
/// two hex digits, `[`, `]` and one `#` pass; anything else, and the empty string, gives `nil`,
/// and a synthesized `Codable` state with that field throws. An app whose `min-ios` is below 17
/// has devices of both kinds, so its URLs must pass both parsers.
///
/// A relative reference (`/orders/1`, `x?y`) is a URL to both, as it is to the app's `URL`
/// property: a `url` field takes it.
package struct URLRule: Sendable, Hashable {
    /// The oldest iOS the app version runs on.
    package var minIOS: IOSVersion

    /// Whether a URL that iOS 16 alone refuses is read as a URL: the encoder's reading of a
    /// state, whose writer then sends the form every iOS reads (`ValueBuilder`,
    /// `makesURLsPortable`). What iOS 17 refuses is still a problem, worded for the app's
    /// devices.
    package var writesPortableForms = false

    /// Creates the rule for an app that runs on `minIOS` and later.
    /// - Parameter minIOS: The deployment target.
    package init(minIOS: IOSVersion = .liveActivities) {
        self.minIOS = minIOS
    }

    /// Whether the app has devices on iOS 16, whose `URL(string:)` is the legacy one.
    package var hasLegacyParser: Bool { minIOS < .rfc3986URLs }

    /// What is wrong with a string as a `url` value.
    package enum Problem: Sendable, Hashable {
        /// No iOS the app supports makes a URL of it.
        case notAURL
        /// iOS 16 makes no URL of it, iOS 17 and later do: `offset` is the byte of the first
        /// character iOS 16 refuses, `portable` the form both read alike, when there is one.
        case refusedBeforeIOS17(offset: Int, character: String, portable: String?)
        /// iOS 17 and later make no URL of it, by RFC 3986 (`my_app://x`: a scheme has no
        /// `_`); iOS 16, whose legality check it passes, does.
        case refusedFromIOS17
    }

    /// What is wrong with `string` as a `url` value on the app's devices, or `nil`.
    /// - Parameter string: The value.
    package func problem(_ string: String) -> Problem? {
        guard let url = URL(string: string) else {
            return hasLegacyParser && Self.legacyRefusal(string) == nil ? .refusedFromIOS17 : .notAURL
        }
        if hasLegacyParser, !writesPortableForms, let refusal = Self.legacyRefusal(string) {
            return .refusedBeforeIOS17(offset: refusal.offset, character: refusal.character, portable: Self.portable(url))
        }
        return nil
    }

    /// The sentence for a problem with `string`.
    /// - Parameters:
    ///   - problem: The problem.
    ///   - string: The value.
    package func message(_ problem: Problem, in string: String) -> String {
        let shown = ValueText.clipped(string)
        switch problem {
        case .notAURL:
            guard !string.isEmpty else { return "'' is not a URL" }
            // Why, in the words of each parser the app's devices have.
            let modern = "URL(string:) parses by RFC 3986, which refuses it"
            guard hasLegacyParser, let refusal = Self.legacyRefusal(string) else { return "'\(shown)' is not a URL: \(modern)" }
            return "'\(shown)' is not a URL on any iOS: iOS 16 refuses \(refusal.character) at byte \(refusal.offset), and from iOS 17 "
                + modern
        case .refusedBeforeIOS17(let offset, let character, let portable):
            // A suggestion cut short would be another URL: a long one is left to `encode`.
            let fix = portable.map { $0.utf8.count <= 200 ? "; send '\($0)'" : "; `encode` writes the form both read" } ?? ""
            // In a host, iOS 17 writes a name in IDNA (`例子.com` is `xn--fsqu00a.com`).
            let encoding = Self.isInHost(offset, of: string) ? "IDNA-encode" : "percent-encode"
            return "'\(shown)' \(Self.iOS16Only) (min-ios \(minIOS)): URL(string:) there refuses \(character) at byte \(offset), "
                + "which iOS 17 and later \(encoding)\(fix)"
        case .refusedFromIOS17:
            return "'\(shown)' \(Self.iOS17Only) (min-ios \(minIOS)): URL(string:) there parses by RFC 3986, which refuses it; "
                + "iOS 16 reads it"
        }
    }

    /// Whether the byte at `offset` of `string` is in its host, as RFC 3986 finds it: after
    /// `scheme://` and any `userinfo@`, before a `:port` and the path, query or fragment.
    private static func isInHost(_ offset: Int, of string: String) -> Bool {
        let bytes = Array(string.utf8)
        func isSchemeByte(_ byte: UInt8) -> Bool {
            JSONByte.isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        // `scheme:` (a letter, then letters, digits, `+`, `-`, `.`), then `//`.
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, !JSONByte.isDigit(bytes[0]),
              bytes[..<colon].allSatisfy(isSchemeByte), bytes.dropFirst(colon + 1).starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")])
        else { return false }
        let authority = colon + 3
        let end = bytes[authority...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
        let start = bytes[authority..<end].lastIndex(of: UInt8(ascii: "@")).map { $0 + 1 } ?? authority
        // A port is digits after the host's last `:` (an IPv6 host's are inside `[…]`).
        let hostEnd = bytes[start..<end].lastIndex(of: UInt8(ascii: ":")).flatMap { colon in
            bytes[(colon + 1)..<end].allSatisfy(JSONByte.isDigit) && !bytes[start..<end].contains(UInt8(ascii: "]")) ? colon : nil
        } ?? end
        return (start..<hostEnd).contains(offset)
    }

    /// The text the app's devices hold for `string` as a URL and write back (`absoluteString`):
    /// from iOS 17 on, what `URL(string:)` makes of it (`a b` is `a%20b`); on iOS 16, when the
    /// app runs there and reads it, the string as sent. Empty when no iOS the app runs on makes
    /// a URL of it.
    /// - Parameter string: The value.
    package func absoluteStrings(_ string: String) -> [String] {
        var held: [String] = []
        if let url = URL(string: string) { held.append(url.absoluteString) }
        if hasLegacyParser, Self.legacyRefusal(string) == nil { held.append(string) }
        return held
    }

    /// The words of every message about a URL that only iOS 16 refuses: what tells a finding
    /// that drops the update on iOS 16 devices alone.
    package static let iOS16Only = "is no URL on iOS 16"

    /// The words of every message about a URL that iOS 16 reads and iOS 17 and later refuse:
    /// what tells a finding that drops the update on those devices alone.
    package static let iOS17Only = "is no URL on iOS 17 and later"

    /// The form of a URL that iOS 16 and iOS 17 and later read alike: what `URL(string:)` makes
    /// of it from iOS 17 on, with anything iOS 16 still refuses percent-encoded.
    static func portable(_ url: URL) -> String? {
        let encoded = url.absoluteString
        guard legacyRefusal(encoded) != nil else { return encoded }
        var result = ""
        var sawHash = false
        let bytes = Array(encoded.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, JSONByte.isHexDigit(bytes[index + 1]), JSONByte.isHexDigit(bytes[index + 2]) {
                result += String(decoding: bytes[index...(index + 2)], as: UTF8.self)
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#") && !sawHash {
                sawHash = true
                result.append("#")
            } else if byte != UInt8(ascii: "%") && byte != UInt8(ascii: "#") && isLegacyLegal(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
            index += 1
        }
        return result
    }

    /// The first character iOS 16's `URL(string:)` refuses in `string`, with its byte offset;
    /// `nil` when it makes a URL of it. `_CFStringIsLegalURLString`, read byte by byte: every
    /// byte of a non-ASCII character is refused, as its UTF-16 unit was.
    static func legacyRefusal(_ string: String) -> (offset: Int, character: String)? {
        let bytes = Array(string.utf8)
        guard !bytes.isEmpty else { return (0, "the empty string") }
        var sawHash = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.count, JSONByte.isHexDigit(bytes[index + 1]), JSONByte.isHexDigit(bytes[index + 2]) else {
                    return (index, "'%' without two hex digits after it")
                }
                index += 3
                continue
            case UInt8(ascii: "#"):
                if sawHash { return (index, "a second '#'") }
                sawHash = true
            case UInt8(ascii: "["), UInt8(ascii: "]"):
                break
            default:
                guard isLegacyLegal(byte) else { return (index, describe(bytes, at: index)) }
            }
            index += 1
        }
        return nil
    }

    /// Letters, digits, `-_.!~*'()` and the reserved `;/?:@&=+$,`: `isURLLegalCharacter` in CFURL.c.
    static func isLegacyLegal(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return legacyPunctuation.utf8.contains(byte)
        }
    }

    /// The punctuation `isLegacyLegal` passes.
    private static let legacyPunctuation = "-_.!~*'();/?:@&=+$,"

    /// `legacyRefusal`'s rule as a regular expression (ECMA-262, as JSON Schema's `pattern`
    /// takes it): the strings iOS 16's legality check passes, for the JSON Schema a server
    /// validates with when the app runs on iOS 16. It is looser than the rule: `URL(string:)`
    /// must also parse what passes it (`http://[` does not). It ends in `(?![\s\S])`, not `$`,
    /// which Python's `re` and ICU also match before a final line feed.
    package static var legacyPattern: String {
        // Letters, digits, the punctuation (`-` last, where a class takes it as itself), the
        // brackets, and `%` with two hex digits; at most one `#`; not empty.
        let punctuation = legacyPunctuation.filter { $0 != "-" }
        let legal = "(?:[A-Za-z0-9\(punctuation)\\[\\]-]|%[0-9A-Fa-f]{2})"
        return "^(?=[\\s\\S])\(legal)*(?:#\(legal)*)?(?![\\s\\S])"
    }

    /// The character starting at byte `index`, quoted, or named when it does not print.
    private static func describe(_ bytes: [UInt8], at index: Int) -> String {
        let byte = bytes[index]
        if byte == UInt8(ascii: " ") { return "a space" }
        if byte < 0x20 || byte == 0x7F { return "the control character U+\(String(byte, radix: 16, uppercase: true).leftPadded(to: 4))" }
        var end = index + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        let character = String(decoding: bytes[index..<end], as: UTF8.self)
        // One that shows as nothing, or as a space (a no-break space, a zero-width joiner), is named.
        if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1, ValueText.isUnseen(scalar) {
            return "the character U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))"
        }
        return "'" + character + "'"
    }

}

extension String {
    /// The text with zeros before it, `width` characters at least (`"7"` is `"07"` for 2).
    package func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
