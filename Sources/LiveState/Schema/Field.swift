/// One field of a content-state or attributes object, or the element of an array.
public struct Field: Sendable, Hashable {
    /// The number type an app holds the value in (`format:` in the schema file), as OpenAPI's
    /// `format` names it. Its range is a property of the type, not a rule of the schema:
    /// synthesized `Codable` fails on a value outside it (JSONDecoder's "does not fit"), so a
    /// strict client drops the update, and every client treats the value as out of range.
    public enum NumberFormat: String, Sendable, Hashable, CaseIterable {
        case int8, int16, int32, int64, uint8, uint16, uint32, uint64
        /// `Float`: JSONDecoder refuses a number beyond its finite range.
        case float
        /// `Decimal`: JSONDecoder reads it by its own parser (`DecimalText`), which takes `0e1`
        /// and refuses what its exponent cannot hold (`4.9e-324`, `1e128`).
        case decimal

        /// The values the type holds.
        public var range: ClosedRange<Double> {
            switch self {
            case .int8: -128...127
            case .int16: -32_768...32_767
            case .int32: -2_147_483_648...2_147_483_647
            case .int64: Double(Int64.min)...Double(Int64.max)
            case .uint8: 0...255
            case .uint16: 0...65_535
            case .uint32: 0...4_294_967_295
            case .uint64: 0...Double(UInt64.max)
            case .float: -Self.largestFloat...Self.largestFloat
            // (2^128 - 1) * 10^127: the largest mantissa at the largest exponent.
            case .decimal: -3.402823669209385e165...3.402823669209385e165
            }
        }

        /// The largest `Double` whose shortest text reads as a finite `Float`: the midpoint between
        /// `Float.greatestFiniteMagnitude` and the next power of two, whose text
        /// `3.4028235677973366e38` is just below the exact midpoint, so JSONDecoder, which parses
        /// the text straight to a `Float`, reads the greatest `Float` (`floatReads`).
        static let largestFloat = Double(Float.greatestFiniteMagnitude) + Double(Float.greatestFiniteMagnitude.ulp) / 2

        /// Whether the app's type holds `number` as JSONDecoder reads it: inside `range`; a
        /// `Float` or a `Decimal` when the number's shortest text, as the encoder writes it, reads
        /// as one (`floatReads`, `DecimalText`).
        public func holds(_ number: Double) -> Bool {
            switch self {
            case .float: return Self.floatReads(String(number).utf8)
            case .decimal: return range.contains(number) && DecimalText.reads(String(number).utf8)
            default: return range.contains(number)
            }
        }

        /// Whether JSONDecoder reads the JSON number `text` as a `Float`: it parses the text
        /// straight to a `Float` (`strtof`), so the result must be finite, and not zero from
        /// digits that are not (`1e-50`, refused as `1e-400` is for a `Double`). Not through a
        /// `Double`: `3.4028235677973366e38` is below the midpoint between `Float`'s greatest and
        /// 2^128, and reads as the greatest, but its `Double` is that midpoint, which rounds up
        /// to infinity.
        package static func floatReads(_ text: some Collection<UInt8>) -> Bool {
            float(reading: text) != nil
        }

        /// The number a `Float` property holds for a JSON number written `text`, as a `Double`:
        /// the `Float` read from the text itself, as `JSONDecoder` reads it (through a `Double`
        /// it could round twice: `16777217.000000001` is the `Float` 16777218), written back
        /// at that `Float`'s shortest text, so that a state shows what the app holds and
        /// writes back (`16777217` is 16777216, `0.1` stays 0.1). `nil` where `floatReads` is
        /// false: no `Float` holds it.
        package static func heldByFloat(_ text: some Collection<UInt8>) -> Double? {
            float(reading: text).map(double(of:))
        }

        /// The `Float` `JSONDecoder` reads from `text`, or `nil` (`floatReads`).
        private static func float(reading text: some Collection<UInt8>) -> Float? {
            guard let float = Float(String(decoding: text, as: UTF8.self)), float.isFinite else { return nil }
            return float != 0 || !NumberText.hasNonZeroDigit(text) ? float : nil
        }

        /// A `Float` as the `Double` of its shortest text (`Float(0.1)` is 0.1, not
        /// 0.10000000149011612): what a state shows, and what bounds are checked on, by the
        /// decoders and by generated code alike, so that `maximum: 0.1` takes the `Float` 0.1.
        package static func double(of float: Float) -> Double {
            Double(String(float)) ?? Double(float)
        }

        /// Whether the format is an integer's (`int` fields), or `float` or `decimal` (`double`
        /// fields).
        public var isInteger: Bool { self != .float && self != .decimal }

