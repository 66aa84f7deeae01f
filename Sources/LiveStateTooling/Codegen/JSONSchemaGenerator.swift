@_spi(Scanner) import LiveState

/// Writes JSON Schema (draft 2020-12) for the content-state and static attributes of a
/// schema's versions, for servers written in other languages.
///
/// One version gives a document whose root is that version's content-state, with the
/// attributes under `$defs/attributes`. All versions give one document with each version's
/// content-state under `$defs/v1`, `$defs/v2`, … (its attributes under `$defs/vN/$defs/attributes`)
/// and a root that refers to the newest.
///
/// What JSON Schema cannot say is written in `description` and in `x-livestate-…` keywords:
/// `max-length` counts UTF-8 bytes (`x-livestate-max-bytes`; `maxLength` counts characters, so
/// it is emitted as a looser bound), dates are seconds since 2001-01-01, a date-range's lower
/// bound is not after its upper one, an enum's `fallback`, a field's aliases. A version under
/// `clients.strict` decodes with synthesized `Codable`, which knows no defaults, fallbacks or
/// aliases, so its document says none of them.
public struct JSONSchemaGenerator: Sendable {
    /// The dialect every document declares.
    public static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// Creates a generator.
    public init() {}

    /// Generates the document as indented JSON text.
    /// - Parameters:
    ///   - schema: A schema that passes `SchemaValidator`.
    ///   - version: One version, or `nil` for every version.
    /// - Returns: The JSON text, ending with a newline.
    /// - Throws: `CodegenError` for an unknown version or an invalid schema.
    public func generate(_ schema: Schema, version: Int? = nil) throws(CodegenError) -> String {
        JSONWriter.pretty(try document(schema, version: version)) + "\n"
    }

    /// Generates the document as a `Value`.
    /// - Parameters:
    ///   - schema: A schema that passes `SchemaValidator`.
    ///   - version: One version, or `nil` for every version.
    /// - Returns: The JSON Schema document.
    /// - Throws: `CodegenError` for an unknown version or an invalid schema.
    public func document(_ schema: Schema, version: Int? = nil) throws(CodegenError) -> Value {
        let problems = SchemaValidator.validate(schema).filter { $0.severity == .error }
        if !problems.isEmpty {
            throw CodegenError(
                code: .invalidSchema, message: "the schema has \(problems.count) error(s); fix them before generating a JSON Schema",
                diagnostics: problems)
        }
        if let version {
            guard let found = schema.version(version) else { throw CodegenError.unknownVersion(version, in: schema) }
            return .object([.init("$schema", .string(Self.dialect))] + versionMembers(found, of: schema))
        }
        let newest = schema.latest.map { "v\($0.version)" } ?? ""
        var members: [Value.Member] = [
            .init("$schema", .string(Self.dialect)),
            .init("title", .string(schema.activity)),
            .init("description", .string(
                "The content-state and static attributes of the \(schema.activity) Live Activity for every app version: "
                    + "#/$defs/vN is the content-state of version N and #/$defs/vN/$defs/attributes its attributes. "
                    + "The document itself validates the newest version's content-state.")),
        ]
        if !newest.isEmpty { members.append(.init("$ref", .string("#/$defs/\(newest)"))) }
        members.append(.init("$defs", .object(schema.versions.map { .init("v\($0.version)", .object(versionMembers($0, of: schema))) })))
        return .object(members)
    }

    private func versionMembers(_ version: SchemaVersion, of schema: Schema) -> [Value.Member] {
        let strict = schema.isStrict(version.version)
        var description = "The aps.content-state that app version \(version.version) of \(schema.activity) decodes."
        if strict {
            description += " Version \(version.version) decodes with synthesized Codable (clients.strict): every key but the "
                + "optional ones must be sent, defaults do not apply, and a value of the wrong type or format drops the update; "
                + "a value that breaks only a constraint (a bound, a length, a count) is applied as sent, though this document refuses it."
        } else {
            description += " A missing key takes its default; unknown keys are ignored."
        }
        var members: [Value.Member] = [
            .init("title", .string("\(schema.activity) content-state, version \(version.version)")),
            .init("description", .string(description)),
        ]
        let urls = schema.urlRule(version.version)
        members += objectMembers(version.contentState, strict: strict, urls: urls)
        var attributes: [Value.Member] = [
            .init("title", .string("\(schema.activity) attributes, version \(version.version)")),
            .init("description", .string(
                "The static aps.attributes of a push-to-start for app version \(version.version)"
                    + (schema.attributesType.map { " (attributes-type \($0))" } ?? "") + ".")),
        ]
        attributes += objectMembers(version.attributes, strict: strict, urls: urls)
        members.append(.init("$defs", .object([.init("attributes", .object(attributes))])))
        return members
    }

