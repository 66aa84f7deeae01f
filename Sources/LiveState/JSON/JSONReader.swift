import Foundation

// JSONReader: a strict RFC 8259 pull reader over caller-owned bytes.
//
// The reader holds nothing but the buffer, the limits, a byte offset and the nesting depth.
// It never builds a tree: the caller asks for the next token and reads it in the type it
// expects, so a schema-driven decoder walks the document exactly once. Strings and numbers
// come back as byte ranges (`JSONString`, `JSONNumber`) into the caller's buffer; their values
// are converted only on request (`string(_:)`, `matches(_:_:)`, `double(_:)`, `integer(_:)`).
// Line and column are computed from the offset only when an error is made.
//
// The scanner's types (this reader, `JSONString`, `JSONNumber`, `JSONToken`, `JSONValidator`,
// `JSONDuplicateKey`, `JSONWriter`) are SPI, `@_spi(Scanner) public`: the fuzz harness and the
// benchmark drivers, separate packages that `package` access does not reach, import them with
// `@_spi(Scanner) import LiveState`; an app importing `LiveState` does not see them.
//
// Worked example. Offsets are 0-based byte offsets into this 29-byte document:
//
//     {"id": 7, "tags": ["a", "b"]}
//     0         1         2
//     01234567890123456789012345678
//
//     call             returns                          offset  depth  note
//     ---------------  -------------------------------  ------  -----  ----------------------------
//     peek()           .objectStart                          0      0
//     beginObject()                                          1      1
//     nextKey()        JSONString(start: 2, end: 4)          6      1  "id"; consumed the ':'
//     peek()           .number                               7      1  skipped the space
//     readNumber()     JSONNumber(start: 7, end: 8)          8      1  integer(_:) gives 7
//     nextKey()        JSONString(start: 11, end: 15)       17      1  "tags"; consumed ',' and ':'
//     beginArray()                                          19      2  skipped the space
//     nextElement()    true                                 19      2  first call: no ',' wanted
//     readString()     JSONString(start: 20, end: 21)       22      2  "a"
//     nextElement()    true                                 24      2  consumed ',' and the space
//     readString()     JSONString(start: 25, end: 26)       27      2  "b"
//     nextElement()    false                                28      1  consumed ']'
//     nextKey()        nil                                  29      0  consumed '}'
//     finish()                                              29      0  only whitespace may remain
//
// The first `nextKey()`/`nextElement()` after `beginObject()`/`beginArray()` accepts the
// closing bracket or a member; every later call accepts ',' then a member, or the closing
// bracket. A ',' followed by the closing bracket (a trailing comma) is an error. A value the
// caller does not want is passed over with `skipValue()`, which validates it as strictly,
// without recursion and without allocating for nesting up to 64 levels.

/// The kind of the next value, as classified by `JSONReader.peek()` from its first byte.
@_spi(Scanner) public enum JSONToken: Sendable, Hashable {
    /// `{`: read it with `beginObject()` and `nextKey()`.
    case objectStart
    /// `[`: read it with `beginArray()` and `nextElement()`.
    case arrayStart
    /// `"`: read it with `readString()`.
    case string
    /// `-` or a digit: read it with `readNumber()`.
    case number
    /// `t`: read it with `readBool()`.
    case `true`
    /// `f`: read it with `readBool()`.
    case `false`
    /// `n`: read it with `readNull()`.
    case null
}

/// A strict RFC 8259 pull reader over caller-owned UTF-8 bytes.
///
/// Use it inside `withUnsafeBytes`; the buffer must outlive the reader. The hot path keeps
/// only a byte offset and allocates nothing. Every method either consumes exactly what it
/// names or throws a `JSONError` that says what was found and what was expected.
@_spi(Scanner) public struct JSONReader {
    /// The document being read.
    public let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    public private(set) var offset: Int
    /// The number of arrays and objects currently open.
    public private(set) var depth: Int
    /// The nesting limit from the options.
    let maxDepth: Int
    /// True right after `beginObject()`/`beginArray()`, until the next `nextKey()`/`nextElement()`.
    private var atContainerStart: Bool

