import Foundation

/// A place in a source text: a JSON payload or a YAML schema.
///
/// `offset` is 0-based and counts UTF-8 bytes from the start of the text.
/// `line` and `column` are 1-based; `column` counts UTF-8 bytes from the start of the line.
public struct SourcePosition: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The 0-based byte offset from the start of the text.
    public var offset: Int
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, in UTF-8 bytes from the start of the line.
    public var column: Int

    /// Creates a position.
    /// - Parameters:
    ///   - offset: The 0-based byte offset.
    ///   - line: The 1-based line.
    ///   - column: The 1-based column in UTF-8 bytes.
    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// `line:column`, the way compilers print it.
    public var description: String { "\(line):\(column)" }

    /// `locate(offset:in:)` in bytes already lent as a buffer.
    package static func locate(offset: Int, in bytes: UnsafeRawBufferPointer) -> SourcePosition {
        var locator = Locator()
        return locator.position(of: offset, in: bytes)
    }

    /// Line and column for offsets asked for mostly in increasing order, as a decoder reports
    /// its findings: each lookup counts line feeds from the previous one, forward or back, not
    /// from the start (an object's `defaulted` findings come after its members', at its start:
    /// counting from the start each time made thousands of such objects quadratic).
    package struct Locator {
        /// The offset counted up to, the line it is on, and the offset where that line starts.
        private var counted = 0
        private var line = 1
        private var lineStart = 0
        /// The offset of the first line feed (the count when there is none); -1 until looked up.
        private var firstLineFeed = -1
        /// The bytes looked at so far, for the test that holds the count linear.
        private(set) var bytesLooked = 0

        package init() {}

        /// The position of `offset` in `bytes`; `bytes` must be the same text on every call.
        /// Asked only for findings, so kept out of line.
        @inline(never)
        package mutating func position(of offset: Int, in bytes: UnsafeRawBufferPointer) -> SourcePosition {
            let end = min(max(offset, 0), bytes.count)
            if firstLineFeed < 0 {
                // Payloads are mostly one line: one memchr answers every lookup on the first line.
                firstLineFeed = bytes.baseAddress
                    .flatMap { base in memchr(base, 0x0A, bytes.count).map { UnsafeRawPointer($0) - base } } ?? bytes.count
            }
            if end <= firstLineFeed { return SourcePosition(offset: end, line: 1, column: end + 1) }
            var index = counted
            if end < counted {
                // Back: uncount the line feeds in between, and find where `end`'s line starts.
                bytesLooked += index - end
                while index > end {
                    index -= 1
                    if bytes[index] == 0x0A { line -= 1 }
                }
                if end < lineStart {
                    lineStart = end
                    while lineStart > 0, bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
                    bytesLooked += end - lineStart
                }
            }
            bytesLooked += max(end - index, 0)
            while index < end {
                if bytes[index] == 0x0A {
                    line += 1
                    lineStart = index + 1
                }
                index += 1
            }
            counted = end
            return SourcePosition(offset: end, line: line, column: end - lineStart + 1)
        }
    }

    /// Computes the line and column of a byte offset by counting line feeds before it.
    ///
    /// Positions are computed only when a diagnostic is made, never on the hot path.
    /// - Parameters:
    ///   - offset: The 0-based byte offset; clamped to the text.
    ///   - bytes: The whole text, in an array, `Data` or any other contiguous bytes.
    /// - Returns: The position of `offset`.
    public static func locate(offset: Int, in bytes: some ContiguousBytes) -> SourcePosition {
        bytes.withUnsafeBytes { locate(offset: offset, in: $0) }
    }
}
