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

    /// Why a map's dictionary does not hold `key`, or `nil` when it does: the one rule of a
    /// map's keys, asked by the decoders, the encoder, the schema checks and generated code
    /// (`TolerantValue.integerKeyedMap`).
    ///
    /// - An `Int`-keyed map's (`keys: int`) key must be text `Int(_:)` reads: an optional `+`
    ///   or `-` and ASCII digits, within `Int`'s range (`5`, `+5`, `05` and `-0`, not `5.0`,
    ///   `1e2`, ` 5` or `9223372036854775808`). Swift's `Dictionary` fails to decode on any
    ///   other ("Expected Int key but found String key instead"), so synthesized `Codable`
    ///   fails too (`codableFails`).
    /// - A key longer than `max-key-length` UTF-8 bytes breaks the schema's rule, which
    ///   `Codable` does not check.
    /// - Parameters:
    ///   - key: The key, unescaped.
    ///   - integerKeys: Whether the map's keys are `Int`s.
    ///   - constraints: The map's constraints.
    package static func mapKeyProblem(
        _ key: String, integerKeys: Bool, constraints: Constraints
    ) -> (message: String, codableFails: Bool)? {
        if integerKeys, Int(key) == nil {
            let unsigned = key.first == "+" || key.first == "-" ? key.dropFirst() : Substring(key)
            let isDigits = !unsigned.isEmpty && unsigned.utf8.allSatisfy(JSONByte.isDigit)
            let what = isDigits ? "is past Int's range" : "is not an integer"
            return ("the key '\(Diagnostic.quoted(key))' \(what), and the app's [Int: …] reads only keys that Int(_:) "
                    + "reads: an optional sign and decimal digits, within Int's range", true)
        }
        return constraints.keyLengthProblem(key.utf8.count).map { ($0, false) }
    }

    /// `value`, a value of this field, with the keys of each `Int`-keyed map in it written as
    /// `Int` writes them (`+05` is `5`), as the app holds them and a decoded state shows them: a
    /// default is held so, and two spellings of one default are one. A map whose keys would
    /// then meet (`5` and `05`) is left as written, for `mapKeyProblem`'s check to refuse.
    package func withHeldKeys(_ value: Value) -> Value {
        switch (type, value) {
        case (.map(let items), .object(let members)):
            let held = members.map { member in
                Value.Member(hasIntegerKeys ? Int(member.name).map(String.init) ?? member.name : member.name, items.withHeldKeys(member.value))
            }
            return Set(held.map(\.name)).count == held.count ? .object(held) : value
        case (.array(let items), .array(let elements)):
            return .array(elements.map(items.withHeldKeys))
        case (.object(let fields), .object(let members)):
            return .object(members.map { member in
                .init(member.name, fields.first { $0.name == member.name }?.withHeldKeys(member.value) ?? member.value)
            })
        default:
            return value
        }
    }

    /// The keys an `Int`-keyed map's rule (`mapKeyProblem`) takes by their form, as a regular
    /// expression (ECMA-262, as JSON Schema's `pattern` takes it), for the JSON Schema a server
    /// validates with: an optional sign and decimal digits. `Int`'s range is not in it. It ends
    /// in `(?![\s\S])`, not `$`, as `StringFormat.pattern` does.
    package static let integerKeyPattern = #"^[+-]?[0-9]+(?![\s\S])"#

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
