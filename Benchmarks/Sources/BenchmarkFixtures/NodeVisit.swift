import Foundation
import LiveState

/// Reads every value of a view's tree through its nodes, making each string, as an app that
/// shows the whole state would.
public enum NodeVisit {
    /// The sum of every string's UTF-8 length, every integer and every bool, and the number of
    /// doubles, dates and nulls: a figure that depends on every value read.
    /// - Parameter node: The node to start from, usually `DecodeResult.root`.
    public static func checksum(_ node: DecodeResult.Node) -> Int {
        switch node.kind {
        case .string: node.string?.utf8.count ?? 0
        case .int: node.int ?? node.uint64.map { Int(truncatingIfNeeded: $0) } ?? 0
        case .bool: node.bool == true ? 1 : 0
        case .null, .double, .date, .dateRange: 1
        case .array: (0..<node.count).reduce(0) { $0 &+ (node[$1].map(checksum) ?? 0) }
        case .object: node.names.reduce(0) { $0 &+ (node[$1].map(checksum) ?? 0) }
        }
    }

    /// The same sum over a `Value`, to check the nodes against.
    public static func checksum(_ value: Value) -> Int {
        switch value {
        case .string(let string): string.utf8.count
        case .int(let int): int
        case .uint(let uint): Int(truncatingIfNeeded: uint)
        case .bool(let bool): bool ? 1 : 0
        case .null, .double, .date, .dateRange: 1
        case .array(let elements): elements.reduce(0) { $0 &+ checksum($1) }
        case .object(let members): members.reduce(0) { $0 &+ checksum($1.value) }
        }
    }
}
