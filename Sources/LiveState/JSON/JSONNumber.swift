/// A number as read by `JSONReader.readNumber()`: the byte range of its text.
///
/// Convert it with `JSONReader.double(_:)` or `integer(_:)`.
@_spi(Scanner) public struct JSONNumber: Sendable, Hashable {
    /// The offset of the first byte (`-` or a digit).
    public var start: Int
    /// The offset just after the last byte.
    public var end: Int
    /// Whether the number has neither a fraction nor an exponent.
    public var isInteger: Bool

    /// Creates a number token.
    /// - Parameters:
    ///   - start: The offset of the first byte.
    ///   - end: The offset just after the last byte.
    ///   - isInteger: Whether the text has neither a fraction nor an exponent.
    public init(start: Int, end: Int, isInteger: Bool) {
        self.start = start
        self.end = end
        self.isInteger = isInteger
    }
}

extension JSONReader {
    /// The value of a number token, correctly rounded: what `Double(String)` gives for the
    /// same text (`1e400` is `+infinity`, `1e-400` is `0`, `-0` is `-0.0`).
    ///
    /// (The tape's quick path reads short decimals itself, `StateTape.double()`; every other
    /// number comes here.)
    /// - Parameter number: A token this reader returned.
    /// - Returns: The nearest `Double`.
    public func double(_ number: JSONNumber) -> Double {
        // A JSON number's text is always one `Double(String)` reads.
        Double(string(number)) ?? .nan
    }

    /// A number token's text, as written.
    /// - Parameter number: A token this reader returned.
    public func string(_ number: JSONNumber) -> String {
        String(decoding: text(of: number), as: UTF8.self)
    }

    /// A number token's text, its range held inside the input.
    func text(of number: JSONNumber) -> UnsafeRawBufferPointer {
        let lower = min(max(number.start, 0), bytes.count)
        let upper = min(max(number.end, lower), bytes.count)
        return UnsafeRawBufferPointer(rebasing: bytes[lower ..< upper])
    }

    /// Whether Foundation's `JSONDecoder` (swift-foundation, as in Swift 6.3) throws when it
    /// decodes this number as a `Double`, and so as a `Date`: `0e1` to `0e9` (also `0E…`;
    /// `0e10`, `-0e1` and `0e+1` decode), and non-zero digits that round to zero (`1e-400`).
    /// - Parameters:
    ///   - number: A token this reader returned.
    ///   - value: `double(number)`.
    /// - Returns: Whether the device would fail on it.
    public func foundationRefusesDouble(_ number: JSONNumber, value: Double) -> Bool {
        let text = text(of: number)
        let nonZeroDigits: ClosedRange<UInt8> = 0x31 ... 0x39
        if text.count == 3, text[0] == UInt8(ascii: "0"), text[1] | 0x20 == UInt8(ascii: "e"), nonZeroDigits.contains(text[2]) {
            return true
        }
        return value == 0 && NumberText.hasNonZeroDigit(text)
    }

    /// The value of a number token as `Int`, the way Foundation's `JSONDecoder` decodes `Int`.
    ///
    /// Plain digits are parsed exactly (`-9223372036854775808` is `Int.min`;
    /// `9223372036854775808` is `nil`). A number with a fraction or an exponent converts through
    /// its `Double` value when that is integral and fits `Int` exactly: `2.0` is 2, `1e2` is 100,
    /// `1.5` is `nil`. From 2^53 up, where a `Double` no longer holds every integer, JSONDecoder
    /// reads the text again as a `Decimal` and drops the fraction: `9007199254740993.0` is
    /// 9007199254740993, and so is `9007199254740993.5` (`wholePart`).
    /// - Parameter number: A token this reader returned.
    /// - Returns: The integer, or `nil` when it does not fit or is not integral.
    public func integer(_ number: JSONNumber) -> Int? {
        integer(number, as: Int.self)
    }

