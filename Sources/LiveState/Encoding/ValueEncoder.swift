import Foundation

/// An `Encoder` that turns any `Encodable` value into an untyped `Value` tree: objects keep the
/// order their keys were encoded in, `Date` becomes seconds since 2001-01-01, `URL` its string,
/// `Decimal` a number.
///
/// The tree is then checked and completed against a schema version by `ContentStateEncoder`.
enum ValueEncoder {
    static func encode<T: Encodable>(_ value: T) throws -> Value {
        let root = Node()
        try encode(value, into: root, path: CodingPath(base: [], last: nil))
        return root.value
    }

    /// Encodes `value` into `node`, with the special cases for `Date`, `URL`, `Data` (base64)
    /// and `Decimal` (a number).
    static func encode<T: Encodable>(_ value: T, into node: Node, codingPath: [any CodingKey]) throws {
        try encode(value, into: node, path: CodingPath(base: codingPath, last: nil))
    }

    static func encode<T: Encodable>(_ value: T, into node: Node, path: CodingPath) throws {
        // Type comparisons, not casts: a cast of an unspecialized value is a runtime call.
        if T.self == Date.self {
            node.setScalar(.date((value as! Date).timeIntervalSinceReferenceDate))
            return
        }
        if T.self == URL.self {
            node.setScalar(.string((value as! URL).absoluteString))
            return
        }
        if T.self == Data.self {
            // JSONEncoder's default `.base64` strategy.
            node.setScalar(.string((value as! Data).base64EncodedString()))
            return
        }
        if T.self == Decimal.self {
            // A number, as JSONEncoder writes a `Decimal` (its own `Encodable` is an object of
            // its parts), held as a `Double`: refused when the `Double` does not hold it, as
            // the encoder refuses such a number given as text.
            let decimal = value as! Decimal
            guard !decimal.isNaN else {
                throw EncodingError.invalidValue(decimal, .init(
                    codingPath: path.keys, debugDescription: "Decimal.nan is no number JSON can hold (JSONEncoder writes NaN, which no JSON reader reads)"))
            }
            let written = decimal.description
            let double = Double(written) ?? .nan
            let kept = Value.double(double).decimalValue
            guard kept == decimal else {
                throw EncodingError.invalidValue(decimal, .init(
                    codingPath: path.keys, debugDescription: ContentStateEncoder.decimalNotKept(written, kept: kept ?? .nan)))
            }
            node.setScalar(.double(double))
            return
        }
        try value.encode(to: TreeEncoder(node: node, path: path))
    }

    /// A coding path made into an array only when someone asks for it: most values never do.
    struct CodingPath {
        var base: [any CodingKey]
        var last: (any CodingKey)?

        var keys: [any CodingKey] {
            guard let last else { return base }
            return base + [last]
        }

        func appending(_ key: any CodingKey) -> CodingPath {
            CodingPath(base: keys, last: key)
        }
    }

    /// A value being built: a scalar, or a container whose children are still being encoded.
    /// A member or element set to a scalar keeps it inline, without a node of its own.
    final class Node {
        enum Kind {
            case empty, scalar, array, object
        }

        /// One member or element: a finished scalar, or a node still being encoded.
        struct Child {
            var value: Value
            var node: Node?

            var finished: Value { node?.value ?? value }
        }

        var kind = Kind.empty
        var scalar = Value.null
        var keys: [String] = []
        var children: [Child] = []

        var value: Value {
            switch kind {
            case .empty: return .object([])
            case .scalar: return scalar
            case .array: return .array(children.map(\.finished))
            case .object:
                var members: [Value.Member] = []
                members.reserveCapacity(keys.count)
                for index in keys.indices { members.append(.init(keys[index], children[index].finished)) }
                return .object(members)
            }
        }

        func setScalar(_ value: Value) {
            kind = .scalar
            scalar = value
            keys = []
            children = []
        }

        /// Whether a key that is not plain ASCII was added: then keys are also compared the
        /// way `==` does (canonical equivalence), not only byte for byte.
        private var hasNonASCIIKey = false

        /// The position of `key`, added when new; re-encoding a key replaces its value.
        private func slot(forKey key: String) -> Int {
            becomeObject()
            // Byte for byte first, with the O(1) length as a filter: cheap, and exact for
            // ASCII keys, which `==` equates only when their bytes are the same.
            let length = key.utf8.count
            for index in keys.indices where keys[index].utf8.count == length && keys[index].utf8.elementsEqual(key.utf8) {
                return index
            }
            let isASCII = key.isASCII
            if hasNonASCIIKey || !isASCII, let index = keys.firstIndex(of: key) { return index }
            if !isASCII { hasNonASCIIKey = true }
            keys.append(key)
            children.append(Child(value: .null, node: nil))
            return keys.count - 1
        }

        func set(_ value: Value, forKey key: String) {
            children[slot(forKey: key)] = Child(value: value, node: nil)
        }