    /// Whether `null` is a value a payload may carry: for synthesized `Codable` (`strict`), only
    /// in an optional field; for the schema's own decoding, also where it takes the default.
    private func takesNull(_ field: Field, strict: Bool) -> Bool {
        strict ? field.isOptional : field.takesNull
    }

    /// A `minimum` or `maximum` (`isLower`) as JSON Schema states it, its name with it: for an `int` field, the
    /// integer itself, so that a validator compares it exactly (a `Double` past 2^53 is another
    /// number: `Int.max` would read as 2^63, which the app's `Int` does not hold); the least
    /// or greatest integer within it; and the edges of `Int` and `UInt64`, which the loader
    /// holds as the nearest `Double`, as those types'.
    ///
    /// A `float` or `decimal` bound at the edge of its type is moved inside it: the loader holds
    /// `Float`'s as the midpoint past its greatest value, which rounds to infinity and which a
    /// validator reading numbers as `Double` would pass, so the `Double` just below; and
    /// JSONDecoder reads no `Decimal` whose shortest text has an exponent past
    /// `DecimalText.exponents` (`1e128`), so the bound is that power of ten, exclusive. (Some
    /// longer spellings, `15e127`, do read: the bound errs on the side of refusing.)
    static func bound(_ bound: Double, of field: Field, isLower: Bool) -> Value.Member {
        let name = isLower ? "minimum" : "maximum"
        switch field.numberFormat {
        case .float? where abs(bound) == Field.NumberFormat.float.range.upperBound:
            return .init(name, .double(isLower ? bound.nextUp : bound.nextDown))
        case .decimal?:
            let edge = Double("1e\(DecimalText.exponents.upperBound + 1)") ?? .infinity
            guard abs(bound) >= edge else { return .init(name, .double(bound)) }
            return .init(isLower ? "exclusiveMinimum" : "exclusiveMaximum", .double(isLower ? -edge : edge))
        default:
            break
        }
        guard field.type == .int else { return .init(name, .double(bound)) }
        let whole = bound.rounded(isLower ? .up : .down)
        if whole >= 0x1p64 { return .init(name, .uint(UInt64.max)) }
        if whole == 0x1p63, field.numberFormat != .uint64 { return .init(name, .int(Int.max)) }
        if let int = Int(exactly: whole) { return .init(name, .int(int)) }
        if let uint = UInt64(exactly: whole) { return .init(name, .uint(uint)) }
        return .init(name, .double(bound))
    }

    /// An object of `fields`. A field's aliases (not a strict version's, which reads a key by its
    /// name alone) are read when its own key is missing: then each alias key given must hold what
    /// the field takes, and a required field may be given under an alias instead.
    private func objectMembers(_ fields: [Field], strict: Bool, urls: URLRule) -> [Value.Member] {
        var members: [Value.Member] = [.init("type", .string("object"))]
        let properties = fields.map { Value.Member($0.name, .object(fieldMembers($0, strict: strict, urls: urls))) }
        members.append(.init("properties", .object(properties)))
        let aliased = strict ? [] : fields.indices.filter { !fields[$0].aliases.isEmpty }
        let required = fields.filter { (strict ? !$0.isOptional : $0.isRequired) && (strict || $0.aliases.isEmpty) }.map { Value.string($0.name) }
        if !required.isEmpty { members.append(.init("required", .array(required))) }
        var conditions: [Value] = []
        for index in aliased {
            let field = fields[index]
            let ownKeyMissing = Value.object([.init("not", .object([.init("required", .array([.string(field.name)]))]))])
            let aliases = Value.object([.init("properties", .object(field.aliases.map { .init($0, properties[index].value) }))])
            conditions.append(.object([.init("if", ownKeyMissing), .init("then", aliases)]))
            if field.isRequired {
                let given = ([field.name] + field.aliases).map { Value.object([.init("required", .array([.string($0)]))]) }
                conditions.append(.object([.init("anyOf", .array(given))]))
            }
        }
        if !conditions.isEmpty { members.append(.init("allOf", .array(conditions))) }
        return members
    }

    /// The bounds a `number` of no other bound has: `Double`'s finite range, past which
    /// JSONDecoder refuses it (`1e400`).
    private static let doubleRange = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude

