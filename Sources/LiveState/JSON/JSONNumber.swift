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
    /// The value of a number token, correctly rounded: exactly what `Double(String)` gives for
    /// the same text (`1e400` is `+infinity`, `1e-400` is `0`, `-0` is `-0.0`).
    ///
    /// Short mantissas with small exponents take an exact floating-point path; the rest are
    /// rounded with big-integer comparisons in stack memory, with no heap allocation for
    /// numbers of up to 40 significant digits.
    /// - Parameter number: A token this reader returned.
    /// - Returns: The nearest `Double`.
    public func double(_ number: JSONNumber) -> Double {
        let lower = min(max(number.start, 0), bytes.count)
        let upper = min(max(number.end, lower), bytes.count)
        return DecimalToDouble.convert(UnsafeRawBufferPointer(rebasing: bytes[lower ..< upper]))
    }

    /// Whether Foundation's `JSONDecoder` (swift-foundation, as in Swift 6.3) throws when it
    /// decodes this number as a `Double`, and so as a `Date`: `0e1` to `0e9` (also `0E…`;
    /// `0e10`, `-0e1` and `0e+1` decode), and non-zero digits that round to zero (`1e-400`).
    /// - Parameters:
    ///   - number: A token this reader returned.
    ///   - value: `double(number)`.
    /// - Returns: Whether the device would fail on it.
    public func foundationRefusesDouble(_ number: JSONNumber, value: Double) -> Bool {
        let lower = min(max(number.start, 0), bytes.count)
        let upper = min(max(number.end, lower), bytes.count)
        let text = UnsafeRawBufferPointer(rebasing: bytes[lower ..< upper])
        let nonZeroDigits: ClosedRange<UInt8> = 0x31 ... 0x39
        if text.count == 3, text[0] == UInt8(ascii: "0"), text[1] | 0x20 == UInt8(ascii: "e"), nonZeroDigits.contains(text[2]) {
            return true
        }
        guard value == 0 else { return false }
        for byte in text {
            if byte | 0x20 == UInt8(ascii: "e") { break }
            if nonZeroDigits.contains(byte) { return true }
        }
        return false
    }

    /// The value of a number token as `Int`, the way Foundation's `JSONDecoder` decodes `Int`.
    ///
    /// Plain digits are parsed exactly (`-9223372036854775808` is `Int.min`;
    /// `9223372036854775808` is `nil`). A number with a fraction or an exponent converts through
    /// its `Double` value when that is integral and fits `Int` exactly: `2.0` is 2, `1e2` is 100,
    /// `1.5` is `nil`.
    /// - Parameter number: A token this reader returned.
    /// - Returns: The integer, or `nil` when it does not fit or is not integral.
    public func integer(_ number: JSONNumber) -> Int? {
        guard number.isInteger else { return Int(exactly: double(number)) }
        let lower = min(max(number.start, 0), bytes.count)
        let upper = min(max(number.end, lower), bytes.count)
        var index = lower
        let negative = index < upper && bytes[index] == JSONByte.minus
        if negative { index += 1 }
        guard index < upper else { return nil }
        var value = 0
        while index < upper {
            let digit = bytes[index] &- JSONByte.zero
            guard digit < 10 else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = negative
                ? shifted.subtractingReportingOverflow(Int(digit))
                : shifted.addingReportingOverflow(Int(digit))
            guard !overflowA, !overflowB else { return nil }
            value = next
            index += 1
        }
        return value
    }
}

