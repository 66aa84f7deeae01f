import Foundation
import LiveState

/// The Swift types the generator writes for one schema version, with every name settled:
/// each object becomes a struct, each enum field an enum, nested inside the struct that
/// holds the field.
///
/// For delivery version 2 the plan is:
/// ```
/// DeliveryAttributes            attributes: totalAmount, orderId
///   ContentState                content-state: logo, title, subtitle (alias subTitle), …
///     Status                    enum field status
///     Courier                   object field courier: name, rating
/// ```
/// Type names come from field names (`courier` → `Courier`, an array's element gets `Item`:
/// `substitutions` → `SubstitutionsItem`) and never shadow a type the code uses (`Date` becomes
/// `DateValue`).
enum SwiftTypePlan {
    /// A struct for an object: the attributes, a content-state, or an `object` field.
    struct Structure {
        var name: String
        var documentation: [String]
        var properties: [Property]
        /// Aliases as `CodingKeys` cases, after the properties' own cases.
        var aliasCases: [(name: String, key: String, of: String)]
        var nested: [Nested]
    }

    /// A type declared inside a struct.
    indirect enum Nested {
        case structure(Structure)
        case enumeration(Enumeration)
    }

    /// An enum for an `enum` field.
    struct Enumeration {
        var name: String
        var documentation: [String]
        var isInteger: Bool
        var cases: [(name: String, raw: Value)]
        /// The case an unknown raw value becomes.
        var fallback: String?
    }

    /// One stored property and how it decodes.
    struct Property {
        var field: Field
        /// The identifier, unescaped.
        var name: String
        /// The Swift type, without the `?` of an optional field.
        var type: TypeReference
        /// The aliases' `CodingKeys` case names, in the schema's order.
        var aliasCases: [String]
    }

    /// The Swift type of a field's value.
    indirect enum TypeReference {
        case string, url, bool, date, dateRange
        /// `UUID` or `Data`: a string of the field's `format`.
        case formatted(Field.StringFormat)
        /// `Int`, or the number type of the field's `format` (`UInt8`, `UInt64`).
        case int(Field.NumberFormat?)
        /// `Double`, or `Float` for `format: float`.
        case double(Field.NumberFormat?)
        case enumeration(Enumeration)
        case structure(Structure)
        case array(TypeReference, items: Field)
        /// `[String: T]`, or `[Int: T]` for `keys: int`: a map.
        case map(TypeReference, items: Field, integerKeys: Bool)

        /// The type as written in source: `String`, `[Courier]`, `ClosedRange<Date>`.
        var source: String {
            switch self {
            case .string: "String"
            case .url: "URL"
            case .formatted(let format): format.swiftName
            case .int(let format): format?.swiftName ?? "Int"
            case .double(let format): format?.swiftName ?? "Double"
            case .bool: "Bool"
            case .date: "Date"
            case .dateRange: "ClosedRange<Date>"
            case .enumeration(let plan): plan.name
            case .structure(let plan): plan.name
            case .array(let element, _): "[\(element.source)]"
            case .map(let element, _, let integerKeys): "[\(integerKeys ? "Int" : "String"): \(element.source)]"
            }
        }
    }

    /// Type names the generated code refers to, which a nested type must not shadow: among
    /// them every number format's type (`Decimal`, `Float`, `UInt8`), which a field named
    /// `decimal` would otherwise hide from its own members.
    static let reservedTypeNames = Set([
        "String", "Int", "Double", "Bool", "Date", "URL", "UUID", "Data", "ClosedRange", "Array", "Dictionary", "Optional",
        "Decoder", "Encoder", "DecodingError", "EncodingError", "CodingKey", "CodingKeys",
        "Codable", "Decodable", "Encodable", "Hashable", "Sendable", "CaseIterable",
        "RawRepresentable", "KeyedDecodingContainer", "Error", "Never", "Any", "AnyObject",
        "Foundation", "Swift", "ContentState", "TolerantValue", "TolerantContainer", "LiveState",
        "ActivityAttributes", "ActivityKit",
    ]).union(Field.NumberFormat.allCases.map(\.swiftName))

