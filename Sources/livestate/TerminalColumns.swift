/// How many columns a terminal gives text: what a caret under an echoed source line is placed
/// by. A finding's column counts UTF-8 bytes, and counting characters instead put the caret two
/// columns short for each wide character before it (`日`, `😀`).
///
/// The rule is `wcwidth`'s, to its main ranges: a character is two columns when its first code
/// point is East Asian Wide or Fullwidth (CJK, Hangul, kana, fullwidth forms) or an emoji shown
/// as one (Emoji_Presentation, or a text emoji with U+FE0F), none when it is only
/// default-ignorable code points (a zero-width space, a byte-order mark), and one otherwise.
/// A combining mark is part of the character before it, and adds nothing.
enum TerminalColumns {
    /// Blank text as wide as `text` in a terminal: a tab kept (a terminal moves to its own tab
    /// stop for it), every other character as `width(of:)` spaces.
    static func blank(as text: some StringProtocol) -> String {
        var blank = ""
        for character in text {
            if character == "\t" {
                blank.append("\t")
            } else {
                blank += String(repeating: " ", count: width(of: character))
            }
        }
        return blank
    }

    /// The columns a terminal gives `character`: 0, 1 or 2.
    static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.allSatisfy(\.properties.isDefaultIgnorableCodePoint) { return 0 }
        if first.properties.isEmojiPresentation || (first.properties.isEmoji && scalars.contains("\u{FE0F}")) { return 2 }
        return wide.contains { $0.contains(first.value) } ? 2 : 1
    }

    /// The East Asian Wide and Fullwidth blocks `wcwidth` counts as two columns.
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F,    // Hangul Jamo initial consonants
        0x2E80...0x303E,    // CJK radicals, Kangxi, ideographic description, CJK symbols
        0x3041...0x33FF,    // kana, Bopomofo, Hangul compatibility Jamo, CJK compatibility
        0x3400...0x4DBF,    // CJK Extension A
        0x4E00...0x9FFF,    // CJK Unified Ideographs
        0xA000...0xA4CF,    // Yi
        0xAC00...0xD7A3,    // Hangul syllables
        0xF900...0xFAFF,    // CJK compatibility ideographs
        0xFE10...0xFE19,    // vertical forms
        0xFE30...0xFE6F,    // CJK compatibility forms, small form variants
        0xFF00...0xFF60,    // fullwidth forms
        0xFFE0...0xFFE6,    // fullwidth signs
        0x20000...0x2FFFD,  // CJK Extensions B to F
        0x30000...0x3FFFD,  // CJK Extension G and on
    ]
}