        /// The Swift type's name: `UInt8`, `Float`.
        public var swiftName: String {
            switch self {
            case .float: "Float"
            case .decimal: "Decimal"
            default: (rawValue.hasPrefix("u") ? "UI" + rawValue.dropFirst(2) : "I" + rawValue.dropFirst())
            }
        }
    }

    /// The key in the JSON object; empty for an array's `items`.
    public var name: String
    /// The field's type.
    public var type: FieldType
    /// The value a decoder uses when the key is missing, fully resolved (objects list every member).
    public var defaultValue: Value?
    /// Whether the key may be missing or `null` without a default (decodes as `.null`).
    public var isOptional: Bool
    /// Whether an invalid value (of the wrong type, or breaking a constraint) makes the payload
    /// invalid rather than taking the default (`on-invalid: reject`). Without it, an invalid
    /// value takes the field's default, reported as `invalid-defaulted` (`on-invalid: default`).
    public var rejectsInvalid: Bool
    /// Whether `null` reads as the default, as a missing key does (`on-null: default`): what an
    /// app's own `init(from:)` does with `decodeIfPresent(…) ?? default` into a property that is
    /// not optional. Without it, `null` is `nil` for an optional field and invalid otherwise.
    public var nullTakesDefault: Bool
    /// The limits on the field's values beyond its type: `minimum`, `max-length`, …
    public var constraints: Constraints
    /// The enum value used for an unknown raw value.
    public var fallback: Value?
    /// Older names of this field; a decoder accepts them when the name itself is missing.
    public var aliases: [String]
    /// Whether the field is deprecated.
    public var isDeprecated: Bool
    /// The field's documentation (`description:` in the schema file).
    public var documentation: String?
    /// Whether an encoder may shorten this string to fit the byte budget.
    public var truncate: Bool
    /// When set, an encoder may omit this field to fit the budget; lower goes first.
    public var dropPriority: Int?
    /// Where the field's key is in the schema file.
    public var position: SourcePosition?
    /// The number type the app holds an `int` or `double` in; `nil` for `Int` and `Double`.
    /// Set it with `setNumberFormat(_:)`, which narrows `minimum` and `maximum` to its range,
    /// as the loader does, so that every reader of `constraints` sees the type's range. The
    /// decoders and the encoder check the type's range even when the format is set alone.
    public var numberFormat: NumberFormat?
    /// The text a `string` field's value must be for the app's type (`UUID`, `Data`); `nil`
    /// for `String`.
    public var stringFormat: StringFormat?
    /// Whether a `map`'s keys are an `Int`'s text (`keys: int` in the schema file): the app
    /// holds the map in a `[Int: T]`, which `JSONDecoder` reads from a JSON object whose every
    /// key `Int(_:)` reads (see `mapKeyProblem(_:)`). `false` for a `[String: T]`.
    public var hasIntegerKeys = false

