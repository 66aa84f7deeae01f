import LiveState
import LiveStateTooling

extension SchemaBuilder {
    /// Builds the fields of a `content-state`, `attributes` or object `fields` mapping, in order.
    /// - Returns: The fields that built; `nil` (reported) when the node is not a mapping.
    mutating func buildFields(_ node: YAMLNode, pointer: String, what: String) -> [Field]? {
        guard case .mapping(let pairs) = node.content else {
            droppedParts = true
            report(
                .schemaWrongType, "\(what) must be a mapping of fields (name: { type: ... }), found \(node.described)",
                at: node.position, pointer: pointer)
            return nil
        }
        var fields: [Field] = []
        var names: Set<String> = []
        for pair in pairs where !isSaturated {
            guard let name = pair.key.scalar?.text, names.insert(name).inserted else { continue }
            let fieldPointer = JSONPointer.appending(name, to: pointer)
            if let field = buildField(
                name: name, keyPosition: pair.key.position, node: pair.value, pointer: fieldPointer, isItems: false)
            {
                fields.append(field)
            } else {
                droppedParts = true
            }
        }
        return fields
    }

    /// Builds one field from its mapping.
    /// - Parameters:
    ///   - name: The field's name; empty for an array's `items`.
    ///   - keyPosition: Where the field's key is (for `items`, the `items` key).
    ///   - node: The field's mapping.
    ///   - pointer: The pointer to the field's mapping.
    ///   - isItems: Whether this is an array's `items`.
    /// - Returns: The field, or `nil` when its type cannot be built (reported).
    mutating func buildField(
        name: String, keyPosition: SourcePosition, node: YAMLNode, pointer: String, isItems: Bool
    ) -> Field? {
        let what = isItems ? "items" : "field '\(name)'"
        let allowed = isItems ? SchemaKeys.items : SchemaKeys.field
        let hint: (String) -> String? = { key in
            isItems && SchemaKeys.notForItems.contains(key) ? "items have no \(key): an array's elements are all present" : nil
        }
        guard let members = mapping(node, pointer: pointer, allowed: allowed, what: what, hint: hint) else {
            return nil
        }
        var field = Field(name: name, type: .string, position: keyPosition)
        readAttributes(members, into: &field, pointer: pointer)

        guard let typePair = members["type"] else {
            report(
                .schemaMissingKey, "\(what) has no 'type'; allowed types: \(FieldType.names.joined(separator: ", "))",
                at: keyPosition, pointer: pointer + "/type")
            return nil
        }
        guard let typeName = string(typePair, key: "type", pointer: pointer + "/type") else { return nil }
        guard let type = buildType(typeName, typePair: typePair, members: members, what: what, pointer: pointer) else {
            return nil
        }
        field.type = type
        // A number format's range is the type's: minimum and maximum narrow to it, so every
        // range check (decoders, encoder, compatibility) sees it.
        if let format = field.numberFormat, format.isInteger ? type == .int : type == .double {
            field.setNumberFormat(format)
        }
        for (key, applies) in [
            ("values", type.name == "enum"), ("items", type.name == "array" || type.name == "map"), ("fields", type.name == "object"),
            ("keys", type.name == "map"),
        ] {
            if !applies, let pair = members[key] {
                report(
                    .schemaInvalidConstraint, "'\(key)' applies to \(Self.owner(of: key)) fields, not \(type.name)",
                    at: pair.key.position, pointer: pointer + "/" + key)
            }
        }
        if let pair = members["default"] {
            field.defaultValue = convert(pair.value, to: type, pointer: pointer + "/default", label: "default of \(what)")
                .map(field.withHeldKeys)
        }
        if let pair = members["fallback"] {
            if case .enumeration = type {
                field.fallback = convert(pair.value, to: type, pointer: pointer + "/fallback", label: "fallback of \(what)")
            } else {
                report(
                    .schemaInvalidConstraint, "'fallback' applies to enum fields, not \(type.name)",
                    at: pair.key.position, pointer: pointer + "/fallback")
            }
        }
        return field
    }

    private static func owner(of key: String) -> String {
        switch key {
        case "values": "enum"
        case "items": "array and map"
        case "keys": "map"
        default: "object"
        }
    }

