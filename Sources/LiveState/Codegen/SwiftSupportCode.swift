/// The helpers every generated file ends with: `fileprivate`, so that files generated for
/// several schemas or versions can share one module.
///
/// They mirror `ContentStateDecoder`: the field's own key wins over its aliases; `null` is
/// `nil` for an optional field and invalid otherwise; strings are measured in UTF-8 bytes;
/// numbers are checked against `minimum`/`maximum`; a date-range is exactly `[lower, upper]`
/// with `lower <= upper`; a URL must parse and have a scheme; an invalid element makes its
/// whole array invalid; enum raw values compare byte for byte.
enum SwiftSupportCode {
    static let text = #"""
// MARK: - Tolerant decoding

/// Reads fields the way LiveState's `ContentStateDecoder` does.
fileprivate extension KeyedDecodingContainer {
    /// A field without a default: a missing key, `null` or an invalid value fails the decode.
    func required<T>(_ key: Key, aliases: [Key] = [], _ read: (TolerantValue) throws -> T) throws -> T {
        guard let present = presentKey(key, aliases) else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "required key '\(key.stringValue)' is missing"))
        }
        return try value(at: present, read)
    }

    /// A field with a default: a missing key takes it, and so do `null` and an invalid value
    /// unless the field rejects invalid values.
    func defaulted<T>(
        _ key: Key, aliases: [Key] = [], default defaultValue: T, rejectsInvalid: Bool = false,
        _ read: (TolerantValue) throws -> T
    ) throws -> T {
        guard let present = presentKey(key, aliases) else { return defaultValue }
        do {
            return try value(at: present, read)
        } catch {
            if rejectsInvalid { throw error }
            return defaultValue
        }
    }

    /// An optional field: a missing key takes the default (`nil` unless the schema gives one),
    /// `null` is `nil`, and an invalid value takes the default unless the field rejects invalid values.
    func optional<T>(
        _ key: Key, aliases: [Key] = [], default defaultValue: T? = nil, rejectsInvalid: Bool = false,
        _ read: (TolerantValue) throws -> T
    ) throws -> T? {
        guard let present = presentKey(key, aliases) else { return defaultValue }
        if (try? decodeNil(forKey: present)) == true { return nil }
        do {
            return try read(TolerantValue(try superDecoder(forKey: present)))
        } catch {
            if rejectsInvalid { throw error }
            return defaultValue
        }
    }

    /// The field's own key when it is present, otherwise the first of its aliases that is.
    private func presentKey(_ key: Key, _ aliases: [Key]) -> Key? {
        if contains(key) { return key }
        return aliases.first { contains($0) }
    }

    private func value<T>(at key: Key, _ read: (TolerantValue) throws -> T) throws -> T {
        if try decodeNil(forKey: key) {
            throw DecodingError.valueNotFound(
                T.self, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "null, but the field is not optional"))
        }
        return try read(TolerantValue(try superDecoder(forKey: key)))
    }
}