    /// `doubleRange` as a schema's members, for a date range's two numbers.
    private static let doubleBounds: [Value.Member] = [
        .init("minimum", .double(doubleRange.lowerBound)), .init("maximum", .double(doubleRange.upperBound)),
    ]

    private func fieldMembers(_ field: Field, strict: Bool, urls: URLRule) -> [Value.Member] {
        var notes: [String] = []
        if let documentation = field.documentation, !documentation.isEmpty { notes.append(documentation) }
        var members: [Value.Member] = []
        var types: [String] = []
        switch field.type {
        case .string:
            types = ["string"]
            switch field.stringFormat {
            case .uuid?:
                members.append(.init("format", .string("uuid")))
                notes.append("A UUID as UUID(uuidString:) reads it: hexadecimal digits of either case, 8-4-4-4-12.")
            case .base64?:
                members.append(.init("contentEncoding", .string("base64")))
                notes.append("Base64 as Data(base64Encoded:) reads it: padded with = to a multiple of 4 characters, no white space.")
            case nil:
                break
            }
            // `format` and `contentEncoding` are annotations to most validators: the pattern checks.
            if let pattern = field.stringFormat?.pattern { members.append(.init("pattern", .string(pattern))) }
        case .url:
            types = ["string"]
            members.append(.init("format", .string("uri-reference")))
            // `format` is an annotation to most validators: the length and, for an app on iOS
            // 16, the characters its URL(string:) takes, check.
            members.append(.init("minLength", .int(1)))
            if urls.hasLegacyParser {
                members.append(.init("pattern", .string(URLRule.legacyPattern)))
                notes.append("A URL as Foundation's URL(string:) reads it, a relative reference too, on iOS 16 (min-ios "
                    + "\(urls.minIOS)): letters, digits, -_.!~*'();/?:@&=+$,[], %XX and one #; anything else, a space or a "
                    + "non-ASCII letter, percent-encoded. The pattern is looser than the parser, which also refuses some "
                    + "strings of those characters (http://[).")
            } else {
                notes.append("A URL as Foundation's URL(string:) reads it from iOS 17 on, a relative reference too; "
                    + "it percent-encodes a space or a non-ASCII letter, and refuses the empty string.")
            }
        case .int:
            types = ["integer"]
        case .double:
            types = ["number"]
        case .bool:
            types = ["boolean"]
        case .date:
            types = ["number"]
            notes.append("A date: seconds since 2001-01-01T00:00:00Z (Foundation's reference date), not UNIX time; UNIX seconds minus 978307200.")
        case .dateRange:
            types = ["array"]
            let date = Value.object([.init("type", .string("number"))] + Self.doubleBounds)
            members.append(.init("prefixItems", .array([date, date])))
            members.append(.init("items", .bool(false)))
            members.append(.init("minItems", .int(2)))
            notes.append("A date range [lower, upper]: seconds since 2001-01-01T00:00:00Z, lower not after upper.")
        case .enumeration(let values):
            switch values {
            case .strings: types = ["string"]
            case .integers: types = ["integer"]
            }
            members.append(.init("enum", .array(values.values + (takesNull(field, strict: strict) ? [.null] : []))))
            // Synthesized Codable (strict) knows no fallback: an unknown value drops the update.
            if let fallback = field.fallback, !strict {
                notes.append("An unknown value reads as \(ValueText.render(fallback)).")
            }
        case .array(let items):
            types = ["array"]
            members.append(.init("items", .object(fieldMembers(items, strict: strict, urls: urls))))
        case .object(let fields):
            types = ["object"]
            members += objectMembers(fields, strict: strict, urls: urls).dropFirst()
        case .map(let items):
            types = ["object"]
            members.append(.init("additionalProperties", .object(fieldMembers(items, strict: strict, urls: urls))))
            if field.hasIntegerKeys {
                members.append(.init("propertyNames", .object([.init("pattern", .string(Field.integerKeyPattern))])))
                members.append(.init("x-livestate-integer-keys", .bool(true)))
                notes.append("Keys are an Int's text (x-livestate-integer-keys), as the app's [Int: …] reads them: an optional sign "
                             + "and decimal digits; the app also refuses a key past Int's range, which the pattern lets through.")
            }
        }
        var constraints = field.constraints
        // The app's number type bounds the value too: JSONDecoder refuses a number it does not hold.
        switch (field.type, field.numberFormat) {
        case (.int, nil):
            // `Int`, as the decoders bound it; a bound past it is `Int`'s.
            constraints.minimum = max(constraints.minimum ?? Double(Int.min), Double(Int.min))
            constraints.maximum = min(constraints.maximum ?? Double(Int.max), Double(Int.max))
        case (.double, nil), (.date, _):
            constraints.minimum = constraints.minimum ?? Self.doubleRange.lowerBound
            constraints.maximum = constraints.maximum ?? Self.doubleRange.upperBound
        default:
            break
        }
        let isMap = if case .map = field.type { true } else { false }
        for (constraint, bound) in constraints.bounds {
            // Each constraint in JSON Schema's words; a new one must say how it is written.
            switch constraint {
            case .minimum:
                members.append(Self.bound(bound, of: field, isLower: true))
            case .maximum:
                members.append(Self.bound(bound, of: field, isLower: false))
            case .minLength:
                // minLength counts characters, and a character is at most 4 UTF-8 bytes: a
                // string of min-length N bytes has at least ⌈N/4⌉ characters (N for a formatted
                // string, which is ASCII).
                guard let minLength = constraints.minLength else { continue }
                members.append(.init("minLength", .int(field.stringFormat != nil ? minLength : minLength / 4 + (minLength % 4 == 0 ? 0 : 1))))
                members.append(.init("x-livestate-min-bytes", .int(minLength)))
                if field.stringFormat == nil {
                    notes.append("At least \(minLength) UTF-8 bytes (x-livestate-min-bytes); minLength counts characters, so it is a looser bound.")
                }
            case .maxLength:
                guard let maxLength = constraints.maxLength else { continue }
                members.append(.init("maxLength", .int(maxLength)))
                members.append(.init("x-livestate-max-bytes", .int(maxLength)))
                // A formatted string is ASCII: a character is a byte.
                if field.stringFormat == nil {
                    notes.append("At most \(maxLength) UTF-8 bytes (x-livestate-max-bytes); maxLength counts characters, so it is a looser bound.")
                }
            case .minItems:
                guard let minItems = constraints.minItems else { continue }
                members.append(.init(isMap ? "minProperties" : "minItems", .int(minItems)))
            case .maxItems:
                guard let maxItems = constraints.maxItems else { continue }
                members.append(.init(isMap ? "maxProperties" : "maxItems", .int(maxItems)))
            case .maxKeyLength:
                // maxLength counts characters: as for a string, a looser bound, and the bytes beside it.
                guard let maxKeyLength = constraints.maxKeyLength else { continue }
                // Beside an `Int` key's pattern, when the map has one.
                let names = members.firstIndex { $0.name == "propertyNames" }
                if let names, case .object(var rules) = members[names].value {
                    rules.append(.init("maxLength", .int(maxKeyLength)))
                    members[names] = .init("propertyNames", .object(rules))
                } else {
                    members.append(.init("propertyNames", .object([.init("maxLength", .int(maxKeyLength))])))
                }
                members.append(.init("x-livestate-max-key-bytes", .int(maxKeyLength)))
                notes.append("Keys of at most \(maxKeyLength) UTF-8 bytes (x-livestate-max-key-bytes); propertyNames' maxLength counts characters, so it is a looser bound.")
            }
        }
        if case .dateRange = field.type { members.append(.init("maxItems", .int(2))) }
        if takesNull(field, strict: strict), !types.isEmpty { types.append("null") }
        let typeValue: Value = types.count == 1 ? .string(types[0]) : .array(types.map(Value.string))
        members.insert(.init("type", typeValue), at: 0)
        if let defaultValue = field.defaultValue, !strict { members.append(.init("default", defaultValue)) }
        if field.rejectsInvalid, field.missingValue != nil, !strict {
            notes.append("An invalid value is not replaced by the default: the app drops the update.")
        }
        if field.nullReplacement != nil, !field.isOptional, !strict {
            notes.append("A null reads as the default (on-null: default).")
        }
        if field.isDeprecated { members.append(.init("deprecated", .bool(true))) }
        // Nor aliases: a strict version reads a key by its name alone.
        if !field.aliases.isEmpty, !strict {
            members.append(.init("x-livestate-aliases", .array(field.aliases.map(Value.string))))
        }
        if let fallback = field.fallback, !strict { members.append(.init("x-livestate-fallback", fallback)) }
        if field.truncate { members.append(.init("x-livestate-truncate", .bool(true))) }
        if let dropPriority = field.dropPriority { members.append(.init("x-livestate-drop-priority", .int(dropPriority))) }
        if !notes.isEmpty { members.insert(.init("description", .string(notes.joined(separator: " "))), at: 0) }
        return members
    }
}
