import LiveState

/// The JSON promotion table: how a reader's field type takes the JSON values a writer's field
/// type produces, as Foundation's `JSONDecoder` (and the tolerant decoder) decode them.
///
/// | writer → reader | result |
/// |---|---|
/// | same type | `same`: compare enum values, object fields, array items, constraints |
/// | int → double, int enum → int/double/date | `compatible`: every integer is a valid number |
/// | date ↔ double, int → date | `epochChanged`: the same JSON number, another epoch (2001 against 1970) |
/// | url → string, string enum → string | `compatible`: the same JSON string (`narrowed` for a string with a `format` the URL or a raw value is not) |
/// | date-range → array of double/date that allows two items | `compatible`: `[lower, upper]` |
/// | double/date → int or int enum, int → int enum | `narrowed`: 1.5 or an unlisted value fails (date → int: another epoch too) |
/// | string → url, string/url/string enum → url or string enum | `narrowed`: not every string decodes |
/// | array of numbers → date-range | `narrowed`: only two ordered numbers decode |
/// | map → object | `compatible` when every field takes a missing key and the map's values (an object of no fields takes any); else `narrowed` |
/// | object → map | `compatible` when the map takes every field's values, and as many entries (and, for `keys: int`, every field's name is an integer's text); else `narrowed` |
/// | anything else (another JSON kind), a string of one format read as another (uuid, base64) | `incompatible` |
enum TypePromotion: Equatable {
    /// The same type: compare what is inside.
    case same
    /// Every value the writer's type produces decodes in the reader's type.
    case compatible(String)
    /// Every value decodes, but a date counts from 2001 and a number usually from 1970: the
    /// reader is 31 years off.
    case epochChanged(String)
    /// Some values the writer's type produces fail in the reader's type.
    case narrowed(String)
    /// No value the writer's type produces decodes in the reader's type.
    case incompatible

    /// Classifies the writer's type against the reader's.
    /// - Parameters:
    ///   - writer: The field in the payload's version.
    ///   - reader: The field in the app's version.
    /// - Returns: The promotion.
    static func classify(writer: Field, reader: Field) -> TypePromotion {
        switch (writer.type, reader.type) {
        case (.string, .string) where writer.stringFormat != nil && reader.stringFormat != nil && writer.stringFormat != reader.stringFormat:
            // No UUID is base64 (a hyphen), and no base64 text a UUID.
            return .incompatible
        case (.string, .string), (.int, .int), (.double, .double), (.bool, .bool), (.date, .date),
            (.dateRange, .dateRange), (.url, .url),
            (.enumeration(.strings), .enumeration(.strings)), (.enumeration(.integers), .enumeration(.integers)),
            (.array, .array), (.object, .object), (.map, .map):
            return .same
        case (.map(let items), .object(let fields)):
            return mapReadAsObject(items: items, fields: fields)
        case (.object(let fields), .map(let items)):
            return objectReadAsMap(fields: fields, items: items, integerKeys: reader.hasIntegerKeys)
        case (.int, .double):
            return .compatible("every int is a valid double")
        // An int enum's raw values read as dates shift as an int's do (it was `compatible`).
        case (.int, .date), (.double, .date), (.date, .double), (.enumeration(.integers), .date):
            return .epochChanged(Self.epochs)
        case (.enumeration(.integers), .int), (.enumeration(.integers), .double):
            return .compatible("an int enum's raw values are JSON integers")
        case (.url, .string):
            if let format = reader.stringFormat {
                return .narrowed("the app's \(format.swiftName) reads only \(format.text), which a URL need not be")
            }
            return .compatible("a URL is a JSON string")
        case (.enumeration(.strings(let values)), .string):
            if let format = reader.stringFormat, let value = values.first(where: { format.problem($0) != nil }) {
                return .narrowed("the app's \(format.swiftName) reads only \(format.text), which the enum's raw value '\(ValueText.clipped(value))' is not")
            }
            return .compatible("a string enum's raw values are JSON strings")
        case (.dateRange, .array(let items)):
            switch items.type {
            case .double, .date:
                if let problem = reader.constraints.countProblem(2) {
                    return .narrowed("a date-range is two numbers: \(problem)")
                }
                return .compatible("a date-range is a JSON array of two numbers")
            case .int:
                return .narrowed("a date-range's bounds may have fractions, which int elements reject")
            default:
                return .incompatible
            }
        case (.array(let items), .dateRange):
            switch items.type {
            case .double, .date, .int, .enumeration(.integers):
                return .narrowed("a date-range takes exactly [lower, upper] with lower <= upper")
            default:
                return .incompatible
            }
        case (.double, .int):
            return .narrowed("an int rejects numbers with a fraction, such as 1.5")
        case (.date, .int):
            return .narrowed("an int rejects numbers with a fraction, such as 1.5, and " + Self.epochs)
        case (.double, .enumeration(.integers)), (.date, .enumeration(.integers)), (.int, .enumeration(.integers)):
            return .narrowed("only the enum's listed raw values decode")
        case (.string, .url) where writer.stringFormat == .uuid:
            // Hexadecimal digits and hyphens: a relative reference on every iOS.
            return .compatible("every UUID is a relative URL")
        case (.string, .url), (.enumeration(.strings), .url):
            return .narrowed("a url rejects strings that URL(string:) does not read")
        case (.string, .enumeration(.strings)), (.url, .enumeration(.strings)):
            return .narrowed("only the enum's listed raw values decode")
        default:
            return .incompatible
        }
    }

