/// The type of a schema field, as written after `type:` in a schema file.
public indirect enum FieldType: Sendable, Hashable {
    /// `string`: a JSON string.
    case string
    /// `int`: a JSON number with an integral value that fits `Int`.
    case int
    /// `double`: any finite JSON number.
    case double
    /// `bool`: `true` or `false`.
    case bool
    /// `date`: a number of seconds since 2001-01-01 (Foundation's default `Date` coding).
    case date
    /// `date-range`: `[lower, upper]`, both dates, `lower <= upper` (`ClosedRange<Date>`).
    case dateRange
    /// `url`: a string `URL(string:)` reads on every iOS the app supports (a relative reference too).
    case url
    /// `enum`: string or integer raw values.
    case enumeration(EnumValues)
    /// `array`: every element described by `items`.
    case array(items: Field)
    /// `object`: a nested object with its own fields, in order.
    case object(fields: [Field])
    /// `map`: a JSON object whose keys are data, not fields (a Swift `[String: T]`), every
    /// value described by `items`.
    case map(items: Field)

    /// The name used in schema files: `string`, `date-range`, `enum`, …
    public var name: String {
        switch self {
        case .string: "string"
        case .int: "int"
        case .double: "double"
        case .bool: "bool"
        case .date: "date"
        case .dateRange: "date-range"
        case .url: "url"
        case .enumeration: "enum"
        case .array: "array"
        case .object: "object"
        case .map: "map"
        }
    }

    /// The type with its article, for messages: "a string", "an integer".
    public var article: String {
        switch self {
        case .string: "a string"
        case .int: "an integer"
        case .double: "a number"
        case .bool: "a boolean"
        case .date: "a date (seconds since 2001-01-01)"
        case .dateRange: "a date range [lower, upper]"
        case .url: "a URL string"
        case .enumeration(.strings): "one of the enum's string values"
        case .enumeration(.integers): "one of the enum's integer values"
        case .array: "an array"
        case .object: "an object"
        case .map: "an object (a map)"
        }
    }

    /// Whether two types have the same JSON shape, which is what a tombstone protects: the same
    /// kind, the same raw value kind for enums, the same element shape for arrays, the same
    /// member names and shapes for objects. Constraints and enum values do not count.
    /// - Parameter other: The other type.
    /// - Returns: Whether a value of one has the JSON shape of the other.
    public func hasSameShape(as other: FieldType) -> Bool {
        switch (self, other) {
        case (.enumeration(.strings), .enumeration(.strings)), (.enumeration(.integers), .enumeration(.integers)):
            return true
        case (.array(let left), .array(let right)), (.map(let left), .map(let right)):
            return left.type.hasSameShape(as: right.type)
        case (.object(let left), .object(let right)):
            guard left.count == right.count else { return false }
            return left.allSatisfy { field in
                right.contains { $0.name == field.name && $0.type.hasSameShape(as: field.type) }
            }
        case (.enumeration, _), (.array, _), (.object, _), (.map, _):
            return false
        default:
            return self == other
        }
    }

    /// The type names a schema file may use after `type:`.
    public static let names = ["string", "int", "double", "bool", "date", "date-range", "url", "enum", "array", "object", "map"]
}

/// The raw values of an `enum` field: all strings or all integers.
public enum EnumValues: Sendable, Hashable {
    /// String raw values, matched exactly and case-sensitively.
    case strings([String])
    /// Integer raw values.
    case integers([Int])

    /// Whether `value` is one of the raw values.
    /// - Parameter value: A decoded value.
    /// - Returns: `true` when it is a declared raw value.
    public func contains(_ value: Value) -> Bool {
        switch (self, value) {
        case (.strings(let values), .string(let string)): values.contains(string)
        case (.integers(let values), .int(let int)): values.contains(int)
        default: false
        }
    }

    /// The raw values as `Value`s, in declaration order.
    public var values: [Value] {
        switch self {
        case .strings(let values): values.map(Value.string)
        case .integers(let values): values.map(Value.int)
        }
    }

    /// The number of raw values.
    public var count: Int {
        switch self {
        case .strings(let values): values.count
        case .integers(let values): values.count
        }
    }
}

/// `FieldType` without its payload: what the compiled plan (`FieldPlan`) switches on.
enum FieldKind: Sendable {
    case string, url, int, double, date, dateRange, bool, stringEnum, intEnum, array, object, map
    /// A `string` with a `format` (`Field.StringFormat`): its text is checked by that rule.
    case formattedString

    /// Whether a value that starts with `token` (not `null`) has this kind's JSON type. A value
    /// of another type is a `wrong-type` mismatch whatever its content: the full decoder's rule
    /// (`DecodeContext.decodeValue`) and the tape builder's (`TapeBuilder.takesDefault`).
    func accepts(_ token: JSONToken) -> Bool {
        switch self {
        case .string, .formattedString, .url, .stringEnum: token == .string
        case .int, .double, .date, .intEnum: token == .number
        case .bool: token == .true || token == .false
        case .dateRange, .array: token == .arrayStart
        case .object, .map: token == .objectStart
        }
    }

    init(_ type: FieldType) {
        self = switch type {
        case .string: .string
        case .url: .url
        case .int: .int
        case .double: .double
        case .date: .date
        case .dateRange: .dateRange
        case .bool: .bool
        case .enumeration(.strings): .stringEnum
        case .enumeration(.integers): .intEnum
        case .array: .array
        case .object: .object
        case .map: .map
        }
    }
}
