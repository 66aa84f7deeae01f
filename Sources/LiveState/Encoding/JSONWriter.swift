/// Writes compact JSON the way LiveState emits it: no insignificant white space, `/` never
/// escaped, doubles in their shortest round-trip form, dates as seconds since 2001-01-01.
@_spi(Scanner) public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// Creates an empty writer.
    /// - Parameter capacity: Bytes to reserve up front.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends a value.
    /// - Parameter value: The value; objects keep their member order.
    public mutating func write(_ value: Value) {
        var writer = StateWriter(capacity: 256)
        defer { writer.release() }
        _ = writer.write(value)
        bytes.append(contentsOf: writer.bytes)
    }

    /// Appends a finite number in its shortest round-trip form (`0.6`, `752000000`, `1e-07`).
    ///
    /// Integral values within ±2^53 are written without a fraction. Non-finite values, which
    /// JSON cannot carry, are written as `null`.
    /// - Parameter double: The number.
    public mutating func writeNumber(_ double: Double) {
        var writer = StateWriter(capacity: 32)
        defer { writer.release() }
        _ = writer.writeNumber(double)
        bytes.append(contentsOf: writer.bytes)
    }

    /// Appends an integer's decimal digits.
    /// - Parameter int: The integer.
    public mutating func writeInt(_ int: Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            let count = StateWriter.writeDigits(of: int, to: digits.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[..<count]))
        }
    }

    /// Appends a string literal with the escapes JSON requires and no others.
    ///
    /// Runs of bytes that need no escape are copied whole; only `"`, `\\` and control
    /// characters stop the copy.
    /// - Parameter string: The string.
    public mutating func writeString(_ string: String) {
        var writer = StateWriter(capacity: string.utf8.count + 16)
        defer { writer.release() }
        _ = writer.writeString(string)
        bytes.append(contentsOf: writer.bytes)
    }

    /// Appends raw text.
    /// - Parameter text: Text that is already JSON.
    public mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends bytes that are already JSON.
    mutating func append(bytes written: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: written)
    }
}

/// Short renderings of values for diagnostic messages.
package enum ValueText {
    /// A value as compact JSON, shortened past 60 bytes.
    package static func render(_ value: Value) -> String {
        var writer = JSONWriter(capacity: 32)
        writer.write(value)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        return text.utf8.count > 60 ? String(text.prefix(57)) + "..." : text
    }

    /// A number as JSON writes it, for a message. The `Double`s of the 64-bit integer types'
    /// edges, which a `format`'s range holds, are written as those integers (`Int64.max`,
    /// `UInt64.max`), not as the powers of two they round to (`9.223372036854776e+18`).
    package static func number(_ double: Double) -> String {
        switch double {
        case Double(Int64.max): return String(Int64.max)
        case Double(Int64.min): return String(Int64.min)
        case Double(UInt64.max): return String(UInt64.max)
        default: break
        }
        var writer = JSONWriter(capacity: 24)
        writer.writeNumber(double)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Text a message quotes (input, code): its first 40 characters, and `…` when there is
    /// more. Every module's messages clip with this.
    package static func clipped(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    /// Whether a character shows as nothing, or as a space that is not the space (a no-break
    /// space, a zero-width joiner): a control, a format character, a separator, other white
    /// space, a private or unassigned code point. Quoted text names such a character by its
    /// code point, a message (`URLRule`) and Swift source (`codegen swift`) alike.
    package static func isUnseen(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar != " " else { return false }
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .privateUse, .unassigned, .surrogate: return true
        default: return scalar.properties.isWhitespace
        }
    }

    /// A whole number with its thousands grouped: `1,234,567`, `-10,000`.
    package static func grouped(_ number: Int) -> String {
        var digits = Array(String(number.magnitude))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return (number < 0 ? "-" : "") + String(digits)
    }

    /// Words listed as a sentence lists them: `a`, `a and b`, `a, b and c` (or `or`).
    package static func listed(_ words: [String], _ conjunction: String = "and") -> String {
        guard let last = words.last, words.count > 1 else { return words.joined() }
        return words.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }

    /// A list of values: `[a, b, c]`.
    package static func list(_ values: [Value]) -> String {
        "[" + values.map(render).joined(separator: ", ") + "]"
    }
}

extension JSONWriter {
    /// Renders a value as indented JSON (two spaces), members in their order, for people to read.
    /// - Parameter value: The value.
    /// - Returns: The text, without a final newline.
    public static func pretty(_ value: Value) -> String {
        var writer = JSONWriter()
        writer.writePretty(value, indent: 0)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private mutating func newline(_ indent: Int) {
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private mutating func writePretty(_ value: Value, indent: Int) {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writePretty(element, indent: indent + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "]"))
        case .object(let members) where !members.isEmpty:
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeString(member.name)
                append(": ")
                writePretty(member.value, indent: indent + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "}"))
        default:
            write(value)
        }
    }
}
