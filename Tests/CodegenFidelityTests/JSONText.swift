import Foundation
import LiveState

/// A JSON document the tests can take apart and write back byte for byte, including what
/// `Value` cannot hold: number spellings (`2.0`, `0e1`, `1e400`), duplicate keys, raw escapes.
indirect enum JSONText: Sendable, Hashable {
    /// Raw JSON text written as is: a number, `true`, `false`, `null`, or any literal.
    case literal(String)
    case string(String)
    case array([JSONText])
    case object([Member])

    struct Member: Sendable, Hashable {
        var key: String
        var value: JSONText
        /// The key as written, when it is not `key` quoted plainly (`"\u0061ge"` for `age`).
        var rawKey: String? = nil
    }

    static let null = JSONText.literal("null")

    static func number(_ text: String) -> JSONText { .literal(text) }

    /// Parses JSON text; `nil` when LiveState's strict scanner refuses it.
    static func parse(_ data: Data) -> JSONText? {
        let value: Value? = try? Value.parse(json: data)
        return value.map(JSONText.init)
    }

    init(_ value: Value) {
        switch value {
        case .null: self = .null
        case .bool(let bool): self = .literal(bool ? "true" : "false")
        case .int(let int): self = .literal(String(int))
        case .uint(let uint): self = .literal(String(uint))
        case .double(let double), .date(let double): self = .literal(String(double))
        case .string(let string): self = .string(string)
        case .dateRange(let lower, let upper): self = .array([.literal(String(lower)), .literal(String(upper))])
        case .array(let elements): self = .array(elements.map(JSONText.init))
        case .object(let members): self = .object(members.map { Member(key: $0.name, value: JSONText($0.value)) })
        }
    }

    /// Compact JSON text.
    var text: String {
        switch self {
        case .literal(let raw): raw
        case .string(let string): Self.quoted(string)
        case .array(let elements): "[" + elements.map(\.text).joined(separator: ",") + "]"
        case .object(let members): "{" + members.map { ($0.rawKey ?? Self.quoted($0.key)) + ":" + $0.value.text }.joined(separator: ",") + "}"
        }
    }

    var data: Data { Data(text.utf8) }

    static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default:
                if scalar.value < 0x20 {
                    result += String(format: "\\u%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// The member `key` of an object.
    subscript(key: String) -> JSONText? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// One step into a JSON document: an object's key or an array's index.
enum JSONStep: Sendable, Hashable, CustomStringConvertible {
    case key(String)
    case index(Int)

    var description: String {
        switch self {
        case .key(let key): "/" + key
        case .index(let index): "/\(index)"
        }
    }
}

extension JSONText {
    /// The document with the value at `path` replaced (`nil` removes it); missing objects on
    /// the way are created. `nil` when the path runs through something that is not a container.
    func setting(_ path: some Collection<JSONStep>, to newValue: JSONText?) -> JSONText? {
        guard let step = path.first else { return newValue }
        let rest = path.dropFirst()
        switch (self, step) {
        case (.object(var members), .key(let key)):
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let replaced = members[index].value.setting(rest, to: newValue) {
                    members[index].value = replaced
                } else if rest.isEmpty {
                    members.remove(at: index)
                } else {
                    return nil
                }
            } else if let newValue {
                guard let created = JSONText.object([]).setting(rest, to: newValue) else { return nil }
                members.append(Member(key: key, value: rest.isEmpty ? newValue : created))
            }
            return .object(members)
        case (.array(var elements), .index(let index)):
            guard elements.indices.contains(index) else { return nil }
            if let replaced = elements[index].setting(rest, to: newValue) {
                elements[index] = replaced
            } else if rest.isEmpty {
                elements.remove(at: index)
            } else {
                return nil
            }
            return .array(elements)
        default:
            return nil
        }
    }

    /// The value at `path`.
    func value(at path: some Collection<JSONStep>) -> JSONText? {
        guard let step = path.first else { return self }
        switch (self, step) {
        case (.object(let members), .key(let key)):
            return members.first { $0.key == key }?.value.value(at: path.dropFirst())
        case (.array(let elements), .index(let index)):
            return elements.indices.contains(index) ? elements[index].value(at: path.dropFirst()) : nil
        default:
            return nil
        }
    }

    /// The object at `path` with its members rewritten by `change`.
    func rewritingObject(at path: some Collection<JSONStep>, _ change: ([Member]) -> [Member]) -> JSONText? {
        guard case .object(let members) = value(at: path) else { return nil }
        return setting(path, to: .object(change(members)))
    }
}
