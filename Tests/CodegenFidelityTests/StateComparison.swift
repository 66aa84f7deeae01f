import Foundation
@_spi(Scanner) import LiveState

/// A generated value as the `Value` tree `ContentStateDecoder` produces for the same payload,
/// read by reflection: stored properties are in schema order, one per field.
enum StateComparison {
    /// The value of a generated struct for an object with `fields`.
    static func value(of generated: Any, fields: [Field]) -> Value? {
        let children = Array(Mirror(reflecting: generated).children)
        guard children.count == fields.count else { return nil }
        var members: [Value.Member] = []
        for (child, field) in zip(children, fields) {
            guard let value = value(of: child.value, field: field) else { return nil }
            members.append(.init(field.name, value))
        }
        return .object(members)
    }

    /// The value of one property or array element.
    static func value(of generated: Any, field: Field) -> Value? {
        let mirror = Mirror(reflecting: generated)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return .null }
            return value(of: wrapped, field: field)
        }
        switch field.type {
        // A `UUID` as its `uuidString` (upper case), `Data` as base64, as JSONEncoder writes them.
        case .string where field.stringFormat == .uuid: return (generated as? UUID).map { .string($0.uuidString) }
        case .string where field.stringFormat == .base64: return (generated as? Data).map { .string($0.base64EncodedString()) }
        case .string: return (generated as? String).map(Value.string)
        case .url: return (generated as? URL).map { .string($0.absoluteString) }
        // `Int`, or the `format`'s type (`UInt8`, `UInt64`); `Double`, or `Float`.
        case .int:
            guard let integer = generated as? any BinaryInteger else { return nil }
            return Int(exactly: integer).map(Value.int) ?? UInt64(exactly: integer).map(Value.uint)
        case .double:
            if let float = generated as? Float { return .double(Double(float)) }
            // Through its text: `NSDecimalNumber.doubleValue` is off in the last digits.
            if let decimal = generated as? Decimal { return Double(decimal.description).map(Value.double) }
            return (generated as? Double).map(Value.double)
        case .bool: return (generated as? Bool).map(Value.bool)
        case .date: return (generated as? Date).map { .date($0.timeIntervalSinceReferenceDate) }
        case .dateRange:
            return (generated as? ClosedRange<Date>).map {
                .dateRange(lower: $0.lowerBound.timeIntervalSinceReferenceDate, upper: $0.upperBound.timeIntervalSinceReferenceDate)
            }
        case .enumeration:
            guard let raw = (generated as? any RawRepresentable)?.rawValue else { return nil }
            if let string = raw as? String { return .string(string) }
            if let int = raw as? Int { return .int(int) }
            return nil
        case .array(let items):
            guard let elements = generated as? [Any] else { return nil }
            var values: [Value] = []
            for element in elements {
                guard let value = value(of: element, field: items) else { return nil }
                values.append(value)
            }
            return .array(values)
        case .object(let fields):
            return value(of: generated, fields: fields)
        case .map(let items):
            // A dictionary has no order: its entries by key, as `normalized` puts the library's.
            guard let entries = Mirror(reflecting: generated).children.map({ $0.value }) as [Any]?,
                  Mirror(reflecting: generated).displayStyle == .dictionary else { return nil }
            var members: [Value.Member] = []
            for entry in entries {
                let pair = Array(Mirror(reflecting: entry).children)
                // A `[String: T]`'s key, or an `[Int: T]`'s as the text `Int` writes.
                let key = pair.count == 2 ? (pair[0].value as? String ?? (pair[0].value as? Int).map(String.init)) : nil
                guard let key, let value = value(of: pair[1].value, field: items) else { return nil }
                members.append(.init(key, value))
            }
            return .object(members.sorted { $0.name < $1.name })
        }
    }

    /// The library's state with every `url` string as `URL(string:)` spells it (`a b` is
    /// `a%20b`), and every UUID in upper case: the app holds a parsed `URL` and `UUID`,
    /// LiveState the text.
    static func normalized(_ value: Value, fields: [Field]) -> Value {
        guard case .object(let members) = value else { return value }
        return .object(members.map { member in
            guard let field = fields.first(where: { $0.name == member.name }) else { return member }
            return .init(member.name, normalized(member.value, field: field))
        })
    }

    private static func normalized(_ value: Value, field: Field) -> Value {
        switch (field.type, value) {
        case (.url, .string(let string)):
            return .string(URL(string: string)?.absoluteString ?? string)
        // The app holds a `UUID`: the same one in lower case is written back in upper case.
        case (.string, .string(let string)) where field.stringFormat == .uuid:
            return .string(string.uppercased())
        case (.double, .double(let double)) where field.numberFormat == .float:
            // The app holds a `Float`: 0.1 is 0.10000000149011612 there. JSONDecoder parses the
            // text to a `Float`; converting the `Double` instead rounds the midpoint below 2^128
            // (3.4028235677973366e38) up to infinity, where the text reads as the greatest `Float`.
            return .double(Double(Float(String(double)) ?? Float(double)))
        case (.array(let items), .array(let elements)):
            return .array(elements.map { normalized($0, field: items) })
        case (.object(let fields), _):
            return normalized(value, fields: fields)
        case (.map(let items), .object(let members)):
            // An `[Int: T]` holds `02` as 2.
            let name: (String) -> String = { name in field.hasIntegerKeys ? Int(name).map(String.init) ?? name : name }
            return .object(members.map { .init(name($0.name), normalized($0.value, field: items)) }.sorted { $0.name < $1.name })
        default:
            return value
        }
    }

    /// The JSON Pointers at which two states differ, for messages.
    static func differences(_ lhs: Value, _ rhs: Value, at pointer: String = "") -> [String] {
        switch (lhs, rhs) {
        case (.object(let left), .object(let right)) where left.map(\.name) == right.map(\.name):
            return zip(left, right).flatMap { differences($0.value, $1.value, at: pointer + "/" + $0.name) }
        case (.array(let left), .array(let right)) where left.count == right.count:
            return zip(left, right).enumerated().flatMap { differences($1.0, $1.1, at: pointer + "/\($0)") }
        default:
            return lhs == rhs ? [] : ["\(pointer.isEmpty ? "/" : pointer): \(JSONWriter.pretty(lhs)) vs \(JSONWriter.pretty(rhs))"]
        }
    }
}