    /// Reads the keys every field type may have (whether they apply is `SchemaValidator`'s check).
    private mutating func readAttributes(_ members: Members, into field: inout Field, pointer: String) {
        func at(_ key: String) -> String { pointer + "/" + key }
        if let pair = members["optional"], let value = bool(pair, key: "optional", pointer: at("optional")) {
            field.isOptional = value
        }
        if let pair = members["on-invalid"], let text = string(pair, key: "on-invalid", pointer: at("on-invalid")) {
            switch text {
            case "default": field.rejectsInvalid = false
            case "reject": field.rejectsInvalid = true
            default:
                report(.schemaWrongType, "'on-invalid' must be one of default, reject, found '\(text)'", at: pair.value.position, pointer: at("on-invalid"))
            }
        }
        if let pair = members["on-null"], let text = string(pair, key: "on-null", pointer: at("on-null")) {
            // One value: the rule the key adds. A field without it reads `null` by its type.
            if text == "default" {
                field.nullTakesDefault = true
            } else {
                report(.schemaWrongType, "'on-null' must be default, found '\(text)'", at: pair.value.position, pointer: at("on-null"))
            }
        }
        for constraint in Field.Constraint.allCases {
            let key = constraint.rawValue
            guard let pair = members[key] else { continue }
            field.constraints[constraint] = constraint.measure == .number
                ? number(pair, key: key, pointer: at(key))
                : integer(pair, key: key, pointer: at(key)).map(Double.init)
        }
        if let pair = members["format"], let text = string(pair, key: "format", pointer: at("format")) {
            if let format = Field.NumberFormat(rawValue: text) {
                field.numberFormat = format
            } else if let format = Field.StringFormat(rawValue: text) {
                field.stringFormat = format
            } else {
                let names = Field.NumberFormat.allCases.map(\.rawValue) + Field.StringFormat.allCases.map(\.rawValue)
                report(
                    .schemaWrongType, "'format' must be one of \(names.joined(separator: ", ")), found '\(text)'",
                    at: pair.value.position, pointer: at("format"))
            }
        }
        if let pair = members["keys"], let text = string(pair, key: "keys", pointer: at("keys")) {
            // A map's keys: `String` (the default) or `Int`, as the app's dictionary holds them.
            switch text {
            case "string": field.hasIntegerKeys = false
            case "int": field.hasIntegerKeys = true
            default:
                report(.schemaWrongType, "'keys' must be one of string, int, found '\(text)'", at: pair.value.position, pointer: at("keys"))
            }
        }
        if let pair = members["drop-priority"] {
            field.dropPriority = integer(pair, key: "drop-priority", pointer: at("drop-priority"))
        }
        if let pair = members["aliases"], let elements = sequence(pair, key: "aliases", pointer: at("aliases")) {
            for (index, element) in elements.enumerated() {
                if let alias = string(element, key: "aliases", pointer: at("aliases") + "/\(index)") {
                    field.aliases.append(alias)
                }
            }
        }
        if let pair = members["deprecated"], let value = bool(pair, key: "deprecated", pointer: at("deprecated")) {
            field.isDeprecated = value
        }
        if let pair = members["truncate"], let value = bool(pair, key: "truncate", pointer: at("truncate")) {
            field.truncate = value
        }
        if let pair = members["description"] {
            field.documentation = string(pair, key: "description", pointer: at("description"))
        }
    }

    /// Builds the type named after `type:`, with its `values`, `items` or `fields`.
    private mutating func buildType(
        _ name: String, typePair: YAMLPair, members: Members, what: String, pointer: String
    ) -> FieldType? {
        switch name {
        case "string": return .string
        case "int": return .int
        case "double": return .double
        case "bool": return .bool
        case "date": return .date
        case "date-range": return .dateRange
        case "url": return .url
        case "enum":
            guard let pair = members["values"] else {
                report(.schemaInvalidConstraint, "enum \(what) has no 'values'", at: typePair.key.position, pointer: pointer + "/values")
                return nil
            }
            return buildEnumValues(pair, what: what, pointer: pointer + "/values").map(FieldType.enumeration)
        case "array":
            return buildItems(of: "array", members: members, typePair: typePair, what: what, pointer: pointer).map { FieldType.array(items: $0) }
        case "object":
            guard let pair = members["fields"] else {
                report(
                    .schemaInvalidConstraint, "object \(what) has no 'fields' (fields: { name: { type: ... } })",
                    at: typePair.key.position, pointer: pointer + "/fields")
                return nil
            }
            return buildFields(pair.value, pointer: pointer + "/fields", what: "'fields' of \(what)")
                .map { FieldType.object(fields: $0) }
        case "map":
            return buildItems(of: "map", members: members, typePair: typePair, what: what, pointer: pointer).map { FieldType.map(items: $0) }
        default:
            report(
                .schemaUnknownType, "unknown type '\(name)'; allowed types: \(FieldType.names.joined(separator: ", "))",
                at: typePair.value.position, pointer: pointer + "/type")
            return nil
        }
    }

    /// The `items` of an array or a map (`collection`): its elements' or values' field.
    private mutating func buildItems(of collection: String, members: Members, typePair: YAMLPair, what: String, pointer: String) -> Field? {
        guard let pair = members["items"] else {
            let of = collection == "map" ? ", the type of its values" : ""
            report(
                .schemaInvalidConstraint, "\(collection) \(what) has no 'items' (items: { type: ... })\(of)",
                at: typePair.key.position, pointer: pointer + "/items")
            return nil
        }
        return buildField(name: "", keyPosition: pair.key.position, node: pair.value, pointer: pointer + "/items", isItems: true)
    }

    private mutating func buildEnumValues(_ pair: YAMLPair, what: String, pointer: String) -> EnumValues? {
        guard let elements = sequence(pair, key: "values", pointer: pointer) else { return nil }
        var strings: [String] = []
        var integers: [Int] = []
        var separated: (index: Int, node: YAMLNode)?
        var valid = true
        for (index, element) in elements.enumerated() where !isSaturated {
            switch element.scalarValue {
            case .string(let text):
                strings.append(text)
                if separated == nil, element.hasDigitSeparators { separated = (index, element) }
            case .int(let int):
                integers.append(int)
            default:
                var message = "enum values are strings or integers, found \(element.described)"
                if element.scalar != nil {
                    message += " (quote it to make it a string)"
                }
                report(.schemaWrongType, message, at: element.position, pointer: pointer + "/\(index)")
                valid = false
            }
        }
        if !strings.isEmpty, !integers.isEmpty {
            if let (index, node) = separated {
                // `1_000` among integers: meant as one, read as a string.
                report(
                    .schemaInvalidConstraint,
                    "values of enum \(what) mix strings and integers: '\(Diagnostic.quoted(node.scalar?.text ?? ""))' is a string\(node.digitSeparatorHint)",
                    at: node.position, pointer: pointer + "/\(index)")
                return nil
            }
            report(
                .schemaInvalidConstraint,
                "values of enum \(what) mix strings and integers; quote the integers to make them all strings",
                at: pair.value.position, pointer: pointer)
            return nil
        }
        guard valid else { return nil }
        return integers.isEmpty ? .strings(strings) : .integers(integers)
    }
}