    /// A map's values read by an object's fields: the object ignores the keys that name none
    /// of its fields, and reads those that do. Every value decodes when each field takes a
    /// missing key (a map may leave any out) and every value of the map's type.
    private static func mapReadAsObject(items: Field, fields: [Field]) -> TypePromotion {
        guard !fields.isEmpty else { return .compatible("an object of no fields takes any object") }
        if let required = fields.first(where: \.isRequired) {
            return .narrowed("a map may leave out the key '\(required.name)', which the object requires")
        }
        if let field = fields.first(where: { !readsEvery(writer: items, reader: $0) }) {
            return .narrowed("a map's value under the key '\(field.name)' is \(describe(items)), which the object's '\(field.name)' "
                             + "(\(describe(field))) does not read whatever it is")
        }
        return .compatible("the object reads the map's keys that name its fields, each a value the field takes, and ignores the others")
    }

    /// An object's members read as a map's values: every member is one, so every value
    /// decodes when the map's type takes each field's values (and `null`, from a field that
    /// may send it). The member count and key lengths against the map's bounds are
    /// `compareConstraints`'s, which knows an object's (said here too, they were said twice).
    private static func objectReadAsMap(fields: [Field], items: Field, integerKeys: Bool) -> TypePromotion {
        guard !fields.isEmpty else {
            // Its keys are not checked: a dictionary stated before a schema could state a map.
            return .narrowed("an object of no fields may carry any members, which the map reads as its values")
        }
        if let field = fields.first(where: { Field.mapKeyProblem($0.name, integerKeys: integerKeys, constraints: .init()) != nil }) {
            return .narrowed("the map's keys are Ints, and the object's '\(field.name)' is not an integer's text, a key JSONDecoder refuses")
        }
        if let field = fields.first(where: { !readsEvery(writer: $0, reader: items) }) {
            return .narrowed("the map reads the object's '\(field.name)' (\(describe(field))) as one of its values, which are \(describe(items))")
        }
        if let field = fields.first(where: { $0.takesNull && !items.takesNull }) {
            return .narrowed("the object's '\(field.name)' may be null, which the map reads as one of its values, none of which is null")
        }
        return .compatible("the map reads each member of the object as one of its values, all of which it takes")
    }

    /// Whether `reader` takes every value `writer` sends: a promotion that is compatible, or the
    /// same type with the same constraints and formats (a change of either is for the caller
    /// to compare, which a map read as an object, or the other way, does not).
    private static func readsEvery(writer: Field, reader: Field) -> Bool {
        switch classify(writer: writer, reader: reader) {
        case .compatible: true
        case .same:
            writer.type == reader.type && writer.constraints == reader.constraints
                && writer.numberFormat == reader.numberFormat && writer.stringFormat == reader.stringFormat
                && (writer.hasIntegerKeys || !reader.hasIntegerKeys)
        case .epochChanged, .narrowed, .incompatible: false
        }
    }

    /// Why a date read as a number, or a number as a date, is 31 years off.
    static let epochs = "a date counts seconds since 2001-01-01 while a number field usually holds UNIX seconds "
        + "(since 1970): the same JSON number reads 31 years off (978307200 seconds)"

    /// The JSON kind a type is written as, for messages: `a JSON string`, `a JSON number`, …
    /// Whether `field` may hold a number with a fraction: a `double`'s, or a `date`'s seconds.
    static func sendsFractions(_ field: Field) -> Bool {
        switch field.type {
        case .double, .date: true
        default: false
        }
    }

    static func jsonKind(_ type: FieldType) -> String {
        switch type {
        case .string, .url, .enumeration(.strings): "a JSON string"
        case .int, .double, .date, .enumeration(.integers): "a JSON number"
        case .bool: "a JSON boolean"
        case .dateRange, .array: "a JSON array"
        case .object, .map: "a JSON object"
        }
    }

    /// A field's type as `describe(_:)` words it, with a string's format: `string (format uuid)`.
    static func describe(_ field: Field) -> String {
        field.stringFormat.map { "\(describe(field.type)) (format \($0.rawValue))" } ?? describe(field.type)
    }

    /// The type as a schema file writes it, with the enum's raw value kind: `string`, `enum of strings`.
    static func describe(_ type: FieldType) -> String {
        switch type {
        case .enumeration(.strings): "enum of strings"
        case .enumeration(.integers): "enum of integers"
        case .array(let items): "array of \(describe(items.type))"
        case .map(let items): "map of \(describe(items.type))"
        default: type.name
        }
    }
}
