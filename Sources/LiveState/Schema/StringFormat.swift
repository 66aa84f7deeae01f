import Foundation

extension Field {
    /// The text an app's type reads from a `string` field (`format:` in the schema file, as
    /// OpenAPI's `format` names it): a `UUID` or a `Data` property is a JSON string that
    /// `JSONDecoder`, with its default strategies, reads only when the text has that form.
    /// Synthesized `Codable` fails on any other ("Attempted to decode UUID from invalid UUID
    /// string"), so a strict client drops the update, and every client treats the value as
    /// invalid.
    ///
    /// `problem(_:)` is the one rule, asked by the decoders, the encoder, the schema checks and
    /// generated code (`TolerantValue.uuid()`).
    public enum StringFormat: String, Sendable, Hashable, CaseIterable {
        /// `UUID`: `UUID(uuidString:)` reads 36 characters, hexadecimal digits of either case in
        /// groups of 8, 4, 4, 4 and 12, joined by hyphens (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`).
        case uuid
        /// `Data`: JSONDecoder's default `.base64` strategy, `Data(base64Encoded:)`, reads
        /// `A`–`Z`, `a`–`z`, `0`–`9`, `+` and `/`, padded with `=` to a multiple of 4
        /// characters, and no white space (`aGk=`; the empty string is no bytes).
        case base64

        /// The Swift type an app holds the value in: `UUID`, `Data`.
        public var swiftName: String {
            switch self {
            case .uuid: "UUID"
            case .base64: "Data"
            }
        }

        /// The length in bytes of every value of the format, where it has one: 36 for a UUID.
        public var length: Int? { self == .uuid ? Self.uuidLength : nil }

        /// The bytes of a UUID's text: 32 hexadecimal digits and 4 hyphens.
        private static let uuidLength = 36

        /// The format's text, for messages: `a UUID`, `base64`.
        package var text: String { self == .uuid ? "a UUID" : "base64" }

        /// A value of the format, after "no": `UUID`, `base64 text`.
        package var noun: String { self == .uuid ? "UUID" : "base64 text" }

        /// The lengths the format's text has, for messages.
        package var lengths: String { self == .uuid ? "every UUID is \(Self.uuidLength) bytes" : "base64 is a multiple of 4 bytes long" }

        /// The rule as a regular expression (ECMA-262, as JSON Schema's `pattern` takes it), for
        /// the JSON Schema a server validates with: it matches just the strings `problem(_:)`
        /// passes. It ends in `(?![\s\S])`, not `$`, which Python's `re` and ICU also match
        /// before a final line feed.
        public var pattern: String {
            switch self {
            case .uuid: #"^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![\s\S])"#
            case .base64: #"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?(?![\s\S])"#
            }
        }

        /// Why the app's type does not read `text`, or `nil` when it does.
        /// - Parameter text: The string's value, unescaped.
        /// - Returns: The sentence for a finding: `'abc' is not a UUID: …`.
        public func problem(_ text: String) -> String? {
            let bytes = Array(text.utf8)
            switch self {
            case .uuid:
                guard let reason = Self.uuidRefusal(bytes) else { return nil }
                return "'\(ValueText.clipped(text))' is not a UUID: \(reason); a UUID is \(Self.uuidLength) characters, hexadecimal "
                    + "digits in groups of 8-4-4-4-12 joined by hyphens, as uuidString writes it"
            case .base64:
                guard let reason = Self.base64Refusal(bytes) else { return nil }
                return "'\(ValueText.clipped(text))' is not base64: \(reason); Data(base64Encoded:) reads A-Z, a-z, 0-9, + and /, "
                    + "padded with = to a multiple of 4 characters"
            }
        }

        /// What in `bytes` `UUID(uuidString:)` refuses first, or `nil`.
        private static func uuidRefusal(_ bytes: [UInt8]) -> String? {
            guard bytes.count == uuidLength else { return "it is \(bytes.count) byte\(bytes.count == 1 ? "" : "s") long" }
            for (offset, byte) in bytes.enumerated() {
                let isHyphenPlace = offset == 8 || offset == 13 || offset == 18 || offset == 23
                if isHyphenPlace ? byte != UInt8(ascii: "-") : !JSONByte.isHexDigit(byte) {
                    return isHyphenPlace ? "byte \(offset) is not a hyphen" : "byte \(offset) is not a hexadecimal digit"
                }
            }
            return nil
        }

        /// What in `bytes` `Data(base64Encoded:)` refuses first, or `nil`: a byte of no base64
        /// character (a line feed an encoder appended), `=` but as the last one or two, a length
        /// that is not a multiple of 4.
        private static func base64Refusal(_ bytes: [UInt8]) -> String? {
            if let offset = bytes.firstIndex(where: { !isBase64Digit($0) && $0 != UInt8(ascii: "=") }) {
                return "byte \(offset) is not a base64 character"
            }
            var padding = 0
            while padding < 2, padding < bytes.count, bytes[bytes.count - 1 - padding] == UInt8(ascii: "=") {
                padding += 1
            }
            if let offset = bytes.dropLast(padding).firstIndex(of: UInt8(ascii: "=")) {
                return "'=' at byte \(offset) is not at the end"
            }
            guard bytes.count % 4 == 0 else { return "it is \(bytes.count) character\(bytes.count == 1 ? "" : "s") long, not a multiple of 4" }
            return nil
        }

        /// Whether some text of the format has a length (in UTF-8 bytes) within `constraints`'
        /// `min-length` and `max-length`: a UUID's 36, or base64's multiples of 4 from 0.
        package func admitsSomeLength(_ constraints: Field.Constraints) -> Bool {
            let lower = constraints.minLength ?? 0
            let upper = constraints.maxLength ?? .max
            switch self {
            case .uuid: return lower <= Self.uuidLength && Self.uuidLength <= upper
            case .base64: return lower <= upper && (lower + 3) / 4 * 4 <= upper
            }
        }

        /// Whether two texts of the format are the same value to the app: UUIDs of either case,
        /// base64 texts of the same bytes. Text that is not of the format compares as text.
        package func same(_ lhs: String, _ rhs: String) -> Bool {
            guard lhs != rhs, problem(lhs) == nil, problem(rhs) == nil else { return lhs == rhs }
            switch self {
            case .uuid: return lhs.uppercased() == rhs.uppercased()
            case .base64: return Data(base64Encoded: lhs) == Data(base64Encoded: rhs)
            }
        }

        private static func isBase64Digit(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "+"), UInt8(ascii: "/"):
                true
            default: false
            }
        }
    }
}