        func child(forKey key: String) -> Node {
            let index = slot(forKey: key)
            if let node = children[index].node { return node }
            let node = Node()
            children[index] = Child(value: .null, node: node)
            return node
        }

        func append(_ value: Value) {
            becomeArray()
            children.append(Child(value: value, node: nil))
        }

        func appendChild() -> Node {
            becomeArray()
            let node = Node()
            children.append(Child(value: .null, node: node))
            return node
        }

        func becomeObject() {
            if kind == .object { return }
            kind = .object
            keys = []
            children = []
            hasNonASCIIKey = false
        }

        func becomeArray() {
            if kind == .array { return }
            kind = .array
            keys = []
            children = []
        }
    }

    struct TreeEncoder: Encoder {
        let node: Node
        let path: CodingPath
        var codingPath: [any CodingKey] { path.keys }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            node.becomeObject()
            return KeyedEncodingContainer(KeyedContainer<Key>(node: node, path: path))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            node.becomeArray()
            return UnkeyedContainer(node: node, path: path)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleContainer(node: node, path: path)
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let path: CodingPath
        var codingPath: [any CodingKey] { path.keys }

        mutating func encodeNil(forKey key: Key) { node.set(.null, forKey: key.stringValue) }
        mutating func encode(_ value: Bool, forKey key: Key) { node.set(.bool(value), forKey: key.stringValue) }
        mutating func encode(_ value: String, forKey key: Key) { node.set(.string(value), forKey: key.stringValue) }
        mutating func encode(_ value: Double, forKey key: Key) { node.set(.double(value), forKey: key.stringValue) }
        mutating func encode(_ value: Int, forKey key: Key) { node.set(.int(value), forKey: key.stringValue) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try ValueEncoder.encode(value, into: node.child(forKey: key.stringValue), path: path.appending(key))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let child = node.child(forKey: key.stringValue)
            child.becomeObject()
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, path: path.appending(key)))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = node.child(forKey: key.stringValue)
            child.becomeArray()
            return UnkeyedContainer(node: child, path: path.appending(key))
        }

        mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.child(forKey: "super"), path: path) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { TreeEncoder(node: node.child(forKey: key.stringValue), path: path.appending(key)) }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        let path: CodingPath
        var codingPath: [any CodingKey] { path.keys }
        var count: Int { node.kind == .array ? node.children.count : 0 }

        mutating func encodeNil() { node.append(.null) }
        mutating func encode(_ value: Bool) { node.append(.bool(value)) }
        mutating func encode(_ value: String) { node.append(.string(value)) }
        mutating func encode(_ value: Double) { node.append(.double(value)) }
        mutating func encode(_ value: Int) { node.append(.int(value)) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            // `Array.encode(to:)` sends every element here, `String`s included: keep those
            // inline rather than making a node and a single-value container for each.
            if let string = value as? String {
                node.append(.string(string))
                return
            }
            let index = count
            try ValueEncoder.encode(value, into: node.appendChild(), path: path.appending(StateKey.index(index)))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let child = node.appendChild()
            child.becomeObject()
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, path: path))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = node.appendChild()
            child.becomeArray()
            return UnkeyedContainer(node: child, path: path)
        }

        mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.appendChild(), path: path) }
    }

    struct SingleContainer: SingleValueEncodingContainer {
        let node: Node
        let path: CodingPath
        var codingPath: [any CodingKey] { path.keys }

        mutating func encodeNil() { node.setScalar(.null) }
        mutating func encode(_ value: Bool) { node.setScalar(.bool(value)) }
        mutating func encode(_ value: String) { node.setScalar(.string(value)) }
        mutating func encode(_ value: Double) { node.setScalar(.double(value)) }
        mutating func encode(_ value: Float) { node.setScalar(.double(Double(value))) }
        mutating func encode(_ value: Int) { node.setScalar(.int(value)) }
        mutating func encode(_ value: Int8) { node.setScalar(.int(Int(value))) }
        mutating func encode(_ value: Int16) { node.setScalar(.int(Int(value))) }
        mutating func encode(_ value: Int32) { node.setScalar(.int(Int(value))) }
        mutating func encode(_ value: Int64) { node.setScalar(.int(Int(value))) }
        mutating func encode(_ value: UInt8) { node.setScalar(.int(Int(value))) }
        mutating func encode(_ value: UInt16) { node.setScalar(.int(Int(value))) }
        mutating func encode(_ value: UInt32) { node.setScalar(.int(Int(value))) }

        mutating func encode(_ value: UInt) throws { try encodeUnsigned(UInt64(value)) }
        mutating func encode(_ value: UInt64) throws { try encodeUnsigned(value) }

        /// An integer above `Int.max` is `Value.uint`, which only a `format: uint64` field takes.
        private mutating func encodeUnsigned(_ value: UInt64) throws {
            node.setScalar(Int(exactly: value).map(Value.int) ?? .uint(value))
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try ValueEncoder.encode(value, into: node, path: path)
        }
    }
}