    /// Plans the struct for an object's fields.
    /// - Parameters:
    ///   - name: The struct's name, already unique where it is declared.
    ///   - fields: The object's fields, in order.
    ///   - documentation: The struct's doc comment lines.
    ///   - outerNames: Type names of the enclosing scopes, which nested types must not take.
    static func structure(
        named name: String, fields: [Field], documentation: [String], outerNames: Set<String>
    ) -> Structure {
        var members = SwiftNameScope()
        let propertyNames = fields.map { members.claim(SwiftIdentifier.member($0.name)) }
        var types = SwiftNameScope(reserved: reservedTypeNames.union(outerNames).union(propertyNames).union([name]))
        var keys = SwiftNameScope(reserved: Set(propertyNames))
        var nested: [Nested] = []
        var properties: [Property] = []
        var aliasCases: [(name: String, key: String, of: String)] = []
        let inner = outerNames.union([name])
        for (field, propertyName) in zip(fields, propertyNames) {
            let reference = typeReference(
                for: field, suggested: SwiftIdentifier.type(field.name), types: &types, outerNames: inner, nested: &nested)
            var property = Property(field: field, name: propertyName, type: reference, aliasCases: [])
            for alias in field.aliases {
                let caseName = keys.claim(SwiftIdentifier.member(alias))
                property.aliasCases.append(caseName)
                aliasCases.append((caseName, alias, propertyName))
            }
            properties.append(property)
        }
        return Structure(name: name, documentation: documentation, properties: properties, aliasCases: aliasCases, nested: nested)
    }

    private static func typeReference(
        for field: Field, suggested: String, types: inout SwiftNameScope, outerNames: Set<String>, nested: inout [Nested]
    ) -> TypeReference {
        switch field.type {
        case .string: return field.stringFormat.map(TypeReference.formatted) ?? .string
        case .url: return .url
        case .int: return .int(field.numberFormat)
        case .double: return .double(field.numberFormat)
        case .bool: return .bool
        case .date: return .date
        case .dateRange: return .dateRange
        case .enumeration(let values):
            let plan = enumeration(named: claimType(suggested, in: &types), values: values, field: field)
            nested.append(.enumeration(plan))
            return .enumeration(plan)
        case .object(let fields):
            let name = claimType(suggested, in: &types)
            let plan = structure(
                named: name, fields: fields, documentation: documentation(of: field), outerNames: outerNames)
            nested.append(.structure(plan))
            return .structure(plan)
        case .array(let items):
            let element = typeReference(
                for: items, suggested: suggested + "Item", types: &types, outerNames: outerNames, nested: &nested)
            return .array(element, items: items)
        case .map(let items):
            let element = typeReference(
                for: items, suggested: suggested + "Value", types: &types, outerNames: outerNames, nested: &nested)
            return .map(element, items: items, integerKeys: field.hasIntegerKeys)
        }
    }

    /// `suggested`, or `suggested` + `Value` when that shadows a type the code uses, made unique.
    private static func claimType(_ suggested: String, in types: inout SwiftNameScope) -> String {
        if reservedTypeNames.contains(suggested) || SwiftIdentifier.keywords.contains(suggested)
            || SwiftIdentifier.unusable.contains(suggested)
        {
            return types.claim(suggested + "Value")
        }
        return types.claim(suggested)
    }

    private static func enumeration(named name: String, values: EnumValues, field: Field) -> Enumeration {
        var scope = SwiftNameScope()
        var cases: [(name: String, raw: Value)] = []
        switch values {
        case .strings(let strings):
            for string in strings {
                cases.append((scope.claim(SwiftIdentifier.member(string)), .string(string)))
            }
        case .integers(let integers):
            for int in integers {
                let spelled = int < 0 ? "valueMinus\(int.magnitude)" : "value\(int)"
                cases.append((scope.claim(spelled), .int(int)))
            }
        }
        let fallback = field.fallback.flatMap { fallback in cases.first(where: { $0.raw == fallback })?.name }
        var isInteger = false
        if case .integers = values { isInteger = true }
        return Enumeration(
            name: name, documentation: documentation(of: field), isInteger: isInteger, cases: cases, fallback: fallback)
    }

    /// A field's `description`, as doc comment text (`SwiftSourceWriter.doc` splits it into lines).
    static func documentation(of field: Field) -> [String] {
        guard let text = field.documentation, !text.isEmpty else { return [] }
        return [text]
    }
}
