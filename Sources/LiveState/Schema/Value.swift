import Foundation

/// A typed content-state or attributes value: what an app version sees after decoding.
///
/// Objects keep their members in schema order. Dates are seconds since 2001-01-01 00:00:00 UTC,
/// the way Foundation's default `Date` coding (and so ActivityKit) writes them.
public enum Value: Sendable, Hashable {
    /// JSON `null`: the value of an optional field that is absent or null.
    case null
    /// A `bool` field.
    case bool(Bool)
    /// An `int` field, or an integer enum's raw value.
    case int(Int)
    /// An `int` field's value above `Int.max`, which only a `format: uint64` field (an app's
    /// `UInt64`) holds; every smaller integer is `int`.
    case uint(UInt64)
    /// A `double` field.
    case double(Double)
    /// A `string` or `url` field, or a string enum's raw value.
    case string(String)
    /// A `date` field: seconds since 2001-01-01.
    case date(Double)
    /// A `date-range` field: `[lower, upper]` in seconds since 2001-01-01.
    case dateRange(lower: Double, upper: Double)
    /// An `array` field.
    case array([Value])
    /// An `object` field, members in schema order.
    case object([Member])

    /// One member of an object value.
    public struct Member: Sendable, Hashable {
        /// The member's key.
        public var name: String
        /// The member's value.
        public var value: Value

        /// Creates a member.
        /// - Parameters:
        ///   - name: The key.
        ///   - value: The value.
        public init(_ name: String, _ value: Value) {
            self.name = name
            self.value = value
        }
    }

    /// The value of an object's member, or `nil` when this is not an object or has no such member.
    /// - Parameter name: The member's key.
    public subscript(name: String) -> Value? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.name == name })?.value
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The number a JSON number holds: an integer, a double, or a date's seconds since
    /// 2001-01-01 (all three are numbers in the payload); `nil` for every other value.
    package var number: Double? {
        switch self {
        case .int(let int): Double(int)
        case .uint(let uint): Double(uint)
        case .double(let double), .date(let double): double
        default: nil
        }
    }

    /// The `Float` an app's property holds for this number: read from its shortest text, as
    /// `JSONDecoder` reads the text sent, not through a `Double` (a number between two `Float`s
    /// could round twice). `nil` for a value that is not a number or that no `Float` holds.
    package var floatValue: Float? {
        number.flatMap { Float(String($0)) }
    }

    /// The `Decimal` an app's property holds for this number: read from its shortest text, as
    /// `JSONDecoder` reads a number's text into a `Decimal` (not through its `Decodable`, an
    /// object of its parts). `nil` for a value that is not a number or that no `Decimal` holds.
    package var decimalValue: Decimal? {
        number.flatMap { Value.decimal(text: String($0)) }
    }

    /// The `Decimal` an app's property holds for a JSON number written `text`: every digit, as
    /// `JSONDecoder` reads a number's text into a `Decimal`. `nil` for text that is not one.
    package static func decimal(text: String) -> Decimal? {
        Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }
}