/// Decimal text to the nearest `Double`, round half to even.
///
/// 1. Parse the significant digits `D` (leading and trailing zeros dropped) and the decimal
///    exponent `E`, so the value is `D × 10^E`; huge exponents saturate instead of overflowing.
/// 2. Clinger's fast path: `D ≤ 2^53` and `|E| ≤ 22` make one exact multiply or divide.
/// 3. Otherwise take a close candidate from floating-point arithmetic and correct it: compare
///    `D × 10^E` exactly (big integers in stack memory) with the halfway points next to the
///    candidate and step one ulp at a time until it is the correctly rounded result.
/// 4. More than 40 significant digits: `Double(String)` itself.
enum DecimalToDouble {
    /// The most significant digits handled in stack memory.
    static let maxDigits = 40
    /// Words in each stack big integer; enough for `40 digits × 10^±363` with a margin.
    static let bigWords = 20

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    private static let integerPowersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000,
        1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]

    /// Converts the text of a valid JSON number.
    static func convert(_ text: UnsafeRawBufferPointer) -> Double {
        let count = text.count
        var index = 0
        let negative = count > 0 && text[0] == JSONByte.minus
        if negative { index = 1 }
        // Integer and fraction digits.
        let integerStart = index
        while index < count, JSONByte.isDigit(text[index]) { index += 1 }
        let integerEnd = index
        var fractionStart = index
        var fractionEnd = index
        if index < count, text[index] == JSONByte.period {
            index += 1
            fractionStart = index
            while index < count, JSONByte.isDigit(text[index]) { index += 1 }
            fractionEnd = index
        }
        // Exponent, saturated far beyond any double.
        var exponent = 0
        if index < count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < count, text[index] == JSONByte.plus || text[index] == JSONByte.minus {
                exponentNegative = text[index] == JSONByte.minus
                index += 1
            }
            while index < count, JSONByte.isDigit(text[index]) {
                if exponent < 100_000_000 { exponent = exponent * 10 + Int(text[index] - JSONByte.zero) }
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        guard index == count, integerEnd > integerStart else {
            return fallback(text)
        }
        let integerCount = integerEnd - integerStart
        let digitCount = integerCount + (fractionEnd - fractionStart)
        let digits = Digits(
            text: text, integerStart: integerStart, integerCount: integerCount, fractionStart: fractionStart)
        // First and last non-zero digit.
        var first = 0
        while first < digitCount, digits[first] == 0 { first += 1 }
        if first == digitCount { return negative ? -0.0 : 0.0 }
        var last = digitCount - 1
        while digits[last] == 0 { last -= 1 }
        let significant = last - first + 1
        // value = D × 10^decimalExponent, D = digits[first...last]
        let decimalExponent = exponent - (fractionEnd - fractionStart) + (digitCount - 1 - last)
        let magnitude: Double
        if significant + decimalExponent <= -324 {
            magnitude = 0 // below 10^-324, under half the smallest subnormal
        } else if significant - 1 + decimalExponent >= 309 {
            magnitude = .infinity // at least 10^309
        } else if significant > maxDigits {
            return fallback(text)
        } else {
            var leading: UInt64 = 0
            for position in first ..< first + min(significant, 19) {
                leading = leading * 10 + UInt64(digits[position])
            }
            if let exact = clinger(leading, significant: significant, exponent: decimalExponent) {
                magnitude = exact
            } else if let rounded = correctlyRounded(
                digits: digits, first: first, significant: significant, exponent: decimalExponent, leading: leading)
            {
                magnitude = rounded
            } else {
                return fallback(text)
            }
        }
        return negative ? -magnitude : magnitude
    }

    private static func fallback(_ text: UnsafeRawBufferPointer) -> Double {
        Double(String(decoding: text, as: UTF8.self)) ?? .nan
    }

    /// The exact result when `D` and `10^E` are both exact doubles (Clinger's fast path).
    private static func clinger(_ leading: UInt64, significant: Int, exponent: Int) -> Double? {
        guard significant <= 19, leading <= 1 << 53 else { return nil }
        if exponent >= 0, exponent <= 22 {
            return Double(leading) * powersOfTen[exponent]
        }
        if exponent < 0, exponent >= -22 {
            return Double(leading) / powersOfTen[-exponent]
        }
        if exponent > 22, exponent <= 22 + 18 {
            // Move part of the exponent into the mantissa while it stays exact.
            let (scaled, overflow) = leading.multipliedReportingOverflow(by: integerPowersOfTen[exponent - 22])
            if !overflow, scaled <= 1 << 53 { return Double(scaled) * 1e22 }
        }
        return nil
    }

    /// Steps a floating-point estimate to the correctly rounded value by exact comparisons.
    /// - Returns: `nil` only if a big integer would not fit (not expected within the limits).
    private static func correctlyRounded(
        digits: Digits, first: Int, significant: Int, exponent: Int, leading: UInt64
    ) -> Double? {
        // The estimate: the first 19 digits, scaled by powers of ten in a few steps.
        var scale = exponent + max(significant - 19, 0)
        var estimate = Double(leading)
        while scale > 22 {
            estimate *= 1e22
            scale -= 22
        }
        while scale < -22 {
            estimate /= 1e22
            scale += 22
        }
        estimate = scale >= 0 ? estimate * powersOfTen[scale] : estimate / powersOfTen[-scale]
        if estimate.isInfinite { estimate = .greatestFiniteMagnitude }
        if estimate.isNaN { return nil }

        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 4 * bigWords) { storage -> Double? in
            guard let base = storage.baseAddress else { return nil }
            // D × 5^E (E ≥ 0) or D (E < 0), and 5^-E (E < 0) or 1 (E ≥ 0).
            var scaledDigits = BigInteger(base, capacity: bigWords)
            var fivePower = BigInteger(base + bigWords, capacity: bigWords)
            var left = BigInteger(base + 2 * bigWords, capacity: bigWords)
            var right = BigInteger(base + 3 * bigWords, capacity: bigWords)
            var position = first
            var remaining = significant
            while remaining > 0 {
                let chunk = min(remaining, 19)
                var value: UInt64 = 0
                for _ in 0 ..< chunk {
                    value = value * 10 + UInt64(digits[position])
                    position += 1
                }
                guard scaledDigits.multiply(by: integerPowersOfTen[chunk]), scaledDigits.add(value) else { return nil }
                remaining -= chunk
            }
            fivePower.set(1)
            if exponent >= 0 {
                guard scaledDigits.multiplyByPowerOfFive(exponent) else { return nil }
            } else {
                guard fivePower.multiplyByPowerOfFive(-exponent) else { return nil }
            }

            /// Compares the value with `(2m + 1) × 2^power`: the halfway point above `m × 2^(power+1)`.
            func compareWithHalfway(above candidate: Double) -> Int? {
                let (mantissa, binaryExponent) = decompose(candidate)
                let power = binaryExponent - 1
                // value = D × 5^E × 2^E for E ≥ 0; D × 2^E / 5^-E for E < 0.
                left.copy(from: scaledDigits)
                right.set(2 * mantissa + 1)
                guard right.multiply(by: fivePower) else { return nil }
                let shift = exponent - power
                if shift >= 0 {
                    guard left.shiftLeft(shift) else { return nil }
                } else {
                    guard right.shiftLeft(-shift) else { return nil }
                }
                return BigInteger.compare(left, right)
            }

            var candidate = estimate
            for _ in 0 ..< 64 {
                // Round up when the value is past the halfway point above the candidate.
                guard let above = compareWithHalfway(above: candidate) else { return nil }
                if above > 0 || (above == 0 && !isEven(candidate)) {
                    candidate = candidate.nextUp
                    if candidate.isInfinite { return candidate }
                    continue
                }
                // Round down when the value is before the halfway point below it.
                if candidate == 0 { return candidate }
                let lower = candidate.nextDown
                guard let below = compareWithHalfway(above: lower) else { return nil }
                if below < 0 || (below == 0 && isEven(lower)) {
                    candidate = lower
                    continue
                }
                return candidate
            }
            return nil
        }
    }

    /// `value = mantissa × 2^exponent` for a finite non-negative double.
    private static func decompose(_ value: Double) -> (UInt64, Int) {
        if value.exponentBitPattern == 0 { return (value.significandBitPattern, -1074) }
        return (value.significandBitPattern | 1 << 52, Int(value.exponentBitPattern) - 1075)
    }

    private static func isEven(_ value: Double) -> Bool {
        value.significandBitPattern & 1 == 0
    }
}