    /// Creates a reader positioned at the start of `bytes`.
    /// - Parameters:
    ///   - bytes: The whole document, UTF-8; owned by the caller.
    ///   - options: The limits to enforce.
    /// - Throws: `JSONError` `.jsonLimit` at offset 0 when `bytes` is larger than
    ///   `options.maxInputBytes`.
    public init(bytes: UnsafeRawBufferPointer, options: JSONScanOptions = .init()) throws(JSONError) {
        self.bytes = bytes
        self.offset = 0
        self.depth = 0
        self.maxDepth = options.maxDepth
        self.atContainerStart = false
        guard bytes.count <= options.maxInputBytes else {
            throw JSONError(
                code: .jsonLimit,
                // The size is not worded: a reader of a file may stop one byte past the limit.
                message: "input is larger than the limit of \(options.maxInputBytes) bytes",
                position: SourcePosition(offset: 0, line: 1, column: 1))
        }
    }

    /// Reads `bytes` with a reader made over them for the length of `body`.
    /// - Parameters:
    ///   - bytes: The whole document, UTF-8.
    ///   - options: The limits to enforce.
    ///   - body: What to read; the reader must not escape it.
    /// - Returns: What `body` returns.
    /// - Throws: What `init(bytes:options:)` or `body` throws.
    package static func reading<Result>(
        _ bytes: some ContiguousBytes, options: JSONScanOptions = .init(), _ body: (inout JSONReader) throws(JSONError) -> Result
    ) throws(JSONError) -> Result {
        try bytes.withUnsafeBytes { buffer in
            Swift.Result { () throws(JSONError) in
                var reader = try JSONReader(bytes: buffer, options: options)
                return try body(&reader)
            }
        }.get()
    }

    /// Whether only white space is left to read.
    package var isAtEnd: Bool {
        var probe = self
        probe.skipWhitespace()
        return probe.offset >= bytes.count
    }

    // MARK: - Classifying

    /// Skips whitespace and classifies the next value by its first byte, without consuming it.
    /// - Returns: The kind of the next value.
    /// - Throws: `JSONError` at the end of input (`empty input` when the document is only
    ///   whitespace) or on a byte that cannot start a value, such as a byte order mark.
    public mutating func peek() throws(JSONError) -> JSONToken {
        skipWhitespace()
        guard offset < bytes.count else { throw valueStartError(at: offset) }
        switch bytes[offset] {
        case JSONByte.openBrace: return .objectStart
        case JSONByte.openBracket: return .arrayStart
        case JSONByte.quote: return .string
        case JSONByte.minus, JSONByte.zero ... JSONByte.nine: return .number
        case UInt8(ascii: "t"): return .true
        case UInt8(ascii: "f"): return .false
        case UInt8(ascii: "n"): return .null
        default: throw valueStartError(at: offset)
        }
    }

    // MARK: - Containers

    /// Consumes `{` and opens an object.
    /// - Throws: `JSONError` `.jsonSyntax` when the next value is not an object; `.jsonLimit` when
    ///   opening it would exceed `maxDepth`.
    public mutating func beginObject() throws(JSONError) {
        try open(JSONByte.openBrace, "'{'")
    }

    /// Consumes `[` and opens an array.
    /// - Throws: `JSONError` `.jsonSyntax` when the next value is not an array; `.jsonLimit` when
    ///   opening it would exceed `maxDepth`.
    public mutating func beginArray() throws(JSONError) {
        try open(JSONByte.openBracket, "'['")
    }

    private mutating func open(_ bracket: UInt8, _ name: String) throws(JSONError) {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == bracket else {
            throw expected(name, at: offset)
        }
        guard depth < maxDepth else { throw depthError(at: offset) }
        offset += 1
        depth += 1
        atContainerStart = true
    }

    /// Moves to the next member of the current object and reads its key and the `:` after it.
    ///
    /// The first call after `beginObject()` accepts `}` or a key; later calls accept `,` then
    /// a key, or `}`. Returning `nil` closes the object.
    /// - Returns: The key, or `nil` after consuming `}`.
    /// - Throws: `JSONError` on anything else, including a trailing comma.
    public mutating func nextKey() throws(JSONError) -> JSONString? {
        skipWhitespace()
        let first = atContainerStart
        atContainerStart = false
        guard offset < bytes.count else {
            throw expected(first ? "a string key or '}' after '{'" : "',' or '}' after an object member", at: offset)
        }
        let byte = bytes[offset]
        if byte == JSONByte.closeBrace {
            offset += 1
            depth = max(depth - 1, 0)
            return nil
        }
        if first {
            guard byte == JSONByte.quote else { throw expected("a string key or '}' after '{'", at: offset) }
        } else {
            guard byte == JSONByte.comma else { throw expected("',' or '}' after an object member", at: offset) }
            offset += 1
            skipWhitespace()
            guard offset < bytes.count, bytes[offset] == JSONByte.quote else {
                if offset < bytes.count, bytes[offset] == JSONByte.closeBrace {
                    throw error(.jsonSyntax, "trailing comma: expected a string key after ',', found '}'", at: offset)
                }
                throw expected("a string key after ','", at: offset)
            }
        }
        let key = try scanString(quote: offset)
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == JSONByte.colon else {
            throw expected("':' after an object key", at: offset)
        }
        offset += 1
        return key
    }

