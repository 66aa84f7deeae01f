import Foundation

/// An `Encoder` that turns any `Encodable` value into an untyped `Value` tree: objects keep the
/// order their keys were encoded in, `Date` becomes seconds since 2001-01-01, `URL` its string.
///
/// The tree is then checked and completed against a schema version by `ContentStateEncoder`.
enum ValueEncoder {
    static func encode<T: Encodable>(_ value: T) throws -> Value {
        let root = Node()
        try encode(value, into: root, codingPath: [])
        return root.value
    }

    /// Encodes `value` into `node`, with the special cases for `Date` and `URL`.
    static func encode<T: Encodable>(_ value: T, into node: Node, codingPath: [any CodingKey]) throws {
        if let date = value as? Date {
            node.content = .scalar(.date(date.timeIntervalSinceReferenceDate))
            return
        }
        if let url = value as? URL {
            node.content = .scalar(.string(url.absoluteString))
            return
        }
        try value.encode(to: TreeEncoder(node: node, codingPath: codingPath))
    }

    /// A value being built: a scalar, or a container whose children are still being encoded.
    final class Node {
        enum Content {
            case empty
            case scalar(Value)
            case array([Node])
            case object([(String, Node)])
        }

        var content: Content = .empty

        var value: Value {
            switch content {
            case .empty: return .object([])
            case .scalar(let value): return value
            case .array(let nodes): return .array(nodes.map(\.value))
            case .object(let members): return .object(members.map { .init($0.0, $0.1.value) })
            }
        }

        func child(forKey key: String) -> Node {
            var members: [(String, Node)] = []
            if case .object(let existing) = content { members = existing }
            if let found = members.first(where: { $0.0 == key }) { return found.1 }
            let node = Node()
            members.append((key, node))
            content = .object(members)
            return node
        }

        func appendChild() -> Node {
            var nodes: [Node] = []
            if case .array(let existing) = content { nodes = existing }
            let node = Node()
            nodes.append(node)
            content = .array(nodes)
            return node
        }

        func becomeObject() {
            if case .object = content { return }
            content = .object([])
        }

        func becomeArray() {
            if case .array = content { return }
            content = .array([])
        }
    }

    struct TreeEncoder: Encoder {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            node.becomeObject()
            return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            node.becomeArray()
            return UnkeyedContainer(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleContainer(node: node, codingPath: codingPath)
        }
    }

    struct IndexKey: CodingKey {
        var stringValue: String { String(intValue ?? 0) }
        var intValue: Int?
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) { node.child(forKey: key.stringValue).content = .scalar(.null) }
        mutating func encode(_ value: Bool, forKey key: Key) { node.child(forKey: key.stringValue).content = .scalar(.bool(value)) }
        mutating func encode(_ value: String, forKey key: Key) { node.child(forKey: key.stringValue).content = .scalar(.string(value)) }
        mutating func encode(_ value: Double, forKey key: Key) { node.child(forKey: key.stringValue).content = .scalar(.double(value)) }
        mutating func encode(_ value: Int, forKey key: Key) { node.child(forKey: key.stringValue).content = .scalar(.int(value)) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try ValueEncoder.encode(value, into: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let child = node.child(forKey: key.stringValue)
            child.becomeObject()
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = node.child(forKey: key.stringValue)
            child.becomeArray()
            return UnkeyedContainer(node: child, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.child(forKey: "super"), codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { TreeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key]) }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int {
            if case .array(let nodes) = node.content { return nodes.count }
            return 0
        }

        mutating func encodeNil() { node.appendChild().content = .scalar(.null) }
        mutating func encode(_ value: Bool) { node.appendChild().content = .scalar(.bool(value)) }
        mutating func encode(_ value: String) { node.appendChild().content = .scalar(.string(value)) }
        mutating func encode(_ value: Double) { node.appendChild().content = .scalar(.double(value)) }
        mutating func encode(_ value: Int) { node.appendChild().content = .scalar(.int(value)) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            let index = count
            try ValueEncoder.encode(value, into: node.appendChild(), codingPath: codingPath + [IndexKey(index)])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let child = node.appendChild()
            child.becomeObject()
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = node.appendChild()
            child.becomeArray()
            return UnkeyedContainer(node: child, codingPath: codingPath)
        }

        mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.appendChild(), codingPath: codingPath) }
    }

    struct SingleContainer: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil() { node.content = .scalar(.null) }
        mutating func encode(_ value: Bool) { node.content = .scalar(.bool(value)) }
        mutating func encode(_ value: String) { node.content = .scalar(.string(value)) }
        mutating func encode(_ value: Double) { node.content = .scalar(.double(value)) }
        mutating func encode(_ value: Float) { node.content = .scalar(.double(Double(value))) }
        mutating func encode(_ value: Int) { node.content = .scalar(.int(value)) }
        mutating func encode(_ value: Int8) { node.content = .scalar(.int(Int(value))) }
        mutating func encode(_ value: Int16) { node.content = .scalar(.int(Int(value))) }
        mutating func encode(_ value: Int32) { node.content = .scalar(.int(Int(value))) }
        mutating func encode(_ value: Int64) { node.content = .scalar(.int(Int(value))) }
        mutating func encode(_ value: UInt8) { node.content = .scalar(.int(Int(value))) }
        mutating func encode(_ value: UInt16) { node.content = .scalar(.int(Int(value))) }
        mutating func encode(_ value: UInt32) { node.content = .scalar(.int(Int(value))) }

        mutating func encode(_ value: UInt) throws { try encodeUnsigned(UInt64(value)) }
        mutating func encode(_ value: UInt64) throws { try encodeUnsigned(value) }

        private mutating func encodeUnsigned(_ value: UInt64) throws {
            guard let int = Int(exactly: value) else {
                throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) does not fit Int"))
            }
            node.content = .scalar(.int(int))
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try ValueEncoder.encode(value, into: node, codingPath: codingPath)
        }
    }
}
