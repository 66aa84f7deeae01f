import Foundation

/// Building JSON Pointers (RFC 6901) for diagnostics.
package enum JSONPointer {
    /// Escapes one reference token: `~` becomes `~0`, `/` becomes `~1`.
    /// - Parameter token: An object key or array index.
    /// - Returns: The escaped token.
    package static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
            return token
        }
        var escaped = ""
        escaped.reserveCapacity(token.utf8.count + 2)
        for character in token.unicodeScalars {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// Appends one reference token to a pointer.
    /// - Parameters:
    ///   - token: The key or index to append, unescaped.
    ///   - pointer: The pointer to extend; `""` is the whole document.
    /// - Returns: `pointer + "/" + escape(token)`.
    package static func appending(_ token: String, to pointer: String) -> String {
        String.concatenating(pointer, "/", escape(token))
    }

    /// Appends an array index to a pointer.
    /// - Parameters:
    ///   - index: The 0-based index.
    ///   - pointer: The pointer to extend.
    /// - Returns: `pointer + "/" + index`.
    package static func appending(_ index: Int, to pointer: String) -> String {
        String.concatenating(pointer, "/", String(index))
    }

    /// Where the value `pointer` names starts in the JSON text `bytes` (under a key given twice,
    /// the first), for a finding about a value that was read from that text and checked later;
    /// `nil` when the text holds no such value.
    /// - Parameters:
    ///   - pointer: A JSON Pointer from the text's root.
    ///   - bytes: The JSON text.
    /// - Returns: The offset of the value's first byte.
    package static func offset(of pointer: String, in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let tokens = tokens(of: pointer), var reader = try? JSONReader(bytes: bytes) else { return nil }
        return offset(of: tokens, reading: &reader)
    }

    /// The line and column where the value `pointer` names starts in the JSON text `bytes`, as
    /// `offset(of:in:)` finds it; `nil` when the text holds no such value.
    package static func position(of pointer: String, in bytes: some ContiguousBytes) -> SourcePosition? {
        bytes.withUnsafeBytes { text in offset(of: pointer, in: text).map { SourcePosition.locate(offset: $0, in: text) } }
    }

    private static func offset(of tokens: [String], reading reader: inout JSONReader) -> Int? {
        do throws(JSONError) {
            for token in tokens {
                switch try reader.peek() {
                case .objectStart:
                    try reader.beginObject()
                    while true {
                        guard let key = try reader.nextKey() else { return nil }
                        if reader.string(key) == token { break }
                        try reader.skipValue()
                    }
                case .arrayStart:
                    guard let index = Int(token), index >= 0 else { return nil }
                    try reader.beginArray()
                    for _ in 0..<index {
                        guard try reader.nextElement() else { return nil }
                        try reader.skipValue()
                    }
                    guard try reader.nextElement() else { return nil }
                default:
                    return nil
                }
            }
            _ = try reader.peek()
            return reader.offset
        } catch {
            return nil
        }
    }

    /// The reference tokens of a pointer, unescaped: `[]` for `""`, the whole document.
    /// - Parameter pointer: A JSON Pointer such as `/courier/name`.
    /// - Returns: The tokens, or `nil` when `pointer` is not a JSON Pointer.
    package static func tokens(of pointer: String) -> [String]? {
        guard pointer.hasPrefix("/") else { return pointer.isEmpty ? [] : nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            String($0.replacing("~1", with: "/").replacing("~0", with: "~"))
        }
    }
}