    /// The value of a number token as `T`, the way Foundation's `JSONDecoder` decodes it:
    /// `UInt64` reads `18446744073709551615` and `1e19`, and refuses `-1`.
    public func integer<T: FixedWidthInteger>(_ number: JSONNumber, as type: T.Type) -> T? {
        guard number.isInteger else {
            let double = double(number)
            guard let exact = T(exactly: double) else { return nil }
            return double.magnitude < 0x1p53 ? exact : wholePart(number, as: T.self)
        }
        let text = text(of: number)
        var index = 0
        let negative = index < text.count && text[index] == JSONByte.minus
        if negative { index += 1 }
        guard index < text.count else { return nil }
        var value: T = 0
        while index < text.count {
            let digit = text[index] &- JSONByte.zero
            guard digit < 10 else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = negative
                ? shifted.subtractingReportingOverflow(T(digit))
                : shifted.addingReportingOverflow(T(digit))
            guard !overflowA, !overflowB else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// Whether a number token reads as a `Decimal` (`DecimalText`).
    public func decimalReads(_ number: JSONNumber) -> Bool {
        DecimalText.reads(text(of: number))
    }

    /// What a `Float` property holds for a number token, or `nil` where no `Float` holds it
    /// (`Field.NumberFormat.heldByFloat`).
    package func heldByFloat(_ number: JSONNumber) -> Double? {
        Field.NumberFormat.heldByFloat(text(of: number))
    }

    /// The whole part of a number with a fraction or an exponent, as JSONDecoder's `Decimal`
    /// path reads it for a number from 2^53 up (swift-foundation's
    /// `_slowpath_unwrapFixedWidthInteger`): the digits, shifted by the exponent, the fraction
    /// dropped; a negative one is the magnitude's negation, so `-9223372036854775808.0` does not
    /// fit `Int`. Only called once the `Double` fits `T`, so the result has at most 20 digits.
    ///
    /// Foundation's `FixedWidthInteger.init?(_: Decimal)` first gathers the `Decimal`'s whole
    /// mantissa, fraction digits included (trailing zeros dropped), in a `UInt64`, and fails
    /// when it does not fit: `1844674407370955161.5` reads, `1844674407370955161.6` does not.
    private func wholePart<T: FixedWidthInteger>(_ number: JSONNumber, as type: T.Type) -> T? {
        let parts = NumberText(text(of: number))
        let lastSignificant = parts.digits.lastIndex { $0 != 0 } ?? -1
        guard NumberText.value(of: parts.digits.prefix(lastSignificant + 1)) != nil else { return nil }
        let shift = parts.exponent - parts.fractionDigits
        let kept = shift >= 0 ? parts.digits[...] : parts.digits.dropLast(min(-shift, parts.digits.count))
        guard let magnitude = NumberText.value(of: kept + repeatElement(0, count: max(shift, 0))),
              let value = T(exactly: magnitude) else { return nil }
        guard parts.isNegative, value != 0 else { return value }
        return T.isSigned ? 0 - value : nil
    }
}

/// How JSONDecoder's `Decimal` parser (swift-foundation's, as for `Double`) reads a number's text:
/// significant digits are kept while the mantissa fits 128 bits; an integer digit past that
/// raises the exponent by one, a fraction digit past it is dropped, each fraction digit kept
/// lowers it by one; the written exponent is added; the number reads when the exponent is
/// within -128...127. So `0e1` reads (a `Double` refuses it), and `1e128`, `0.1e-128` and
/// `4.9e-324` do not. Held to `JSONDecoder` on 30,000 random numbers when written.
package enum DecimalText {
    /// `2^128 - 1`, the largest mantissa, as digits.
    private static let largestMantissa = "340282366920938463463374607431768211455".utf8.map { $0 &- JSONByte.zero }

    /// Whether `text`, a valid JSON number, reads as a `Decimal`.
    package static func reads(_ text: some Collection<UInt8>) -> Bool {
        let number = NumberText(text)
        var significant: [UInt8] = []
        var exponent = number.exponent
        for (position, digit) in number.digits.enumerated() {
            let inFraction = position >= number.digits.count - number.fractionDigits
            if significant.isEmpty && digit == 0 {
                if inFraction { exponent -= 1 }
            } else if fits(significant, digit) {
                significant.append(digit)
                if inFraction { exponent -= 1 }
            } else if !inFraction {
                exponent += 1
            }
        }
        return exponents.contains(exponent)
    }

    /// The exponents a `Decimal` holds.
    package static let exponents = -128...127

    /// Whether `significant` with `digit` after it is a mantissa of at most 128 bits.
    private static func fits(_ significant: [UInt8], _ digit: UInt8) -> Bool {
        let count = significant.count + 1
        guard count >= largestMantissa.count else { return true }
        guard count == largestMantissa.count else { return false }
        let next = significant + [digit]
        return !largestMantissa.lexicographicallyPrecedes(next)
    }
}

/// A valid JSON number's text taken apart, for the readers that go by its digits
/// (`JSONReader.wholePart`, `DecimalText`): its sign, its digits (0...9, the integer part's
/// then the fraction's), how many are the fraction's, and its written exponent, held within
/// ±2^20 (past any shift a number that fits could take).
struct NumberText {
    /// The value of decimal `digits` (each 0…9, leading zeros allowed), or `nil` past `UInt64.max`.
    static func value(of digits: some Sequence<UInt8>) -> UInt64? {
        var value: UInt64 = 0
        for digit in digits {
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = shifted.addingReportingOverflow(UInt64(digit))
            guard !overflowA, !overflowB else { return nil }
            value = next
        }
        return value
    }

    /// Whether a JSON number's text has a digit 1…9 before its exponent: whether it is written
    /// as a number other than zero.
    static func hasNonZeroDigit(_ text: some Collection<UInt8>) -> Bool {
        for byte in text {
            if byte | 0x20 == UInt8(ascii: "e") { return false }
            if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(byte) { return true }
        }
        return false
    }

    var isNegative = false
    var digits: [UInt8] = []
    var fractionDigits = 0
    var exponent = 0

    init(_ text: some Collection<UInt8>) {
        var index = text.startIndex
        if index < text.endIndex, text[index] == JSONByte.minus {
            isNegative = true
            index = text.index(after: index)
        }
        var inFraction = false
        while index < text.endIndex {
            let byte = text[index]
            if byte == JSONByte.period {
                inFraction = true
            } else if byte | 0x20 == UInt8(ascii: "e") {
                break
            } else {
                digits.append(byte &- JSONByte.zero)
                if inFraction { fractionDigits += 1 }
            }
            index = text.index(after: index)
        }
        guard index < text.endIndex else { return }
        index = text.index(after: index)
        let negativeExponent = index < text.endIndex && text[index] == JSONByte.minus
        if index < text.endIndex, text[index] == JSONByte.minus || text[index] == JSONByte.plus { index = text.index(after: index) }
        while index < text.endIndex {
            exponent = min(exponent * 10 + Int(text[index] &- JSONByte.zero), 1 << 20)
            index = text.index(after: index)
        }
        if negativeExponent { exponent = -exponent }
    }
}
