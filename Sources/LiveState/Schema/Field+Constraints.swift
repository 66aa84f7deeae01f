import Foundation

extension Field {
    /// Checks a value against this field's type and constraints.
    ///
    /// A value passes when it has the field's type (`.null` only for an optional field) and
    /// stays within `minimum`/`maximum`, `max-length` (UTF-8 bytes), `max-items`, the enum's
    /// values, and `lower <= upper` for a date range. Arrays check every element against
    /// `items`; objects check every member against its field, refuse members the object does
    /// not declare and require every required field.
    ///
    /// Nested problems name their place as a JSON Pointer relative to this value:
    /// `/courier/name: 65 bytes is longer than max-length 64`.
    /// - Parameters:
    ///   - value: A decoded, default or to-be-encoded value.
    ///   - urls: How the app version's devices read `url` values (by default, those of an app
    ///     that supports iOS 16.1, the strictest).
    /// - Returns: `nil` when the value is valid, otherwise a short message saying what is wrong.
    public func violation(of value: Value, urls: URLRule = URLRule()) -> String? {
        if case .null = value {
            return isOptional ? nil : "null, but the field is not optional"
        }
        switch (type, value) {
        case (.string, .string(let string)):
            return lengthViolation(string)
        case (.url, .string(let string)):
            if let problem = urls.problem(string) { return urls.message(problem, in: string) }
            return lengthViolation(string)
        case (.int, .int(let int)):
            // The message, and the number's text in it, only when there is a problem.
            guard !constraints.allowsNumber(Double(int)) else { return nil }
            return rangeViolation(Double(int), shown: String(int))
        case (.double, .double(let double)), (.date, .date(let double)):
            if let problem = Constraints.finiteProblem(double) { return problem }
            return rangeViolation(double)
        case (.bool, .bool):
            return nil
        case (.dateRange, .dateRange(let lower, let upper)):
            return Constraints.orderProblem(lower: lower, upper: upper)
                ?? rangeViolation(lower) ?? rangeViolation(upper)
        case (.enumeration(let values), .string), (.enumeration(let values), .int):
            if values.contains(value) { return nil }
            return "\(Field.describe(value)) is not one of \(Field.list(values))"
        case (.array(let items), .array(let elements)):
            if let problem = constraints.countProblem(elements.count) { return problem }
            for (index, element) in elements.enumerated() {
                if let problem = items.violation(of: element, urls: urls) {
                    return Field.nest(problem, under: String(index))
                }
            }
            return nil
        case (.object(let fields), .object(let members)):
            return Field.objectViolation(fields: fields, members: members, urls: urls)
        default:
            return "expected \(type.article), found \(Field.describe(value))"
        }
    }

    private func lengthViolation(_ string: String) -> String? {
        constraints.lengthProblem(string.utf8.count)
    }

    /// Why `number` breaks `minimum` or `maximum`, or `nil` when it does not.
    func rangeViolation(_ number: Double, shown: String? = nil) -> String? {
        constraints.rangeProblem(number, shown: shown)
    }

    private static func objectViolation(fields: [Field], members: [Value.Member], urls: URLRule) -> String? {
        for (index, member) in members.enumerated() {
            guard let field = fields.first(where: { $0.name == member.name }) else {
                return "unknown member '\(member.name)'"
            }
            if members[..<index].contains(where: { $0.name == member.name }) {
                return "member '\(member.name)' appears twice"
            }
            if let problem = field.violation(of: member.value, urls: urls) {
                return nest(problem, under: member.name)
            }
        }
        for field in fields where field.isRequired {
            if !members.contains(where: { $0.name == field.name }) {
                return "missing required member '\(field.name)'"
            }
        }
        return nil
    }

    /// Prefixes a nested problem with the JSON Pointer token of the member or element it is in.
    private static func nest(_ problem: String, under token: String) -> String {
        let escaped = JSONPointer.escape(token)
        if problem.hasPrefix("/") {
            return "/" + escaped + problem
        }
        return "/" + escaped + ": " + problem
    }

    /// A number as a schema author would write it: `64`, not `64.0`.
    package static func format(_ number: Double) -> String {
        ValueText.number(number)
    }

    /// A short description of a value for messages: `the string 'x'`, `the integer 3`.
    package static func describe(_ value: Value) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): "the boolean \(bool)"
        case .int(let int): "the integer \(int)"
        case .double(let double): "the number \(format(double))"
        case .string(let string): "the string '\(shortened(string))'"
        case .date(let date): "the date \(format(date))"
        case .dateRange: "a date range"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private static func list(_ values: EnumValues) -> String {
        let shown: [String] = switch values {
        case .strings(let strings): strings.prefix(10).map { $0 }
        case .integers(let integers): integers.prefix(10).map(String.init)
        }
        return shown.joined(separator: ", ") + (values.count > 10 ? ", …" : "")
    }

    static func shortened(_ string: String) -> String {
        string.count > 40 ? String(string.prefix(40)) + "…" : string
    }
}
