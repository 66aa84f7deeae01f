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
                + "optional ones must be sent, defaults do not apply, and any wrong value drops the update."
        } else {
            description += " A missing key takes its default; unknown keys are ignored."
        }
        var members: [Value.Member] = [
            .init("title", .string("\(schema.activity) content-state, version \(version.version)")),
            .init("description", .string(description)),
        ]
        members += objectMembers(version.contentState, strict: strict)
        var attributes: [Value.Member] = [
            .init("title", .string("\(schema.activity) attributes, version \(version.version)")),
            .init("description", .string(
                "The static aps.attributes of a push-to-start for app version \(version.version)"
                    + (schema.attributesType.map { " (attributes-type \($0))" } ?? "") + ".")),
        ]
        attributes += objectMembers(version.attributes, strict: strict)
        members.append(.init("$defs", .object([.init("attributes", .object(attributes))])))
        return members
    }

    /// Whether `null` is a value a payload may carry: for synthesized `Codable` (`strict`), only
    /// in an optional field; for the schema's own decoding, also where it takes the default.
    private func takesNull(_ field: Field, strict: Bool) -> Bool {
        strict ? field.isOptional : field.takesNull
    }

    /// A `minimum` or `maximum` (`isLower`) as JSON Schema states it: for an `int` field, the
    /// integer itself, so that a validator compares it exactly (a `Double` past 2^53 is another
    /// number: `Int.max` would read as 2^63, which the app's `Int` does not hold); the least
    /// or greatest integer within it; and the edges of `Int` and `UInt64`, which the loader
    /// holds as the nearest `Double`, as those types'.
    static func bound(_ bound: Double, of field: Field, isLower: Bool) -> Value {
        guard field.type == .int else { return .double(bound) }
        let whole = bound.rounded(isLower ? .up : .down)
        if whole >= 0x1p64 { return .uint(UInt64.max) }
        if whole == 0x1p63, field.numberFormat != .uint64 { return .int(Int.max) }
        if let int = Int(exactly: whole) { return .int(int) }
        if let uint = UInt64(exactly: whole) { return .uint(uint) }
        return .double(bound)
    }

    private func objectMembers(_ fields: [Field], strict: Bool) -> [Value.Member] {
        var members: [Value.Member] = [.init("type", .string("object"))]
        members.append(.init("properties", .object(fields.map { .init($0.name, .object(fieldMembers($0, strict: strict))) })))
        let required = fields.filter { strict ? !$0.isOptional : $0.isRequired }.map { Value.string($0.name) }
        if !required.isEmpty { members.append(.init("required", .array(required))) }
        return members
    }

    private func fieldMembers(_ field: Field, strict: Bool) -> [Value.Member] {
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
            notes.append("A URL as Foundation's URL(string:) reads it, a relative reference too.")
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
            members.append(.init("prefixItems", .array([.object([.init("type", .string("number"))]), .object([.init("type", .string("number"))])])))
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
            members.append(.init("items", .object(fieldMembers(items, strict: strict))))
        case .object(let fields):
            types = ["object"]
            members += objectMembers(fields, strict: strict).dropFirst()
        case .map(let items):
            types = ["object"]
            members.append(.init("additionalProperties", .object(fieldMembers(items, strict: strict))))
        }
        var constraints = field.constraints
        if field.type == .int, field.numberFormat == nil {
            // The app's `Int`: a number past it fails JSONDecoder, as the decoders say.
            constraints.minimum = constraints.minimum ?? Double(Int.min)
            constraints.maximum = constraints.maximum ?? Double(Int.max)
        }
        let isMap = if case .map = field.type { true } else { false }
        for (constraint, bound) in constraints.bounds {
            // Each constraint in JSON Schema's words; a new one must say how it is written.
            switch constraint {
            case .minimum:
                members.append(.init("minimum", Self.bound(bound, of: field, isLower: true)))
                if case .dateRange = field.type { notes.append("Both bounds are at least \(Field.format(bound)).") }
            case .maximum:
                members.append(.init("maximum", Self.bound(bound, of: field, isLower: false)))
                if case .dateRange = field.type { notes.append("Both bounds are at most \(Field.format(bound)).") }
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
                members.append(.init("propertyNames", .object([.init("maxLength", .int(maxKeyLength))])))
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