    /// Moves to the next element of the current array.
    ///
    /// The first call after `beginArray()` accepts `]` or an element; later calls accept `,`
    /// then an element, or `]`. Returning `false` closes the array.
    /// - Returns: `true` when an element follows (read it next), `false` after consuming `]`.
    /// - Throws: `JSONError` on anything else, including a trailing comma.
    public mutating func nextElement() throws(JSONError) -> Bool {
        skipWhitespace()
        let first = atContainerStart
        atContainerStart = false
        guard offset < bytes.count else {
            throw expected(first ? "a value or ']' after '['" : "',' or ']' after an array element", at: offset)
        }
        let byte = bytes[offset]
        if byte == JSONByte.closeBracket {
            offset += 1
            depth = max(depth - 1, 0)
            return false
        }
        if first { return true }
        guard byte == JSONByte.comma else { throw expected("',' or ']' after an array element", at: offset) }
        offset += 1
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == JSONByte.closeBracket {
            throw error(.jsonSyntax, "trailing comma: expected a value after ',', found ']'", at: offset)
        }
        guard offset < bytes.count else { throw expected("a value after ','", at: offset) }
        return true
    }

    /// Counts the elements of the array just opened by `beginArray()`, without validating and
    /// without moving the reader: a capacity hint, exact for valid JSON.
    ///
    /// Strings are passed over eight bytes at a time; nested containers are skipped by depth.
    /// - Parameter limit: The count to stop at.
    /// - Returns: The number of elements, at most `limit`.
    public func elementCountHint(limit: Int) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let count = bytes.count
        var index = offset
        var depth = 0
        var commas = 0
        var sawValue = false
        while index < count {
            let byte = bytes[index]
            switch byte {
            case JSONByte.quote:
                // Skip to the closing quote: past every backslash and the byte it escapes.
                index &+= 1
                while index < count {
                    if index &+ 8 <= count {
                        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                        let mask = Self.quoteOrBackslashMask(word)
                        if mask == 0 {
                            index &+= 8
                            continue
                        }
                        index &+= mask.trailingZeroBitCount &>> 3
                    }
                    guard index < count else { break }
                    if bytes[index] == JSONByte.quote { break }
                    index &+= bytes[index] == JSONByte.backslash ? 2 : 1
                }
                sawValue = true
            case JSONByte.openBracket, JSONByte.openBrace:
                depth &+= 1
                sawValue = true
            case JSONByte.closeBracket, JSONByte.closeBrace:
                if depth == 0 { return min(sawValue ? commas &+ 1 : 0, limit) }
                depth &-= 1
            case JSONByte.comma:
                if depth == 0 {
                    commas &+= 1
                    if commas >= limit { return limit }
                }
            case 0x20, 0x0A, 0x0D, 0x09:
                break
            default:
                sawValue = true
            }
            index &+= 1
        }
        return min(commas &+ 1, limit)
    }

    /// 0x80 in each byte of `word` that is a quote or a backslash; the lowest set byte is a real one.
    @inline(__always)
    private static func quoteOrBackslashMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        return ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes) & (ones &* 0x80)
    }

    // MARK: - Scalars

    /// Reads a string and validates it: escapes, UTF-8, no raw control characters, no lone
    /// surrogate escapes.
    /// - Returns: The byte range of the content between the quotes.
    /// - Throws: `JSONError` when the next value is not a valid string.
    public mutating func readString() throws(JSONError) -> JSONString {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == JSONByte.quote else { throw expected("a string", at: offset) }
        return try scanString(quote: offset)
    }

    /// Reads a number by the strict RFC 8259 grammar: no leading zeros, no `+`, no `.5` or
    /// `5.`, no hex, no `NaN` or `Infinity`.
    /// - Returns: The byte range of the number.
    /// - Throws: `JSONError` when the next value is not a valid number.
    public mutating func readNumber() throws(JSONError) -> JSONNumber {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == JSONByte.minus || JSONByte.isDigit(bytes[offset]) else {
            throw expected("a number", at: offset)
        }
        return try scanNumber(at: offset)
    }

    /// Reads `true` or `false`.
    /// - Returns: The value.
    /// - Throws: `JSONError` when the next value is not a boolean.
    public mutating func readBool() throws(JSONError) -> Bool {
        skipWhitespace()
        guard offset < bytes.count else { throw expected("'true' or 'false'", at: offset) }
        switch bytes[offset] {
        case UInt8(ascii: "t"):
            try scanLiteral("true", at: offset)
            return true
        case UInt8(ascii: "f"):
            try scanLiteral("false", at: offset)
            return false
        default:
            throw expected("'true' or 'false'", at: offset)
        }
    }

    /// Reads `null`.
    /// - Throws: `JSONError` when the next value is not `null`.
    public mutating func readNull() throws(JSONError) {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "n") else { throw expected("'null'", at: offset) }
        try scanLiteral("null", at: offset)
    }

    // MARK: - Skipping and finishing

    /// Moves past a value that was read elsewhere, from the same bytes, up to `end`.
    mutating func move(to end: Int) {
        offset = end
    }

    /// Moves to the value at `offset`, read elsewhere up to there, with `depth` containers
    /// open around it: the nesting limit counts them.
    mutating func move(toValueAt offset: Int, depth: Int) {
        self.offset = offset
        self.depth = depth
        atContainerStart = false
    }

    /// Skips one whole value, validating it as strictly as the `read` methods do.
    ///
    /// Iterative: nesting is tracked in a bit stack (one bit per level, inline for the first
    /// 64 levels), so it neither recurses nor allocates for nesting up to 64. The depth limit
    /// counts the containers already open around the value.
    /// - Throws: `JSONError` on the first problem in the value.
    public mutating func skipValue() throws(JSONError) {
        var stack = ContainerStack()
        var needValue = true
        while true {
            if needValue {
                needValue = false
                skipWhitespace()
                guard offset < bytes.count else { throw valueStartError(at: offset) }
                switch bytes[offset] {
                case JSONByte.openBrace:
                    guard depth + stack.count < maxDepth else { throw depthError(at: offset) }
                    stack.push(isObject: true)
                    offset += 1
                    skipWhitespace()
                    if offset < bytes.count, bytes[offset] == JSONByte.closeBrace {
                        offset += 1
                        stack.pop()
                    } else {
                        guard offset < bytes.count, bytes[offset] == JSONByte.quote else {
                            throw expected("a string key or '}' after '{'", at: offset)
                        }
                        try skipKeyAndColon()
                        needValue = true
                        continue
                    }
                case JSONByte.openBracket:
                    guard depth + stack.count < maxDepth else { throw depthError(at: offset) }
                    stack.push(isObject: false)
                    offset += 1
                    skipWhitespace()
                    guard offset < bytes.count else { throw expected("a value or ']' after '['", at: offset) }
                    if bytes[offset] == JSONByte.closeBracket {
                        offset += 1
                        stack.pop()
                    } else {
                        needValue = true
                        continue
                    }
                case JSONByte.quote:
                    _ = try scanString(quote: offset)
                case JSONByte.minus, JSONByte.zero ... JSONByte.nine:
                    _ = try scanNumber(at: offset)
                case UInt8(ascii: "t"):
                    try scanLiteral("true", at: offset)
                case UInt8(ascii: "f"):
                    try scanLiteral("false", at: offset)
                case UInt8(ascii: "n"):
                    try scanLiteral("null", at: offset)
                default:
                    throw valueStartError(at: offset)
                }
            }
            // A value just ended: close containers or move to the next member.
            guard let isObject = stack.top else { return }
            skipWhitespace()
            guard offset < bytes.count else {
                let what = isObject ? "',' or '}' after an object member" : "',' or ']' after an array element"
                throw expected(what, at: offset)
            }
            let byte = bytes[offset]
            if isObject {
                if byte == JSONByte.closeBrace {
                    offset += 1
                    stack.pop()
                    continue
                }
                guard byte == JSONByte.comma else { throw expected("',' or '}' after an object member", at: offset) }
                offset += 1
                skipWhitespace()
                guard offset < bytes.count, bytes[offset] == JSONByte.quote else {
                    if offset < bytes.count, bytes[offset] == JSONByte.closeBrace {
                        throw error(.jsonSyntax, "trailing comma: expected a string key after ',', found '}'", at: offset)
                    }
                    throw expected("a string key after ','", at: offset)
                }
                try skipKeyAndColon()
            } else {
                if byte == JSONByte.closeBracket {
                    offset += 1
                    stack.pop()
                    continue
                }
                guard byte == JSONByte.comma else { throw expected("',' or ']' after an array element", at: offset) }
                offset += 1
                skipWhitespace()
                if offset < bytes.count, bytes[offset] == JSONByte.closeBracket {
                    throw error(.jsonSyntax, "trailing comma: expected a value after ',', found ']'", at: offset)
                }
                guard offset < bytes.count else { throw expected("a value after ','", at: offset) }
            }
            needValue = true
        }
    }

    private mutating func skipKeyAndColon() throws(JSONError) {
        _ = try scanString(quote: offset)
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == JSONByte.colon else {
            throw expected("':' after an object key", at: offset)
        }
        offset += 1
    }

    /// Checks that only whitespace remains after the top-level value.
    /// - Throws: `JSONError` when anything else follows, or when a container is still open.
    public mutating func finish() throws(JSONError) {
        skipWhitespace()
        guard depth == 0 else {
            throw expected("the end of \(depth) open array(s) or object(s)", at: offset)
        }
        guard offset == bytes.count else {
            throw expected("the end of input after the top-level value", at: offset)
        }
    }

    // MARK: - Positions and errors

    /// Computes the line and column of a byte offset with `locator`, which counts on from the
    /// offset it was last asked for: for many positions in one document.
    package func position(of offset: Int, counting locator: inout SourcePosition.Locator) -> SourcePosition {
        locator.position(of: offset, in: bytes)
    }

    /// Computes the line and column of a byte offset; used only when reporting.
    /// - Parameter offset: A byte offset into `bytes`; clamped to the document.
    /// - Returns: The position, with a 1-based line and a 1-based column in UTF-8 bytes.
    public func position(of offset: Int) -> SourcePosition {
        SourcePosition.locate(offset: offset, in: bytes)
    }

    /// Makes an error at a byte offset, computing its line and column.
    /// - Parameters:
    ///   - code: The class of problem: `.jsonSyntax` or `.jsonLimit`.
    ///   - message: What was found and what was expected.
    ///   - offset: Where the problem is.
    /// - Returns: The error, ready to throw.
    public func error(_ code: DiagnosticCode, _ message: String, at offset: Int) -> JSONError {
        JSONError(code: code, message: message, position: position(of: offset))
    }

    /// Describes the byte at `offset` for a message: `'x'`, `byte 0xC3` or `end of input`.
    func describeByte(at offset: Int) -> String {
        guard offset >= 0, offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        if byte >= 0x21, byte <= 0x7E {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        return "byte " + Self.hex(byte)
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0x0" + digits : "0x" + digits
    }

    private func expected(_ what: String, at offset: Int) -> JSONError {
        let message = "expected \(what), found \(describeByte(at: offset))"
        // UTF-16 fails on its first or second byte.
        return error(.jsonSyntax, offset < 2 ? UTF16Text.explaining(message, in: bytes) : message, at: offset)
    }

    /// The limit is LiveState's, against stack exhaustion on hostile input: JSONDecoder reads
    /// 512 levels, so a device may apply a body LiveState does not read, which the message says.
    private func depthError(at offset: Int) -> JSONError {
        error(.jsonLimit, "nesting deeper than \(maxDepth), the most LiveState reads (Foundation's JSONDecoder reads 512 levels)", at: offset)
    }

    private func valueStartError(at offset: Int) -> JSONError {
        if offset >= bytes.count {
            var index = 0
            while index < bytes.count, JSONByte.isWhitespace(bytes[index]) { index += 1 }
            if index == bytes.count { return error(.jsonSyntax, "empty input", at: offset) }
            return error(.jsonSyntax, "unexpected end of input, expected a value", at: offset)
        }
        if offset == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            return error(.jsonSyntax, "byte order mark is not allowed", at: 0)
        }
        return expected("a value", at: offset)
    }

    // MARK: - Scanning

    @inline(__always)
    private mutating func skipWhitespace() {
        var index = offset
        let count = bytes.count
        while index < count, JSONByte.isWhitespace(bytes[index]) { index += 1 }
        offset = index
    }

    /// The bytes of `word` (read little-endian) that are `"`, `\`, below 0x20 or above 0x7F, as
    /// 0x80 in each such byte. The lowest set byte is always a real one (a borrow can only mark
    /// bytes above it), so `trailingZeroBitCount / 8` is the index of the first byte to look at.
    @inline(__always)
    static func attentionMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let hasQuote = (quotes &- ones) & ~quotes
        let hasBackslash = (backslashes &- ones) & ~backslashes
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl | word) & highs
    }

    /// Scans the string whose opening quote is at `quote` and moves past its closing quote.
    private mutating func scanString(quote: Int) throws(JSONError) -> JSONString {
        let count = bytes.count
        let start = quote + 1
        var index = start
        var hasEscapes = false
        guard let base = bytes.baseAddress else { throw error(.jsonSyntax, "unterminated string", at: quote) }
        while true {
            // Eight bytes at a time up to the first byte that needs a look; byte by byte in the
            // last seven bytes of the input.
            if index &+ 8 <= count {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let mask = Self.attentionMask(word)
                if mask == 0 {
                    index &+= 8
                    continue
                }
                index &+= mask.trailingZeroBitCount &>> 3
            }
            guard index < count else { throw error(.jsonSyntax, "unterminated string", at: quote) }
            let byte = bytes[index]
            if byte == JSONByte.quote {
                offset = index + 1
                return JSONString(start: start, end: index, hasEscapes: hasEscapes)
            } else if byte == JSONByte.backslash {
                hasEscapes = true
                index = try scanEscape(at: index, quote: quote)
            } else if byte < 0x20 {
                throw error(
                    .jsonSyntax,
                    "control character \(Self.hex(byte)) must be escaped in a string", at: index)
            } else if byte < 0x80 {
                index += 1
            } else {
                index = try scanUTF8(at: index, quote: quote)
            }
        }
    }

    /// Validates the escape at `index` (a backslash) and returns the offset after it.
    @inline(__always)
    func scanEscape(at index: Int, quote: Int) throws(JSONError) -> Int {
        guard index + 1 < bytes.count else { throw error(.jsonSyntax, "unterminated string", at: quote) }
        let kind = bytes[index + 1]
        if JSONByte.isShortEscape(kind) { return index + 2 }
        switch kind {
        case UInt8(ascii: "u"):
            let unit = try hex4(at: index + 2, quote: quote)
            switch unit {
            case 0xD800 ... 0xDBFF:
                if index + 7 < bytes.count, bytes[index + 6] == JSONByte.backslash,
                   bytes[index + 7] == UInt8(ascii: "u") {
                    let low = try hex4(at: index + 8, quote: quote)
                    if (0xDC00 ... 0xDFFF).contains(low) { return index + 12 }
                }
                throw error(
                    .jsonSyntax,
                    "lone surrogate: \\u\(Self.hex4Text(unit)) is not followed by a low surrogate escape" + Self.loneSurrogateConsequence,
                    at: index)
            case 0xDC00 ... 0xDFFF:
                throw error(
                    .jsonSyntax, "lone surrogate: \\u\(Self.hex4Text(unit)) is a low surrogate without a high one" + Self.loneSurrogateConsequence,
                    at: index)
            default:
                return index + 6
            }
        default:
            throw error(
                .jsonSyntax,
                "invalid escape: expected one of \" \\ / b f n r t u after '\\', found \(describeByte(at: index + 1))",
                at: index)
        }
    }

    /// What a lone surrogate does, after its error: JSON's grammar allows one (RFC 8259 §8.2
    /// only calls its meaning unpredictable), and a server that cuts a string inside an emoji
    /// (JavaScript's `slice`) and serializes it writes one, but Foundation refuses it:
    /// `JSONSerialization` the whole body, `JSONDecoder` the string it reads.
    static let loneSurrogateConsequence = " (half of a character, as a string cut inside an emoji leaves it): Foundation refuses it, "
        + "JSONSerialization the whole body and JSONDecoder the string it reads, so the device drops the push; cut strings at whole characters"

    private static func hex4Text(_ unit: UInt16) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    func hex4(at index: Int, quote: Int) throws(JSONError) -> UInt16 {
        var value: UInt16 = 0
        for position in index ..< index + 4 {
            guard position < bytes.count else { throw error(.jsonSyntax, "unterminated string", at: quote) }
            guard let digit = JSONByte.hexValue(bytes[position]) else {
                throw error(
                    .jsonSyntax, "invalid \\u escape: expected 4 hex digits, found \(describeByte(at: position))",
                    at: position)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// Validates the UTF-8 sequence led by the byte at `index` (>= 0x80) and returns the
    /// offset after it. Rejects overlongs, encoded surrogates and code points past U+10FFFF.
    ///
    /// A valid sequence is checked here with a few comparisons; an invalid one goes to
    /// `utf8Error`, which says what is wrong with it.
    @inline(__always)
    func scanUTF8(at index: Int, quote: Int) throws(JSONError) -> Int {
        let (length, low, high) = JSONByte.utf8Sequence(lead: bytes[index])
        if length > 0, index &+ length <= bytes.count {
            let second = bytes[index &+ 1]
            if second >= low, second <= high,
               length < 3 || bytes[index &+ 2] & 0xC0 == 0x80,
               length < 4 || bytes[index &+ 3] & 0xC0 == 0x80 {
                return index &+ length
            }
        }
        return try utf8Error(at: index, quote: quote)
    }

    /// The error for the invalid UTF-8 sequence led by the byte at `index`.
    private func utf8Error(at index: Int, quote: Int) throws(JSONError) -> Int {
        let lead = bytes[index]
        let (length, low, high) = JSONByte.utf8Sequence(lead: lead)
        guard length > 0 else {
            switch lead {
            case 0x80 ... 0xBF:
                throw error(.jsonSyntax, "invalid UTF-8: unexpected continuation byte \(Self.hex(lead))", at: index)
            case 0xC0, 0xC1:
                throw error(.jsonSyntax, "invalid UTF-8: overlong encoding (lead byte \(Self.hex(lead)))", at: index)
            default:
                throw error(.jsonSyntax, "invalid UTF-8: byte \(Self.hex(lead)) never occurs in UTF-8", at: index)
            }
        }
        let secondRange = low ... high
        for position in index + 1 ..< index + length {
            guard position < bytes.count else {
                throw error(.jsonSyntax, "invalid UTF-8: truncated sequence at the end of input", at: index)
            }
            let byte = bytes[position]
            let range = position == index + 1 ? secondRange : 0x80 ... 0xBF
            guard range.contains(byte) else {
                if position == index + 1, (0x80 ... 0xBF).contains(byte) {
                    let problem = switch lead {
                    case 0xE0, 0xF0: "overlong encoding"
                    case 0xED: "encoded surrogate (U+D800 to U+DFFF)"
                    default: "code point beyond U+10FFFF"
                    }
                    throw error(
                        .jsonSyntax, "invalid UTF-8: \(problem) (\(Self.hex(lead)) \(Self.hex(byte)))", at: index)
                }
                throw error(
                    .jsonSyntax,
                    "invalid UTF-8: expected a continuation byte after \(Self.hex(lead)), "
                        + "found \(describeByte(at: position))",
                    at: index)
            }
        }
        return index + length
    }

    /// Scans the number starting at `start` (a '-' or a digit) and moves past it.
    private mutating func scanNumber(at start: Int) throws(JSONError) -> JSONNumber {
        let count = bytes.count
        var index = start
        if bytes[index] == JSONByte.minus {
            index += 1
            guard index < count, JSONByte.isDigit(bytes[index]) else { throw expected("a digit after '-'", at: index) }
        }
        if bytes[index] == JSONByte.zero {
            index += 1
            if index < count, JSONByte.isDigit(bytes[index]) {
                throw error(
                    .jsonSyntax, "leading zeros are not allowed in a number, found \(describeByte(at: index)) after '0'",
                    at: index)
            }
        } else {
            while index < count, JSONByte.isDigit(bytes[index]) { index += 1 }
        }
        var isInteger = true
        if index < count, bytes[index] == JSONByte.period {
            isInteger = false
            index += 1
            guard index < count, JSONByte.isDigit(bytes[index]) else {
                throw expected("a digit after '.' in a number", at: index)
            }
            while index < count, JSONByte.isDigit(bytes[index]) { index += 1 }
        }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < count, bytes[index] == JSONByte.plus || bytes[index] == JSONByte.minus { index += 1 }
            guard index < count, JSONByte.isDigit(bytes[index]) else {
                throw expected("a digit in the exponent of a number", at: index)
            }
            while index < count, JSONByte.isDigit(bytes[index]) { index += 1 }
        }
        if index < count, JSONByte.continuesToken(bytes[index]) {
            throw error(.jsonSyntax, "invalid number: unexpected \(describeByte(at: index)) after it", at: index)
        }
        offset = index
        return JSONNumber(start: start, end: index, isInteger: isInteger)
    }

    /// Checks the literal (`true`, `false`, `null`) at `start` and moves past it.
    private mutating func scanLiteral(_ literal: StaticString, at start: Int) throws(JSONError) {
        let length = literal.utf8CodeUnitCount
        let expected = literal.utf8Start
        for index in 0 ..< length {
            let position = start + index
            guard position < bytes.count, bytes[position] == expected[index] else {
                throw error(
                    .jsonSyntax, "invalid literal: expected '\(literal)', found \(describeByte(at: position))",
                    at: position)
            }
        }
        let end = start + length
        if end < bytes.count, JSONByte.continuesToken(bytes[end]) {
            throw error(.jsonSyntax, "invalid literal: unexpected \(describeByte(at: end)) after '\(literal)'", at: end)
        }
        offset = end
    }
}

/// The kinds of the containers open inside `skipValue()`, one bit per level: inline for the
/// first 64 levels, then in an array that is allocated only past 64.
private struct ContainerStack {
    private var inline: UInt64 = 0
    private var spill: [UInt64] = []
    private(set) var count = 0

    mutating func push(isObject: Bool) {
        let bit: UInt64 = isObject ? 1 : 0
        if count < 64 {
            inline |= bit << UInt64(count)
            inline &= ~((bit ^ 1) << UInt64(count))
        } else {
            let level = count - 64
            let word = level / 64
            if word == spill.count { spill.append(0) }
            let shift = UInt64(level % 64)
            spill[word] = (spill[word] & ~(1 << shift)) | (bit << shift)
        }
        count += 1
    }

    mutating func pop() {
        if count > 0 { count -= 1 }
    }

    /// Whether the innermost open container is an object; `nil` when none is open.
    var top: Bool? {
        guard count > 0 else { return nil }
        let level = count - 1
        if level < 64 { return inline >> UInt64(level) & 1 == 1 }
        let spilled = level - 64
        return spill[spilled / 64] >> UInt64(spilled % 64) & 1 == 1
    }
}

/// Byte constants and byte classes of the JSON grammar.
package enum JSONByte {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let period = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")

    /// JSON whitespace: space, tab, line feed, carriage return.
    @inline(__always)
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// An ASCII digit.
    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }

    /// Whether `\` and `byte` are a two-byte escape: `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`.
    @inline(__always)
    static func isShortEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case quote, backslash, slash, UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            true
        default:
            false
        }
    }

    /// The UTF-8 sequence `lead` starts: its length, and the range its second byte must be in
    /// (narrower after E0, ED, F0 and F4, which would otherwise start an overlong, a surrogate
    /// or a code point past U+10FFFF). The length is 0 for a byte that never leads one.
    @inline(__always)
    static func utf8Sequence(lead: UInt8) -> (length: Int, low: UInt8, high: UInt8) {
        switch lead {
        case 0xC2 ... 0xDF: (2, 0x80, 0xBF)
        case 0xE0: (3, 0xA0, 0xBF)
        case 0xED: (3, 0x80, 0x9F)
        case 0xE1 ... 0xEF: (3, 0x80, 0xBF)
        case 0xF0: (4, 0x90, 0xBF)
        case 0xF4: (4, 0x80, 0x8F)
        case 0xF1 ... 0xF3: (4, 0x80, 0xBF)
        default: (0, 0, 0)
        }
    }

    /// Whether `byte` is an ASCII hex digit, either case: asked by the JSON scanner's `\u`
    /// escapes, UUIDs, URL percent escapes, YAML's `0x` integers and device tokens.
    package static func isHexDigit(_ byte: UInt8) -> Bool { hexValue(byte) != nil }

    /// The value of an ASCII hex digit, or `nil`.
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case zero ... nine: byte - zero
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A byte that would glue onto a number or literal: a letter, a digit, `.`, `+`, `-` or `_`.
    static func continuesToken(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == period || byte == plus || byte == minus
            || byte == UInt8(ascii: "_")
    }
}
