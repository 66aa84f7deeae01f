import LiveState
import LiveStateTooling

extension SchemaBuilder {
    /// Converts a `default` or `fallback` node to a value of `type`.
    ///
    /// `null` converts to `.null` whatever the type (`SchemaValidator` refuses it unless the
    /// field is optional). `double` takes integers too; `int` takes integers only. An object
    /// default gives some sub-fields and is resolved to a full object in schema order, the
    /// others taking their own default (or `null` when optional); a required sub-field it
    /// lacks is an error. Constraints are not checked here: `Field.violation(of:)` does that.
    /// - Parameters:
    ///   - node: The value's node.
    ///   - type: The field's type.
    ///   - pointer: The pointer to the node.
    ///   - label: How messages name the value: `default of field 'eta'`.
    /// - Returns: The value, or `nil` when it does not convert (every problem is reported).
    mutating func convert(_ node: YAMLNode, to type: FieldType, pointer: String, label: String) -> Value? {
        let scalar = node.scalarValue
        if scalar == .null {
            return .null
        }
        switch type {
        case .string, .url:
            if case .string(let text) = scalar { return .string(text) }
            return refuse(node, "expected a string", quoteHint: true, pointer: pointer, label: label)
        case .int:
            switch scalar {
            case .int(let int):
                return .int(int)
            case .largeInteger(let text):
                // Past `Int`: a `UInt64`'s, which the field's rules take only for `format: uint64`.
                if let uint = YAMLScalarValue.unsignedValue(ofLargeInteger: text) { return .uint(uint) }
                return refuse(node, "expected an integer that fits 64 bits", pointer: pointer, label: label)
            default:
                return refuse(node, "expected an integer", pointer: pointer, label: label)
            }
        case .double:
            return finiteNumber(node, pointer: pointer, label: label).map(Value.double)
        case .date:
            return finiteNumber(node, pointer: pointer, label: label, expected: "a date in seconds since 2001-01-01").map(Value.date)
        case .bool:
            if case .bool(let bool) = scalar { return .bool(bool) }
            return refuse(node, "expected true or false", pointer: pointer, label: label)
        case .dateRange:
            guard case .sequence(let bounds) = node.content, bounds.count == 2 else {
                return refuse(node, "expected [lower, upper] in seconds since 2001-01-01", pointer: pointer, label: label)
            }
            let lower = finiteNumber(bounds[0], pointer: pointer + "/0", label: label, expected: "a date in seconds since 2001-01-01")
            let upper = finiteNumber(bounds[1], pointer: pointer + "/1", label: label, expected: "a date in seconds since 2001-01-01")
            guard let lower, let upper else { return nil }
            return .dateRange(lower: lower, upper: upper)
        case .enumeration(.strings):
            if case .string(let text) = scalar { return .string(text) }
            return refuse(node, "expected one of the enum's string values", quoteHint: true, pointer: pointer, label: label)
        case .enumeration(.integers):
            if case .int(let int) = scalar { return .int(int) }
            return refuse(node, "expected one of the enum's integer values", pointer: pointer, label: label)
        case .array(let items):
            guard case .sequence(let elements) = node.content else {
                return refuse(node, "expected a sequence", pointer: pointer, label: label)
            }
            var values: [Value] = []
            var valid = true
            for (index, element) in elements.enumerated() where !isSaturated {
                if let value = convert(element, to: items.type, pointer: pointer + "/\(index)", label: label) {
                    values.append(value)
                } else {
                    valid = false
                }
            }
            return valid ? .array(values) : nil
        case .object(let fields):
            return resolveObject(node, fields: fields, pointer: pointer, label: label)
        case .map(let items):
            guard case .mapping(let pairs) = node.content else {
                return refuse(node, "expected a mapping of keys to values", pointer: pointer, label: label)
            }
            var members: [Value.Member] = []
            var keys: Set<String> = []
            var valid = true
            for pair in pairs where !isSaturated {
                guard let key = pair.key.scalar?.text, keys.insert(key).inserted else { continue }
                if let value = convert(pair.value, to: items.type, pointer: JSONPointer.appending(key, to: pointer), label: label) {
                    members.append(Value.Member(key, value))
                } else {
                    valid = false
                }
            }
            return valid ? .object(members) : nil
        }
    }

    private mutating func resolveObject(_ node: YAMLNode, fields: [Field], pointer: String, label: String) -> Value? {
        guard case .mapping(let pairs) = node.content else {
            return refuse(node, "expected a mapping of sub-field values", pointer: pointer, label: label)
        }
        var given: [String: YAMLNode] = [:]
        var valid = true
        for pair in pairs {
            guard let key = pair.key.scalar?.text, given[key] == nil else { continue }
            guard fields.contains(where: { $0.name == key }) else {
                let names = fields.map(\.name).joined(separator: ", ")
                report(
                    .schemaInvalidDefault, "\(label) is invalid: there is no sub-field '\(key)' (sub-fields: \(names))",
                    at: pair.key.position, pointer: JSONPointer.appending(key, to: pointer))
                valid = false
                continue
            }
            given[key] = pair.value
        }
        var members: [Value.Member] = []
        for field in fields {
            if let valueNode = given[field.name] {
                if let value = convert(valueNode, to: field.type, pointer: JSONPointer.appending(field.name, to: pointer), label: label) {
                    members.append(Value.Member(field.name, value))
                } else {
                    valid = false
                }
            } else if let value = field.missingValue {
                members.append(Value.Member(field.name, value))
            } else {
                report(
                    .schemaInvalidDefault,
                    "\(label) is invalid: it lacks required sub-field '\(field.name)', which has no default",
                    at: node.position, pointer: pointer)
                valid = false
            }
        }
        return valid ? .object(members) : nil
    }

    private mutating func finiteNumber(
        _ node: YAMLNode, pointer: String, label: String, expected: String = "a number"
    ) -> Double? {
        switch node.scalarValue {
        case .int(let int):
            return Double(int)
        case .largeInteger(let text):
            return YAMLScalarValue.doubleValue(ofLargeInteger: text)
        case .float(let double) where double.isFinite:
            return double
        case .float:
            return refuse(node, "expected a finite number", pointer: pointer, label: label)
        default:
            return refuse(node, "expected \(expected)", pointer: pointer, label: label)
        }
    }

    /// Reports a value that does not convert and returns `nil`.
    private mutating func refuse<T>(
        _ node: YAMLNode, _ expected: String, quoteHint: Bool = false, pointer: String, label: String
    ) -> T? {
        var message = "\(label) is invalid: \(expected), found \(node.described)"
        if quoteHint, node.scalar != nil {
            message += " (quote it to make it a string)"
        } else {
            message += node.digitSeparatorHint
        }
        report(.schemaInvalidDefault, message, at: node.position, pointer: pointer)
        return nil
    }
}
