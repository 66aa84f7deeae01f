import Foundation
import LiveState

/// Payloads derived from a valid one, each breaking one thing: a key removed, an extra key,
/// a value of every other JSON type, out-of-range numbers, over-long strings, unknown enum
/// values, inverted or malformed date-ranges, arrays over their limit or with a bad element,
/// aliases beside or instead of their field, duplicate keys.
struct PayloadMutation: Sendable {
    var label: String
    var payload: JSONText
    /// Set when the payload hits a case on which `ContentStateDecoder` is known to be wrong
    /// about Foundation.
    var knownIssue: KnownLibraryIssue? = nil
}

enum PayloadMutations {
    /// Every mutation of `base` for an object with `fields`, recursing into nested objects and
    /// the first element of arrays of objects.
    static func all(of base: JSONText, fields: [Field]) -> [PayloadMutation] {
        var result: [PayloadMutation] = []
        walk(fields, at: [], in: base, into: &result)
        for replacement: JSONText in [.array([]), .string("x"), .null, .literal("1")] {
            result.append(PayloadMutation(label: "content-state = \(replacement.text)", payload: replacement))
        }
        return result
    }

    private static func walk(_ fields: [Field], at path: [JSONStep], in base: JSONText, into result: inout [PayloadMutation]) {
        func add(_ label: String, _ payload: JSONText?, _ knownIssue: KnownLibraryIssue? = nil) {
            if let payload { result.append(PayloadMutation(label: label, payload: payload, knownIssue: knownIssue)) }
        }
        let here = path.map(\.description).joined()
        add("\(here)/zzUnknown added", base.setting(path + [.key("zzUnknown")], to: .literal("1")))
        add("\(here)/zzNested added", base.setting(path + [.key("zzNested")], to: .object([.init(key: "deep", value: .array([.null]))])))
        for field in fields {
            let fieldPath = path + [.key(field.name)]
            let pointer = fieldPath.map(\.description).joined()
            add("\(pointer) removed", base.setting(fieldPath, to: nil))
            for replacement in replacements(for: field) {
                add("\(pointer) = \(replacement.text)", base.setting(fieldPath, to: replacement),
                    KnownLibraryIssue.classify(replacement, for: field))
            }
            let valid = base.value(at: fieldPath) ?? sample(field)
            let invalid = wrongValue(for: field)
            // The key with its first character as a \u escape: JSONDecoder matches keys unescaped.
            if let first = field.name.unicodeScalars.first, first.value < 0x10000 {
                let rest = String(String.UnicodeScalarView(field.name.unicodeScalars.dropFirst()))
                let escaped = "\"\\u" + String(format: "%04x", first.value) + JSONText.quoted(rest).dropFirst()
                add("\(pointer) with its key escaped", base.setting(fieldPath, to: nil)?.rewritingObject(at: path) {
                    $0 + [.init(key: field.name, value: valid, rawKey: escaped)]
                })
            }
            // Duplicate keys: JSONDecoder keeps the first.
            for (first, second) in [(valid, invalid), (invalid, valid)] {
                add("\(pointer) twice: \(first.text), \(second.text)", base.setting(fieldPath, to: nil)?.rewritingObject(at: path) {
                    $0 + [.init(key: field.name, value: first), .init(key: field.name, value: second)]
                })
            }
            for alias in field.aliases {
                add("\(pointer) sent as \(alias)", base.setting(fieldPath, to: nil)?.setting(path + [.key(alias)], to: valid))
                add("\(pointer) sent as \(alias), invalid", base.setting(fieldPath, to: nil)?.setting(path + [.key(alias)], to: invalid))
                for (aliasValue, ownValue) in [(valid, invalid), (invalid, valid), (valid, valid)] {
                    for aliasFirst in [true, false] {
                        let members: [JSONText.Member] = [.init(key: alias, value: aliasValue), .init(key: field.name, value: ownValue)]
                        add("\(pointer) and \(alias): \(aliasValue.text) / \(ownValue.text), alias first: \(aliasFirst)",
                            base.setting(fieldPath, to: nil)?.rewritingObject(at: path) { $0 + (aliasFirst ? members : members.reversed()) })
                    }
                }
            }
            for (index, alias) in field.aliases.enumerated() where index > 0 {
                let members: [JSONText.Member] = [.init(key: alias, value: valid), .init(key: field.aliases[0], value: invalid)]
                add("\(pointer) sent as \(alias) and \(field.aliases[0])",
                    base.setting(fieldPath, to: nil)?.rewritingObject(at: path) { $0 + members })
            }
            switch field.type {
            case .object(let nested):
                if let nestedBase = base.setting(fieldPath, to: valid) {
                    walk(nested, at: fieldPath, in: nestedBase, into: &result)
                }
            case .array(let items):
                if case .object(let nested) = items.type, let nestedBase = base.setting(fieldPath, to: .array([sample(items)])) {
                    walk(nested, at: fieldPath + [.index(0)], in: nestedBase, into: &result)
                }
            default:
                break
            }
        }
    }