/// One JSON value, read with the schema's checks.
fileprivate struct TolerantValue {
    let decoder: any Decoder

    init(_ decoder: any Decoder) {
        self.decoder = decoder
    }

    /// A string of at most `maxLength` UTF-8 bytes.
    func string(maxLength: Int? = nil) throws -> String {
        let string = try decoder.singleValueContainer().decode(String.self)
        if let maxLength, string.utf8.count > maxLength {
            throw invalid("\(string.utf8.count) bytes is longer than max-length \(maxLength)")
        }
        return string
    }

    /// A string that `URL(string:)` parses into a URL with a scheme.
    func url(maxLength: Int? = nil) throws -> URL {
        let string = try self.string(maxLength: maxLength)
        guard let url = URL(string: string), url.scheme != nil else {
            throw invalid("'\(string)' is not an absolute URL")
        }
        return url
    }

    /// An integer within the bounds (`2.0` is 2; `1.5` fails, as in Foundation).
    func int(minimum: Double? = nil, maximum: Double? = nil) throws -> Int {
        let int = try decoder.singleValueContainer().decode(Int.self)
        try check(Double(int), minimum: minimum, maximum: maximum)
        return int
    }

    /// A finite number within the bounds.
    func double(minimum: Double? = nil, maximum: Double? = nil) throws -> Double {
        let double = try decoder.singleValueContainer().decode(Double.self)
        guard double.isFinite else { throw invalid("\(double) is not a finite number") }
        try check(double, minimum: minimum, maximum: maximum)
        return double
    }

    /// A date: seconds since 2001-01-01 within the bounds.
    func date(minimum: Double? = nil, maximum: Double? = nil) throws -> Date {
        Date(timeIntervalSinceReferenceDate: try double(minimum: minimum, maximum: maximum))
    }

    /// `true` or `false`.
    func bool() throws -> Bool {
        try decoder.singleValueContainer().decode(Bool.self)
    }

    /// `[lower, upper]`: exactly two dates within the bounds, `lower <= upper`.
    func dateRange(minimum: Double? = nil, maximum: Double? = nil) throws -> ClosedRange<Date> {
        var container = try decoder.unkeyedContainer()
        if let count = container.count, count != 2 {
            throw invalid("a date-range is [lower, upper], found \(count) elements")
        }
        let lower = try container.decode(Double.self)
        let upper = try container.decode(Double.self)
        guard container.isAtEnd else { throw invalid("a date-range has two elements") }
        guard lower.isFinite, upper.isFinite else { throw invalid("a date-range needs finite bounds") }
        try check(lower, minimum: minimum, maximum: maximum)
        try check(upper, minimum: minimum, maximum: maximum)
        let from = Date(timeIntervalSinceReferenceDate: lower)
        let to = Date(timeIntervalSinceReferenceDate: upper)
        guard from <= to else { throw invalid("the lower bound \(lower) is after the upper bound \(upper)") }
        return from...to
    }

    /// A nested object or enum, decoded by its own `init(from:)`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: decoder)
    }

    /// An array of at most `maxItems` elements; one invalid element makes the array invalid.
    func array<Element>(maxItems: Int? = nil, _ element: (TolerantValue) throws -> Element) throws -> [Element] {
        var container = try decoder.unkeyedContainer()
        var elements: [Element] = []
        while !container.isAtEnd {
            let index = container.currentIndex
            elements.append(try element(TolerantValue(try container.superDecoder())))
            guard container.currentIndex > index else { throw invalid("element \(index) cannot be read") }
        }
        if let maxItems, elements.count > maxItems {
            throw invalid("\(elements.count) items is more than max-items \(maxItems)")
        }
        return elements
    }

    /// A string raw value compared byte for byte, or the fallback for one the enum does not list.
    func enumeration<T: CaseIterable & RawRepresentable>(fallback: T?) throws -> T where T.RawValue == String {
        let raw = try decoder.singleValueContainer().decode(String.self)
        if let match = T.allCases.first(where: { $0.rawValue.utf8.elementsEqual(raw.utf8) }) { return match }
        if let fallback { return fallback }
        throw invalid("'\(raw)' is not one of the enum's values")
    }

    /// An integer raw value, or the fallback for one the enum does not list.
    func enumeration<T: CaseIterable & RawRepresentable>(fallback: T?) throws -> T where T.RawValue == Int {
        let raw = try decoder.singleValueContainer().decode(Int.self)
        if let match = T.allCases.first(where: { $0.rawValue == raw }) { return match }
        if let fallback { return fallback }
        throw invalid("\(raw) is not one of the enum's values")
    }

    private func check(_ number: Double, minimum: Double?, maximum: Double?) throws {
        if let minimum, number < minimum { throw invalid("\(number) is less than minimum \(minimum)") }
        if let maximum, number > maximum { throw invalid("\(number) is more than maximum \(maximum)") }
    }

    private func invalid(_ message: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: message))
    }
}

"""#
}