/// Digit `k` of the digit sequence formed by the integer part followed by the fraction part.
private struct Digits {
    let text: UnsafeRawBufferPointer
    let integerStart: Int
    let integerCount: Int
    let fractionStart: Int

    subscript(position: Int) -> UInt8 {
        let offset = position < integerCount ? integerStart + position : fractionStart + position - integerCount
        return text[offset] &- JSONByte.zero
    }
}

/// An unsigned big integer in caller-provided memory, little-endian 64-bit words.
///
/// Every operation reports running out of capacity instead of trapping.
private struct BigInteger {
    let words: UnsafeMutablePointer<UInt64>
    let capacity: Int
    private(set) var count = 0

    init(_ words: UnsafeMutablePointer<UInt64>, capacity: Int) {
        self.words = words
        self.capacity = capacity
    }

    mutating func set(_ value: UInt64) {
        count = 0
        if value != 0 {
            words[0] = value
            count = 1
        }
    }

    mutating func copy(from other: BigInteger) {
        let length = min(other.count, capacity)
        for index in 0 ..< length { words[index] = other.words[index] }
        count = length
    }

    mutating func multiply(by factor: UInt64) -> Bool {
        var carry: UInt64 = 0
        for index in 0 ..< count {
            let (high, low) = words[index].multipliedFullWidth(by: factor)
            let (sum, overflow) = low.addingReportingOverflow(carry)
            words[index] = sum
            carry = high &+ (overflow ? 1 : 0)
        }
        return append(carry)
    }

