/// Whether text that should be UTF-8 is UTF-16, as Windows editors and PowerShell's `>` write
/// it, so that a reader's syntax error can say so instead of naming a stray byte.
package enum UTF16Text {
    /// How the first bytes show UTF-16: `"UTF-16 (little-endian, byte order mark FF FE)"`, or
    /// `nil` when they do not. Without a byte order mark, ASCII text in UTF-16 has a zero byte
    /// beside each character's: one of the first two bytes is zero and the other is not.
    /// - Parameter bytes: The input, from its first byte.
    package static func described(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard bytes.count >= 2 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0xFF, 0xFE): return "UTF-16 (little-endian, byte order mark FF FE)"
        case (0xFE, 0xFF): return "UTF-16 (big-endian, byte order mark FE FF)"
        case (0, let second) where second != 0: return "UTF-16 (big-endian, a zero byte before each ASCII character)"
        case (let first, 0) where first != 0: return "UTF-16 (little-endian, a zero byte after each ASCII character)"
        default: return nil
        }
    }

    /// `message`, followed by what to do when `bytes` are UTF-16.
    package static func explaining(_ message: String, in bytes: UnsafeRawBufferPointer) -> String {
        guard let encoding = described(bytes) else { return message }
        return message + "; the text is \(encoding), not UTF-8: convert it (iconv -f UTF-16 -t UTF-8)"
    }
}
