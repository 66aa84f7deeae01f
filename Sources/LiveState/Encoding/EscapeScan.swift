/// The bytes of a string that writing it as JSON has to look at, found eight at a time: those a
/// string literal must escape (`"`, `\` and the control characters) and the `/`s, which the
/// device's `JSONEncoder` escapes too. `StateWriter` writes strings by it and
/// `ByteBudget.escapedLength` measures them by it: one rule for both.
enum EscapeScan {
    /// The bytes of an 8-byte word that a string literal must escape, and its `/`s, each as the
    /// high bit of its byte: exact tests, with no carry or borrow between bytes.
    struct Attention {
        var escapes: UInt64
        var slashes: UInt64

        private static let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        private static let ones: UInt64 = 0x0101_0101_0101_0101

        @inline(__always)
        init(_ word: UInt64) {
            // A byte's high bit stays clear through the sum only when the byte is below 0x20.
            let control = ~(((word & Self.low7) &+ Self.ones &* 0x60) | word | Self.low7)
            escapes = control | Self.zeroBytes(word ^ Self.ones &* 0x22) | Self.zeroBytes(word ^ Self.ones &* 0x5C)
            slashes = Self.zeroBytes(word ^ Self.ones &* 0x2F)
        }

        @inline(__always)
        private static func zeroBytes(_ word: UInt64) -> UInt64 {
            ~(((word & low7) &+ low7) | word | low7)
        }
    }

    /// Calls `body` with the `Attention` of each 8-byte word of the `length` bytes at `source`
    /// that has a byte to look at, and the offset the word starts at. The last word is the
    /// last 8 bytes, those already passed replaced by "A"; fewer than 8 bytes are padded with
    /// "A". So every string takes the same path, and no byte is flagged twice.
    @inline(__always)
    static func forEachFlaggedWord(_ source: UnsafeRawPointer, _ length: Int, _ body: (Attention, Int) -> Void) {
        let filler: UInt64 = 0x4141_4141_4141_4141
        var index = 0
        while index < length {
            let word: UInt64
            let wordStart: Int
            if index &+ 8 <= length {
                word = UInt64(littleEndian: (source + index).loadUnaligned(as: UInt64.self))
                wordStart = index
            } else if length >= 8 {
                let done = UInt64(truncatingIfNeeded: 8 &- (length &- index)) &* 8
                let last = UInt64(littleEndian: (source + (length &- 8)).loadUnaligned(as: UInt64.self))
                let doneMask: UInt64 = done == 0 ? 0 : ~0 >> (64 &- done)
                word = (last & ~doneMask) | (filler & doneMask)
                wordStart = length &- 8
            } else {
                var padded = filler
                withUnsafeMutableBytes(of: &padded) { $0.baseAddress!.copyMemory(from: source, byteCount: length) }
                word = UInt64(littleEndian: padded)
                wordStart = 0
            }
            index = wordStart &+ 8
            guard needsAttention(word) else { continue }
            body(Attention(word), wordStart)
        }
    }

    /// Whether any of the 8 bytes of `word` may be a control character, `"`, `\` or `/`: the
    /// usual quick tests for a byte below 0x20 and for a zero byte, which may also flag a byte
    /// just above one that is flagged. `Attention` then says exactly which.
    @inline(__always)
    private static func needsAttention(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let control = (word &- ones &* 0x20) & ~word
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let slash = word ^ (ones &* 0x2F)
        let equal = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((slash &- ones) & ~slash)
        return (control | equal) & 0x8080_8080_8080_8080 != 0
    }

    /// The letter of `byte`'s two-byte escape (`"` for `\"`, `\`, `b`, `f`, `n`, `r`, `t`),
    /// or `nil` for a byte `Attention.escapes` flags that is written `\u00XX` (every other
    /// control character). The writer writes by it and the budget measures by it.
    @inline(__always)
    static func shortEscape(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\""): UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): UInt8(ascii: "\\")
        case 0x08: UInt8(ascii: "b")
        case 0x09: UInt8(ascii: "t")
        case 0x0A: UInt8(ascii: "n")
        case 0x0C: UInt8(ascii: "f")
        case 0x0D: UInt8(ascii: "r")
        default: nil
        }
    }
}