    /// A value of the right type for every other JSON type, plus the edges of the field's type.
    static func replacements(for field: Field) -> [JSONText] {
        var values: [JSONText] = [
            .string("x"), .string(""), .literal("0"), .literal("1"), .literal("-1"), .literal("1.5"), .literal("2.0"),
            .literal("true"), .literal("false"), .null, .array([]), .object([]), .array([.literal("1")]),
            .object([.init(key: "a", value: .literal("1"))]),
        ]
        values += typeEdges(for: field)
        return values
    }

    private static func typeEdges(for field: Field) -> [JSONText] {
        switch field.type {
        case .string, .url:
            var values: [JSONText] = [
                .string("https://example.com/x"), .string("not a url"), .string("relative/path"),
                .string("https://example.com/a b"), .string("mailto:someone@example.com"), .string("a:"), .string(":x"),
                .string("http://[::1"), .literal("\"\\ud800\""), .literal("\"a\\u0000b\""), .literal("\"\\u00e9\\/\""),
                .string("😀"),
            ]
            if let minLength = field.constraints.minLength, minLength > 0 {
                values.append(.string(String(repeating: "a", count: minLength - 1)))
                values.append(.string(String(repeating: "a", count: minLength)))
            }
            if let maxLength = field.constraints.maxLength {
                values.append(.string(String(repeating: "a", count: maxLength)))
                values.append(.string(String(repeating: "a", count: maxLength + 1)))
                values.append(.string(String(repeating: "é", count: maxLength / 2 + 1)))
                values.append(.string("https://example.com/" + String(repeating: "a", count: max(0, maxLength - 20))))
                values.append(.string("https://example.com/" + String(repeating: "a", count: max(0, maxLength - 19))))
            }
            return values
        case .int, .double, .date:
            var values: [JSONText] = [
                "1e2", "100e-2", "-0", "-0.0", "0e1", "0E5", "0e+1", "1e-400", "5e-324", "1e400", "-1e400", "1e308",
                "9223372036854775807", "9223372036854775808", "-9223372036854775809", "9223372036854775807.0",
                "1.0000000000000000001", "816692800", "1795001800", "0.1",
                "18446744073709551615", "18446744073709551616", "1e19", "-1", "3.5e38", "3.4028235e+38", "1e-50",
                // From 2^53 up, JSONDecoder reads an integer's fraction or exponent as a Decimal's.
                "9007199254740993.0", "9007199254740993.5", "9007199254740993e0", "-9007199254740993.0",
                "-9223372036854775808.0", "9223372036854775295.0", "12345678901234567890.00", "1.2345678901234567890e19",
                // Doubles at their edges, zeros spelled many ways.
                "1.7976931348623157e308", "1.7976931348623159e308", "2.2250738585072014e-308", "4.9e-324", "2e-324",
                "0e-5", "-0e1", "0E0", "0.0e0", "0e+10", "123456789012345678901234567890", "1E-2",
                // A Decimal's exponent ends, its largest mantissa and past it.
                "1e127", "1e128", "0.1e-127", "0.1e-128", "340282366920938463463374607431768211455e127",
                "340282366920938463463374607431768211456e127",
            ].map(JSONText.literal)
            values.append(.string("0.6"))
            for bound in [field.constraints.minimum, field.constraints.maximum].compactMap({ $0 }) {
                values += [bound - 1, bound - 0.5, bound, bound + 0.5, bound + 1].map { .literal(number($0)) }
            }
            return values
        case .bool:
            return [.string("true"), .literal("0")]
        case .dateRange:
            return [
                "[1,2]", "[2,1]", "[1,1]", "[1,2,3]", "[1]", "[]", "[1,\"2\"]", "[1,null]", "[null,1]", "[0e1,1]",
                "[1,1e400]", "[-1,0]", "[1.5,2.5]", "[1e-400,1]", "[[1],2]",
            ].map(JSONText.literal)
        case .enumeration(let values):
            switch values {
            case .strings(let strings):
                var result: [JSONText] = strings.map(JSONText.string)
                result += [.string("no-such-value"), .literal("7")]
                if let first = strings.first {
                    result += [.string(first.uppercased()), .string(first + " "), .string(" " + first)]
                }
                return result
            case .integers(let integers):
                var result: [JSONText] = integers.map { .literal(String($0)) }
                result += [.literal("999"), .literal("-1000"), .literal("1e400")]
                if let first = integers.first {
                    result += [.literal("\(first).0"), .literal("\(first).5"), .string(String(first)), .literal("\(first)e0")]
                }
                return result
            }
        case .array(let items):
            let good = sample(items)
            let bad = wrongValue(for: items)
            var result: [JSONText] = [.array([good]), .array([good, bad]), .array([bad, good]), .array([.null])]
            if let maxItems = field.constraints.maxItems {
                result.append(.array(Array(repeating: good, count: maxItems)))
                result.append(.array(Array(repeating: good, count: maxItems + 1)))
                result.append(.array(Array(repeating: good, count: maxItems) + [bad]))
            }
            for edge in typeEdges(for: items).prefix(40) {
                result.append(.array([good, edge]))
            }
            return result
        case .object(let fields):
            return [
                .object(fields.map { .init(key: $0.name, value: sample($0)) }),
                .object(fields.filter(\.isRequired).map { .init(key: $0.name, value: sample($0)) }),
            ]
        case .map(let items):
            let good = sample(items)
            let bad = wrongValue(for: items)
            func map(_ values: [JSONText]) -> JSONText {
                .object(values.enumerated().map { .init(key: "k\($0.offset)", value: $0.element) })
            }
            var result: [JSONText] = [map([good]), map([good, bad]), map([bad, good]), map([.null]), .array([good])]
            if let maxItems = field.constraints.maxItems {
                result.append(map(Array(repeating: good, count: maxItems)))
                result.append(map(Array(repeating: good, count: maxItems + 1)))
            }
            for edge in typeEdges(for: items).prefix(40) {
                result.append(map([good, edge]))
            }
            return result
        }
    }

