import Foundation

/// A string value as read by `JSONReader.readString()` or `nextKey()`: the byte range of its
/// content between the quotes, still escaped.
///
/// Convert it with `JSONReader.string(_:)`, or compare it with `matches(_:_:)` without
/// allocating.
@_spi(Scanner) public struct JSONString: Sendable, Hashable {
    /// The offset of the first content byte, just after the opening quote.
    public var start: Int
    /// The offset of the closing quote, just after the last content byte.
    public var end: Int
    /// Whether the content contains a backslash escape; when `false` the bytes are the value.
    public var hasEscapes: Bool

    /// Creates a string token.
    /// - Parameters:
    ///   - start: The offset of the first content byte.
    ///   - end: The offset of the closing quote.
    ///   - hasEscapes: Whether the content contains a backslash escape.
    public init(start: Int, end: Int, hasEscapes: Bool) {
        self.start = start
        self.end = end
        self.hasEscapes = hasEscapes
    }
}

extension JSONReader {
    /// The unescaped value of a string token.
    ///
    /// A token without escapes is decoded straight from the buffer, with no extra pass.
    /// - Parameter token: A token this reader returned.
    /// - Returns: The string value.
    public func string(_ token: JSONString) -> String {
        let range = clamped(token)
        guard token.hasEscapes else {
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        return unescapedString(range)
    }

    /// The value of the escaped string content in `range`. (Apart from `string(_:)`, so that
    /// the common case stays small enough to inline.)
    @inline(never)
    private func unescapedString(_ range: Range<Int>) -> String {
        // Unescaping never lengthens: `\n` is 1 byte, `\uXXXX` at most 3, a surrogate pair 4.
        // So the escaped length is room enough, and one pass writes the value.
        let capacity = range.count
        guard capacity > 0 else { return "" }
        // `String(unsafeUninitializedCapacity:)` keeps heap storage for a capacity over 15 bytes
        // even when the value is shorter. An escaped token of up to `shortEscapedLimit` bytes may
        // still unescape to 15 or fewer (`\u00e9\u00e9\u00e9` is 18 bytes for 6): it is
        // unescaped on the stack first, so that a short value is stored inline, not allocated.
        guard capacity > 15, capacity <= Self.shortEscapedLimit else {
            return String(unsafeUninitializedCapacity: capacity) { unescape(range, into: $0) }
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            let written = unescape(range, into: buffer)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<written]), as: UTF8.self)
        }
    }

    /// Runs `body` with the UTF-8 of a string token's value, without making a `String`: the
    /// token's own bytes when it has no escapes, else its value unescaped into temporary
    /// storage (the escaped length is room enough, as for `unescapedString`).
    func withUnescapedUTF8<R>(_ token: JSONString, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let range = clamped(token)
        guard token.hasEscapes, !range.isEmpty else { return body(UnsafeRawBufferPointer(rebasing: bytes[range])) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: range.count) { buffer in
            let written = unescape(range, into: buffer)
            return body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[..<written])))
        }
    }

    /// The longest escaped token whose value may fit in 15 UTF-8 bytes: each byte of a value
    /// takes at most 6 escaped bytes (`\u0041`).
    private static let shortEscapedLimit = 15 * 6

    /// Writes the unescaped value of the string content in `range` into `buffer`, which has at
    /// least `range.count` bytes, and returns the number of bytes written.
    private func unescape(_ range: Range<Int>, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var written = 0
        var index = range.lowerBound
        let end = range.upperBound
        guard let source = bytes.baseAddress, let target = buffer.baseAddress else { return 0 }
        while index < end {
            // Copy the run up to the next backslash in one go.
            let runStart = source + index
            let run = memchr(runStart, Int32(JSONByte.backslash), end &- index).map { UnsafeRawPointer($0) - runStart }
                ?? (end &- index)
            if run > 0 {
                (target + written).update(from: (source + index).assumingMemoryBound(to: UInt8.self), count: run)
                written &+= run
                index &+= run
                if index == end { break }
            }
            let scalar: UInt32
            var next = index &+ 2
            switch index &+ 1 < end ? bytes[index &+ 1] : 0 {
            case UInt8(ascii: "u"): (scalar, next) = unicodeEscape(at: index, end: end)
            case 0:
                scalar = 0xFFFD
                next = index &+ 1
            case let letter: scalar = Self.shortUnescape(letter)
            }
            index = next
            Self.encode(scalar) { byte in
                if written < buffer.count {
                    buffer[written] = byte
                    written &+= 1
                }
            }
        }
        return written
    }

    /// Compares the unescaped value of a string token with a literal, such as `"aps"`.
    func matches(_ token: JSONString, _ literal: StaticString) -> Bool {
        matches(token, UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Compares the unescaped value of a string token with UTF-8 bytes, without allocating.
    /// - Parameters:
    ///   - token: A token this reader returned.
    ///   - utf8: The UTF-8 bytes to compare with, e.g. a schema key.
    /// - Returns: Whether the value equals `utf8` byte for byte.
    public func matches(_ token: JSONString, _ utf8: UnsafeRawBufferPointer) -> Bool {
        let range = clamped(token)
        guard token.hasEscapes else {
            guard range.count == utf8.count else { return false }
            var index = 0
            while index < utf8.count {
                if bytes[range.lowerBound + index] != utf8[index] { return false }
                index += 1
            }
            return true
        }
        var compared = 0
        let allEqual = forEachUnescapedScalar(in: range) { scalar, raw in
            if let raw {
                guard compared < utf8.count, utf8[compared] == raw else { return false }
                compared += 1
                return true
            }
            var equal = true
            Self.encode(scalar) { byte in
                if equal, compared < utf8.count, utf8[compared] == byte {
                    compared += 1
                } else {
                    equal = false
                }
            }
            return equal
        }
        return allEqual && compared == utf8.count
    }

    /// The length of the unescaped value of a string token in UTF-8 bytes, without allocating.
    /// - Parameter token: A token this reader returned.
    /// - Returns: The number of UTF-8 bytes in the value.
    public func utf8Count(_ token: JSONString) -> Int {
        let range = clamped(token)
        guard token.hasEscapes else { return range.count }
        var count = 0
        forEachUnescapedScalar(in: range) { scalar, raw in
            count += raw == nil ? Self.utf8Length(scalar) : 1
            return true
        }
        return count
    }

    /// The token's range, clamped to the buffer so a foreign token cannot trap.
    private func clamped(_ token: JSONString) -> Range<Int> {
        let lower = min(max(token.start, 0), bytes.count)
        let upper = min(max(token.end, lower), bytes.count)
        return lower ..< upper
    }

    /// Walks string content: each raw byte is passed as `raw`; each escape is decoded and
    /// passed as a scalar value with `raw == nil`. A malformed escape (only possible in a
    /// token this reader did not validate) yields U+FFFD. Stops when `body` returns `false`.
    /// - Returns: `false` when `body` stopped the walk.
    @discardableResult
    private func forEachUnescapedScalar(in range: Range<Int>, _ body: (UInt32, UInt8?) -> Bool) -> Bool {
        var index = range.lowerBound
        let end = range.upperBound
        while index < end {
            let byte = bytes[index]
            guard byte == JSONByte.backslash else {
                if !body(0, byte) { return false }
                index += 1
                continue
            }
            guard index + 1 < end else {
                if !body(0xFFFD, nil) { return false }
                index += 1
                continue
            }
            let scalar: UInt32
            switch bytes[index + 1] {
            case UInt8(ascii: "u"):
                let (value, next) = unicodeEscape(at: index, end: end)
                if !body(value, nil) { return false }
                index = next
                continue
            case let letter: scalar = Self.shortUnescape(letter)
            }
            if !body(scalar, nil) { return false }
            index += 2
        }
        return true
    }

    /// What a one-letter escape stands for: `\b \f \n \r \t` their control characters, and
    /// `\" \\ \/` (or any other letter, in a token this reader did not validate) the letter
    /// itself. `EscapeScan.shortEscape(_:)` is the writer's way back.
    @inline(__always)
    static func shortUnescape(_ letter: UInt8) -> UInt32 {
        switch letter {
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: UInt32(letter)
        }
    }

    /// Decodes `\uXXXX` (or a surrogate pair of them) at `index`.
    /// - Returns: The scalar value (U+FFFD when malformed) and the offset after the escape.
    private func unicodeEscape(at index: Int, end: Int) -> (UInt32, Int) {
        guard let unit = hex4(at: index + 2, end: end) else { return (0xFFFD, index + 2) }
        switch unit {
        case 0xD800 ... 0xDBFF:
            guard index + 7 < end, bytes[index + 6] == JSONByte.backslash, bytes[index + 7] == UInt8(ascii: "u"),
                  let low = hex4(at: index + 8, end: end), (0xDC00 ... 0xDFFF).contains(low) else {
                return (0xFFFD, index + 6)
            }
            return (0x10000 + ((unit - 0xD800) << 10 | (low - 0xDC00)), index + 12)
        case 0xDC00 ... 0xDFFF:
            return (0xFFFD, index + 6)
        default:
            return (unit, index + 6)
        }
    }

    private func hex4(at index: Int, end: Int) -> UInt32? {
        guard index >= 0, index + 4 <= end else { return nil }
        var value: UInt32 = 0
        for position in index ..< index + 4 {
            guard let digit = JSONByte.hexValue(bytes[position]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func utf8Length(_ scalar: UInt32) -> Int {
        switch scalar {
        case 0 ..< 0x80: 1
        case 0x80 ..< 0x800: 2
        case 0x800 ..< 0x10000: 3
        default: 4
        }
    }

    /// Writes the UTF-8 encoding of a scalar value (never a surrogate here).
    private static func encode(_ scalar: UInt32, _ write: (UInt8) -> Void) {
        switch scalar {
        case 0 ..< 0x80:
            write(UInt8(truncatingIfNeeded: scalar))
        case 0x80 ..< 0x800:
            write(UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6))
            write(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        case 0x800 ..< 0x10000:
            write(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
            write(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            write(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        default:
            write(UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18))
            write(UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F))
            write(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            write(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        }
    }
}
