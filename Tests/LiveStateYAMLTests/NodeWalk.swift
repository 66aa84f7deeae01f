import Foundation
import LiveState

/// Walks a `DecodeResult` node tree into a `Value`, checking every accessor on the way: a
/// kind's own accessor answers and no other does, containers answer only as what they are, and
/// each node's `value` is the tree read. A broken check comes back as a string naming it, so a
/// comparison with the full decode fails with the reason. (The fuzz harness checks the same on
/// every FuzzDecode input.)
enum NodeWalk {
    static func walk(_ node: DecodeResult.Node) -> Value {
        let kind = node.kind
        guard (node.bool != nil) == (kind == .bool), (node.int != nil) == (kind == .int),
              (node.double != nil) == (kind == .double), (node.string != nil) == (kind == .string),
              (node.date != nil) == (kind == .date), (node.dateRange != nil) == (kind == .dateRange),
              node.isNull == (kind == .null) else { return .string("node check: an accessor of another kind answers") }
        guard kind == .array || node[0] == nil, kind == .object || (node.names.isEmpty && node["title"] == nil),
              kind == .array || kind == .object || node.count == 0
        else { return .string("node check: a \(kind) answers as a container") }
        let value: Value
        switch kind {
        case .null: value = .null
        case .bool: value = node.bool.map(Value.bool) ?? .null
        case .int: value = node.int.map(Value.int) ?? .null
        case .double: value = node.double.map(Value.double) ?? .null
        case .string: value = node.string.map(Value.string) ?? .null
        case .date: value = node.date.map { .date($0.timeIntervalSinceReferenceDate) } ?? .null
        case .dateRange:
            guard let range = node.dateRange else { return .null }
            value = .dateRange(lower: range.lowerBound.timeIntervalSinceReferenceDate, upper: range.upperBound.timeIntervalSinceReferenceDate)
        case .array:
            guard node[-1] == nil, node[node.count] == nil else { return .string("node check: an element out of range") }
            value = .array((0..<node.count).map { node[$0].map(walk) ?? .string("node check: a missing element") })
        case .object:
            guard node.count == node.names.count, node["no such field"] == nil
            else { return .string("node check: a member count or name that is not there") }
            value = .object(node.names.map { Value.Member($0, node[$0].map(walk) ?? .string("node check: a missing member")) })
        }
        return node.value == value ? value : .string("node check: value is not the tree read")
    }
}