    mutating func add(_ value: UInt64) -> Bool {
        var carry = value
        var index = 0
        while carry != 0, index < count {
            let (sum, overflow) = words[index].addingReportingOverflow(carry)
            words[index] = sum
            carry = overflow ? 1 : 0
            index += 1
        }
        return append(carry)
    }

    private mutating func append(_ word: UInt64) -> Bool {
        guard word != 0 else { return true }
        guard count < capacity else { return false }
        words[count] = word
        count += 1
        return true
    }

    /// Multiplies by another big integer, which must not share memory with this one.
    ///
    /// Schoolbook product in place, from the highest word of `self` down, so each word is
    /// read before its slot is reused.
    mutating func multiply(by other: BigInteger) -> Bool {
        guard other.count > 0 else {
            count = 0
            return true
        }
        guard count > 0 else { return true }
        let total = count + other.count
        guard total <= capacity else { return false }
        for index in count ..< total { words[index] = 0 }
        var source = count - 1
        while source >= 0 {
            let digit = words[source]
            words[source] = 0
            var carry: UInt64 = 0
            for otherIndex in 0 ..< other.count {
                let (high, low) = digit.multipliedFullWidth(by: other.words[otherIndex])
                let target = source + otherIndex
                let (sum1, overflow1) = words[target].addingReportingOverflow(low)
                let (sum2, overflow2) = sum1.addingReportingOverflow(carry)
                words[target] = sum2
                carry = high &+ (overflow1 ? 1 : 0) &+ (overflow2 ? 1 : 0)
            }
            var target = source + other.count
            while carry != 0, target < total {
                let (sum, overflow) = words[target].addingReportingOverflow(carry)
                words[target] = sum
                carry = overflow ? 1 : 0
                target += 1
            }
            source -= 1
        }
        count = total
        while count > 0, words[count - 1] == 0 { count -= 1 }
        return true
    }

    mutating func multiplyByPowerOfFive(_ power: Int) -> Bool {
        var remaining = power
        // 5^27 is the largest power of five below 2^64.
        while remaining >= 27 {
            guard multiply(by: 7_450_580_596_923_828_125) else { return false }
            remaining -= 27
        }
        var factor: UInt64 = 1
        for _ in 0 ..< remaining { factor *= 5 }
        return multiply(by: factor)
    }

    mutating func shiftLeft(_ bits: Int) -> Bool {
        guard count > 0, bits > 0 else { return true }
        let wordShift = bits / 64
        let bitShift = bits % 64
        let spill: UInt64 = bitShift > 0 ? words[count - 1] >> UInt64(64 - bitShift) : 0
        let newCount = count + wordShift + (spill != 0 ? 1 : 0)
        guard newCount <= capacity else { return false }
        if spill != 0 { words[count + wordShift] = spill }
        // From the top down: each target slot is at or above the words still to be read.
        var index = count - 1
        while index >= 0 {
            var word = words[index] << UInt64(bitShift)
            if bitShift > 0, index > 0 { word |= words[index - 1] >> UInt64(64 - bitShift) }
            words[index + wordShift] = word
            index -= 1
        }
        for low in 0 ..< wordShift { words[low] = 0 }
        count = newCount
        return true
    }

    static func compare(_ lhs: BigInteger, _ rhs: BigInteger) -> Int {
        if lhs.count != rhs.count { return lhs.count < rhs.count ? -1 : 1 }
        var index = lhs.count - 1
        while index >= 0 {
            if lhs.words[index] != rhs.words[index] { return lhs.words[index] < rhs.words[index] ? -1 : 1 }
            index -= 1
        }
        return 0
    }
}
