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
    ///   - minIOS: The oldest iOS the app version supports, which decides how its devices read
    ///     `url` values (by default iOS 16.1, the strictest).
    /// - Returns: `nil` when the value is valid, otherwise a short message saying what is wrong.
    public func violation(of value: Value, minIOS: IOSVersion = .liveActivities) -> String? {
        violation(of: value, urls: URLRule(minIOS: minIOS))
    }

    /// `violation(of:minIOS:)`, with the URL rule of the app version already made.
    package func violation(of value: Value, urls: URLRule) -> String? {
        // The rules are the plan's walk, which the encoder writes by: checked here with a sink
        // that keeps nothing.
        let plan = FieldPlan(self, urls: urls)
        var check = RuleCheck()
        do {
            _ = try withUnsafePointer(to: value) { value throws(RuleBroken) in try plan.walk(value, into: &check) }
            return nil
        } catch {
            return error.message
        }
    }

    /// Why `number` breaks `minimum` or `maximum`, or `nil` when it does not.
    func rangeViolation(_ number: Double, shown: String? = nil) -> String? {
        constraints.rangeProblem(number, shown: shown)
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
        case .uint(let uint): "the integer \(uint)"
        case .double(let double): "the number \(format(double))"
        case .string(let string): "the string '\(ValueText.clipped(string))'"
        case .date(let date): "the date \(format(date))"
        case .dateRange: "a date range"
        case .array: "an array"
        case .object: "an object"
        }
    }

    static func list(_ values: EnumValues) -> String {
        let shown: [String] = switch values {
        case .strings(let strings): strings.prefix(10).map { $0 }
        case .integers(let integers): integers.prefix(10).map(String.init)
        }
        return shown.joined(separator: ", ") + (values.count > 10 ? ", …" : "")
    }
}