    /// A valid value for a field, as small as possible.
    static func sample(_ field: Field) -> JSONText {
        if let defaultValue = field.defaultValue, !defaultValue.isNull { return JSONText(defaultValue) }
        switch field.type {
        case .string:
            // Within min-length and max-length: at least one byte unless none is allowed.
            let length = max(field.constraints.minLength ?? 0, field.constraints.maxLength == 0 ? 0 : 1)
            return .string(String(repeating: "s", count: length))
        case .url:
            let url = "https://example.com"
            let short = (field.constraints.minLength ?? 0) - url.utf8.count
            return .string(short > 0 ? url + "/" + String(repeating: "a", count: short - 1) : url)
        case .int: return .literal(number(clamped(0, field)))
        case .double, .date: return .literal(number(clamped(0.25, field)))
        case .bool: return .literal("true")
        case .dateRange: return .literal("[0,60]")
        case .enumeration(let values): return JSONText(values.values.first ?? .null)
        case .array: return .array([])
        case .object(let fields):
            return .object(fields.filter(\.isRequired).map { .init(key: $0.name, value: sample($0)) })
        case .map: return .object([])
        }
    }

    /// A value of a type the field does not take.
    static func wrongValue(for field: Field) -> JSONText {
        switch field.type {
        case .string, .url, .enumeration(.strings): .literal("12")
        default: .string("wrong")
        }
    }

    private static func clamped(_ value: Double, _ field: Field) -> Double {
        var result = value
        if let minimum = field.constraints.minimum { result = max(result, minimum) }
        if let maximum = field.constraints.maximum { result = min(result, maximum) }
        if case .int = field.type { result = result.rounded(.up) }
        return result
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
