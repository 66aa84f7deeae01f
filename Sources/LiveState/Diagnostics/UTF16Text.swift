import Foundation

/// Whether text that should be UTF-8 is UTF-16, as Windows editors and PowerShell's `>` write
/// it, or UTF-32, so that a reader's syntax error can say so instead of naming a stray byte.
package enum UTF16Text {
    /// How the first bytes show UTF-16: `"UTF-16 (little-endian, byte order mark FF FE)"`, or
    /// `nil` when they do not. Without a byte order mark, ASCII text in UTF-16 has a zero byte
    /// beside each character's: in each of the first two code units, one byte is zero and the
    /// other is not, on the same side (a lone zero byte before UTF-8 text is not UTF-16).
    /// - Parameter input: The input, from its first byte.
    package static func described(_ input: some ContiguousBytes) -> String? {
        // The first four bytes tell.
        let bytes = input.withUnsafeBytes { Array($0.prefix(4)) }
        guard bytes.count >= 2 else { return nil }
        // UTF-32 first: its little-endian byte order mark begins with UTF-16's, and its ASCII
        // characters have three zero bytes beside them.
        if bytes.count >= 4 {
            switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
            case (0xFF, 0xFE, 0, 0): return "UTF-32 (little-endian, byte order mark FF FE 00 00)"
            case (0, 0, 0xFE, 0xFF): return "UTF-32 (big-endian, byte order mark 00 00 FE FF)"
            case (1...0x7F, 0, 0, 0): return "UTF-32 (little-endian, three zero bytes after each ASCII character)"
            case (0, 0, 0, 1...0x7F): return "UTF-32 (big-endian, three zero bytes before each ASCII character)"
            default: break
            }
        }
        switch (bytes[0], bytes[1]) {
        case (0xFF, 0xFE): return "UTF-16 (little-endian, byte order mark FF FE)"
        case (0xFE, 0xFF): return "UTF-16 (big-endian, byte order mark FE FF)"
        default: break
        }
        // A code unit that is an ASCII character: its zero byte first (big-endian) or last.
        func isASCII(unit: Int, bigEndian: Bool) -> Bool {
            let zero = bigEndian ? bytes[unit] : bytes[unit + 1]
            let character = bigEndian ? bytes[unit + 1] : bytes[unit]
            return zero == 0 && character != 0
        }
        for bigEndian in [true, false] where isASCII(unit: 0, bigEndian: bigEndian) {
            guard bytes.count < 4 || isASCII(unit: 2, bigEndian: bigEndian) else { return nil }
            return bigEndian
                ? "UTF-16 (big-endian, a zero byte before each ASCII character)"
                : "UTF-16 (little-endian, a zero byte after each ASCII character)"
        }
        return nil
    }

    /// `message`, followed by what to do when `bytes` are UTF-16 or UTF-32.
    package static func explaining(_ message: String, in bytes: some ContiguousBytes) -> String {
        guard let encoding = described(bytes) else { return message }
        return message + "; the text is " + notUTF8(encoding)
    }

    /// The offset of the first byte that is not part of a UTF-8 character, or `nil` when every
    /// byte is: where a file that is not UTF-8 text says so.
    package static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .error: return min(offset, bytes.count - 1)
            case .emptyInput: return nil
            }
        }
    }

    /// `encoding` (as `described` names it) and what to do: `UTF-16 (…), not UTF-8: convert
    /// it (iconv -f UTF-16 -t UTF-8)`.
    package static func notUTF8(_ encoding: String) -> String {
        "\(encoding), not UTF-8: convert it (iconv -f \(encoding.prefix(6)) -t UTF-8)"
    }
}
