import LiveState

/// Swift source text for schema values: string literals, numbers, and the defaults of fields.
enum SwiftLiteral {
    /// A Swift string literal: `"a \"b\""`, control and invisible characters (a no-break space
    /// too, `ValueText.isUnseen`) as `\u{…}`.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if ValueText.isUnseen(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// A finite number as a Swift literal: `0`, `0.6`, `1e+20`, `-5`.
    static func number(_ double: Double) -> String {
        if double == double.rounded(), abs(double) < 1e15 {
            return String(Int64(double))
        }
        return String(double)
    }

    /// An integer as a Swift `Int` literal.
    static func integer(_ int: Int) -> String {
        String(int)
    }

    /// `Date(timeIntervalSinceReferenceDate: seconds)`.
    static func date(_ seconds: Double) -> String {
        "Date(timeIntervalSinceReferenceDate: \(number(seconds)))"
    }
}