    /// Creates a field.
    /// - Parameters:
    ///   - name: The JSON key (empty for array items).
    ///   - type: The field's type.
    ///   - defaultValue: The default, fully resolved.
    ///   - isOptional: Whether the key may be absent without a default.
    ///   - rejectsInvalid: Whether an invalid value rejects the payload.
    ///   - nullTakesDefault: Whether `null` reads as the default (`on-null: default`).
    ///   - constraints: The field's bounds (`.init(maxLength: 64)`, `.init(minimum: 0, maximum: 1)`).
    ///   - fallback: The enum value for unknown raw values.
    ///   - aliases: Older names.
    ///   - isDeprecated: Whether it is deprecated.
    ///   - documentation: Its description.
    ///   - truncate: Whether an encoder may shorten it.
    ///   - dropPriority: Whether, and in which order, an encoder may omit it.
    ///   - position: Where it is declared.
    public init(
        name: String,
        type: FieldType,
        defaultValue: Value? = nil,
        isOptional: Bool = false,
        rejectsInvalid: Bool = false,
        nullTakesDefault: Bool = false,
        constraints: Constraints = Constraints(),
        fallback: Value? = nil,
        aliases: [String] = [],
        isDeprecated: Bool = false,
        documentation: String? = nil,
        truncate: Bool = false,
        dropPriority: Int? = nil,
        position: SourcePosition? = nil
    ) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.isOptional = isOptional
        self.rejectsInvalid = rejectsInvalid
        self.nullTakesDefault = nullTakesDefault
        self.constraints = constraints
        self.fallback = fallback
        self.aliases = aliases
        self.isDeprecated = isDeprecated
        self.documentation = documentation
        self.truncate = truncate
        self.dropPriority = dropPriority
        self.position = position
    }

    /// The `format` the schema file writes: the number format's or the string format's name.
    package var formatName: String? { numberFormat?.rawValue ?? stringFormat?.rawValue }

    /// Whether a payload must carry this key: no default and not optional.
    public var isRequired: Bool { defaultValue == nil && !isOptional }

    /// The value a decoder uses when the key is missing: the default, `.null` for an optional
    /// field, or `nil` when the field is required.
    public var missingValue: Value? {
        if let defaultValue { return defaultValue }
        return isOptional ? .null : nil
    }

    /// Sets the number type the app holds the value in, and narrows `minimum` and `maximum` to
    /// its range, so that every range check (the decoders, the encoder, compatibility) sees it:
    /// the loader reads `format:` this way, and the Swift importer sets a type's format so.
    /// - Parameter format: The number type.
    public mutating func setNumberFormat(_ format: NumberFormat) {
        // Bounds an earlier format narrowed to are that format's, not the field's: widened
        // back first, so that `.int8` then `.int32` is an `Int32`'s range.
        if let earlier = numberFormat {
            if constraints.minimum == earlier.range.lowerBound { constraints.minimum = nil }
            if constraints.maximum == earlier.range.upperBound { constraints.maximum = nil }
        }
        numberFormat = format
        constraints = Self.constraints(constraints, narrowedTo: format)
    }

    /// The field's constraints as the readers check them: `minimum` and `maximum` narrowed to
    /// its number format's range when it has one (as `setNumberFormat(_:)` sets them), so that
    /// a schema built in code that sets `numberFormat` alone is checked as the app's type reads.
    package var checkedConstraints: Constraints {
        guard let numberFormat, numberFormat.isInteger ? type == .int : type == .double else { return constraints }
        return Self.constraints(constraints, narrowedTo: numberFormat)
    }

    /// `constraints` with `minimum` and `maximum` no wider than `format`'s range.
    private static func constraints(_ constraints: Constraints, narrowedTo format: NumberFormat) -> Constraints {
        var narrowed = constraints
        narrowed.minimum = max(constraints.minimum ?? format.range.lowerBound, format.range.lowerBound)
        narrowed.maximum = min(constraints.maximum ?? format.range.upperBound, format.range.upperBound)
        return narrowed
    }

    /// Whether `null` reads as a missing key does: an optional field with no default, whose
    /// missing key is `null`. The encoder leaves such a `null` out. (A `null` that takes the
    /// default, `on-null: default`, is written as the default: another version may need the key.)
    package var nullReadsAsMissing: Bool { isOptional && defaultValue == nil }

    /// The value a `null` takes (`on-null: default`): the default, when the field has the rule
    /// and a default that is not itself `null` (the schema validator refuses any other, which
    /// would make a `null` take a `null`). Every reader asks this, not `nullTakesDefault`.
    package var nullReplacement: Value? {
        guard nullTakesDefault, let defaultValue, !defaultValue.isNull else { return nil }
        return defaultValue
    }

    /// Whether an app version reads `null` in this field without a problem: as `nil` (an
    /// optional field) or as the default (`on-null: default`). Compatibility asks it of both
    /// sides: may a payload carry `null` here, and does the reader take it.
    package var takesNull: Bool { isOptional || nullReplacement != nil }

    /// The value an invalid value takes (`on-invalid: default`): the value for a missing
    /// key, when there is one; `nil` when an invalid value makes the object that holds the field
    /// invalid. The decoder and the compatibility walk both ask this.
    package var invalidReplacement: Value? {
        rejectsInvalid ? nil : missingValue
    }
}

extension Field {
    /// The field as an app version under `clients.strict` reads it: synthesized `Codable` reads
    /// an optional field's missing key and its `null` as `nil` (`decodeIfPresent`), never as the
    /// default, here or in any object, array or map inside it. A strict version's decoder is
    /// compiled from these, so that its state holds what the app holds. (A required field keeps
    /// its default: `Codable` drops the update without the key, which the decoder reports, and
    /// the default is what the schema's reading shows beside that verdict.)
    package var readByCodable: Field {
        var field = self
        if isOptional {
            field.defaultValue = nil
            field.nullTakesDefault = false
        }
        switch type {
        case .object(let fields): field.type = .object(fields: fields.map(\.readByCodable))
        case .array(let items): field.type = .array(items: items.readByCodable)
        case .map(let items): field.type = .map(items: items.readByCodable)
        default: break
        }
        return field
    }
}

extension [Field] {
    /// Each field's value when its key is missing (`.null` for a required one), in order: the
    /// object a decoder starts from before it reads any member.
    var initialMembers: [Value.Member] {
        map { Value.Member($0.name, $0.missingValue ?? .null) }
    }
}
